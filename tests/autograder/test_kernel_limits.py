"""Limits on one grading kernel as a whole, and on what one cell or one notebook may cost.

* Each sandboxed kernel runs in a control group of its own (``autograder.kernels.cgroups``):
  memory in ``memfd`` pages counts, processes count, the group is invisible
  from inside (the kernel's cgroup namespace is rooted at it) and is removed
  with the kernel.
* A seccomp filter (``autograder.kernels.syscall_filter``) refuses new namespaces
  (user namespaces first), ptrace, mount, bpf, perf_event_open, keyctl,
  userfaultfd, setns; ordinary work (threads, fork) still runs.
* A cell keeps at most ``max_outputs`` outputs; a flood is interrupted once.
* A notebook far larger than an exercise is not analysed: rebuilt as the
  blank release and flagged, in linear time.

The kernels are real: ``GradingKernelManager`` starts them in their sandbox,
warm (forked from the zygote) and cold.
"""

import asyncio
import copy
import json
import os
import time

import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from autograder.kernels import cgroups
from autograder.kernels.grading_kernels import GradingKernelManager
from autograder.pipeline.rebuild import MAX_SOURCE_CHARS, rebuild, reference_from_release
from autograder.kernels.output_cap import OutputCap
from autograder.pipeline.output_budget import OutputBudget
from autograder.pipeline.truncate import TruncateOutputs

PROBE = r'''
import ctypes, json, os, threading
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

def refused(number, *args):
    result = libc.syscall(number, *args)
    return result == -1 and ctypes.get_errno() == 1  # EPERM

# x86_64 numbers: unshare 272, setns 308, ptrace 101, mount 165, bpf 321,
# perf_event_open 298, keyctl 250, userfaultfd 323, clone 56
found = {
    "unshare_user": refused(272, 0x10000000),
    "unshare_net": refused(272, 0x40000000),
    "unshare_mount": refused(272, 0x00020000),
    "clone_new_user": refused(56, 0x10000000 | 17, 0, 0, 0, 0),
    "setns": refused(308, 0, 0),
    "ptrace": refused(101, 16, os.getppid(), 0, 0),
    "mount": refused(165, b"none", b"/tmp", b"tmpfs", 0, 0),
    "bpf": refused(321, 0, 0, 0),
    "perf_event_open": refused(298, 0, 0, -1, -1, 0),
    "keyctl": refused(250, 0, 0, 0, 0, 0),
    "userfaultfd": refused(323, 0),
    "cgroup": open("/proc/self/cgroup").read(),
}
thread = threading.Thread(target=lambda: None)
thread.start()
thread.join()
child = os.fork()
if child == 0:
    os._exit(7)
found["fork"] = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
print(json.dumps(found))
'''

MEMFD_HOG = r'''
import os
chunk = b"x" * (16 << 20)
files = []
for n in range(64):  # 1 GiB, in files below RLIMIT_FSIZE, none of it mapped (RLIMIT_AS)
    files.append(os.memfd_create("hog"))
    os.write(files[-1], chunk)
    print("held", (n + 1) * 16, flush=True)
'''

THREADS = r'''
import threading, time
made = 0
try:
    for n in range(200):
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        made += 1
except RuntimeError as error:
    print("stopped", made, error)
'''


async def _run(code, warm, cwd=None, **limits):
    """Run ``code`` in a fresh sandboxed kernel: (printed text, kernel alive after, its cgroup folders)."""
    km = GradingKernelManager(warm=warm, **limits)
    await km.start_kernel(**({"cwd": cwd} if cwd else {}))
    folders = km.provisioner.kernel.sandbox.cgroup_folders()
    kc = km.client()
    kc.start_channels()
    try:
        await kc.wait_for_ready(timeout=120)
        msg_id = kc.execute(code)
        printed = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                msg = await kc.get_iopub_msg(timeout=1)
            except Exception:  # queue.Empty: is the kernel still there?
                if not await km.is_alive():
                    break
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                printed.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                printed.append("%s: %s\n" % (msg["content"]["ename"], msg["content"]["evalue"]))
            elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        alive = await km.is_alive()
    finally:
        kc.stop_channels()
        await km.shutdown_kernel(now=True)
    return "".join(printed), alive, folders


