"""One test cell, judged: the cell's code runs here, the learner's functions there.

The test cell's source never reaches the student's kernel. The judge runs it in a
namespace of its own, where every name the cell does not define itself (nor
Python's builtins) is a :class:`~autograder.judge.learner.LearnerFunction` of the
notebook: the checks the cell imports compare torch's behaviour, computed here,
with the observations the witness sends back. The cell's outputs are the judge's:
nothing on a pass, one error naming the misconception on a failure, so nbgrader
scores it as it always has. They are written in the notebook's language (``lang``,
``autograder.judge.language``): the checks' messages, and under an error the
learner's function raised (Python's or torch's words, kept as raised) a line
saying what it is.
"""

import builtins

from nbformat.v4 import new_output

from ..witness.variants import seeded
from .connection import WitnessGone
from .language import ERROR_IS_THEIRS, N_, _, speaking
from .learner import LearnerFunction, LearnerRaised, WitnessFailed


class TestNames(dict):
    """The test code's names, kept from cell to cell of one notebook (the checks it imports): its
    own, else the notebook's functions, asked of the witness of the cell being judged."""

    def __init__(self):
        super().__init__()
        self.witness = None

    def __missing__(self, name):
        if hasattr(builtins, name) or (name.startswith("__") and name.endswith("__")):
            raise KeyError(name)  # Python's and the tools' own names (pytest's __tracebackhide__)
        return LearnerFunction(name, self.witness)


def error_output(ename, evalue):
    first, *rest = str(evalue).splitlines() or [""]
    return new_output("error", ename=ename, evalue=str(evalue), traceback=["%s: %s" % (ename, first), *rest])


def run_test_cell(source, witness, seed=None, names=None, lang="en"):
    """The outputs of the test cell ``source``, judged with ``witness`` (seed: the student's variant;
    ``names``: the notebook's :class:`TestNames`, holding what earlier test code imported), in the
    language ``lang``."""
    names = TestNames() if names is None else names
    names.witness = witness
    code = compile(source, "<test cell>", "exec")
    with speaking(lang):
        try:
            with seeded(seed or "default"):
                exec(code, {"__builtins__": builtins, "__name__": "__test_cell__"}, names)
        except AssertionError as failure:   # a check's verdict: the belief, the evidence, the tag
            return [error_output("AssertionError", failure)]
        except (WitnessGone, WitnessFailed) as why:
            return [error_output("TestNotRun", _(N_("this test could not run: {0}")).format(why))]
        except LearnerRaised as error:   # the learner's function raised where the cell called it
            said = "%s%s" % (error, error.learner_line)
            return [error_output(type(error).__name__, said if lang == "en" else said + "\n" + _(ERROR_IS_THEIRS))]
    return []


def run_instructor_cell(source, names, seed=None):
    """An instructor's cell among a judged notebook's test code: the import of the checks runs here,
    into ``names``; anything else (the self-check's own call) does not run while grading."""
    return run_test_cell(source, None, seed=seed, names=names) if "autograder.checks" in source else []
