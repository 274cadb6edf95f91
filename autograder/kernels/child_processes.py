"""Two chores of a process that starts others through a pipe: the zygotes and their owners.

* :func:`reap_exited` collects every child that has exited, without waiting for one
  that still runs (a zygote's SIGCHLD handler: its launchers or kernels);
* :func:`close_and_wait` ends a process that runs until its stdin closes (the
  owner's end of a zygote's pipe), killing it if it does not end in time.

Standard library only: the course tests' zygote (tests/course/warm_kernels.py)
imports this module too, before it forks the learner's kernels, so it must
bring no other module of the grader along.
"""

import os
import subprocess


def reap_exited():
    """Collect every child of this process that has exited; return their pids (none waits)."""
    reaped = []
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid == 0:
            return reaped
        reaped.append(pid)


def close_and_wait(process, timeout):
    """Close the stdin of ``process`` (a ``subprocess.Popen``) if it still runs, and wait up to
    ``timeout`` seconds for it to end; kill it if it has not."""
    if process.poll() is not None:
        return
    process.stdin.close()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
