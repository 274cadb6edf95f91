"""What runs inside a grading kernel that runs its own tests, before the first cell.

That is a kernel for an assignment outside ``autograder.judge.JUDGED_ASSIGNMENTS``
(every course assignment is judged: its kernel is a witness, set up by
``autograder.witness.setup``).  Such a kernel is graded as stock nbgrader grades
it, in the sandbox: its verdict is computed where the student's code runs, and
nothing here protects it.  :func:`install` does three things:

1. Warnings go to stdout, not stderr.  nbgrader gives 0 points to a graded cell
   that wrote anything to stderr, and ``torch.tensor(t)`` on a tensor ``t``
   emits a ``UserWarning``.  A warning is advice, not a failure, so it is
   printed (same text, same "once per place" rule of the ``warnings`` module)
   on stdout, where it stays visible in the feedback without costing points.
   Anything else a cell writes to stderr still counts as nbgrader says.
2. The kernel's folder leaves ``sys.path``: a ``torch.py`` there is never imported.
3. torch, reftorch and the check library are imported before the first cell
   (:data:`setup_seconds` says how long that took, for ``make bench``).
"""

import importlib
import os
import pkgutil
import sys
import time
import warnings

setup_seconds = 0.0  # how long install() took: mostly importing torch, unless already imported


def _show_on_stdout(message, category, filename, lineno, file=None, line=None):
    """``warnings.showwarning`` replacement: same text, printed on stdout."""
    text = warnings.formatwarning(message, category, filename, lineno, line)
    sys.stdout.write(text)


def import_trusted_modules():
    """Import torch, reftorch and every module of the check library."""
    # reftorch.sparse too: the first sparse tensor would install its method tables on reftorch.Tensor
    for module in ("torch", "reftorch", "reftorch.sparse", "autograder.checks"):
        try:
            importlib.import_module(module)
        except ImportError:
            pass
    checks = sys.modules.get("autograder.checks")
    if checks is not None:
        for info in pkgutil.iter_modules(checks.__path__, "autograder.checks."):
            try:
                importlib.import_module(info.name)
            except Exception:  # a broken check module fails in its test cell, visibly
                pass


def _forget_notebook_folder():
    """Take the kernel's folder off ``sys.path``: nothing there may shadow a module the tests import.

    Kernels are started with ``python -P`` and ``ignore_cwd``, so it should
    not be there; this makes sure before anything is imported.
    """
    here = os.getcwd()
    sys.path[:] = [p for p in sys.path if p not in ("", ".") and os.path.abspath(p) != here]


def install():
    """Route warnings to stdout, forget the kernel's folder, import the modules the tests use."""
    global setup_seconds
    started = time.perf_counter()
    _forget_notebook_folder()
    warnings.showwarning = _show_on_stdout
    import_trusted_modules()
    setup_seconds = time.perf_counter() - started


# Passed to every grading kernel that runs its tests; runs install() before the first cell.
KERNEL_ARGUMENTS = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.ignore_cwd=True",
    "--IPKernelApp.exec_lines=['import autograder.kernels.kernel_setup as _ag_setup', "
    "'_ag_setup.install()', 'del _ag_setup']",
]

SETUP_SECONDS_EXPRESSION = "__import__('autograder.kernels.kernel_setup').kernels.kernel_setup.setup_seconds"
