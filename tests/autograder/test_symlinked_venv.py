"""A grader whose virtualenv is reached through a symlink grades like any other.

``/tmp/venv -> <repo>/.venv``, run as ``/tmp/venv/bin/python``: Python names
``sys.prefix`` and every ``site-packages`` entry of ``sys.path`` by the link,
and a kernel forked from the zygote imports from those names.  The sandbox
used to bind only the resolved folder, so inside it the link's names led
nowhere: every kernel died before its first answer and the whole class got 0
with the note "(RuntimeError)".  Here a full-marks student is graded by a
grader started through such a link (warm and cold kernels), and must get
full marks; and a kernel that dies as it starts is named as such in the note.
"""

import json
import os
import subprocess
import sys

import pytest
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.course import course_config
from autograder.kernels.grading_kernels import KernelDiedAtStart
from synthetic_course import scores, student_notebook, write_submission
from synthetic_course import messages as notes_of

HERE = os.path.dirname(os.path.abspath(__file__))

GRADE_THROUGH_THE_LINK = r"""
import json, os, sys
sys.path.insert(0, %(here)r)
sys.path.append(os.path.join(os.path.dirname(%(here)r), "support"))  # empty_gradebook
from synthetic_course import FIXTURES, make_course, student_notebook, write_submission
from nbgrader.api import Gradebook
from autograder.grade import autograde
from autograder.pipeline.notes import MESSAGES_FILE

root = %(root)r
config = make_course(root, {"fixture": os.path.join(FIXTURES, "fixture")})
write_submission(os.path.join(root, "autograder", "state", "submitted", "diligent", "fixture"),
                 student_notebook(config, "fixture", solved="all"), "fixture.ipynb")
run = autograde(config, "fixture", workers=1, warm=%(warm)r, progress=False, scheduler="in-process")
with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
    got = {g.name: [g.score, g.max_score] for nb in gb.find_submission("fixture", "diligent").notebooks
           for g in nb.grades}
notes = os.path.join(root, "autograder", "state", "autograded", "diligent", "fixture", MESSAGES_FILE)
print("RESULT " + json.dumps({"prefix": sys.prefix, "failed": run.failed, "scores": got,
                              "notes": open(notes).read() if os.path.exists(notes) else ""}))
"""


@pytest.fixture(scope="module")
def linked_python(tmp_path_factory, needs_sandbox):
    """``<tmp>/venv -> the real virtualenv``; the python inside it, named through the link."""
    link = tmp_path_factory.mktemp("linked") / "venv"
    real = os.path.realpath(sys.prefix)
    os.symlink(real, link)
    return str(link), os.path.join(str(link), "bin", "python")


@pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])
def test_a_grader_started_through_a_symlinked_virtualenv_gives_full_marks(linked_python, tmp_path, warm):
    link, python = linked_python
    script = GRADE_THROUGH_THE_LINK % {"here": HERE, "root": str(tmp_path / "course"), "warm": warm}
    env = dict(os.environ, PATH=os.path.dirname(python) + os.pathsep + os.environ.get("PATH", ""))
    done = subprocess.run([python, "-c", script], capture_output=True, text=True, timeout=600,
                          env=env, cwd=str(tmp_path))
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, "the grader started as %s failed:\n%s" % (python, done.stderr[-3000:])
    result = json.loads(lines[-1][len("RESULT "):])
    assert result["prefix"] == link  # Python really names its environment by the link
    assert result["failed"] == {}
    lost = {name: score for name, score in result["scores"].items() if score[0] != score[1]}
    assert not lost, ("the sandbox does not show the virtualenv under the name the grader's Python "
                      "uses, so the kernels could not import: %s; notes: %s" % (lost, result["notes"]))


def test_the_sandbox_makes_each_link_on_the_way_to_the_environment(linked_python, tmp_path):
    link, python = linked_python
    code = ("import json, sys; from autograder.kernels.sandbox import bwrap_arguments, symlinked_paths, "
            "Limits; print(json.dumps([symlinked_paths(), bwrap_arguments(%r, Limits())]))" % str(tmp_path))
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    links, args = json.loads(done.stdout.splitlines()[-1])
    assert links == {link: os.path.realpath(link)}
    made = [args[i + 1:i + 3] for i, arg in enumerate(args) if arg == "--symlink"]
    assert [os.path.realpath(link), link] in made


class KernelDiesAtStart(NbGraderPreprocessor):
    """Stands for a kernel that dies before its first answer, as every kernel did through the link."""

    def preprocess(self, nb, resources):
        if (nb.metadata.get("autograder") or {}).get("not_graded"):
            return nb, resources  # the failsafe's second pass runs no kernel
        raise KernelDiedAtStart("Kernel died before replying to kernel_info")


@pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")  # nbgrader's own autoflush notices
def test_a_kernel_that_dies_as_it_starts_is_named_in_the_note_not_a_bare_runtime_error(fixture_course):
    config = fixture_course
    root, student = config.CourseDirectory.root, "unlucky"
    write_submission(os.path.join(root, "autograder", "state", "submitted", student, "fixture"),
                     student_notebook(config, "fixture", solved="all"), "fixture.ipynb")
    graded = course_config(root)
    graded.Autograde.sanitize_preprocessors = list(graded.Autograde.sanitize_preprocessors) + [KernelDiesAtStart]
    graded.CourseDirectory.assignment_id, graded.CourseDirectory.student_id = "fixture", student
    converter = Autograde(coursedir=CourseDirectory(config=graded), config=graded)
    converter.force = True
    converter.start()  # plain nbgrader: the failsafe gives 0 with a note, nothing escapes

    assert set(scores(config, "fixture")[student].values()) == {0}
    notes = notes_of(config, student, "fixture")
    assert "the grading kernel died while it started, before any cell ran" in notes, notes
    assert "(RuntimeError)" not in notes and "(KernelDiedAtStart)" not in notes
