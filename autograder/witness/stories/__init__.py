"""Stories: a few steps played on a module ``T`` (torch or reftorch), written down as facts.

Some exercises are not one operation on one tensor but a story: save a view and
load it back, keep a target network through three training steps, hand an array
to ``as_tensor``. A story is a function ``play(T, R, functions, arguments)``:
``T`` is the module (torch in the judge, reftorch here in the witness), ``R`` its
reader (``readers``), ``functions`` the steps by role (torch's recipe, or the
learner's functions), ``arguments`` plain data saying which input to play. It
returns an ordered dict of facts, plain data only, that the judge compares with
torch's (``autograder.checks._facts``).

The judge asks the witness ``{"story": {"name": "save_and_load.bytes",
"arguments": ..., "functions": {"function": "my_saved_bytes"}}}``; :func:`answer`
plays it on reftorch with the learner's functions (looked up by name in the
notebook) and answers the facts as an ordered list of ``[fact, value]`` pairs
(``autograder.witness.serve``), or what the learner's function raised and at which step.

The story modules are imported by name when a story is first asked for (the
numpy bridge's stories need numpy, which no other assignment's witness loads).
"""

import importlib
import math
import warnings

import reftorch

from ..readers import ReftorchReader

# The assignments whose stories live here, one module each.
MODULES = ("save_and_load", "numpy_bridge", "model_snapshot", "target_network")


class LearnerRaised(Exception):
    """The learner's function raised at a step of the story; carries the step and their exception."""

    def __init__(self, step, error):
        super().__init__(step)
        self.step, self.error = step, error


def call(step, function, *args, **kwargs):
    """``function(*args, **kwargs)``; what it raises becomes :class:`LearnerRaised` at ``step``."""
    try:
        return function(*args, **kwargs)
    except Exception as error:  # the learner's exception is the observation
        raise LearnerRaised(step, error) from None


def close(a, b):
    """Numbers (or nested lists of them) equal up to float rounding: two honest update
    formulas (``lerp_`` and ``mul_`` then ``add_``) round the last bit differently."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        try:
            return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)
        except TypeError:
            return False
    return a == b


class UnknownStory(ValueError):
    """A story name, or its arguments, that no story module knows."""


def story(name):
    """The function that plays the story ``"<module>.<story>"``."""
    module, _, which = str(name).partition(".")
    if module not in MODULES:
        raise UnknownStory("no story is called %r" % (name,))
    stories = importlib.import_module(__name__ + "." + module).STORIES
    if which not in stories:
        raise UnknownStory("no story is called %r" % (name,))
    return stories[which]


def answer(namespace, asked, function_of):
    """The facts of ``{"name", "arguments", "functions"}`` played on reftorch with the notebook's
    functions (``function_of(namespace, name)`` looks one up), as ``[fact, value]`` pairs; what the
    learner's function raised propagates as :class:`LearnerRaised`."""
    play = story(asked["name"])
    functions = {role: function_of(namespace, name) for role, name in dict(asked["functions"]).items()}
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        facts = play(reftorch, ReftorchReader, functions, asked["arguments"])
    return [[fact, value] for fact, value in facts.items()]
