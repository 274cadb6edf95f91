"""Test code reaches the kernel only after every learner cell has run, in the grader and in the self-check.

An assignment whose second answer cell sits *between* two test cells (the bank's
notebooks put every answer above the tests; a course may not): the learner's
second cell is a probe that looks at everything it can see of the tests. It
reads IPython's input history (``In``: every cell sent so far), the names the
first test bound, and the inputs the first answer was called with. Its answer
is right only if it saw none of them. The real grader (nbgrader, sandboxed
kernel, gradebook) and the learner's self-check must both give it full marks:
each runs every learner cell first, then the test cells, whose outputs land in
their own places.
"""

import os

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.grade import autograde
from autograder.pipeline.learner_code import grading_order, cells_of_test_code
from synthetic_course import make_course, read, scores, student_notebook, write_submission


def _meta(grade_id, solution=False, grade=False, points=None):
    meta = {"grade_id": grade_id, "locked": not solution, "solution": solution, "grade": grade,
            "schema_version": 3}
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


SOURCE_CELLS = [
    new_markdown_cell("# Two answers, tests between them", metadata=_meta("intro")),
    new_code_cell("import torch", metadata=_meta("imports")),
    new_code_cell("def make_copy(t):\n    ### BEGIN SOLUTION\n    return t.detach().clone()\n"
                  "    ### END SOLUTION", metadata=_meta("first_answer", solution=True)),
    new_code_cell("a = torch.ones(3, requires_grad=True)\nassert torch.equal(make_copy(a), a.detach())\n"
                  "### BEGIN HIDDEN TESTS\nHIDDEN_INPUT = torch.arange(4.0)\n"
                  "assert torch.equal(make_copy(HIDDEN_INPUT), HIDDEN_INPUT)\n### END HIDDEN TESTS",
                  metadata=_meta("test_first", grade=True, points=1)),
    new_code_cell("def late_answer():\n    ### BEGIN SOLUTION\n    return 2\n    ### END SOLUTION",
                  metadata=_meta("second_answer", solution=True)),
    new_code_cell("assert late_answer() == 2", metadata=_meta("test_second", grade=True, points=1)),
    new_code_cell("from autograder import self_check\nself_check()", metadata=_meta("self_check")),
]

RECORDING_ANSWER = ("CALLS = []\n\n\ndef make_copy(t):\n    CALLS.append(t)\n"
                    "    return t.detach().clone()\n")
# Right (2) only when it saw nothing of the tests. "torch." + "equal" is in the test's text, not in its own.
PROBE = ("seen = [text for text in In if 'torch.' + 'equal' in text]\n"
         "names = [name for name in ('a', 'HIDDEN_INPUT') if name in globals()]\n"
         "print('PROBE', len(seen), names, len(CALLS))\n\n\n"
         "def late_answer(saw=(len(seen), len(names), len(CALLS))):   # what it saw when it ran\n"
         "    return 2 if saw == (0, 0, 0) else 3\n")


@pytest.fixture(scope="module")
def course(tmp_path_factory, needs_sandbox):
    source = tmp_path_factory.mktemp("order-source") / "between"
    source.mkdir()
    nbformat.write(new_notebook(cells=SOURCE_CELLS, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}),
        str(source / "between.ipynb"))
    return make_course(str(tmp_path_factory.mktemp("order-course")), {"between": str(source)})


def _probe_notebook(config):
    return student_notebook(config, "between", replace={"first_answer": RECORDING_ANSWER,
                                                        "second_answer": PROBE})


def test_the_test_cells_and_the_checks_after_them_are_sent_last(course):
    nb = read(course, "exercises", "between")
    ids = [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in nb.cells]
    assert [ids[i] for i in cells_of_test_code(nb)] == ["test_first", "test_second", "self_check"]
    assert [ids[i] for i in grading_order(nb)] == ["imports", "first_answer", "second_answer",
                                                   "test_first", "test_second", "self_check"]


def test_the_bank_sends_its_check_imports_after_every_answer():
    """In every real assignment, the cell importing the checks is test code too: a learner cell
    never gets the check functions (and with them the hidden batteries) to call."""
    from synthetic_course import REPO, real_assignments

    for assignment in real_assignments():
        nb = nbformat.read(os.path.join(REPO, "exercises", assignment, assignment + ".ipynb"), 4)
        order = grading_order(nb)
        late = set(cells_of_test_code(nb))
        checks = [i for i, c in enumerate(nb.cells) if "autograder.checks" in c.source and c.cell_type == "code"]
        assert checks and set(checks) <= late, assignment
        first_late = min(order.index(i) for i in late)
        assert all(order.index(i) < first_late for i in order if i not in late), assignment


def test_the_grader_runs_a_learner_cell_below_a_test_before_any_test_code(course, grading_cluster):
    config = course
    folder = os.path.join(config.CourseDirectory.root, "autograder", "state", "submitted")
    write_submission(os.path.join(folder, "prober", "between"), _probe_notebook(config), "between.ipynb")
    honest = student_notebook(config, "between", solved="all")
    write_submission(os.path.join(folder, "honest", "between"), honest, "between.ipynb")
    run = autograde(config, "between", ["honest", "prober"], workers=1, progress=False, scheduler=grading_cluster)
    assert not run.failed, run.failed
    table = scores(config, "between")
    assert table["honest"] == {"test_first": 1, "test_second": 1}
    graded = nbformat.read(os.path.join(config.CourseDirectory.root, "autograder", "state", "autograded",
                                        "prober", "between", "between.ipynb"), 4)
    printed = "".join(o.get("text", "") for c in graded.cells for o in c.get("outputs", []))
    assert "PROBE 0 [] 0" in printed, ("the learner's cell saw test code, a test's names or its inputs: "
                                       + printed)
    assert table["prober"] == {"test_first": 1, "test_second": 1}


def test_the_self_check_runs_it_in_the_same_order(course, tmp_path):
    from autograder.learner.learner_check import check

    path = tmp_path / "between.ipynb"
    nbformat.write(_probe_notebook(course), str(path))
    release = os.path.join(course.CourseDirectory.root, "exercises", "between", "between.ipynb")
    result = check(str(path), release=release)
    assert {t.grade_id: t.points for t in result.tests} == {"test_first": 1, "test_second": 1}, result.format()
