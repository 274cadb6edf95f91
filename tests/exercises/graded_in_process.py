"""A bank entry judged by the grader's own judge, with the sandbox and nbgrader left out.

The graded class (``graded_bank.grade_bank``) grades each submission in a sandboxed witness
kernel under real nbgrader. For an honest or wrong answer, what decides the grade is the judge
(``autograder.judge.test_cell.run_test_cell``: the checks, torch, the learner's functions asked
for as names) and the witness (``autograder.witness.serve``: the learner's functions called on
the assignment's reftorch copy, its pieces stubs). This module runs exactly those: the judge in
this process, the witness in a plain Python process forked for the entry from one that loaded
the assignment's witness (``witness_forks.py``), the same Unix socket and wire between them
(``autograder.judge.connection.Witness``), the cells in the grader's order (``grading_order``),
the instructor's cells of the test code as the grader runs them (``run_instructor_cell``) and
the student's variant seed. What it leaves out is the transport and the guards: nbgrader's
pipeline and gradebook, the kernel, bubblewrap, seccomp, cgroups, the static rules and the
output caps. So cheats, stubs and anything a rule or a guard must stop are graded in the
sandbox only (``graded_bank.SANDBOXED``), and the honest and wrong answers graded there too (a
sample) are graded here as well and must get the same grade, error for error (``test_mutants``).
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

from autograder.judge.connection import Witness, witness_folder
from autograder.judge.test_cell import TestNames, run_instructor_cell, run_test_cell
from autograder.pipeline.learner_code import cells_of_test_code, grading_order, is_test_cell
from autograder.pipeline.variants import variant_seed
from autograder.witness import stubs
from exercise_mutants import APPENDED, RELEASE
from nbgrader_course import SOLUTIONS, read_notebook

FORKS = Path(__file__).with_name("witness_forks.py")
SECONDS = 30   # per test cell, as nbgrader_config.py's Execute.timeout


def entry_notebook(entry):
    """The instructor's notebook with the entry's cells swapped in (``graded_bank.student_notebook``
    with the instructor's test cells, hidden tests and all, as nbgrader's autograde restores them)."""
    assert entry.cells != RELEASE, "a stub is graded in the sandbox only"
    nb = read_notebook(SOLUTIONS / entry.assignment / f"{entry.assignment}.ipynb")
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in entry.cells:
            cell.source = entry.cells[grade_id]
    if APPENDED in entry.cells:
        nb.cells.append(nbformat.v4.new_code_cell(entry.cells[APPENDED]))
    return nb


class Judge:
    """``with Judge() as judge: judge.grade(entry)``: one witness process per assignment, ended at the end."""

    def __init__(self):
        self._folder = tempfile.TemporaryDirectory(prefix="witnesses-")
        self._log = Path(self._folder.name) / "stderr.txt"
        self._forks = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for process in self._forks.values():
            process.stdin.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._folder.cleanup()

    def _fork(self, assignment, control_path):
        """Ask the assignment's witness process (started at first need) to fork a witness."""
        if assignment not in self._forks:
            with open(self._log, "a") as log:
                self._forks[assignment] = subprocess.Popen(
                    [sys.executable, str(FORKS), stubs.build(assignment) or ""], cwd=self._folder.name,
                    stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=log, text=True)
        process = self._forks[assignment]
        process.stdin.write(control_path + "\n")
        process.stdin.flush()

    def _said(self, lines, expected):
        line = lines.readline().strip()
        if line != expected:
            raise RuntimeError(f"the witness said {line!r}, not {expected!r}: " + self._log.read_text()[-3000:])

    def grade(self, entry, student=None):
        """``{test grade_id: (score, max score, text of its error outputs)}``, as ``graded_bank.outcome``
        reads a graded notebook, for ``entry`` handed in by ``student`` (its name by default)."""
        nb = entry_notebook(entry)
        order = grading_order(nb)
        test_code = set(cells_of_test_code(nb))
        seed = variant_seed(student or entry.name, entry.assignment)
        names, results = TestNames(), {}
        with tempfile.TemporaryDirectory(prefix="witness-", dir=self._folder.name) as folder:
            sockets = witness_folder(folder)
            control_path = os.path.join(folder, "control.sock")
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
                listener.bind(control_path)
                listener.listen(1)
                listener.settimeout(60)
                self._fork(entry.assignment, control_path)
                control, _ = listener.accept()
            with control, control.makefile("r") as lines:
                control.settimeout(60)
                control.sendall((json.dumps([nb.cells[i].source for i in order if i not in test_code]) + "\n").encode())
                self._said(lines, "ready")
                for index in (i for i in order if i in test_code):
                    cell = nb.cells[index]
                    if not is_test_cell(cell):
                        run_instructor_cell(cell.source, names, seed)
                        continue
                    with Witness(sockets, SECONDS) as witness:
                        control.sendall((witness.path + "\n").encode())
                        outputs = run_test_cell(cell.source, witness, seed=seed, names=names)
                    self._said(lines, "served")
                    meta = cell.metadata["nbgrader"]
                    errors = "\n".join(f"{o.ename}: {o.evalue}" for o in outputs if o.output_type == "error")
                    points = float(meta.get("points", 0))
                    results[meta["grade_id"]] = (0.0 if errors else points, points, errors)
        return results
