"""What an honest notebook finds inside its sandbox, warm (forked) or cold (fresh python).

One student whose solution cell looks around (uid, limits, folders, sys.path,
environment) and draws a matplotlib figure, graded with real nbgrader in both
kinds of kernel: full marks both times, the same view of the world, the figure
shown inline, and nothing on stderr (which would cost a graded cell its points).
"""

import json
import os

import nbformat
import pytest

from autograder.grade import autograde
from autograder.kernels.kernel_launch import KERNEL_UID
from synthetic_course import scores, student_notebook, write_submission

LOOK_AROUND = """\
import json, os, resource, sys
import matplotlib.pyplot as plt
plt.plot([1, 2, 3])
plt.show()
print("VIEW " + json.dumps({
    "uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(),
    "cwd": os.getcwd(), "files": sorted(os.listdir(".")), "home": os.environ.get("HOME"),
    "cwd_on_path": any(p in ("", ".") or os.path.abspath(p) == os.getcwd() for p in sys.path),
    "address_space": resource.getrlimit(resource.RLIMIT_AS)[0],
    "processes": resource.getrlimit(resource.RLIMIT_NPROC)[0],
    "file_size": resource.getrlimit(resource.RLIMIT_FSIZE)[0],
    "environment": sorted(os.environ)}))

def make_copy(t):
    return t.detach().clone()
"""


@pytest.fixture(scope="module", params=["warm", "cold"])
def looked(request, fixture_course):
    config = fixture_course
    student = "looks_%s" % request.param
    nb = student_notebook(config, "fixture", replace={"make_copy": LOOK_AROUND})
    write_submission(os.path.join(config.CourseDirectory.root, "autograder", "state", "submitted", student,
                                  "fixture"), nb, "fixture.ipynb")
    os.environ["GRADER_SECRET_TOKEN"] = "hunter2"  # the grader's environment: never a kernel's
    try:
        run = autograde(config, "fixture", [student], workers=1, warm=request.param == "warm",
                        progress=False)
    finally:
        del os.environ["GRADER_SECRET_TOKEN"]
    assert run.graded == [student]
    graded = nbformat.read(os.path.join(config.CourseDirectory.root, "autograder", "state", "autograded",
                                        student, "fixture", "fixture.ipynb"), 4)
    outputs = [o for c in graded.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "make_copy"
               for o in c.outputs]
    return config, student, outputs


def _view(outputs):
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    return json.loads(text.split("VIEW ", 1)[1].splitlines()[0])


def test_full_marks(looked):
    config, student, _ = looked
    assert sum(scores(config, "fixture")[student].values()) == 5


def test_the_kernel_is_an_unprivileged_user_in_a_private_folder(looked):
    view = _view(looked[2])
    assert view["uid"] == KERNEL_UID and view["gid"] == KERNEL_UID and view["groups"] == []
    assert view["cwd"] == "/tmp/fixture" and view["files"] == []  # no notebook, no hidden test (issue 21)
    assert view["home"] == "/tmp/home" and not view["cwd_on_path"]


def test_the_limits_are_set(looked):
    view = _view(looked[2])
    assert view["address_space"] == 3 << 30
    assert view["processes"] == 128 and view["file_size"] == 64 << 20


def test_the_environment_is_rebuilt_from_a_short_list(looked):
    names = set(_view(looked[2])["environment"])
    assert "PYTHONSAFEPATH" in names
    assert "GRADER_SECRET_TOKEN" not in names
    assert not names & {"USER", "LOGNAME", "SSH_AUTH_SOCK", "PWD", "OLDPWD", "SHELL"}


def test_a_figure_is_shown_and_nothing_reaches_stderr(looked):
    outputs = looked[2]
    assert any(o.output_type == "display_data" and "image/png" in o.data for o in outputs)
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
