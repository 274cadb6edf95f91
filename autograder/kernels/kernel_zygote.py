"""The zygote: one process that imports torch once and forks a fresh kernel per notebook.

Starting a Python kernel costs about 0.65 s and ``import torch`` about 1.45 s
more, paid again for every submission: most of a stock autograde.  The zygote
pays the imports once: it imports torch, reftorch, the check library and
ipykernel, then forks.  A forked child is a new process whose memory starts as
a copy of the zygote's (pages are shared until written): torch is already
imported, but no student code has ever run in it.

Before it serves, the zygote moves everything its imports made out of the
cycle collector's reach (``gc.freeze``): a kernel's collections then walk only
what the kernel made, and the zygote's pages stay shared instead of being
copied the first time a full collection touches them.

Each child is a *launcher* (``autograder.kernels.kernel_launch.launch``): it enters
the sandbox the grader built for that notebook and forks the kernel inside
it, which drops to a uid of its own before the first cell.  Nothing a kernel
does can reach the zygote, the grader or another kernel.  The zygote never
sees a notebook: requests carry only the kernel's arguments, environment and
sandbox, so no student's work is in the memory the next kernel is forked from.

Protocol, one JSON line each way on stdin/stdout (a pipe only the grading
process holds)::

    <- {"ready": <pid>}                        once, when the imports are done
    -> {"argv": [...], "env": {...}, "cwd": "...", "sandbox": {...}}   (see kernel_launch)
    <- {"pid": 1234}                           the kernel's pid, or {"error": "..."}

The zygote reaps its launchers as they exit.  It ends when its stdin closes or
when the grading process that started it dies.
"""

import gc
import json
import os
import signal
import sys

from . import kernel_launch
from .child_processes import reap_exited

# What every grading kernel needs, imported once here.  Not matplotlib: its inline
# backend hooks into the IPython shell when imported, and no shell exists here, so
# a notebook that plots imports it in its own kernel, as a fresh kernel would.
PRELOAD = ["numpy", "torch", "reftorch", "autograder.checks", "autograder.kernels.kernel_setup",
           "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.debugger", "ipykernel.zmqshell",
           "IPython", "IPython.core.completerlib", "jedi",
           # what the first traceback of a kernel imports (IPython's ultratb): 0.4 s otherwise
           "IPython.core.ultratb", "stack_data", "pygments.lexers.python", "pygments.formatters.terminal256",
           # each exercise's first cell and its checks
           "reftorch.primitives", *("autograder.checks." + name for name in (
               "clone", "copy_into", "detach", "detach_clone", "model_snapshot", "new_tensor", "numpy_bridge",
               "python_copy", "save_and_load", "strides_and_views", "target_network"))]


def _reap(signum, frame):
    """SIGCHLD: collect every launcher that has exited."""
    reap_exited()


def fork_launcher(request, replies_fd, requests_fd):
    """Fork a launcher for ``request``; return the kernel's pid it reports."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        os.close(replies_fd)
        os.close(requests_fd)

        def report(kernel_pid):
            os.write(write_fd, b"%d\n" % kernel_pid)
            os.close(write_fd)

        kernel_launch.launch(request, report)  # never returns
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as answer:
        line = answer.readline()
    try:
        return int(line)
    except ValueError:
        raise RuntimeError("the kernel launcher failed before starting a kernel") from None


def serve(requests, replies):
    signal.signal(signal.SIGCHLD, _reap)
    for line in requests:
        try:
            reply = {"pid": fork_launcher(json.loads(line.decode("utf-8", "replace")),
                                          replies.fileno(), requests.fileno())}
        except Exception as error:  # noqa: BLE001 - reported to the grader, which fails that notebook
            reply = {"error": "%s: %s" % (type(error).__name__, error)}
        replies.write(json.dumps(reply).encode() + b"\n")
        replies.flush()


# A witness kernel's (a judged assignment's): no torch, no checks; reftorch and what answers the judge.
# Not ipykernel.debugger: it imports debugpy, which the witness's sandbox hides (autograder.kernels.sandbox),
# so a warm witness starts without a debugger as a cold one does.
PRELOAD_WITNESS = ["reftorch", "reftorch.primitives", "autograder.witness.serve",
                   "autograder.witness.setup", "ipykernel.kernelapp", "ipykernel.ipkernel",
                   "ipykernel.zmqshell", "IPython", "IPython.core.completerlib", "jedi",
                   "IPython.core.ultratb", "stack_data", "pygments.lexers.python",
                   "pygments.formatters.terminal256",
                   # what every kernel imported after the fork otherwise: IPKernelApp.initialize's pdb,
                   # the in-memory history's sqlite3, the storemagic extension, the shell's inspector
                   "IPython.core.debugger", "IPython.core.logger", "IPython.core.oinspect",
                   "IPython.extensions.storemagic", "IPython.utils.wildcard", "sqlite3", "pdb", "runpy",
                   "faulthandler", "tornado.platform.asyncio", "importlib.resources.readers"]


def main():
    kernel_launch.prctl(kernel_launch.PR_SET_PDEATHSIG, signal.SIGKILL)
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # quiets debugpy's import-time notice
    witness = sys.argv[1:2] == ["--witness"]
    if sys.argv[2:]:   # --witness FOLDER: reftorch from the assignment's copy (autograder.witness.stubs)
        __import__("autograder.witness.setup", fromlist=["use_stubs"]).use_stubs(sys.argv[2])
    for name in PRELOAD_WITNESS if witness else PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass
    if not witness:
        sys.modules["autograder.kernels.kernel_setup"].import_trusted_modules()
    # What the imports made stays shared with every kernel: the cycle collector of a forked kernel
    # would otherwise walk (and write the headers of, so copy) every object torch and the rest
    # allocated here, each time a full collection runs.  Measured on the clone class: a kernel's
    # CPU from fork to its last cell 0.60 -> 0.48 s.
    gc.collect()
    gc.freeze()
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # stray prints must not corrupt replies
        os.dup2(devnull, fd)
    replies.write(json.dumps({"ready": os.getpid()}).encode() + b"\n")
    replies.flush()
    serve(requests, replies)


if __name__ == "__main__":
    main()
