"""Real nbgrader, real kernels, real gradebook: the solutions score full marks, the release scores 0.

Both are read from the class graded once per session (``conftest.graded_class``: real
nbgrader with the course's configuration): each assignment's reference solution is the
student ``reference-<assignment>``, and its stub entry hands in git's copy of the committed
release, untouched (``graded_bank.student_notebook``). The tests read the scores back from
the gradebook, test cell by test cell. (Grading both a second time in a course of their
own, without the course's configuration, cost three minutes and proved nothing more:
the static rules never take points from the reference, which
``test_mutants`` checks, and the release is byte-identical to nbgrader's output, which
``test_release_drift`` checks.)
"""

import pytest

from exercise_mutants import ALL_TESTS, BANK
from graded_bank import outcome, reference_student
from nbgrader_course import ASSIGNMENTS, EXERCISES, SELF_CHECK_TAG, SOLUTIONS, read_notebook
from stored import stored_notebook


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_solution_scores_full_marks(graded_class, assignment):
    results, _ = outcome(graded_class, reference_student(assignment), assignment)
    assert set(results) == set(ALL_TESTS[assignment]), f"{assignment}: nbgrader found other graded cells"
    lost = {test: r[:2] for test, r in results.items() if r[0] != r[1] or r[1] <= 0}
    assert not lost, f"{assignment}: the solution loses points on {lost}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_untouched_release_scores_zero(graded_class, assignment):
    [stub] = [e for e in BANK if e.assignment == assignment and e.kind == "stub"]
    results, _ = outcome(graded_class, stub.name, assignment)
    assert set(results) == set(ALL_TESTS[assignment]), f"{assignment}: nbgrader found other graded cells"
    earned = {test: r[:2] for test, r in results.items() if r[0] != 0}
    assert not earned, f"{assignment}: an untouched notebook earns points on {earned}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_assignment_has_visible_and_hidden_tests(assignment):
    nb = read_notebook(SOLUTIONS / assignment / f"{assignment}.ipynb", drop_self_check=False)
    graded_cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert len(graded_cells) >= 3
    for cell in graded_cells:
        assert cell.metadata["nbgrader"]["points"] > 0
        visible = cell.source.split("### BEGIN HIDDEN TESTS")[0]
        assert "check_" in visible, f"{cell.metadata['nbgrader']['grade_id']} has no visible test"
    assert any("### BEGIN HIDDEN TESTS" in c.source for c in graded_cells), f"{assignment} has no hidden test"
    assert nb.metadata["kernelspec"]["name"] == "python3"
    last = nb.cells[-1]
    assert SELF_CHECK_TAG in last.metadata.get("tags", []) and "self_check()" in last.source
    assert not last.metadata["nbgrader"]["grade"] and last.metadata["nbgrader"]["locked"]


@pytest.mark.parametrize("folder", (SOLUTIONS, EXERCISES), ids=("solutions", "exercises"))
def test_notebooks_are_committed_without_outputs(folder):
    for assignment in ASSIGNMENTS:
        nb = stored_notebook(folder / assignment / f"{assignment}.ipynb")  # git's copy
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{assignment}: outputs left in"
