"""In the zygote: import once, then fork one child per kernel asked for.

A *zygote* is a process that imports what every kernel needs (ipykernel,
torch or reftorch, ...) and then forks.  A forked child is a new process
whose memory starts as a copy of the zygote's (pages are shared until
written): the modules are already imported, but nothing a notebook did is
there, since the zygote never runs a notebook and each child is a fork of
the zygote, never of another kernel.

The caller's module is the zygote's ``__main__``: it imports
(:func:`warmkernels.frozen_imports.import_frozen`) and then hands :func:`serve`
its *launch* function, which the child calls with the request and a ``report``
callback.  ``launch`` reports the kernel's pid once the kernel exists (the
child itself, or a process it forked), and returns only when the kernel has
ended.

Protocol, one JSON line each way on stdin/stdout (a pipe only the zygote's
owner holds, :class:`warmkernels.process.Zygote`)::

    <- {"ready": <zygote pid>}                      once, when the imports are done
    -> {"argv": [...], "env": {...}, "cwd": "...", ...}   what the caller's launch reads
    <- {"pid": <kernel pid>}                        or {"error": "..."}

The zygote ends when its stdin closes (its owner closed it, or died), and
kills every child that still runs.
"""

import ctypes
import json
import os
import signal
import traceback

from .frozen_imports import collect_and_freeze

PR_SET_PDEATHSIG = 1


def die_with_parent():
    """SIGKILL this process when the thread that started it ends."""
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")


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


def fork_child(request, launch, closing):
    """Fork a child that calls ``launch(request, report)``; return ``(child pid, kernel pid)``.

    In the child this returns ``None`` once ``launch`` has returned (the kernel ended)."""
    read_fd, write_fd = os.pipe()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # the child is counted before it is reaped
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the zygote's reaper must not take the kernel
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        os.close(read_fd)
        for stream in closing:
            stream.close()

        def report(kernel_pid):
            os.write(write_fd, b"%d\n" % kernel_pid)
            os.close(write_fd)

        try:
            launch(request, report)
        except SystemExit:
            raise  # the kernel's own exit: the interpreter ends as usual
        except BaseException:
            traceback.print_exc()  # on the zygote's stderr; the owner is told the launch failed
            os._exit(1)
        return None
    os.close(write_fd)
    return pid, read_fd


def serve(launch):
    """Answer requests until stdin closes (see the module docstring).  Returns in a child whose
    kernel has ended (its caller then exits as an interpreter does), and in the zygote at the end."""
    # What the imports made stays shared with every kernel: the cycle collector of a forked kernel
    # would otherwise walk (and write the headers of, so copy) every object imported here, each
    # time a full collection runs (docs/decisions/0029-one-warm-kernel-provisioner.md).
    collect_and_freeze()
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # a stray print must not corrupt the replies
        os.dup2(devnull, fd)
    os.close(devnull)
    children = set()

    def reap(signum, frame):
        children.difference_update(reap_exited())

    signal.signal(signal.SIGCHLD, reap)
    replies.write(json.dumps({"ready": os.getpid()}).encode() + b"\n")
    replies.flush()
    for line in requests:
        try:
            forked = fork_child(json.loads(line.decode("utf-8", "replace")), launch, (requests, replies))
            if forked is None:
                return  # in the child: its kernel has ended
            children.add(forked[0])
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            with os.fdopen(forked[1], "rb") as answer:
                told = answer.readline()
            if not told.strip().isdigit():
                raise RuntimeError("the kernel's launcher failed before starting a kernel")
            reply = {"pid": int(told)}
        except Exception as error:  # noqa: BLE001 - reported to the owner, which fails that kernel
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            reply = {"error": "%s: %s" % (type(error).__name__, error)}
        replies.write(json.dumps(reply).encode() + b"\n")
        replies.flush()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for pid in children:  # not shut down by their owners: the owner ended without them
        for kill in (os.killpg, os.kill):  # a kernel leads a process group of its own; a launcher does not
            try:
                kill(pid, signal.SIGKILL)
            except OSError:
                pass
    for pid in children:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
