"""Plain ``nbgrader autograde`` run from ``autograder/`` grades a class as ``python -m autograder autograde``.

Both routes run stock nbgrader ``Autograde`` with the course's
``nbgrader_config.py``; what used to live only in the grader's workers (a
notebook saved under another name, a file that is no notebook, the
collector's notes) is now nbgrader's own pipeline (``autograder.pipeline.submission``).
The same class is handed in to two copies of one course, graded once each way,
with real nbgrader, sandboxed kernels and gradebooks; every test's score must
be the same, and each route must say the same things to the students.
"""

import json
import os
import shutil
import subprocess
import sys

import nbformat
import pytest

from synthetic_course import FIXTURES, REPO, make_course, messages, scores, student_notebook, write_submission
from autograder.course import course_config, submitted_dir

STUDENTS = ["right", "blank", "garbled", "renamed", "noted"]


def _hand_in(config):
    def folder(student):
        return submitted_dir(config, student, "fixture")
    solved = student_notebook(config, "fixture", solved="all")
    write_submission(folder("right"), solved, "fixture.ipynb")
    write_submission(folder("blank"), student_notebook(config, "fixture"), "fixture.ipynb")
    write_submission(folder("garbled"), b'{"cells": [ this is not json \xff', "fixture.ipynb")
    write_submission(folder("renamed"), solved, "fixture (1).ipynb")
    write_submission(folder("noted"), solved, "fixture.ipynb")
    with open(os.path.join(folder("noted"), "collect_notes.json"), "w") as f:
        json.dump(["the notebook was picked among 2 (newest)"], f)


@pytest.fixture(scope="module")
def two_courses(tmp_path_factory, needs_sandbox):
    base = tmp_path_factory.mktemp("routes")
    first = make_course(str(base / "cli"), {"fixture": os.path.join(FIXTURES, "fixture")})
    shutil.copytree(first.CourseDirectory.root, str(base / "nbgrader"), symlinks=True)
    second = course_config(str(base / "nbgrader"))
    for config in (first, second):
        _hand_in(config)
    cli = subprocess.run([sys.executable, "-m", "autograder", "--root", first.CourseDirectory.root,
                          "autograde", "fixture", "--workers", "1"],
                         cwd=REPO, capture_output=True, text=True, timeout=900)
    env = dict(os.environ, AUTOGRADER_ROOT=second.CourseDirectory.root)
    env.pop("AUTOGRADER_STATE", None)
    plain = subprocess.run([os.path.join(os.path.dirname(sys.executable), "nbgrader"), "autograde",
                            "fixture", "--force"],
                           cwd=os.path.join(REPO, "autograder"), env=env, capture_output=True,
                           text=True, timeout=900)
    return {"cli": first, "nbgrader": second, "runs": {"cli": cli, "nbgrader": plain}}


def test_both_routes_grade_every_submission(two_courses):
    for route, run in two_courses["runs"].items():
        assert run.returncode == 0, "%s route failed:\n%s\n%s" % (route, run.stdout[-3000:], run.stderr[-3000:])
        assert sorted(scores(two_courses[route], "fixture")) == sorted(STUDENTS), route


def test_plain_nbgrader_gives_every_test_the_score_the_command_line_gives(two_courses):
    cli, plain = scores(two_courses["cli"], "fixture"), scores(two_courses["nbgrader"], "fixture")
    assert plain == cli
    assert sum(cli["right"].values()) > 0 and sum(cli["blank"].values()) < sum(cli["right"].values())
    assert sum(cli["garbled"].values()) == 0 and cli["renamed"] == cli["right"] == cli["noted"]


@pytest.mark.parametrize("route", ["cli", "nbgrader"])
def test_each_route_tells_the_student_about_the_unreadable_file_the_rename_and_the_collectors_note(
        two_courses, route):
    config = two_courses[route]
    assert "not valid JSON" in messages(config, "garbled", "fixture")
    assert "submitted as 'fixture (1).ipynb'" in messages(config, "renamed", "fixture")
    assert "picked among 2" in messages(config, "noted", "fixture")
    assert "submitted as" not in messages(config, "right", "fixture")


def test_plain_nbgrader_keeps_the_unreadable_bytes_beside_the_graded_notebook(two_courses):
    config = two_courses["nbgrader"]
    folder = os.path.join(config.CourseDirectory.root, config.CourseDirectory.autograded_directory,
                          "garbled", "fixture")
    with open(os.path.join(folder, "fixture.ipynb.unreadable"), "rb") as f:
        assert f.read().startswith(b'{"cells": [ this is not json')
    graded = nbformat.read(os.path.join(folder, "fixture.ipynb"), as_version=4)
    notes = graded.cells[0]  # the grader's notes open the graded notebook
    assert notes.metadata.get("autograder_notes") and "not valid JSON" in notes.source
