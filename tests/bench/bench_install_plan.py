"""How long pip takes to plan torch's install with the Makefile's CPU index, against plain pip.

On a machine that cannot reach PyPI's CPU index (a package mirror only), the
extra index must cost seconds: this prints the median of three plans made with
the Makefile's torch arguments (`make torch-plan`) next to the same plan
without the extra index.
"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLAIN = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
         "--report", "-", "-c", "constraints.txt", "torch"]


def _median_seconds(command, runs=3):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=REPO, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ours = _median_seconds(["make", "-s", "torch-plan"])
    plain = _median_seconds(PLAIN)
    print(f"torch install plan with the CPU index (make torch-plan): {ours:.1f} s median of 3")
    print(f"the same plan without the extra index (plain pip):        {plain:.1f} s median of 3")
    print(f"cost of the CPU index on this machine: {ours - plain:+.1f} s")


if __name__ == "__main__":
    main()
