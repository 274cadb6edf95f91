"""What runs in a witness kernel before the notebook's first cell: warnings go to stdout, the witness loads.

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


def install():
    here = os.getcwd()   # the kernel starts in an empty folder; it is not where modules come from
    sys.path[:] = [p for p in sys.path if p not in ("", ".") and os.path.abspath(p) != here]
    warnings.showwarning = _show_on_stdout
    # the readers take reftorch's functions now, before any cell: a cell that rewrites a Tensor
    # method later changes what it calls, not what the witness reads (warm or cold, grader or self-check)
    import autograder.witness.serve  # noqa: F401


# Passed to every witness kernel (see autograder.kernels.execute).
KERNEL_ARGUMENTS = [
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.ignore_cwd=True",
    "--IPKernelApp.exec_lines=['import autograder.witness.setup as _ag_setup', '_ag_setup.install()', "
    "'del _ag_setup']",
]

# What the grader sends the kernel in place of a test cell (its path: the judge's socket).
SERVE = "__import__('autograder.witness.serve', fromlist=['serve']).serve(%r, globals())"
