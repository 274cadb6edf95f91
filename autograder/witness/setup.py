"""What runs in a witness kernel before the notebook's first cell: reftorch without the exercise's pieces,
warnings to stdout, the witness loaded.

reftorch comes from the grader's copy in which the pieces the assignment asks
for are stubs (``autograder.witness.stubs``): :func:`use_stubs` puts that copy
first on ``sys.path`` before anything imports reftorch, here or in the zygote
the kernel is forked from (``autograder.kernels.kernel_zygote``).

nbgrader gives 0 to a graded cell that wrote to stderr, and a learner's
``torch.tensor(t)`` warns. The judge writes the test cells' outputs itself, so
this only keeps the learner's own cells' warnings visible in the feedback, on
stdout, as the other grading kernels do (``autograder.kernels.kernel_setup``).
"""

import os
import sys
import warnings


def _show_on_stdout(message, category, filename, lineno, file=None, line=None):
    sys.stdout.write(warnings.formatwarning(message, category, filename, lineno, line))


class ReftorchNotStubbed(RuntimeError):
    """reftorch was imported from somewhere else than the copy with the exercise's pieces as stubs."""


def use_stubs(folder):
    """From now on ``import reftorch`` finds the copy in ``folder`` (``stubs.build``); refuses if
    reftorch is loaded already from anywhere else."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    loaded = sys.modules.get("reftorch")
    if loaded is not None and not os.path.abspath(loaded.__file__).startswith(os.path.join(folder, "")):
        raise ReftorchNotStubbed("reftorch was imported from %s before the witness could use its copy in %s"
                                 % (os.path.dirname(loaded.__file__), folder))


def install(stubs=None):
    """``stubs``: the folder of the assignment's reftorch copy (None: reftorch as installed)."""
    here = os.getcwd()   # the kernel starts in an empty folder; it is not where modules come from
    sys.path[:] = [p for p in sys.path if p not in ("", ".") and os.path.abspath(p) != here]
    if stubs:
        use_stubs(stubs)
    warnings.showwarning = _show_on_stdout
    # the readers take reftorch's functions now, before any cell: a cell that rewrites a Tensor
    # method later changes what it calls, not what the witness reads (warm or cold, grader or self-check)
    import autograder.witness.serve  # noqa: F401


def kernel_arguments(stubs=None):
    """Passed to every witness kernel (see autograder.kernels.execute); ``stubs`` as for :func:`install`."""
    return [
        "--HistoryManager.hist_file=:memory:",
        "--IPKernelApp.ignore_cwd=True",
        "--IPKernelApp.exec_lines=%r" % ["import autograder.witness.setup as _ag_setup",
                                         "_ag_setup.install(%r)" % (stubs,), "del _ag_setup"],
    ]


KERNEL_ARGUMENTS = kernel_arguments()   # reftorch as installed, pieces and all

# What the grader sends the kernel in place of a test cell (its path: the judge's socket).
SERVE = "__import__('autograder.witness.serve', fromlist=['serve']).serve(%r, globals())"
