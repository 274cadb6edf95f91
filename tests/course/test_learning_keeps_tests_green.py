"""A learner works through the whole course in their clone: `make test` stays green there.

The learner fills every build-it stub (with the reference answer), runs every
chapter and every exercise (answers written in, self-check run) and saves them
in place, and JupyterLab leaves ``.ipynb_checkpoints`` folders beside them.
The tests that read the course's files read git's copies (tests/support/stored.py), so
in that clone the storage checks, the course checks and the release checks
must still pass. The storage checks must still fail once the outputs are
staged in git, which is what they are for. The tests of the chapters that
tests/course/conftest.py executes are not run again in the clone: those
fixtures run git's copies, the same there as here (test_chapter_runs_read_git.py);
nor are the tests of SAME_IN_THE_CLONE, which read nothing the learner changed.
"""

import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from build_it_cells import build_it_chapters
from coursebook.predict.questions import questions
from course_paths import NOTEBOOKS

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENTS = sorted(p.name for p in (REPO / "exercises").iterdir() if (p / f"{p.name}.ipynb").exists())
STORAGE_CHECKS = [
    "tests/course/test_notebooks.py::test_notebook_is_committed_clean",
    "tests/exercises/test_solutions.py::test_notebooks_are_committed_without_outputs",
]
# Tests the clone leaves out although they read no executed chapter: nothing they read is what the
# learner changed there (the saved chapters and exercises, their .ipynb_checkpoints, the progress
# file), so they cannot turn red in the clone without turning red here; this checkout's run of them
# is the one that counts. Each says what it reads instead.
SAME_IN_THE_CLONE = {
    # the course only through coursebook.predict's questions(), which the learner's saved chapters
    # still ask as git's do (test_the_learners_saved_chapters_ask_the_questions_git_has)
    "tests/course/test_misconception_models.py": "--ignore",
    "tests/course/test_misconception_coverage.py": "--ignore",
    # a lab on a git clone of the repository (its commits), and on notebooks it writes itself
    "tests/course/test_lab_git_pull.py": "--ignore",
    "tests/course/test_shut_down_closed.py": "--ignore",
    # the catalog check on a scratch copy of git's course/ and exercises/ (_scratch)
    "tests/course/test_translation.py::test_changing_one_english_paragraph_turns_the_catalog_check_red"
    "_naming_the_cell_until_it_is_translated": "--deselect",
    "tests/course/test_translation.py::test_a_cell_moved_to_another_chapter_keeps_its_translation": "--deselect",
    # git's copy of each release against nbgrader's output from solutions/, which the learner never opens
    "tests/exercises/test_release_drift.py::test_the_committed_release_matches_nbgrader_output": "--deselect",
}
# the checks run in the learner's clone: storage, the course (but this module, which would
# recurse, and the warm-kernel plumbing), and the releases; not the tests of chapters the course's
# fixtures execute (marked runs_chapters): those run git's copies, the same here and in the clone
# (test_chapter_runs_read_git.py), and this checkout's run of them is the one that counts
LEARNERS_CHECKS = [*STORAGE_CHECKS, "tests/course", "tests/exercises/test_release_drift.py",
                   "-m", "not runs_chapters",
                   "--ignore=tests/course/test_learning_keeps_tests_green.py",
                   "--ignore=tests/course/test_warm_kernels.py",
                   # the clone runs on this checkout's venv, whose editable install maps `autograder` to
                   # this checkout: the self-check's sandboxed kernel (python -P) would import a copy its
                   # sandbox does not show and wait out its 300 s limit; that test runs in the checkout
                   "--deselect=tests/course/test_build_it.py::test_the_graded_self_check_records_its_score",
                   *(f"{option}={test}" for test, option in SAME_IN_THE_CLONE.items())]
MARKER = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$")
STUB_LINE = re.compile(r"^\s*raise NotImplementedError\s*(#.*)?$", re.M)


def _save_with_checkpoint(nb, path: Path):
    """Save as the lab does: the file in place, and a checkpoint of it in .ipynb_checkpoints/."""
    nbformat.write(nb, str(path))
    checkpoints = path.parent / ".ipynb_checkpoints"
    checkpoints.mkdir(exist_ok=True)
    shutil.copy(path, checkpoints / f"{path.stem}-checkpoint.ipynb")


