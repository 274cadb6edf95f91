"""A variant per student: the grader tells each grading kernel whose notebook it runs.

``AssignVariant`` is an nbgrader preprocessor that runs just before the
notebook is executed (it is registered ahead of ``GuardedExecute`` in
``nbgrader_config.py``, so both ``python -m autograder autograde`` and plain
``nbgrader autograde`` use it). It puts the seed ``"<student id>/<assignment>"``
in the notebook's resources (``resources["variant_seed"]``); the executor
(``autograder.kernels.execute.GuardedExecute``) hands it to the kernel before the
first cell, as data (``autograder.checks.use_variant``). Nothing is written to the
grader's environment, so gradings that share a process never see each other's seed.
The hidden checks draw their extra inputs from that seed
(``autograder.witness.variants``): different for two students, the same every
time one student is regraded.
"""

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

RESOURCE = "variant_seed"


def variant_seed(student, assignment):
    """The seed of one student's hidden inputs for one assignment."""
    return f"{student}/{assignment}"


class AssignVariant(Preprocessor):
    """Before the kernel starts: this submission's seed, in the resources the executor reads."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off by default

    def preprocess(self, nb, resources):
        resources = resources if resources is not None else {}
        info = resources.get("nbgrader", {})
        resources[RESOURCE] = variant_seed(info.get("student", ""), info.get("assignment", ""))
        return nb, resources
