"""Time the differential suite before and after reftorch's storage left numpy, in one run.

"Before" is the commit just before ``src/reftorch/_storage.py`` stopped
importing numpy (found in git history, or ``BENCH_BASE=<commit>``); "after" is
this checkout's HEAD. Both trees are exported with ``git archive`` into
temporary folders and run with this same Python, torch and pytest, so the only
difference is the code. Each prints its wall time, its result line and the
ratio. ``BENCH_WORKERS`` (default 2) is pytest-xdist's ``-n``; the kernel family
is whatever ``ATEN_CPU_CAPABILITY`` says (torch's own choice if unset).
"""

import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STORAGE = "src/reftorch/_storage.py"


def git(*args, binary=False):
    out = subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True)
    return out.stdout if binary else out.stdout.decode()


def base_commit():
    """The parent of the newest commit that took numpy out of the storage module."""
    if os.environ.get("BENCH_BASE"):
        return git("rev-parse", os.environ["BENCH_BASE"]).strip()
    without_numpy = None
    for commit in git("log", "--format=%H", "HEAD", "--", STORAGE).split():
        if "import numpy" in git("show", f"{commit}:{STORAGE}"):
            break
        without_numpy = commit
    else:
        sys.exit(f"no commit in this history has a {STORAGE} that imports numpy: set BENCH_BASE")
    if without_numpy is None:
        sys.exit(f"HEAD's {STORAGE} still imports numpy: nothing to compare with")
    return git("rev-parse", f"{without_numpy}^").strip()


def export(commit, folder):
    """The tracked files of ``commit`` (no .venv, no caches) in ``folder``."""
    archive = Path(folder) / "tree.tar"
    archive.write_bytes(git("archive", "--format=tar", commit, binary=True))
    tree = Path(folder) / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def time_suite(tree):
    """(seconds, pytest's last line) for tests/differential of ``tree``, on ``tree``'s own code."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree / "src"), str(tree)]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
               "-n", os.environ.get("BENCH_WORKERS", "2"), "tests/differential"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    summary = lines[-1] if lines else done.stderr.strip().splitlines()[-1]
    if done.returncode != 0:
        sys.exit(f"the differential suite failed in {tree}:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return seconds, re.sub(r"=+", "", summary).strip()


def main():
    base, head = base_commit(), git("rev-parse", "HEAD").strip()
    capability = os.environ.get("ATEN_CPU_CAPABILITY", "(torch's choice)")
    print(f"differential suite, ATEN_CPU_CAPABILITY={capability}, -n {os.environ.get('BENCH_WORKERS', '2')}")
    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        for label, commit in (("numpy storage", base), ("stdlib storage", head)):
            folder = Path(scratch) / label.split()[0]
            folder.mkdir()
            results[label] = (commit, *time_suite(export(commit, folder)))
    for label, (commit, seconds, summary) in results.items():
        print(f"{label:<15} {commit[:10]}  {seconds:7.1f} s   {summary}")
    before, after = results["numpy storage"][1], results["stdlib storage"][1]
    print(f"after / before: {after / before:.2f}")


if __name__ == "__main__":
    main()
