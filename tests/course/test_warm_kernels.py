"""A warm kernel (tests/course/warm_kernels.py) runs a chapter as a fresh kernel does, and leaves nothing behind."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from course_paths import COURSE
from warm_kernels import running_zygote

CHAPTER = COURSE / "02_names_and_objects.ipynb"
# What the kernel's process looks like (first line), then its generators: unseeded,
# new in every process (second line), and seeded, the same in every process (third).
SCRATCH = """import os, random, sys, numpy, torch
print(os.getcwd(), sys.argv[0], sys.path, sys.modules["__main__"].__name__, os.environ["WARM_KERNEL_PROBE"])
print("unseeded", random.random(), numpy.random.rand(), torch.rand(3))
torch.manual_seed(0)
print("seeded", torch.rand(3))
"""


def _run(cells, kernel_manager_class=None):
    nb = nbformat.v4.new_notebook(cells=[nbformat.from_dict(c) for c in cells])
    options = {} if kernel_manager_class is None else {"kernel_manager_class": kernel_manager_class}
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(CHAPTER.parent)}},
                   **options).execute()
    return nb


def _outputs(cell):
    """(type, stream name, text or text/plain, error name) of each output; a stream's pieces joined."""
    found = []
    for o in cell.get("outputs", []):
        text = o.get("text", "") + o.get("data", {}).get("text/plain", "")
        if found and o.output_type == "stream" and found[-1][:2] == ("stream", o.name):
            found[-1] = ("stream", o.name, found[-1][2] + text, None)
        else:
            found.append((o.output_type, o.get("name"), text, o.get("ename")))
    return found


def _scratch_lines(nb):
    return "".join(o[2] for o in _outputs(nb.cells[-1])).splitlines()


@pytest.fixture(scope="module")
def runs(warm_kernel_manager):
    """The chapter and the scratch cell in a fresh kernel and in a warm one; the scratch cell alone in another."""
    cells = nbformat.read(CHAPTER, as_version=4).cells + [nbformat.v4.new_code_cell(SCRATCH)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WARM_KERNEL_PROBE", "set after the zygote started")
        return {"cold": _run(cells), "warm": _run(cells, warm_kernel_manager),
                "warm again": _run(cells[-1:], warm_kernel_manager)}


def test_a_warm_kernel_prints_what_a_fresh_one_prints(runs):
    cold, warm = runs["cold"].cells, runs["warm"].cells
    for index, (a, b) in enumerate(zip(cold[:-1], warm[:-1])):
        assert _outputs(a) == _outputs(b), f"{CHAPTER.name} cell {index}"
    assert any(_outputs(c) for c in cold[:-1])
    cold_lines, warm_lines = _scratch_lines(runs["cold"]), _scratch_lines(runs["warm"])
    assert cold_lines[0] == warm_lines[0]  # folder, argv, sys.path, __main__, the environment of the launch
    assert cold_lines[0].endswith("set after the zygote started")
    assert cold_lines[2] == warm_lines[2] and cold_lines[2].startswith("seeded tensor(")


def test_each_warm_kernel_draws_new_random_numbers(runs):
    lines = [_scratch_lines(nb)[1] for nb in runs.values()]
    assert lines[0].startswith("unseeded") and len(set(lines)) == 3, lines
    first, second = (line.split(" ", 3) for line in lines[1:])
    assert all(a != b for a, b in zip(first[1:], second[1:])), (first, second)  # random, numpy, torch each


# At its exit a warm kernel leaves without tearing down the zygote's modules, but only once every
# exit handler has run: one the notebook registered, and a temporary folder's finalizer.
EXIT_HANDLERS = """import atexit, pathlib, tempfile
atexit.register(pathlib.Path({marker!r}).write_text, "ran")
kept = tempfile.TemporaryDirectory(dir={folder!r})
print(kept.name)
"""


def test_a_warm_kernel_runs_every_exit_handler_as_it_ends(warm_kernel_manager, tmp_path):
    nb = _run([nbformat.v4.new_code_cell(EXIT_HANDLERS.format(marker=str(tmp_path / "marker"), folder=str(tmp_path)))],
              warm_kernel_manager)
    kept = Path(_scratch_lines(nb)[0])
    assert kept.parent == tmp_path
    deadline = time.monotonic() + 10
    while not (tmp_path / "marker").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # nbclient has asked the kernel to shut down; it ends on its own
    assert (tmp_path / "marker").read_text() == "ran", "the notebook's exit handler did not run"
    assert not kept.exists(), "the temporary folder's finalizer did not run at the kernel's exit"


LEAVE = """
import os, sys, threading
sys.path.insert(0, {folder!r})
import warm_kernels
zygote = threading.Thread(target=warm_kernels.start_zygote)  # not the main thread: no parent-death signal
zygote.start(); zygote.join()
kernel = warm_kernels.start_zygote().launch({{"argv": ["-f", {connection!r}], "env": dict(os.environ), "cwd": {folder!r}}})
print(warm_kernels.start_zygote().process.pid, kernel, flush=True)
sys.stdin.readline()
os._exit(0)  # no clean-up: only the zygote's stdin closing tells it
"""


def test_no_kernel_outlives_the_test_process(tmp_path):
    script = LEAVE.format(folder=str(Path(__file__).parent), connection=str(tmp_path / "kernel.json"))
    test_process = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    zygote, kernel = map(int, test_process.stdout.readline().split())
    fds = {"zygote": os.pidfd_open(zygote), "kernel": os.pidfd_open(kernel)}
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "kernel.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # the kernel has written its connection file: it runs
        assert not select.select(list(fds.values()), [], [], 0)[0], "the kernel or its zygote ended early"
        test_process.communicate(b"\n", timeout=30)
        for name, fd in fds.items():
            assert select.select([fd], [], [], 30)[0], f"the {name} outlived the test process"
    finally:
        for fd in fds.values():
            os.close(fd)


def test_kernels_shut_down_by_nbclient_are_gone(executed_notebooks, runs):
    zygote = running_zygote()
    assert zygote is not None, "the zygote of this session died"
    children = Path("/proc/%d/task/%d/children" % ((zygote.process.pid,) * 2))
    deadline = time.monotonic() + 10
    while children.read_text().split() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert children.read_text().split() == []
