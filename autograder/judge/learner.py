"""The learner's functions as the judge holds them: names, asked of the witness.

While the judge runs a test cell, a name the cell uses that the judge does not
define (``my_clone``) is a :class:`LearnerFunction`: nothing but the name. A
check passes it where it used to pass the function; ``expect_same`` then asks
the witness to observe a call of it (:func:`ask_witness`), and calling it
directly asks the witness for the value (plain data only). What the learner's
function raised comes back as a :class:`LearnerRaised` whose class carries the
name of the learner's exception.

:func:`with_keywords` is ``lambda t: my_clone(t, memory_format=...)`` as data.
Outside a grading run (the tests, the course) the same helpers take plain
Python functions, and a check then runs them here.
"""

import keyword

from ..witness.variants import TensorSpec
from ..witness.plans import NAMED
from ..witness.wire import Garbled, Opaque, decode, encode

class WitnessFailed(BaseException):
    """The witness did not answer as a witness must (it refused, crashed or sent garbage).

    A BaseException, as ``KeyboardInterrupt`` is: the checks catch ``Exception`` to report what
    the learner's function raised, and this is not that; it ends the test cell."""


class LearnerRaised(Exception):
    """Base class of the exceptions the learner's functions raised, as the witness described them."""

    learner_line = ""
    learner_stub = False


_RAISED_CLASSES = {}


def _raised_class(name):
    """A subclass of LearnerRaised named as the learner's exception (``type(error).__name__``)."""
    if not (isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name) and len(name) <= 80):
        name = "Exception"
    if name not in _RAISED_CLASSES:
        _RAISED_CLASSES[name] = type(name, (LearnerRaised,), {"__module__": "learner"})
    return _RAISED_CLASSES[name]


def raised(description):
    """The exception a ``{"type", "message", "where", "stub"}`` description stands for."""
    if not isinstance(description, dict):
        raise WitnessFailed("the witness described an exception as %r" % type(description).__name__)
    error = _raised_class(description.get("type"))(str(description.get("message", ""))[:20_000])
    error.learner_line = str(description.get("where", ""))[:2_000]
    error.learner_stub = description.get("stub") is True
    return error


class LearnerFunction:
    """A function of the learner's notebook, by name."""

    def __init__(self, name, witness):
        self.name, self.witness = name, witness

    def __repr__(self):
        return self.name

    def plan(self, args=({"source": None},), kwargs=None):
        return {"function": self.name, "args": list(args), "kwargs": dict(kwargs or {})}

    def __call__(self, *args, **kwargs):
        """Call it in the witness on plain arguments; its value (plain data), or what it raised."""
        reply = self.witness.ask({"call": self.plan([encode(a) for a in args],
                                                    {k: encode(v) for k, v in kwargs.items()})})
        if "raised" in reply:
            raise raised(reply["raised"])
        if "value" not in reply:
            raise WitnessFailed(_failure_text(reply))
        try:
            return decode(reply["value"])
        except Garbled as error:
            raise WitnessFailed("the witness's answer was garbled: %s" % error) from None


class Reftorch:
    """A public name of reftorch, as an argument the witness resolves (``reftorch.contiguous_format``)."""

    def __init__(self, name):
        self.name = name


class WithKeywords:
    """``lambda t: function(t, **keywords)``, as data when ``function`` is the learner's."""

    def __init__(self, function, keywords):
        self.function, self.keywords = function, keywords

    def __call__(self, source, *args):
        import reftorch

        resolved = {k: getattr(reftorch, v.name) if isinstance(v, Reftorch) else v
                    for k, v in self.keywords.items()}
        return self.function(source, *args, **resolved)

    def plan(self):
        return self.function.plan(kwargs={k: {"reftorch": v.name} if isinstance(v, Reftorch) else encode(v)
                                          for k, v in self.keywords.items()})


def with_keywords(function, **keywords):
    """``function(t, **keywords)`` for each input ``t``; a value ``Reftorch("name")`` is reftorch's."""
    return WithKeywords(function, keywords)


def is_learners(op):
    """Is ``op`` the learner's function (or one with keywords), to be asked of the witness?"""
    return isinstance(op, LearnerFunction) or (isinstance(op, WithKeywords)
                                               and isinstance(op.function, LearnerFunction))


def describe_case(case):
    """A battery case as the witness rebuilds it: a fixed input by name, a drawn one by its numbers."""
    if hasattr(type(case), "describe"):   # an input made from a battery case (witness.views)
        return case.describe(describe_case)
    if hasattr(case, "description"):   # an input of several tensors describes itself (witness.pairs, owned)
        return case.description(describe_case)
    for name, fixed in NAMED.items():
        if fixed is case:
            return {"named": name}
    spec = getattr(case.recipe, "__self__", None)
    if isinstance(spec, TensorSpec):
        return {"spec": encode(spec.fields()), "grad_mode": case.grad_mode, "on": case.on, "name": case.name}
    raise ValueError("the input %r cannot be described to the witness" % (case.name,))


