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
zygote's environment: the test process's), the kernel's parent (the
zygote, not the test process), and the objects those imports made, which the
cycle collector no longer walks (``gc.freeze``: they stay shared with the zygote), and the
kernel's exit: once its exit handlers have run, it leaves without tearing those modules down
(``leave_without_teardown``).

Only for the tests (``tests/course/conftest.py``) and the book's build
(``book.execute``), which runs every chapter top to bottom as the tests do:
learners' kernels start fresh (``coursebook.execution`` keeps
jupyter_client's default).  The zygote, its pipe and the provisioner are
``warmkernels``' (the grader's sandboxed kernels come through the same
provisioner); what is the course's here is what the zygote imports and how a
forked child becomes a kernel.  The zygote ends when the test process closes
its pipe (or dies) and kills every kernel it forked that is still running;
each kernel also dies with the zygote (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import atexit
import importlib.util
import logging
import os
import random
import sys
import threading

from jupyter_client.manager import AsyncKernelManager
from traitlets import default

from warmkernels.process import Zygote
from warmkernels.provisioner import WarmKernelSpecManager, require_provisioner
from warmkernels.frozen_imports import import_frozen
from warmkernels.zygote import die_with_parent, serve

PRELOAD = ["numpy", "torch", "reftorch", "coursebook", "coursebook.build_it", "coursebook.timing",
           "memdiagram", "ipywidgets", "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell",
           "torch._dynamo"]


# -- in the zygote -------------------------------------------------------------------------

def become_kernel(request, report):
    """In the forked child: the state a fresh kernel process starts with, then ipykernel's app."""
    global _kernel_ended
    report(os.getpid())
    os.setsid()  # as jupyter_client's start_new_session: interrupts go to this group
    die_with_parent()
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
    _kernel_ended = True


_kernel_ended = False  # in a forked child, once its kernel has shut down


def leave_without_teardown():
    """At the exit of a forked kernel, once every other exit handler has run (IPython's history,
    multiprocessing's children, weakref finalizers, torch's): leave without tearing down the
    modules imported in the zygote. They are the zygote's: dropping each of their objects would
    only write to (so copy) the memory the kernel shares with it."""
    if not _kernel_ended:
        return
    logging.shutdown()  # registered before this handler, so it would run after it
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


def zygote_main():
    if sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # this folder is not on a kernel's path
    if "--die-with-parent" in sys.argv:
        die_with_parent()
    # Exit handlers run last registered first: registered before the preloaded modules and the
    # kernel register theirs, this one runs after them.
    atexit.register(leave_without_teardown)
    import_frozen(PRELOAD)
    serve(become_kernel)  # returns in a kernel when it shuts down; the interpreter exits as usual


# -- in the process that runs the notebooks (the tests, the book's build) ------------------------------------------------------------------

_zygote: Zygote | None = None


def start_zygote() -> Zygote:
    """This process's zygote, started now if it is not running (it imports in the background)."""
    global _zygote
    if _zygote is None or not _zygote.alive():
        # Started from the main thread, the zygote dies with the test process even before
        # its stdin closes; from another thread, PDEATHSIG would fire when that thread ends.
        flag = ["--die-with-parent"] if threading.current_thread() is threading.main_thread() else []
        _zygote = Zygote([sys.executable, os.path.abspath(__file__)] + flag)
    return _zygote


def running_zygote() -> Zygote | None:
    return _zygote if _zygote is not None and _zygote.alive() else None


def stop_zygote():
    global _zygote
    if _zygote is not None:
        _zygote.close()
        _zygote = None


class WarmKernelManager(AsyncKernelManager):
    """An AsyncKernelManager whose kernels come from this process's zygote, through the
    ``warm-kernel`` provisioner (nbclient's ``kernel_manager_class``)."""

    @default("kernel_spec_manager")
    def _warm_kernel_specs(self):
        return WarmKernelSpecManager(data_dir=self.data_dir)

    def zygote(self):
        return start_zygote()

    async def start_kernel(self, **kw):
        require_provisioner(self)
        await super().start_kernel(**kw)


if __name__ == "__main__":
    zygote_main()
