"""Benchmark: the learner's self-check, as ``self_check()`` runs it: the verdict within 2 s.

    python tests/bench/bench_self_check.py [--runs 10] [--bank all|sample]

``self_check()`` asks the per-user self-check service (``autograder.learner.check_service``:
the grader's imports done once, its zygote ready to fork a sandboxed kernel
with torch imported). This script starts a service of its own (its own socket,
stopped at the end), saves wrong answers of the project's bank
(``tests/exercises/exercise_mutants.py``) as a learner would (the release, the
instructor's solutions in the other cells, the entry's cells swapped in, saved
under ``<assignment>/<assignment>.ipynb`` in a scratch folder), and times
``check_saved`` on them: the time from asking to having the result as data.

It prints the first check's time (the service warming up: imports and the
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
import copy
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
import reftorch  # noqa: E402,F401  (before tests/ is on the path: tests/reftorch would pass for it)

sys.path += [str(REPO / "tests" / "exercises"), str(REPO / "tests")]

import nbformat  # noqa: E402

from exercise_mutants import APPENDED, BANK, RELEASE  # noqa: E402
from inprocess import run as grader_visible  # noqa: E402
from nbgrader_course import EXERCISES, SOLUTIONS  # noqa: E402
from stored import stored_notebook  # noqa: E402

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
        os.environ["AUTOGRADER_CHECK_SOCKET"] = str(scratch / "service.sock")
        from autograder.learner.check_service import check_saved, stop

        try:
            start = time.perf_counter()
            check_saved(saved_notebook(timed[0], scratch / "warm-up"))
            first = time.perf_counter() - start
            seconds, verdicts = [], {}
            for entry in timed:
                path = saved_notebook(entry, scratch / entry.name)
                begin = time.perf_counter()
                result = check_saved(path)
                seconds.append(time.perf_counter() - begin)
                verdicts[entry.name] = result
            load = os.getloadavg()
            median = statistics.median(seconds)
            print(f"self-check: first check (service starting: imports, zygote) {first:.2f} s")
            print(f"self-check: {len(seconds)} saved exercises, median {median:.2f} s "
                  f"(min {min(seconds):.2f}, max {max(seconds):.2f}); target <= {TARGET_SECONDS:.1f} s; "
                  f"load average {load[0]:.1f} on {os.cpu_count()} cores")
            checked = wrong if args.bank == "all" else timed
            differ = []
            for entry in checked:
                result = verdicts.get(entry.name)
                if result is None:
                    result = check_saved(saved_notebook(entry, scratch / entry.name))
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
        finally:
            stop()
    return 1 if differ or median > TARGET_SECONDS else 0


if __name__ == "__main__":
    sys.exit(main())
