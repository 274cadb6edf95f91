"""``python -m autograder check`` never runs a student's code with the instructor's rights.

A student's notebook (correct, plus a line that writes a file outside its
folder, as any code could: the marker stands for the gradebook or the term's
configuration) is checked through the command line:

* where a sandbox exists (root and bubblewrap, as for grading) the kernel runs
  in it: the score is the same, the marker is never written; asked for
  ``--unsandboxed``, the same notebook writes it, with a warning;
* where none exists (here: bubblewrap not on PATH) the check refuses a
  notebook that is visibly someone else's (another user's file, a collected
  submission, one in the course-state folder) and runs nothing; the caller's
  own notebook is still checked, as a learner's is.
"""

import os
import shutil
import subprocess
import sys

import pytest

from synthetic_course import FIXTURES, make_course, student_notebook, write_submission


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("checked"))
    return make_course(root, {"fixture": os.path.join(FIXTURES, "fixture")}), root


def writer(config, marker):
    answer = ("import os\ntry:\n    open(%r, 'w').write('written by the checked notebook')\n"
              "except OSError:\n    pass\ndef make_copy(t):\n    return t.detach().clone()" % marker)
    return student_notebook(config, "fixture", replace={"make_copy": answer})


def check_cli(root, path, *options, env=None):
    return subprocess.run([sys.executable, "-m", "autograder", "--root", root, "check", path] + list(options),
                          capture_output=True, text=True, timeout=600, env=env)


def test_check_runs_someone_elses_notebook_in_the_sandbox_and_it_cannot_write_outside(course, tmp_path,
                                                                                     needs_sandbox):
    config, root = course
    marker = str(tmp_path / "written")
    path = write_submission(str(tmp_path / "from_a_student"), writer(config, marker), "fixture.ipynb")
    sandboxed = check_cli(root, path)
    assert "Score: 5/5  (all tests pass)" in sandboxed.stdout, sandboxed.stdout + sandboxed.stderr
    assert not os.path.exists(marker), "check ran a student's code with the instructor's rights"
    assert "without a sandbox" not in sandboxed.stderr
    trusted = check_cli(root, path, "--unsandboxed")
    assert "Score: 5/5  (all tests pass)" in trusted.stdout, trusted.stdout + trusted.stderr
    assert os.path.exists(marker)  # the same notebook, run with the caller's rights, writes it
    assert "warning: checking %s without a sandbox" % path in trusted.stderr


def _without_bubblewrap():
    """The environment of a machine with no bubblewrap on PATH (only this Python's own bin/)."""
    return dict(os.environ, PATH=os.path.dirname(sys.executable))


def test_without_a_sandbox_check_refuses_someone_elses_notebook_and_runs_nothing(course, tmp_path):
    config, root = course
    marker = str(tmp_path / "written")
    nb = writer(config, marker)
    others = tmp_path / "other_user"
    other = write_submission(str(others), nb, "fixture.ipynb")
    os.chown(other, 65534, 65534)
    collected = write_submission(str(tmp_path / "collected"), nb, "fixture.ipynb")
    (tmp_path / "collected" / "timestamp.txt").write_text("2025-03-01 12:00:00.000000 UTC")
    in_state = write_submission(os.path.join(root, "autograder", "state", "autograded", "eve", "fixture"),
                                nb, "fixture.ipynb")
    for path, why in ((other, "the file belongs to another user (uid 65534)"),
                      (collected, "it is a collected submission"),
                      (in_state, "it is in the course-state folder")):
        refused = check_cli(root, path, env=_without_bubblewrap())
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert "looks like someone else's work (%s" % why in refused.stderr, refused.stderr
        assert "bubblewrap (`bwrap`) is not installed" in refused.stderr
        assert not os.path.exists(marker), path
    shutil.rmtree(os.path.join(root, "autograder", "state", "autograded", "eve"))


def test_without_a_sandbox_check_still_runs_the_callers_own_notebook(course, tmp_path):
    config, root = course
    own = write_submission(str(tmp_path / "mine"), student_notebook(config, "fixture", solved="all"),
                           "fixture.ipynb")
    result = check_cli(root, own, env=_without_bubblewrap())
    assert result.returncode == 0 and "Score: 5/5  (all tests pass)" in result.stdout, \
        result.stdout + result.stderr
    assert "warning" not in result.stderr