def _ints(value):
    return isinstance(value, tuple) and all(type(v) is int for v in value)


def _strs(value):
    return isinstance(value, tuple) and all(isinstance(v, str) for v in value)


# The shape of an observation (autograder.witness.observe): what the checks may rely on. A field
# the witness leaves out is compared as missing; a field of another type ends the test.
SHAPE = {
    "returned": lambda v: isinstance(v, str), "not_a_tensor": lambda v: isinstance(v, str),
    "same_object": lambda v: type(v) is bool, "returns_an_argument": _ints,
    "size": _ints, "stride": _ints, "storage_offset": lambda v: type(v) is int,
    "dtype": lambda v: isinstance(v, str), "device": lambda v: isinstance(v, str),
    "requires_grad": lambda v: type(v) is bool, "is_leaf": lambda v: type(v) is bool,
    "is_view": lambda v: type(v) is bool, "version": lambda v: type(v) is int,
    "source_version": lambda v: type(v) is int, "input_versions": _ints,
    "grad_fn": lambda v: v is None or isinstance(v, str), "next_functions": _strs,
    "attributes": lambda v: isinstance(v, dict), "attribute_identity": _strs,
    "warnings": lambda v: isinstance(v, tuple) and all(_strs(w) and len(w) == 2 for w in v),
}


def _failure_text(reply):
    if isinstance(reply, dict) and "refused" in reply:
        return str(reply["refused"])[:2_000]
    if isinstance(reply, dict) and "failed" in reply:
        return "the witness failed: %s" % str(reply["failed"])[:2_000]
    return "the witness answered something else than an answer"


def _witness_of(op):
    return (op.function if isinstance(op, WithKeywords) else op).witness


def _observe_request(case, op, device_of):
    return {"case": describe_case(case), "call": op.plan(), "device_of": device_of}


def ask_witness(case, op, device_of="source"):
    """The learner's observations of ``op`` on ``case``, as the witness reports them (plain data)."""
    return _seen(_witness_of(op).ask({"observe": _observe_request(case, op, device_of)}))


def ask_witness_all(cases, op, device_of="source"):
    """:func:`ask_witness` for each of ``cases``, asked in one round trip: a function per case that
    returns its observations, or raises ``WitnessFailed`` for that case only when it is called (so
    a check that stops at the first difference meets a bad answer where it would have asked)."""
    reply = _witness_of(op).ask({"observe_all": [_observe_request(c, op, device_of) for c in cases]})
    each = reply.get("each") if isinstance(reply, dict) else None
    if not (isinstance(each, list) and len(each) == len(cases)):
        failure = WitnessFailed(_failure_text(reply) if not isinstance(each, list)
                                else "the witness answered %d observations for %d inputs" % (len(each), len(cases)))
        each = [failure] * len(cases)

    def later(one):
        def seen():
            if isinstance(one, WitnessFailed):
                raise one
            return _seen(one)
        return seen
    return [later(one) for one in each]


def decoded(reply, key, what):
    """``reply[key]``, decoded: else ``WitnessFailed``, with the reason (no such answer, or its ``what``
    garbled)."""
    if not isinstance(reply, dict) or key not in reply:
        raise WitnessFailed(_failure_text(reply))
    try:
        return decode(reply[key])
    except Garbled as error:
        raise WitnessFailed("the witness's %s were garbled: %s" % (what, error)) from None


def _seen(reply):
    """The observations in one ``observe`` reply, checked for their shape."""
    seen = decoded(reply, "seen", "observations")
    said = seen.get("raised") if isinstance(seen, dict) else ()
    if not (said is None or (isinstance(said, tuple) and len(said) == 2 and all(isinstance(x, str) for x in said))):
        raise WitnessFailed("the witness's observations do not have the shape of observations")
    seen["raised"] = said
    wrong = sorted(k for k, ok in SHAPE.items() if k in seen and not ok(seen[k]))
    if wrong:
        raise WitnessFailed("the witness's observations have the wrong shape (%s)" % ", ".join(wrong[:5]))
    if "_where" in seen and not isinstance(seen["_where"], str):
        seen["_where"] = ""
    seen["_stub"] = seen.get("_stub") is True
    return seen


__all__ = ["LearnerFunction", "LearnerRaised", "Opaque", "Reftorch", "WitnessFailed", "ask_witness",
           "ask_witness_all", "describe_case", "is_learners", "raised", "with_keywords"]
