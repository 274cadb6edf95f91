"""The zygote: one process that imports torch once and forks a fresh kernel per notebook.

Starting a Python kernel costs about 0.65 s and ``import torch`` about 1.45 s
more, paid again for every submission: most of a stock autograde.  The zygote
pays the imports once: it imports torch, reftorch, the check library and
ipykernel, then forks.  A forked child is a new process whose memory starts as
a copy of the zygote's (pages are shared until written): torch is already
imported, but no student code has ever run in it.

Each child is a *launcher* (``autograder.kernels.kernel_launch.launch``): it enters
the sandbox the grader built for that notebook and forks the kernel inside
it, which drops to a uid of its own before the first cell.  Nothing a kernel
does can reach the zygote, the grader or another kernel.  The zygote never
sees a notebook: requests carry only the kernel's arguments, environment and
sandbox, so no student's work is in the memory the next kernel is forked from.

The zygote itself, its protocol and the provisioner that asks it for a kernel are
``warmkernels``' (the course's warm kernels come from the same ones); what is the
grader's here is what it imports (:data:`PRELOAD`, :data:`PRELOAD_WITNESS`) and
the launcher its children run.  It ends when its stdin closes or when the grading
process that started it dies.
"""

import os
import sys

from warmkernels.frozen_imports import import_frozen
from warmkernels.zygote import die_with_parent, serve

from . import kernel_launch

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
    die_with_parent()
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # quiets debugpy's import-time notice
    witness = sys.argv[1:2] == ["--witness"]
    if sys.argv[2:]:   # --witness FOLDER: reftorch from the assignment's copy (autograder.witness.stubs)
        __import__("autograder.witness.setup", fromlist=["use_stubs"]).use_stubs(sys.argv[2])
    import_frozen(PRELOAD_WITNESS if witness else PRELOAD, missing_ok=True)
    if not witness:
        sys.modules["autograder.kernels.kernel_setup"].import_trusted_modules()
    serve(kernel_launch.launch)


if __name__ == "__main__":
    main()
