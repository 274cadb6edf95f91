"""A test run that is stopped leaves nothing running.

A real pytest, in a session of its own, runs a grading test that starts a
learner's Jupyter server, whose self-check handler (``autograder.learner.check_extension``)
starts the grader's kernel zygote and sandboxed kernels. Once both are up, the run is
stopped the way a developer stops it: Ctrl-C (SIGINT to its process group) or
SIGTERM to pytest alone (no fixture tears down then). Every process that was part
of that run (marked with its ``COURSE_TEST_RUN``, or below a marked one or below
pytest itself; see tests/run_processes.py) must be gone shortly after pytest exits.
"""

import os
import signal
import subprocess
import sys
import time

import pytest

from run_processes import processes_of_run

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRADING_TEST = "tests/autograder/test_check_extension.py::test_each_check_equals_a_fresh_kernels_whatever_ran_before"


def _command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _alive(pids):
    alive = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                    alive.add(pid)
        except OSError:
            pass
    return alive


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_a_stopped_grading_run_leaves_no_server_zygote_or_kernel(stop, needs_sandbox, tmp_path):
    run = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                            "-p", "no:xdist", f"--basetemp={tmp_path / 'run'}", GRADING_TEST],
                           cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    seen = set()
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and run.poll() is None:
            seen |= processes_of_run(f"{run.pid}-", run.pid)
            lines = {pid: _command_line(pid) for pid in _alive(seen)}
            if (any("jupyter-lab" in line for line in lines.values())   # `jupyter lab` execs jupyter-lab
                    and any("kernel_zygote" in line for line in lines.values())):
                break
            time.sleep(0.2)
        assert run.poll() is None, "the run ended before its server and zygote were up:\n" + run.stdout.read().decode()
        time.sleep(1)   # a kernel or two more
        seen |= processes_of_run(f"{run.pid}-", run.pid)
        if stop == "ctrl-c":
            os.killpg(run.pid, signal.SIGINT)
        else:
            os.kill(run.pid, signal.SIGTERM)
        output = run.communicate(timeout=120)[0].decode(errors="replace")
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode != 0, output[-3000:]
    deadline = time.monotonic() + 30  # the run's watcher gives each process 5 s to end on SIGTERM
    while _alive(seen) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = {pid: _command_line(pid) for pid in _alive(seen)}
    assert left == {}, (left, output[-3000:])
