"""A learner runs every chapter, saves it with its outputs, solves an exercise: `make test` stays green.

The checks of how notebooks are stored read git's copy (tests/stored.py).
This test proves it on a clone: the executed chapters are saved over the
clone's course/, a solution is saved over one of its exercises, and the
storage checks are run there. They must pass, and they must still fail once
the outputs are staged in git, which is what they are for.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from course_paths import NOTEBOOKS

REPO = Path(__file__).resolve().parents[2]
STORAGE_CHECKS = [
    "tests/course/test_notebooks.py::test_notebook_is_committed_clean",
    "tests/exercises/test_solutions.py::test_notebooks_are_committed_without_outputs",
]


@pytest.fixture(scope="module")
def learners_clone(tmp_path_factory, executed_notebooks):
    clone = tmp_path_factory.mktemp("learner") / "course-clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    # the tests as they are now in this working tree, not as last committed
    shutil.rmtree(clone / "tests")
    shutil.copytree(REPO / "tests", clone / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    for path in NOTEBOOKS:
        # the working tree's source with the outputs a learner's kernel produced
        nbformat.write(executed_notebooks[path].notebook, str(clone / "course" / path.name))
    solved = clone / "exercises" / "clone" / "clone.ipynb"
    shutil.copy(REPO / "solutions" / "clone" / "clone.ipynb", solved)
    return clone


def _storage_checks(clone):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *STORAGE_CHECKS],
        cwd=clone, env=env, capture_output=True, text=True, timeout=300,
    )


def test_saved_outputs_and_answers_do_not_fail_the_storage_checks(learners_clone):
    saved = [p for p in NOTEBOOKS if any(
        c.get("outputs") for c in nbformat.read(str(learners_clone / "course" / p.name), 4).cells
        if c.cell_type == "code")]
    assert saved, "the clone's chapters should hold the learner's outputs"
    done = _storage_checks(learners_clone)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_the_storage_checks_still_catch_outputs_staged_in_git(learners_clone):
    subprocess.run(["git", "-C", str(learners_clone), "add", "course"], check=True)
    try:
        done = _storage_checks(learners_clone)
        assert done.returncode != 0 and "committed with outputs" in done.stdout, done.stdout[-3000:]
    finally:
        subprocess.run(["git", "-C", str(learners_clone), "reset", "--quiet"], check=True)
