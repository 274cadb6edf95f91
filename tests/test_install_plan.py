"""The install takes torch's CPU build: the plan pip makes from the Makefile's own torch line.

`make torch-plan` asks pip, with exactly the arguments `make lab`/`make test`
use, what it would install for torch, and prints pip's JSON report. On Linux
the answer must be the `+cpu` build and no CUDA package at all. (Here PyTorch's
CPU index cannot be reached, and pip falls back to the local CPU wheel; the
time that costs is printed by `make bench`, tests/bench/bench_install_plan.py.)
"""

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _variable(text, name):
    return re.search(rf"^{name}\s*:?=\s*(.+)$", text, re.M).group(1).strip()


def torch_plan():
    done = subprocess.run(["make", "-s", "torch-plan"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return {item["metadata"]["name"].lower(): item for item in json.loads(done.stdout)["install"]}


def test_the_makefile_asks_pytorchs_cpu_index_for_torch_like_binder():
    makefile = (REPO / "Makefile").read_text()
    binder = (REPO / "binder" / "requirements.txt").read_text()
    index = _variable(makefile, "TORCH_INDEX")
    assert index == "https://download.pytorch.org/whl/cpu"
    assert f"--extra-index-url {index}" in binder
    args = _variable(makefile, "TORCH_PIP_ARGS")
    assert "--extra-index-url $(TORCH_INDEX)" in args and "-c constraints.txt" in args
    # a short timeout: an unreachable index must cost seconds, not minutes
    assert int(re.search(r"--timeout (\d+)", args).group(1)) <= 15
    assert "$(TORCH_PIP_ARGS)" in makefile.split("$(STAMP):", 1)[1]


def test_torch_resolves_to_the_cpu_build_and_nothing_from_cuda():
    plan = torch_plan()
    # the +cpu build on Linux; on macOS PyPI's plain wheel is the CPU build
    expected = "2.13.0+cpu" if sys.platform.startswith("linux") else "2.13.0"
    assert plan["torch"]["metadata"]["version"] == expected
    cuda = sorted(name for name in plan if name.startswith(("nvidia", "triton", "cuda")))
    assert not cuda, cuda
