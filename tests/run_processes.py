"""The processes of one test run, found after the fact, and how to end them (tests/conftest.py).

Every process of a run carries ``RUN_MARK=<pid of the run's pytest>-<random>`` in its environment,
set by tests/conftest.py before any worker or fixture starts. A process whose environment was
made anew (the grader's zygote and kernels) is found by its parent instead.

``python tests/run_processes.py PID MARK`` is the run's watcher: it waits for the run's pytest
(PID) to exit, however it exits (a fixture's teardown may never run: SIGTERM, SIGKILL, and
nbclient resets SIGTERM to its default after every notebook it runs in the test process),
then ends every process that still carries MARK.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time

RUN_MARK = "COURSE_TEST_RUN"


def _processes():
    """``{pid: (parent pid, environment as bytes)}`` of every process now running."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                parent = int(f.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                environment = f.read()
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or a kernel thread
        found[int(entry.name)] = (parent, environment)
    return found


def processes_of_run(mark_prefix: str, root: int) -> set[int]:
    """The pids that carry ``RUN_MARK=<mark_prefix>...`` or descend from one of them or from ``root``."""
    table = _processes()
    wanted = f"{RUN_MARK}={mark_prefix}".encode()
    found = {pid for pid, (_, env) in table.items()
             if any(v.startswith(wanted) for v in env.split(b"\0"))} | {root}
    grew = True
    while grew:
        below = {pid for pid, (parent, _) in table.items() if parent in found} - found
        found |= below
        grew = bool(below)
    return found - {root}


def end_processes(pids, grace=5.0):
    """SIGTERM to ``pids``, then SIGKILL to any still there after ``grace`` seconds."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, sig)
        deadline = time.monotonic() + grace
        while pids and time.monotonic() < deadline:
            pids = {pid for pid in pids if os.path.exists(f"/proc/{pid}") and not _zombie(pid)}
            time.sleep(0.1)
        if not pids:
            return


def _zombie(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return True


def watch(pid: int, mark: str) -> None:
    """Wait for ``pid`` to exit, then end what is left of the run marked ``mark``."""
    if not hasattr(os, "pidfd_open") or not os.path.isdir("/proc"):
        return  # not Linux: nothing to read the processes from
    with contextlib.suppress(ProcessLookupError):
        select.select([os.pidfd_open(pid)], [], [])
    left = processes_of_run(mark, os.getpid())
    if left:
        end_processes(left)


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.argv[2])
