"""How long `make book` takes: the whole site, English and Chinese, built once.

Prints the wall-clock time and the CPU seconds of the build and its kernels
(read from the finished child processes). On a shared machine the clock says
little; the CPU seconds divided by the 2 cores are what the build would need at
least on 2 cores of its own.

Target: at most 5 minutes on 2 cores (tests/book/test_book_site.py prints the
same figures, and asserts none).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from bench_course import children_cpu_seconds  # this folder is on sys.path: the script runs from it

REPO = Path(__file__).resolve().parents[2]
TARGET_SECONDS = 300.0
CORES = 2


def main() -> int:
    started, cpu = time.perf_counter(), children_cpu_seconds()
    run = subprocess.run([sys.executable, "-m", "book"], cwd=REPO, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - started, children_cpu_seconds() - cpu
    if run.returncode != 0:
        print(run.stderr[-3000:])
        return 1
    print(f"book built in {seconds:.0f} s of wall clock, {cpu:.0f} CPU seconds "
          f"(at least {cpu / CORES:.0f} s on {CORES} cores of its own; target {TARGET_SECONDS:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
