"""A throw-away nbgrader course in a temporary directory, driven through nbgrader's own API.

The repository's solutions are copied in as the course's source, nbgrader
generates the release, "students" submit notebooks, and nbgrader autogrades
them into a real SQLite gradebook that lives in the same temporary directory.
Nothing is written inside the repository.

The self-check cell (tag ``self-check``) is removed from every notebook copied
in: it calls ``autograder.self_check``, the grader's own tool, which is
exercised by the grader's tests, not here.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook
from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from traitlets.config import Config

from empty_gradebook import start_gradebook

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = REPO / "solutions"
EXERCISES = REPO / "exercises"
ASSIGNMENTS = ("clone", "detach", "new_tensor", "copy_into", "python_copy", "model_snapshot",
               "strides_and_views", "numpy_bridge", "save_and_load",
               "target_network")
SELF_CHECK_TAG = "self-check"


def read_notebook(path, drop_self_check=True):
    nb = nbformat.read(str(path), as_version=4)
    if drop_self_check:
        nb.cells = [c for c in nb.cells if SELF_CHECK_TAG not in c.metadata.get("tags", [])]
    return nb


def _ensure_venv_on_path():
    """nbgrader runs ``alembic`` and starts kernels: the project's venv comes first on PATH."""
    venv_bin = str(REPO / ".venv" / "bin")
    if not os.environ.get("PATH", "").startswith(venv_bin):
        os.environ["PATH"] = venv_bin + os.pathsep + os.environ.get("PATH", "")


class TempCourse:
    """An nbgrader course rooted at ``root`` (a temporary directory)."""

    def __init__(self, root, source_dir=SOLUTIONS, drop_self_check=True, assignments=ASSIGNMENTS):
        _ensure_venv_on_path()
        self.root = Path(root)
        self.db_path = self.root / "gradebook.db"
        config = Config()
        config.CourseDirectory.root = str(self.root)
        config.CourseDirectory.course_id = "tensor-copies-test"
        config.CourseDirectory.db_url = f"sqlite:///{self.db_path}"
        config.ExecutePreprocessor.timeout = 300
        config.Exchange.root = str(self.root / "exchange")
        start_gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id)
        self.api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
        for assignment in assignments:
            src = Path(source_dir) / assignment / f"{assignment}.ipynb"
            if src.exists():
                self.add_source(assignment, read_notebook(src, drop_self_check))

    def add_source(self, assignment, nb):
        folder = self.root / "source" / assignment
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(folder / f"{assignment}.ipynb"))

    def generate(self, assignment):
        result = self.api.generate_assignment(assignment, force=True)
        assert result["success"], result.get("error") or result.get("log")
        return self.root / "release" / assignment

    def submit(self, student, assignment, nb):
        folder = self.root / "submitted" / student / assignment
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        nbformat.write(nb, str(folder / f"{assignment}.ipynb"))

    def autograde(self, assignment, student="*"):
        result = self.api.autograde(assignment, student, force=True)
        assert result["success"], result.get("error") or result.get("log")

    def autograde_in_subprocess(self, assignment, student="*"):
        """The same autograde through nbgrader's command line, in a process of its own
        (so that two courses can be graded at once); run from the course root, where
        no nbgrader_config.py exists, with every setting on the command line."""
        command = [
            sys.executable, "-m", "nbgrader", "autograde", assignment, "--force",
            f"--student={student}",
            f"--CourseDirectory.root={self.root}",
            "--CourseDirectory.course_id=tensor-copies-test",
            f"--CourseDirectory.db_url=sqlite:///{self.db_path}",
            f"--Exchange.root={self.root / 'exchange'}",
            "--ExecutePreprocessor.timeout=300",
        ]
        done = subprocess.run(command, cwd=self.root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]

    def scores(self, assignment, student):
        """``{grade_id: (score, max_score)}`` read back from the gradebook."""
        with Gradebook(f"sqlite:///{self.db_path}") as gb:
            nb = gb.find_submission_notebook(assignment, assignment, student)
            return {g.name: (g.score, g.max_score) for g in nb.grades}
