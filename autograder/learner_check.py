"""The learner's self-check: run a saved exercise notebook, score its visible tests.

No instructor, no gradebook and no nbgrader are needed: the notebook is run
top to bottom in a fresh kernel (nbclient), and every test cell (an nbgrader
"autograded tests" cell, recognised by its metadata) is scored the way
nbgrader scores it: full points when it ran without an error, 0 when it
raised.  Warnings do not cost points (see ``autograder.kernel_setup``).

Two ways in:

* ``python -m autograder check exercises/clone/clone.ipynb`` prints the score
  and the messages and exits with status 1 when a test fails (``nbgrader
  validate`` exits 0 even then), 0 when all pass.
* ``from autograder import self_check; self_check()`` as the last cell of an
  exercise notebook does the same for the notebook it sits in, as saved on
  disk.  While nbgrader (or a self-check) runs that notebook, it only prints
  one line, so grading never recurses.

The released notebooks hold only the visible tests; the instructor's grader
also runs hidden ones, so a full self-check score is necessary, not sufficient.
"""

import dataclasses
import glob
import os
import subprocess
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError

from .kernel_setup import KERNEL_ARGUMENTS

SELF_CHECK_ENV = "AUTOGRADER_SELF_CHECK"


@dataclasses.dataclass
class TestResult:
    grade_id: str
    points: float
    max_points: float
    message: str = ""

    @property
    def passed(self):
        return self.points == self.max_points


@dataclasses.dataclass
class CheckResult:
    path: str
    tests: list
    problems: list  # messages not tied to one test (unreadable file, dead kernel, ...)

    @property
    def score(self):
        return sum(t.points for t in self.tests)

    @property
    def max_score(self):
        return sum(t.max_points for t in self.tests)

    @property
    def all_passed(self):
        return not self.problems and all(t.passed for t in self.tests)

    def format(self):
        lines = ["Self-check of %s (visible tests only; your instructor also runs hidden tests)"
                 % self.path]
        width = max([len(t.grade_id) for t in self.tests] + [10])
        for t in self.tests:
            status = "ok  " if t.passed else "FAIL"
            line = "  %s  %-*s  %g/%g" % (status, width, t.grade_id, t.points, t.max_points)
            if t.message:
                line += "  " + t.message
            lines.append(line)
        for problem in self.problems:
            lines.append("  problem: " + problem)
        failing = sum(not t.passed for t in self.tests)
        verdict = "all tests pass" if self.all_passed else "%d test(s) failing" % failing
        lines.append("Score: %g/%g  (%s)" % (self.score, self.max_score, verdict))
        return "\n".join(lines)


def _nbgrader_meta(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def is_test_cell(cell):
    """A code cell nbgrader grades automatically: ``grade`` and not ``solution``."""
    meta = _nbgrader_meta(cell)
    return cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution")


def _last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def score_test_cell(cell):
    """``(points, message)`` for an executed test cell, by nbgrader's rule.

    An ``error`` output or anything on stderr gives 0; an ``execute_result``
    that reads as a number gives that many points (partial credit, capped at
    the cell's points); otherwise all the points.
    """
    max_points = float(_nbgrader_meta(cell).get("points", 0))
    for output in cell.get("outputs", []):
        if output.output_type == "error":
            return 0.0, ("%s: %s" % (output.ename, output.evalue)).strip(": ")
        if output.output_type == "stream" and output.name == "stderr":
            return 0.0, "wrote to stderr: " + _last_line(output.text)
        if output.output_type == "execute_result":
            try:
                value = float(output.data.get("text/plain", ""))
            except ValueError:
                return max_points, ""
            return min(max(value, 0.0), max_points), "partial credit"
    return max_points, ""


def _edited_tests(nb):
    """Test cells whose source differs from the released version (checksum)."""
    try:
        from nbgrader.utils import compute_checksum  # optional: only for this hint
    except ImportError:
        return []
    edited = []
    for cell in nb.cells:
        meta = _nbgrader_meta(cell)
        if is_test_cell(cell) and "checksum" in meta and compute_checksum(cell) != meta["checksum"]:
            edited.append(meta.get("grade_id", "?"))
    return edited


def check(path, timeout=60):
    """Run the notebook at ``path`` in a fresh kernel and score its test cells."""
    path = os.path.abspath(path)
    shown = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    try:
        nb = nbformat.read(path, as_version=4)
    except FileNotFoundError:
        return CheckResult(shown, [], ["no such notebook: %s" % path])
    except Exception as error:  # nbformat raises several kinds for a broken file
        return CheckResult(shown, [], ["not a readable notebook (%s)" % str(error).splitlines()[0]])
    problems = ["test cell %r was edited; the instructor's grader runs the original" % gid
                for gid in _edited_tests(nb)]
    env = dict(os.environ, **{SELF_CHECK_ENV: "1"})
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            interrupt_on_timeout=True, extra_arguments=KERNEL_ARGUMENTS,
                            resources={"metadata": {"path": os.path.dirname(path)}})
    try:
        client.execute(env=env, stderr=subprocess.DEVNULL)
    except DeadKernelError:
        problems.append("the kernel died while running the notebook (os._exit, a crash, "
                        "or too much memory); tests after that point did not run")
    tests = []
    for cell in nb.cells:
        if is_test_cell(cell):
            points, message = score_test_cell(cell)
            if not cell.get("outputs") and cell.get("execution_count") is None:
                points, message = 0.0, "did not run"
            tests.append(TestResult(_nbgrader_meta(cell).get("grade_id", "?"), points,
                                    float(_nbgrader_meta(cell).get("points", 0)), message))
    if not tests:
        problems.append("no test cells found: is this an exercise notebook?")
    return CheckResult(shown, tests, problems)


def _notebook_path(path):
    """The notebook a ``self_check()`` call inside a kernel refers to."""
    if path:
        return path
    session = os.environ.get("JPY_SESSION_NAME", "")
    for candidate in (session, os.path.basename(session)):
        if candidate.endswith(".ipynb") and os.path.isfile(candidate):
            return candidate
    notebooks = glob.glob("*.ipynb")
    if len(notebooks) == 1:
        return notebooks[0]
    raise FileNotFoundError("self_check() could not tell which notebook to check; "
                            "call self_check('name.ipynb')")


def self_check(path=None):
    """Check the saved notebook from inside Jupyter; prints the score and messages.

    The check runs in a separate process on the notebook as saved on disk, so
    save (Ctrl+S) first.  Returns nothing; the printout is the result.
    """
    if os.environ.get("NBGRADER_EXECUTION") or os.environ.get(SELF_CHECK_ENV):
        print("self_check: skipped while the notebook is being graded")
        return
    try:
        path = _notebook_path(path)
    except FileNotFoundError as error:
        print(error)
        return
    saved = time.strftime("%H:%M:%S", time.localtime(os.path.getmtime(path)))
    print("Checking %s as saved at %s (save first if you changed it)..." % (path, saved),
          flush=True)
    completed = subprocess.run([sys.executable, "-m", "autograder", "check", path],
                               capture_output=True, text=True)
    print(completed.stdout, end="")
    if completed.stderr.strip() and completed.returncode not in (0, 1):
        print(completed.stderr)