def run(code, warm=True, cwd=None, **limits):
    return asyncio.run(_run(code, warm, cwd, **limits))


@pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])
def test_a_kernel_starts_in_its_folder_named_like_the_graders_kernel_folders(tmp_path, needs_sandbox, warm):
    """The kernel's folder is /tmp/<name of the grader's folder>. The grader's kernel folders
    (/tmp/autograder-kernels-*) are no longer visible at their host path in the sandbox (the kernel
    sees its own at /kernel), so a folder of that name is the kernel's, without a suffix; a name the
    sandbox does hold (a course cloned in /tmp/<name>) still gets one (kernel_launch._private_folder)."""
    from autograder.kernels.grading_kernels import _kernel_folders_root

    named = tmp_path / os.path.basename(_kernel_folders_root())
    named.mkdir()
    printed, alive, _ = run("import os\nprint(os.getcwd())", warm, cwd=str(named))
    assert alive and printed.split()[0] == "/tmp/" + named.name, printed


@pytest.fixture(scope="module")
def probed(needs_sandbox):
    return {warm: run(PROBE, warm) for warm in (True, False)}


@pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])
def test_the_kernel_cannot_make_namespaces_or_reach_the_machine(probed, warm):
    printed, alive, _ = probed[warm]
    found = json.loads(printed)
    for call in ("unshare_user", "unshare_net", "unshare_mount", "clone_new_user", "setns", "ptrace",
                 "mount", "bpf", "perf_event_open", "keyctl", "userfaultfd"):
        assert found[call] is True, "%s was not refused by the seccomp filter" % call
    assert found["fork"] == 7 and alive  # threads and fork still work


@pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])
def test_the_kernel_sees_its_own_control_group_as_the_root(probed, warm):
    printed, _, folders = probed[warm]
    groups = json.loads(printed)["cgroup"]
    assert folders, "the kernel had no control group"
    for line in groups.splitlines():
        assert "autograder" not in line, "the grader's groups show: %s" % groups


@pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])
def test_the_control_group_is_removed_with_the_kernel(probed, warm):
    _, _, folders = probed[warm]
    assert folders and not any(os.path.exists(folder) for folder in folders)


def test_memory_held_in_memfd_pages_stops_at_the_kernels_limit(needs_sandbox):
    limit = 256 << 20
    printed, alive, _ = run(MEMFD_HOG, kernel_memory_limit=limit)
    held = [int(line.split()[1]) for line in printed.splitlines() if line.startswith("held")]
    assert held, printed  # it got going
    assert max(held) << 20 <= limit and not alive, "memfd pages escaped the kernel's memory limit"


def test_threads_and_processes_together_stop_at_the_pids_limit(needs_sandbox):
    printed, alive, _ = run(THREADS, pids_limit=64)
    assert printed.startswith("stopped") and alive, printed
    assert int(printed.split()[1]) < 64


def test_the_control_group_files_hold_the_limits(needs_sandbox):
    group = cgroups.KernelCgroup(cgroups.CgroupLimits(memory_bytes=300 << 20, cpus=0.5, pids=33))
    try:
        values = {}
        for folder in group.folders:
            for name in ("memory.max", "memory.limit_in_bytes", "cpu.max", "cpu.cfs_quota_us",
                         "cpu.weight", "cpu.shares", "pids.max"):
                path = os.path.join(folder, name)
                if os.path.exists(path):
                    with open(path) as f:
                        values[name] = f.read().split()[0]
        if group.hierarchy.version == 2:
            assert values == {"memory.max": str(300 << 20), "cpu.max": "50000", "cpu.weight": "100",
                              "pids.max": "33"}
        else:
            assert values == {"memory.limit_in_bytes": str(300 << 20), "cpu.cfs_quota_us": "50000",
                              "cpu.shares": "1024", "pids.max": "33"}
    finally:
        assert group.remove()
    assert not any(os.path.exists(folder) for folder in group.folders)