def _answered(release, solution):
    """The release with the learner's answers: each solution cell's code, without nbgrader's markers."""
    answers = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in solution.cells}
    nb = nbformat.from_dict(release)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id") in answers:
            cell.source = "\n".join(line for line in answers[meta["grade_id"]].splitlines()
                                    if not MARKER.match(line))
    return nb


def _env(progress: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["COURSEBOOK_PROGRESS"] = str(progress)  # never the learner's own progress file
    return env


@pytest.fixture(scope="module")
def learners_clone(tmp_path_factory, executed_notebooks, filled_runs, warm_kernel_manager):
    clone = tmp_path_factory.mktemp("learner") / "course-clone"
    progress = clone.parent / "progress.json"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    # the tests and the course's code as they are now in this working tree, not as last committed
    for folder in ("tests", "src"):
        shutil.rmtree(clone / folder)
        shutil.copytree(REPO / folder, clone / folder, ignore=shutil.ignore_patterns("__pycache__"))
    filled = {path: run[0] for path, run in filled_runs.items()}
    for path in NOTEBOOKS:
        # every stub filled where the chapter has some, run by the learner's kernel, saved
        nb = filled.get(path, executed_notebooks[path].notebook)
        _save_with_checkpoint(nb, clone / "course" / path.name)
    with pytest.MonkeyPatch.context() as patch:  # the kernels get the environment of their launch
        patch.setenv("COURSEBOOK_PROGRESS", str(progress))
        for assignment in ASSIGNMENTS:
            target = clone / "exercises" / assignment / f"{assignment}.ipynb"
            nb = _answered(nbformat.read(str(target), 4),
                           nbformat.read(str(REPO / "solutions" / assignment / f"{assignment}.ipynb"), 4))
            client = NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                                    kernel_manager_class=warm_kernel_manager,
                                    resources={"metadata": {"path": str(target.parent)}})
            client.km = client.create_kernel_manager()
            client.execute()
            _save_with_checkpoint(nb, target)
    return clone, progress


def _run_checks(clone, progress, checks):
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *checks],
        cwd=clone, env=_env(progress), capture_output=True, text=True, timeout=1200,
    )


def test_the_learner_really_worked_in_the_clone(learners_clone):
    clone, _ = learners_clone
    changed = subprocess.run(["git", "-C", str(clone), "status", "--porcelain"],
                             capture_output=True, text=True, check=True).stdout
    for path in NOTEBOOKS:
        assert f"course/{path.name}" in changed, f"{path.name} was not saved over in the clone"
    for assignment in ASSIGNMENTS:
        assert f"exercises/{assignment}/{assignment}.ipynb" in changed
        assert (clone / "exercises" / assignment / ".ipynb_checkpoints").is_dir()
    for path in build_it_chapters():
        saved = nbformat.read(str(clone / "course" / path.name), 4)
        code = "\n".join(c.source for c in saved.cells if c.cell_type == "code")
        # a stub's body is a bare `raise NotImplementedError` (a reference may raise one with a message)
        assert not STUB_LINE.search(code), f"{path.name}: a stub was left unfilled"


def test_the_learners_saved_chapters_ask_the_questions_git_has(learners_clone, tmp_path):
    """What the misconception modules read of the course (SAME_IN_THE_CLONE): the same questions
    from the chapters the learner filled, ran and saved as from git's copies of them."""
    clone, _ = learners_clone
    archive = subprocess.run(["git", "-C", str(clone), "archive", "HEAD", "course"], capture_output=True, check=True)
    (tmp_path / "git.tar").write_bytes(archive.stdout)
    with tarfile.open(tmp_path / "git.tar") as tar:
        tar.extractall(tmp_path, filter="data")
    saved = questions(clone / "course")
    assert len(saved) >= 40 and saved == questions(tmp_path / "course")


def test_storage_course_and_release_checks_pass_after_a_learner_worked_through_the_course(learners_clone):
    clone, progress = learners_clone
    done = _run_checks(clone, progress, LEARNERS_CHECKS)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    summary = done.stdout.splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and " deselected" in summary, summary


def test_the_storage_checks_still_catch_outputs_staged_in_git(learners_clone):
    clone, progress = learners_clone
    subprocess.run(["git", "-C", str(clone), "add", "course"], check=True)
    try:
        done = _run_checks(clone, progress, STORAGE_CHECKS)
        assert done.returncode != 0 and "committed with outputs" in done.stdout, done.stdout[-3000:]
    finally:
        subprocess.run(["git", "-C", str(clone), "reset", "--quiet"], check=True)
