"""The learner's self-check: `python -m autograder check` and `self_check()` in a notebook.

Real runs only: each check starts a real kernel (nbclient) on a real notebook.
The self-check cell clicked in JupyterLab is test_autograder_self_check_in_lab.py.
"""

import os
import subprocess
import sys
import tempfile

import nbformat

from autograder.learner.learner_check import check
from synthetic_course import student_notebook, write_submission


def run_check(path, cwd=None):
    return subprocess.run([sys.executable, "-m", "autograder", "check", path],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def test_release_fails_with_nonzero_exit_and_names_each_test(fixture_course, tmp_path):
    path = write_submission(str(tmp_path), student_notebook(fixture_course, "fixture"), "fixture.ipynb")
    result = run_check(path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Score: 0/5" in result.stdout
    for test in ("test_values", "test_new_memory", "test_warning_is_not_an_error", "test_reftorch"):
        assert "FAIL  " + test in result.stdout
    assert "NotImplementedError" in result.stdout


def test_solved_notebook_passes_with_zero_exit_despite_a_torch_warning(fixture_course, tmp_path):
    # test_warning_is_not_an_error calls torch.tensor(t) on a tensor: torch warns on stderr,
    # which nbgrader would score 0; the self-check (like the grader) prints it on stdout.
    path = write_submission(str(tmp_path), student_notebook(fixture_course, "fixture", solved="all"),
                            "fixture.ipynb")
    result = run_check(path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Score: 5/5  (all tests pass)" in result.stdout


def test_partial_solution_reports_the_failing_message(fixture_course, tmp_path):
    wrong = {"make_copy": "def make_copy(t):\n    return t"}
    path = write_submission(str(tmp_path), student_notebook(fixture_course, "fixture", replace=wrong),
                            "fixture.ipynb")
    result = check(path)
    assert not result.all_passed
    assert (result.score, result.max_score) == (2, 5)
    assert "AssertionError: the copy must not require grad" in result.format()


def test_unreadable_and_missing_notebooks_get_a_clear_message(tmp_path):
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{ this is not json")
    result = check(str(broken))
    assert not result.all_passed
    assert "not a readable notebook" in result.format()
    result = check(str(tmp_path / "nowhere.ipynb"))
    assert not result.all_passed and "no such notebook" in result.format()


def test_self_check_is_a_one_line_no_op_while_grading(monkeypatch, capsys):
    from autograder import self_check

    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert self_check("does-not-exist.ipynb") is None
    assert capsys.readouterr().out.strip() == "self_check: skipped while the notebook is being graded"


def test_self_check_finds_the_only_notebook_in_the_folder(fixture_course, tmp_path, monkeypatch):
    from autograder.learner.self_check import _notebook_path

    write_submission(str(tmp_path), student_notebook(fixture_course, "fixture"), "mine.ipynb")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    assert _notebook_path(None) == "mine.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), str(tmp_path / "other.ipynb"))
    try:
        _notebook_path(None)
    except FileNotFoundError as error:
        assert "self_check('name.ipynb')" in str(error)
    else:
        raise AssertionError("two notebooks: self_check must ask which one")


def test_the_warm_self_check_without_a_sandbox_runs_the_notebook_as_the_caller(fixture_course, tmp_path):
    # A learner's server's self-check (warm=True) on a hub, not root: no sandbox, the learner's own
    # notebook in the learner's own process. It used to take the sandbox's warm kernels anyway,
    # which refuse to start without root ("grading needs a sandbox", Score: 0/0).
    import os

    nb = student_notebook(fixture_course, "fixture", solved="all")
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "make_copy":
            cell.source = "import os\nassert os.geteuid() == %d, 'not the caller\\'s own process'\n%s" % (
                os.geteuid(), cell.source)
    path = write_submission(str(tmp_path), nb, "fixture.ipynb")
    result = check(path, sandboxed=False, warm=True)
    assert (result.score, result.max_score) == (5, 5), result.format()
    assert not result.problems, result.format()


def test_a_check_leaves_no_kernel_folder_behind(fixture_course, tmp_path):
    """The kernel's empty starting folder is removed when the check ends (and its watchdog stopped):
    a term of self-checks must not fill the temporary folder."""
    path = write_submission(str(tmp_path), student_notebook(fixture_course, "fixture"), "fixture.ipynb")
    with tempfile.TemporaryDirectory(prefix="t") as temporary:   # short: a kernel's sockets live there
        result = subprocess.run([sys.executable, "-m", "autograder", "check", path], capture_output=True,
                                text=True, timeout=300, env=dict(os.environ, TMPDIR=temporary))
        assert "Score: 0/5" in result.stdout, result.stdout + result.stderr
        left = [name for name in os.listdir(temporary) if name.startswith("autograder-kernel-")]
        assert not left, left
