"""A variant per student: the grader tells each grading kernel whose notebook it runs.

``AssignVariant`` is an nbgrader preprocessor that runs just before the
notebook is executed (it is registered ahead of ``GuardedExecute`` in
``nbgrader_config.py``, so both ``python -m autograder autograde`` and plain
``nbgrader autograde`` use it). It sets ``AUTOGRADER_VARIANT`` to
``"<student id>/<assignment>"`` in the grader's environment; the kernel
about to start (a fresh kernel and a forked warm one alike) gets it from its
launcher, not in its environment (``autograder.grading_kernels``), so nothing
in a kernel's environment tells the grader from the self-check. The
hidden checks draw their extra inputs from that seed
(``autograder.checks._variants``): different for two students, the same every
time one student is regraded.
"""

import os

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from .checks._variants import ENVIRONMENT_VARIABLE


def variant_seed(student, assignment):
    """The seed of one student's hidden inputs for one assignment."""
    return f"{student}/{assignment}"


class AssignVariant(Preprocessor):
    """Before the kernel starts: put this submission's seed in the environment it will inherit."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off by default

    def preprocess(self, nb, resources):
        info = (resources or {}).get("nbgrader", {})
        os.environ[ENVIRONMENT_VARIABLE] = variant_seed(info.get("student", ""), info.get("assignment", ""))
        return nb, resources
