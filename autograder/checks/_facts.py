"""Scenario checks: run a small story in torch and in reftorch, write down facts, compare them.

Some exercises are not one operation on one tensor but a story: save a view and
load it back, keep a target network through three training steps, hand an array
to ``as_tensor``. A check for them is a function ``scenario(T, learner)`` that
plays the story with the module ``T`` (torch, with torch's own answer, or
reftorch, with the learner's functions) and returns an ordered dict of facts.
``compare`` then walks torch's facts in order and fails on the first one the
learner's run does not share, with the misconception that fact names.

The learner's functions are called through ``call``: what they raise becomes
``LearnerRaised``, reported as "not written yet" for the untouched stub, or with
the learner's own line otherwise.

A story registered by name (``autograder.witness.stories``) is played by
``play_both``: torch's side here, the learner's side in the witness when the
learner's functions are names the judge holds (a graded notebook), else here on
reftorch (the tests, the course). Either way the facts are plain data and
``compare`` runs here.
"""

import warnings

import reftorch
import torch

from ..judge.learner import WitnessFailed, is_learners
from ..judge.stories import ask_story
from ..witness.stories import LearnerRaised, call, close, story  # noqa: F401  (re-exported to the checks)
from ..judge.language import N_, _
from ._observe import M, failure, is_stub, not_written, where, yours_raised
from ._readers import ReftorchReader, TorchReader


def _raised_failure(raised, topic, label, explain):
    if is_stub(raised.error):
        return failure(not_written(topic, raised.step), [label])
    what = (explain and explain(raised.error)) or M(f"{topic}/raises",
                                                    f"your {raised.step} raised an error where torch does not")
    return failure(what, [label, yours_raised(type(raised.error).__name__, f"{raised.error}{where(raised.error)}")])


def run_both(scenario, torch_side, reftorch_side, topic, label, explain=None):
    """Facts from torch's run and the learner's; a learner's exception fails here (``explain(error)``
    may name the misconception an exception shows, else it is reported as raised)."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        theirs = scenario(torch, torch_side)
        try:
            yours = scenario(reftorch, reftorch_side)
        except LearnerRaised as raised:
            raise _raised_failure(raised, topic, label, explain) from None
    return theirs, yours


def play_both(name, arguments, torch_functions, your_functions, topic, label, explain=None, failing=None):
    """The facts of the story ``name`` (``autograder.witness.stories``) on ``arguments`` (plain data):
    torch's, played here with ``torch_functions``, and the learner's with ``your_functions`` ({role:
    function}), asked of the witness when they are the learner's names, else played here on reftorch.
    A learner's exception fails here, as in :func:`run_both` (or as ``failing(raised)`` says)."""
    play = story(name)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        theirs = play(torch, TorchReader, torch_functions, arguments)
        try:
            if any(is_learners(f) for f in your_functions.values()):
                yours = ask_story(name, arguments, your_functions)
            else:
                yours = play(reftorch, ReftorchReader, your_functions, arguments)
        except LearnerRaised as raised:
            raise (failing(raised) if failing else _raised_failure(raised, topic, label, explain)) from None
    return theirs, yours


def compare(theirs, yours, messages, label, approximate=()):
    """Fail on the first fact of torch's run that the learner's run does not share.

    ``messages`` maps a fact to a ``Misconception`` or to ``f(theirs, yours, facts)``
    returning one; facts named in ``approximate`` compare up to float rounding.
    """
    for fact, value in theirs.items():
        got = yours.get(fact, "(not observed: an earlier step went wrong)")
        same = close(value, got) if fact in approximate else value == got
        if same:
            continue
        entry = messages[fact]
        try:
            what = entry(value, got, {"theirs": theirs, "yours": yours}) if callable(entry) else entry
        except (TypeError, ValueError, AttributeError, KeyError, IndexError):
            # the learner's facts were told by the witness: data a message cannot read is not an answer
            raise WitnessFailed(f"the witness's fact {fact!r} does not have the shape of that fact") from None
        raise failure(what, [label, _(N_("{0}: torch gives {1}, yours gives {2}")).format(fact, repr(value), repr(got))])
