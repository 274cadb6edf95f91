"""Run reftorch's own tests where numpy is not installed: only the numpy bridge may skip.

``make test-no-numpy`` runs this with the Python of a throw-away venv that holds
torch, pytest and hypothesis, and no numpy; reftorch comes from this checkout's
``src/`` (on ``PYTHONPATH``, for the programs some tests run in a new process
too). It fails if numpy can be imported there, if any test fails, or if a
test skips whose name does not say ``numpy`` (the bridge's tests skip by name,
saying numpy is not installed; nothing else may skip).

Left out: ``tests/reftorch/test_method_tables.py`` imports ``coursebook`` (the
course's side, which needs JupyterLab's packages), and ``tests/conftest.py``
(``--noconftest``) sets up JupyterLab and Chromium for the browser tests.
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/reftorch", "--ignore", "tests/reftorch/test_method_tables.py", "tests/test_tensor_str.py",
    "tests/test_seed_programs.py", "tests/test_seed_programs_inplace_metadata.py", "tests/test_seed_programs_sparse.py",
]


class Skips:
    """Every test that skipped, by node id."""

    def __init__(self):
        self.names = []

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            self.names.append(report.nodeid)


def main():
    if importlib.util.find_spec("numpy") is not None:
        sys.exit("numpy can be imported here: this run must show that reftorch works without it")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    skips = Skips()
    code = pytest.main(["-q", "--noconftest", "-p", "no:cacheprovider", "-rs", *TESTS], plugins=[skips])
    others = [name for name in skips.names if "numpy" not in name]
    print(f"without numpy: {len(skips.names)} numpy-bridge test(s) skipped by name, {len(others)} other skip(s)")
    if others:
        print("only the numpy bridge may skip without numpy; these skipped too:", *others, sep="\n  ")
        sys.exit(1)
    sys.exit(code)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
