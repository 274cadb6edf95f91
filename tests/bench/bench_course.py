"""How long the whole course takes to execute, as `make test` runs it.

Every notebook in course/ runs top to bottom in its own fresh kernel, two at a
time (the machine has 2 cores).  Prints each notebook's time, the sum (what a
one-at-a-time run would cost), the wall-clock total, and the per-notebook floor
(kernel start + `import torch`) measured on an empty notebook.

Wall-clock time on a shared machine depends on what else runs on it, so the
script also prints the CPU time all the kernels used (user + system, read from
the finished child processes): divided by the 2 cores, it is the wall-clock
time the course would take on an otherwise idle machine, at best.

Target: the whole course in 45 s or less of wall-clock time on 2 cores.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from coursebook.execution import execute_all, execute_notebook

COURSE = Path(__file__).resolve().parents[2] / "course"
TARGET_SECONDS = 45.0
WORKERS = 2


def children_cpu_seconds() -> float:
    """User + system CPU time of every finished (and reaped) child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def floor_seconds() -> float:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import torch")]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "floor.ipynb"
        nbformat.write(nb, path)
        return execute_notebook(path).seconds


def main() -> int:
    notebooks = sorted(COURSE.glob("*.ipynb"))
    floor = floor_seconds()
    cpu_before = children_cpu_seconds()
    start = time.perf_counter()
    runs = execute_all(notebooks, workers=WORKERS)
    wall = time.perf_counter() - start
    cpu = children_cpu_seconds() - cpu_before
    print(f"{'notebook':45s} {'seconds':>8s}")
    for path, run in runs.items():
        status = "" if run.error is None else "  FAILED"
        print(f"{path.name:45s} {run.seconds:8.2f}{status}")
    total = sum(r.seconds for r in runs.values())
    print(f"{'sum of notebooks (one kernel at a time)':45s} {total:8.2f}")
    print(f"{'wall clock, 2 kernels at a time':45s} {wall:8.2f}   target <= {TARGET_SECONDS:.0f}")
    print(f"{'CPU time of all kernels':45s} {cpu:8.2f}")
    print(f"{'CPU time / 2 cores (idle-machine wall time)':45s} {cpu / WORKERS:8.2f}   target <= {TARGET_SECONDS:.0f}")
    print(f"{'floor per notebook (kernel + import torch)':45s} {floor:8.2f}")
    print(f"{'floor x notebooks / 2 workers':45s} {floor * len(notebooks) / 2:8.2f}")
    failed = [p.name for p, r in runs.items() if r.error is not None]
    if failed:
        print("failed:", ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
