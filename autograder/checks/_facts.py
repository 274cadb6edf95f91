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
"""

import math
import warnings

import reftorch
import torch

from ._observe import M, failure, is_stub, not_written, where


class LearnerRaised(Exception):
    """The learner's function raised; carries the step and their exception."""

    def __init__(self, step, error):
        super().__init__(step)
        self.step, self.error = step, error


def call(step, function, *args, **kwargs):
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


def run_both(scenario, torch_side, reftorch_side, topic, label, explain=None):
    """Facts from torch's run and the learner's; a learner's exception fails here (``explain(error)``
    may name the misconception an exception shows, else it is reported as raised)."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        theirs = scenario(torch, torch_side)
        try:
            yours = scenario(reftorch, reftorch_side)
        except LearnerRaised as raised:
            if is_stub(raised.error):
                raise failure(not_written(topic, raised.step), [label]) from None
            what = (explain and explain(raised.error)) or M(f"{topic}/raises",
                                                            f"your {raised.step} raised an error where torch does not")
            raise failure(what,
                          [label, f"yours raised {type(raised.error).__name__}: {raised.error}"
                                  f"{where(raised.error)}"]) from None
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
        what = entry(value, got, {"theirs": theirs, "yours": yours}) if callable(entry) else entry
        raise failure(what, [label, f"{fact}: torch gives {value!r}, yours gives {got!r}"])
