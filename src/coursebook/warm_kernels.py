"""Warm kernels for the course tests and the book: fork each notebook's kernel from a process that imported torch once.

Why: the course tests run about 40 notebooks, and the book's build
(``book``) 46 (every chapter in English and in Chinese), each in a new
``python3`` kernel, and a new kernel spends about 2.5 CPU-seconds before its first cell
does anything useful (ipykernel starting, then ``import torch``, reftorch,
coursebook, memdiagram).  On the two cores that ``make test`` gets, that was
more than half of the course tests' CPU.  The *zygote* pays those imports once
and then forks one child per kernel; each child becomes an ordinary ipykernel
kernel, and nbclient executes every cell through the real kernel protocol.

What a forked kernel shares with the zygote: the imported modules (the same
objects a fresh kernel would build when it imports them) and their
import-time state.  Nothing a notebook did: the zygote never runs a notebook,
never starts an IPython shell, and each kernel is a fork of the zygote, never
of another kernel.  The child then does what a fresh ``python -m
ipykernel_launcher -f <connection file>`` would do differently:

* it takes the environment jupyter_client passes to ``launch_kernel`` (not
  the zygote's; ``JPY_PARENT_PID`` included, as jupyter_client's launcher
  adds it), and the working directory it asks for (the notebook's folder);
* it gets a session and process group of its own, stdin on /dev/null, and
  ``sys.argv``/``sys.path`` as the launcher leaves them;
* Python's ``random``, numpy's global generator and torch's default
  generator are reseeded from the OS, as a new process seeds them (torch
  2.13 too picks a new ``initial_seed()`` in every process: without the
  reseed, every warm kernel would print the same ``torch.rand(3)``);
* ipywidgets registers its comm targets with the new kernel, as its import
  does in a fresh kernel.

What stays different: the hash seed of ``str`` (one per zygote, so every warm
kernel of a session iterates a set of strings in the same order), environment
variables read at import time by the preloaded modules (read from the
zygote's environment: the test process's), and the kernel's parent (the
zygote, not the test process).

Only for the tests (``tests/course/conftest.py``) and the book's build
(``book.execute``), which runs every chapter top to bottom as the tests do:
learners' kernels start fresh (``coursebook.execution`` keeps
jupyter_client's default).  The instructor side's zygote
(``autograder.kernels.kernel_zygote``) does the same in a sandbox; this one is small
and stands alone, so the course tests never import the autograder.

Protocol, one JSON line each way on the zygote's stdin/stdout::

    <- {"ready": <zygote pid>}                            once, when the imports are done
    -> {"argv": ["-f", "<connection file>"], "env": {...}, "cwd": "<notebook folder>"}
    <- {"pid": <kernel pid>}

The zygote ends when its stdin closes (the test process closed it, or died)
and kills every kernel it forked that is still running; each kernel also dies
with the zygote (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import random
import select
import signal
import subprocess
import sys
import threading
import uuid

from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

PRELOAD = ["numpy", "torch", "reftorch", "coursebook", "coursebook.build_it", "coursebook.timing",
           "memdiagram", "ipywidgets", "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell"]
PR_SET_PDEATHSIG = 1


def _die_with_parent():
    """SIGKILL this process when the thread that started it ends."""
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")


# -- in the zygote -------------------------------------------------------------------------

def _serve(requests, replies):
    """Fork a kernel per request.  Returns the request in the child; None (in the zygote) at EOF."""
    kernels = set()

    def reap(signum, frame):
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            kernels.discard(pid)

    signal.signal(signal.SIGCHLD, reap)
    for line in requests:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            requests.close()
            replies.close()
            return request
        kernels.add(pid)
        replies.write(json.dumps({"pid": pid}).encode() + b"\n")
        replies.flush()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for pid in kernels:  # not shut down by their managers: the test session ended without them
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    for pid in kernels:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    return None


def _become_kernel(request):
    """In the forked child: the state a fresh kernel process starts with, then ipykernel's app."""
    os.setsid()  # as jupyter_client's start_new_session: interrupts go to this group
    _die_with_parent()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # low-level output, if ipykernel does not capture it, goes to the session's stderr
    os.close(devnull)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.argv = [importlib.util.find_spec("ipykernel_launcher").origin] + request["argv"]
    random.seed()
    sys.modules["numpy"].random.seed()
    sys.modules["torch"].seed()
    # parent_handle's default was read from the zygote's environment when ipykernel was imported
    parent = int(os.environ.get("JPY_PARENT_PID") or 0)
    app = sys.modules["ipykernel.kernelapp"].IPKernelApp.instance(parent_handle=parent)
    app.initialize(request["argv"])
    sys.modules["ipywidgets"].register_comm_target()
    app.start()


