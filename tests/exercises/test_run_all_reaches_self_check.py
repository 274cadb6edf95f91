"""Run All reaches the self-check: a failing test cell (or a try-it cell calling an unwritten
function) does not stop the notebook, while the grader still scores it 0.

The generated exercises tag those cells ``raises-exception`` (set in solutions/, kept by
``python -m autograder generate``): JupyterLab then neither stops at their error nor lets the
kernel drop the cells queued after it, and nbclient runs on past them. Here each released
notebook, untouched (every test fails), runs top to bottom with nbclient as Run All would, in a
kernel that sees ``NBGRADER_EXECUTION`` so that the last cell only says it was reached. Each
notebook runs once for the module, in a kernel forked from the warm zygote (decision 0077).
"""

import pytest

from autograder.learner.learner_check import is_test_cell, score_test_cell
from coursebook.execution import execute_notebook
from nbgrader_course import ASSIGNMENTS, EXERCISES


@pytest.fixture(scope="module")
def unsolved_run(warm_kernel_manager):
    """``unsolved_run(assignment)``: the released notebook run top to bottom, once per module."""
    runs = {}

    def run(assignment):
        if assignment not in runs:
            with pytest.MonkeyPatch.context() as patch:  # the kernel gets the environment of its launch
                patch.setenv("NBGRADER_EXECUTION", "autograde")
                runs[assignment] = execute_notebook(EXERCISES / assignment / f"{assignment}.ipynb", timeout=300,
                                                   kernel_manager_class=warm_kernel_manager)
        return runs[assignment]

    return run


@pytest.mark.parametrize("assignment", ["clone", "detach"])
def test_run_all_of_an_unsolved_exercise_reaches_the_self_check_cell(assignment, unsolved_run):
    run = unsolved_run(assignment)
    assert run.error is None, f"Run All stopped: {run.error[-1500:]}"
    cells = run.notebook.cells
    tests = [c for c in cells if is_test_cell(c)]
    assert tests and all(score_test_cell(c)[0] == 0 for c in tests), "an unsolved test cell scored points"
    last = [c for c in cells if c.cell_type == "code"][-1]
    shown = "".join(o.get("text", "") for o in last.outputs)
    assert "self_check: skipped while the notebook is being graded" in shown, shown


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_cell_that_can_fail_for_an_unsolved_exercise_is_tagged(assignment):
    import nbformat

    nb = nbformat.read(str(EXERCISES / assignment / f"{assignment}.ipynb"), 4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        may_fail = is_test_cell(cell) or not meta
        assert ("raises-exception" in cell.metadata.get("tags", [])) == may_fail, (meta.get("grade_id"), cell.source[:60])


def test_a_failing_test_cell_shows_the_message_first_not_the_checks_frames(unsolved_run):
    run = unsolved_run("clone")
    first = next(c for c in run.notebook.cells if is_test_cell(c))
    error = next(o for o in first.outputs if o.output_type == "error")
    assert error.ename == "AssertionError"
    assert error.traceback[0].startswith("AssertionError: your my_contiguous_strides is not written yet")
    assert not any("File " in line or "autograder/checks" in line for line in error.traceback), error.traceback
