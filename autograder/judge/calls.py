"""Calls of the learner's functions beyond ``f(source)``, as data the witness acts on.

* ``with_arguments(my_slice, 4)``: ``lambda t, *args: my_slice(t, *args)`` for an
  input that carries four extra arguments (``witness.views.ViewCase``);
* ``call_on_input(my_storage_positions, case)``: ``my_storage_positions(t)`` on a
  fresh tensor of ``case``, built in the witness; its value (plain data), or what
  it raised;
* ``through(my_deepcopy, "copy.deepcopy")``: ``copy.deepcopy(t)`` with the
  learner's function as the tensor's ``__deepcopy__`` (``witness.copies.THROUGH``),
  and ``value_through(my_deepcopy, "the memo story")``: the value of such a story.

Outside a grading run (the tests, the course) each takes a plain Python function,
and runs it here on reftorch.
"""

import reftorch

from ..witness.copies import THROUGH
from ..witness.wire import Garbled, decode
from .learner import LearnerFunction, WithKeywords, WitnessFailed, _failure_text, describe_case, raised


class WithArguments(WithKeywords):
    """``lambda t, *args: function(t, *args)`` for an input with ``count`` extra arguments."""

    def __init__(self, function, count):
        super().__init__(function, {})
        self.count = count

    def plan(self):
        return self.function.plan(args=[{"source": None}] + [{"argument": i} for i in range(self.count)])


def with_arguments(function, count):
    """``function(t, *args)`` for each input ``t`` and its ``count`` extra arguments."""
    return WithArguments(function, count)


class Through(WithKeywords):
    """The learner's ``function`` used by the protocol ``name`` (``witness.copies.THROUGH``)."""

    def __init__(self, function, name):
        super().__init__(function, {})
        self.name = name

    def __call__(self, source, *args):
        return THROUGH[self.name](self.function)(source, *args)

    def plan(self):
        return dict(self.function.plan(args=()), through=self.name)


def through(function, name):
    """``op(t)`` that uses ``function`` as the protocol ``name`` says (``"copy.deepcopy"``)."""
    return Through(function, name)


def ask_value(function, plan):
    """The value of the call ``plan`` of the learner's ``function`` (plain data), or what it raised."""
    reply = function.witness.ask({"call": plan})
    if isinstance(reply, dict) and "raised" in reply:
        raise raised(reply["raised"])
    if not isinstance(reply, dict) or "value" not in reply:
        raise WitnessFailed(_failure_text(reply))
    try:
        return decode(reply["value"])
    except Garbled as error:
        raise WitnessFailed("the witness's answer was garbled: %s" % error) from None


def call_on_input(function, case):
    """``function`` called on a fresh tensor of ``case``: its value, or what it raised."""
    if not isinstance(function, LearnerFunction):
        return function(case.build(reftorch)[0])
    return ask_value(function, function.plan([{"input": describe_case(case)}]))


def value_through(function, name):
    """What the story ``name`` (``witness.copies.THROUGH``) gives with the learner's ``function``."""
    if not isinstance(function, LearnerFunction):
        return THROUGH[name](function)(None)
    return ask_value(function, through(function, name).plan())