def zygote_main():
    if sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # this folder is not on a kernel's path
    if "--die-with-parent" in sys.argv:
        _die_with_parent()
    for name in PRELOAD:
        __import__(name)
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # a stray print must not corrupt the replies
        os.dup2(devnull, fd)
    os.close(devnull)
    replies.write(json.dumps({"ready": os.getpid()}).encode() + b"\n")
    replies.flush()
    request = _serve(requests, replies)
    if request is not None:
        _become_kernel(request)  # returns when the kernel shuts down; the interpreter exits as usual


# -- in the process that runs the notebooks (the tests, the book's build) ------------------------------------------------------------------

class Zygote:
    """The test process's end of the pipe to a zygote; it imports in the background."""

    def __init__(self):
        # Started from the main thread, the zygote dies with the test process even before
        # its stdin closes; from another thread, PDEATHSIG would fire when that thread ends.
        flag = ["--die-with-parent"] if threading.current_thread() is threading.main_thread() else []
        self.process = subprocess.Popen([sys.executable, os.path.abspath(__file__)] + flag,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        start_new_session=True)
        self._lock = threading.Lock()
        self._ready = False

    def _reply(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the kernel zygote exited (its traceback is on stderr)")
        return json.loads(line)

    def launch(self, argv, env, cwd):
        """Fork a kernel; returns its pid."""
        with self._lock:
            if not self._ready:
                self._reply()
                self._ready = True
            request = {"argv": argv, "env": env, "cwd": cwd}
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            return int(self._reply()["pid"])

    def alive(self):
        return self.process.poll() is None

    def close(self):
        """Close its stdin: it kills the kernels still running, then exits."""
        if self.alive():
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()


_zygote: Zygote | None = None


def start_zygote() -> Zygote:
    """This process's zygote, started now if it is not running."""
    global _zygote
    if _zygote is None or not _zygote.alive():
        _zygote = Zygote()
    return _zygote


def running_zygote() -> Zygote | None:
    return _zygote if _zygote is not None and _zygote.alive() else None


def stop_zygote():
    global _zygote
    if _zygote is not None:
        _zygote.close()
        _zygote = None


class ForkedKernel:
    """The part of ``subprocess.Popen`` jupyter_client uses, for a kernel the zygote forked.

    The kernel is the zygote's child, not ours, so it is followed through a
    pidfd (no signal can reach a process that later reuses its pid), and its
    exit status stays with the zygote: ``poll`` and ``wait`` report 0 once it
    has ended.
    """

    stdin = stdout = stderr = None

    def __init__(self, pid):
        self.pid = pid
        self.returncode = None
        self._pidfd = os.pidfd_open(pid)

    def _ended(self, timeout):
        if self.returncode is None and select.select([self._pidfd], [], [], timeout)[0]:
            self.returncode = 0
            os.close(self._pidfd)
        return self.returncode is not None

    def poll(self):
        self._ended(0)
        return self.returncode

    def wait(self, timeout=None):
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired("kernel %d" % self.pid, timeout)
        return self.returncode

    def send_signal(self, signum):
        if self.poll() is None:
            signal.pidfd_send_signal(self._pidfd, signum)

    def kill(self):
        self.send_signal(signal.SIGKILL)

    def terminate(self):
        self.send_signal(signal.SIGTERM)


class WarmProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, with the kernel forked by the zygote instead of exec'd."""

    async def launch_kernel(self, cmd, **kwargs):
        if "ipykernel_launcher" not in cmd:
            raise ValueError("warm kernels are IPython kernels (python -m ipykernel_launcher), not %r" % cmd)
        env = dict(kwargs["env"], JPY_PARENT_PID=str(os.getpid()))  # as jupyter_client.launcher adds it
        cwd = str(kwargs.get("cwd") or os.getcwd())
        pid = start_zygote().launch(cmd[cmd.index("-f"):], env, cwd)
        self.process = ForkedKernel(pid)
        self.pid = self.pgid = pid  # the kernel leads a process group of its own
        self.cwd = cwd
        return self.connection_info


class WarmKernelManager(AsyncKernelManager):
    """An AsyncKernelManager whose kernels come from the zygote (nbclient's ``kernel_manager_class``)."""

    async def start_kernel(self, **kw):
        if self.provisioner is None:
            self.kernel_id = self.kernel_id or kw.pop("kernel_id", None) or str(uuid.uuid4())
            self.provisioner = WarmProvisioner(kernel_id=self.kernel_id, kernel_spec=self.kernel_spec,
                                               parent=self)
        await super().start_kernel(**kw)


if __name__ == "__main__":
    zygote_main()
