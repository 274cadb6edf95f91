"""Benchmark: the learner's self-check, as ``self_check()`` runs it: the verdict within 2 s.

    python tests/bench/bench_self_check.py [--runs 10] [--bank all|sample]

``self_check()`` asks the Jupyter server that started its kernel, whose self-check handler
(``autograder.learner.check_extension``) keeps the grader's imports done and its zygote
ready to fork a sandboxed kernel with torch imported. This script starts a learner's lab of
its own (``coursebook.lab.lab_command``, on a scratch folder, stopped at the end), saves
wrong answers of the project's bank (``tests/exercises/bank/``) as a learner
would (the release, the instructor's solutions in the other cells, the entry's cells swapped
in, saved under ``<assignment>/<assignment>.ipynb`` in the scratch folder), and times the
handler's answer to them over HTTP (what ``check_saved`` in the kernel does): the time from
asking to having the result as data.

It prints the first check's time (the handler warming up: imports and the
zygote), then the median of ``--runs`` checks of saved notebooks (one wrong
answer of each assignment in turn; each saved anew before its check) and the
target (at most 2 s, on the machine's 2 cores; the load average is printed
with it: the machine is shared).

Then it compares each verdict (which visible tests fail) with the grader's
visible-test verdict on the same answer (``tests/exercises/inprocess.run`` with
the visible battery, the one the agreement tests use): on every wrong answer
of the bank (``--bank all``, the default) or on the timed ones
(``--bank sample``). Exit status 1 when the median is over the target or a
verdict differs.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path += [str(REPO / "tests" / "exercises"), str(REPO / "tests" / "support")]

import nbformat  # noqa: E402

from exercise_mutants import APPENDED, BANK, RELEASE  # noqa: E402
from inprocess import run as grader_visible  # noqa: E402
from nbgrader_course import EXERCISES, SOLUTIONS  # noqa: E402
from stored import stored_notebook  # noqa: E402

from autograder.learner.results import result_from_data  # noqa: E402
from autograder.learner.self_check import HANDLER, ask_server  # noqa: E402
from coursebook.lab import lab_command, lab_environment  # noqa: E402

TARGET_SECONDS = 2.0


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def saved_notebook(entry, folder: Path) -> Path:
    """The entry's notebook as a learner saves it: ``folder/<assignment>/<assignment>.ipynb``."""
    a = entry.assignment
    release = stored_notebook(EXERCISES / a / f"{a}.ipynb")
    if entry.cells != RELEASE:
        solved = {_grade_id(c): c.source for c in nbformat.read(str(SOLUTIONS / a / f"{a}.ipynb"), 4).cells}
        release = copy.deepcopy(release)
        for cell in release.cells:
            if cell.metadata.get("nbgrader", {}).get("solution"):
                cell.source = entry.cells.get(_grade_id(cell), solved[_grade_id(cell)])
        if APPENDED in entry.cells:
            release.cells.append(nbformat.v4.new_code_cell(entry.cells[APPENDED]))
    path = folder / a / f"{a}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(release, str(path))
    return path


@contextlib.contextmanager
def learners_lab(root: Path, scratch: Path):
    """The learner's lab (as ``make lab`` starts it, without warming up at start) on ``root``; yields
    its runtime record (url, token), as a kernel of it finds it; stops it afterwards."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token = secrets.token_hex(16)
    env = dict(lab_environment("en"), JUPYTER_CONFIG_DIR=str(scratch / "config"),
               JUPYTER_RUNTIME_DIR=str(scratch / "runtime"), IPYTHONDIR=str(scratch / "ipython"))
    with open(scratch / "lab.log", "w") as log:
        server = subprocess.Popen(lab_command(port, token, root, workspaces=scratch / "workspaces"), cwd=root,
                                  env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        from jupyter_server.serverapp import list_running_servers

        deadline = time.monotonic() + 120
        while not any(info["pid"] == server.pid for info in list_running_servers(str(scratch / "runtime"))):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the lab did not start:\n" + (scratch / "lab.log").read_text())
            time.sleep(0.2)
        yield next(info for info in list_running_servers(str(scratch / "runtime")) if info["pid"] == server.pid)
    finally:
        server.terminate()
        server.wait(30)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bank", choices=["all", "sample"], default="all")
    args = parser.parse_args(argv)

    wrong = [e for e in BANK if e.kind == "wrong"]
    by_assignment = {}
    for entry in wrong:
        by_assignment.setdefault(entry.assignment, []).append(entry)
    order = [entries[i] for i in range(max(map(len, by_assignment.values())))
             for entries in by_assignment.values() if i < len(entries)]
    timed = order[:args.runs]

    with tempfile.TemporaryDirectory(prefix="bench-self-check-") as scratch:
        scratch = Path(scratch)
        (scratch / "root").mkdir()
        with learners_lab(scratch / "root", scratch) as server:
            def check_saved(path):
                return result_from_data(ask_server(server, HANDLER, {"path": str(path), "root": None}))

            start = time.perf_counter()
            check_saved(saved_notebook(timed[0], scratch / "root" / "warm-up"))
            first = time.perf_counter() - start
            seconds, verdicts = [], {}
            for entry in timed:
                path = saved_notebook(entry, scratch / "root" / entry.name)
                begin = time.perf_counter()
                result = check_saved(path)
                seconds.append(time.perf_counter() - begin)
                verdicts[entry.name] = result
            load = os.getloadavg()
            median = statistics.median(seconds)
            print(f"self-check: first check (handler warming up: imports, zygote) {first:.2f} s")
            print(f"self-check: {len(seconds)} saved exercises, median {median:.2f} s "
                  f"(min {min(seconds):.2f}, max {max(seconds):.2f}); target <= {TARGET_SECONDS:.1f} s; "
                  f"load average {load[0]:.1f} on {os.cpu_count()} cores")
            checked = wrong if args.bank == "all" else timed
            differ = []
            for entry in checked:
                result = verdicts.get(entry.name)
                if result is None:
                    result = check_saved(saved_notebook(entry, scratch / "root" / entry.name))
                ours = {t.grade_id for t in result.tests if not t.passed}
                if result.problems:
                    ours.add("problem: " + "; ".join(result.problems))
                grader = {test for test, message in grader_visible(entry, battery="visible").items()
                          if message is not None}
                if ours != grader:
                    differ.append(f"  {entry.name}: self-check fails {sorted(ours)}, grader {sorted(grader)}")
            print(f"self-check verdict = grader's visible-test verdict on {len(checked) - len(differ)} of "
                  f"{len(checked)} wrong answers of the bank")
            print("\n".join(differ))
    return 1 if differ or median > TARGET_SECONDS else 0


if __name__ == "__main__":
    sys.exit(main())
