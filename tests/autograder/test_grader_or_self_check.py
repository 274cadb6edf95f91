"""A kernel cannot tell the grader from the learner's self-check.

A learner's cell runs as written, so it can look at
everything Python shows it. The probe answer records what it observes (its
environment, host name, uid, gid and groups, its user namespace's maps,
what ``/proc/self/status`` and ``/proc/self/limits`` say of its rights, folder,
control group, the files at ``/`` and ``/tmp``, its command line and mounts)
and fails the first test with the
record as its message. The real grader (sandboxed warm kernel, as graded) and
the self-check (its own sandboxed kernel) must report the same record.

Each kernel has a uid of its own on the host, drawn per kernel: inside its user
namespace every kernel is the same uid and gid, so the numbers are compared as they are.
"""

import json
import os

import nbformat
import pytest

from autograder.grade import autograde
from synthetic_course import student_notebook, write_submission

PROBE = r'''
import json
import os
import socket
import sys


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as error:
        return type(error).__name__


def make_copy(t):
    seen = {
        "environ": dict(os.environ),
        "environ at start": sorted(_read("/proc/self/environ").split("\0")),
        "host name": socket.gethostname(),
        "uid and gid": [os.getresuid(), os.getresgid(), os.getgroups()],
        "user namespace": [_read("/proc/self/uid_map"), _read("/proc/self/gid_map"),
                           _read("/proc/self/setgroups")],
        "rights": [line for line in _read("/proc/self/status").splitlines()
                   if line.split(":")[0] in ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd",
                                             "CapAmb", "NoNewPrivs", "Seccomp", "Seccomp_filters", "Umask")],
        "limits": _read("/proc/self/limits"),
        "system name": list(os.uname())[:2],
        "folder": os.getcwd(),
        "files in the folder": sorted(os.listdir(".")),
        "control group": _read("/proc/self/cgroup"),
        "files at /": sorted(os.listdir("/")),
        "files in /tmp": sorted(os.listdir("/tmp")),
        "command line": sys.argv,
        "sys.path": sys.path,
        "mounts": sorted(line.split()[4] for line in _read("/proc/self/mountinfo").splitlines()),
    }
    raise AssertionError("OBSERVED=" + json.dumps(seen, sort_keys=True))
'''


def _observed(text):
    start = text.index("OBSERVED=") + len("OBSERVED=")
    return json.loads(text[start:text.index("}", text.rindex('"mounts"')) + 1])


@pytest.fixture(scope="module")
def observed(fixture_course, tmp_path_factory, grading_cluster):
    config = fixture_course
    nb = student_notebook(config, "fixture", replace={"make_copy": PROBE})
    folder = os.path.join(config.CourseDirectory.root, "autograder", "state", "submitted", "prober", "fixture")
    write_submission(folder, nb, "fixture.ipynb")
    run = autograde(config, "fixture", ["prober"], workers=1, progress=False, scheduler=grading_cluster)
    assert not run.failed, run.failed
    graded = nbformat.read(os.path.join(config.CourseDirectory.root, "autograder", "state", "autograded",
                                        "prober", "fixture", "fixture.ipynb"), 4)
    cell = next(c for c in graded.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_values")
    by_grader = _observed(next(o.evalue for o in cell.outputs if o.output_type == "error"))

    from autograder.learner.learner_check import check

    path = tmp_path_factory.mktemp("learner") / "fixture.ipynb"
    nbformat.write(nb, str(path))
    release = os.path.join(config.CourseDirectory.root, "exercises", "fixture", "fixture.ipynb")
    result = check(str(path), release=release)
    test = next(t for t in result.tests if t.grade_id == "test_values")
    by_self_check = _observed(test.message)
    return by_grader, by_self_check


@pytest.mark.parametrize("what", ["environ", "environ at start", "host name", "uid and gid", "user namespace",
                                  "rights", "limits", "system name", "folder",
                                  "files in the folder", "control group", "files at /", "files in /tmp",
                                  "command line", "sys.path", "mounts"])
def test_the_kernel_sees_the_same_in_the_grader_and_in_the_self_check(observed, what):
    by_grader, by_self_check = observed
    assert by_grader[what] == by_self_check[what], (
        f"the {what} tells the grader from the self-check:\n grader: {by_grader[what]}\n"
        f" self-check: {by_self_check[what]}")
