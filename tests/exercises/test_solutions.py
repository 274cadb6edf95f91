"""Real nbgrader, real kernels, real gradebook: the solutions score full marks, the release scores 0.

One temporary course holds every assignment. For each, two "students" submit:
``solution`` hands in the instructor's source notebook, ``untouched`` hands in
the committed student notebook from exercises/ without changing a thing.
nbgrader autogrades both into a SQLite gradebook and the tests read the scores
back from it, test cell by test cell.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest

from nbgrader_course import ASSIGNMENTS, EXERCISES, SELF_CHECK_TAG, SOLUTIONS, TempCourse, read_notebook
from stored import stored_notebook


def stored_release(assignment):
    nb = stored_notebook(EXERCISES / assignment / f"{assignment}.ipynb")
    nb.cells = [c for c in nb.cells if SELF_CHECK_TAG not in c.metadata.get("tags", [])]
    return nb


def _grade(root, assignment):
    """One course (and gradebook) per assignment, so that two can be graded at once."""
    course = TempCourse(root, assignments=(assignment,))
    course.generate(assignment)
    course.submit("solution", assignment, read_notebook(SOLUTIONS / assignment / f"{assignment}.ipynb"))
    # git's copy of the release: a learner may have solved the one on disk.
    course.submit("untouched", assignment, stored_release(assignment))
    course.autograde_in_subprocess(assignment)
    return course


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    roots = [tmp_path_factory.mktemp(f"course-{a}") for a in ASSIGNMENTS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        courses = list(pool.map(_grade, roots, ASSIGNMENTS))
    return dict(zip(ASSIGNMENTS, courses))


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_solution_scores_full_marks(graded, assignment):
    scores = graded[assignment].scores(assignment, "solution")
    assert scores, f"{assignment}: nbgrader found no graded cell"
    lost = {grade_id: s for grade_id, s in scores.items() if s[0] != s[1]}
    assert not lost, f"{assignment}: the solution loses points on {lost}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_untouched_release_scores_zero(graded, assignment):
    scores = graded[assignment].scores(assignment, "untouched")
    assert scores, f"{assignment}: nbgrader found no graded cell"
    earned = {grade_id: s for grade_id, s in scores.items() if s[0] != 0}
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