# -- the output count ---------------------------------------------------------------------

def _stream(text, name="stdout"):
    return {"msg_type": "stream", "content": {"name": name, "text": text}}


def test_a_cell_keeps_at_most_max_outputs_and_says_so_once():
    cap = OutputCap(OutputBudget(max_outputs=5, flood_factor=3))
    outs, said = [], []
    for n in range(20):
        refused = cap.refuse(outs, _stream("x"), 0)
        if refused is None:
            outs.append(new_output("stream", name="stdout", text="x"))
        elif refused:
            said.append(refused)
    assert len(outs) == 6 and "first 5" in outs[-1].text
    assert said == ["made more than 5 outputs; the rest were dropped",
                    "interrupt: made more than 15 outputs and was interrupted"]


def test_results_and_errors_are_never_dropped_and_a_dropped_stderr_still_scores_0():
    cap = OutputCap(OutputBudget(max_outputs=2))
    outs = [new_output("stream", name="stdout", text="a"), new_output("stream", name="stdout", text="b")]
    assert cap.refuse(outs, {"msg_type": "execute_result", "content": {}}, 0) is None
    assert cap.refuse(outs, {"msg_type": "error", "content": {}}, 0) is None
    assert cap.refuse(outs, _stream("oops", "stderr"), 0) is not None
    assert [o.get("name") for o in outs if o.output_type == "stream"][-1] == "stderr"


def test_a_cell_over_the_output_count_is_cut_after_execution_keeping_its_result():
    cell = new_code_cell("x")
    cell.outputs = ([new_output("display_data", data={"text/plain": "1"}) for _ in range(50)]
                    + [new_output("stream", name="stderr", text="warn")]
                    + [new_output("execute_result", data={"text/plain": "3"}, execution_count=1)])
    TruncateOutputs(budget=OutputBudget(max_outputs=10)).truncate_cell(cell)
    kinds = [o.output_type for o in cell.outputs]
    assert len(cell.outputs) == 13 and kinds.count("execute_result") == 1
    assert cell.outputs[-1].get("name") == "stderr"  # the cell still scores 0, as nbgrader would


# -- the size cap -------------------------------------------------------------------------

def _release():
    meta = {"nbgrader": {"grade": False, "grade_id": "answer", "locked": False, "schema_version": 3,
                         "solution": True, "task": False}}
    test = {"nbgrader": {"grade": True, "grade_id": "test", "locked": True, "points": 1,
                         "schema_version": 3, "solution": False, "task": False}}
    return new_notebook(cells=[new_markdown_cell("# Exercise"),
                               new_code_cell("def f():\n    raise NotImplementedError()", metadata=meta),
                               new_code_cell("assert f() == 1", metadata=test)])


class _CountedLines(list):
    """A cell's source as a list of lines (nbformat allows it) that counts the lines read."""

    read = 0

    def __iter__(self):
        for item in super().__iter__():
            self.read += 1
            yield item


def test_a_notebook_far_larger_than_an_exercise_is_rebuilt_blank_and_flagged_in_linear_time():
    release = _release()
    bomb = copy.deepcopy(release)
    lines = _CountedLines("def f%d(x):\n    return x + %d\n\n" % (n, n) for n in range(100_000))
    bomb.cells[1].source = lines
    assert sum(map(len, list.__iter__(lines))) > 10 * MAX_SOURCE_CHARS
    nb, notes = rebuild(bomb, reference_from_release(release), release.metadata)
    assert lines.read <= len(lines)  # one pass at most over the source: linear, whatever its size
    assert nb.cells[1].source == release.cells[1].source and notes == []
    assert "more than an exercise needs" in nb.metadata["autograder"]["not_graded"]


def test_a_notebook_of_exercise_size_is_rebuilt_as_usual():
    release = _release()
    answer = copy.deepcopy(release)
    answer.cells[1].source = "def f():\n    return 1\n" + "# a comment\n" * 1000
    nb, _ = rebuild(answer, reference_from_release(release), release.metadata)
    assert nb.cells[1].source == answer.cells[1].source and "autograder" not in nb.metadata
