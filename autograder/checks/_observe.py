"""Compare what an operation does in torch with what the learner's version does.

The observations themselves (the four questions, the version counter, what was
raised and warned) are made by ``autograder.witness.observe``: here on torch,
and, when a notebook is graded, in the student's kernel (the witness) on the
learner's reftorch function, which answers with plain data the judge checks
(``autograder.judge``). Called with a plain Python function (the tests, the
course), the learner's side is observed here too.

``expect_same(...)`` compares a chosen list of those fields between torch's
run and yours, case by case, and raises an ``AssertionError`` whose message
names the misconception behind the first difference, shows the input and both
values, and ends with a stable tag (``misconception: clone/shares-memory``) that
the instructor's report counts. Every warning is caught, so nothing reaches
stderr (nbgrader gives 0 to a cell that writes to stderr).
"""

from typing import NamedTuple

import reftorch
import torch  # noqa: F401  (torch's side of every comparison; reader(torch))

from ..judge.learner import ask_witness, ask_witness_all, is_learners
from ..witness import battery as _battery, variants as _variants
from ..witness.observe import clean, is_stub, observe as _observe, where  # noqa: F401  (re-exported)
from ._readers import ReftorchReader, reader


class Misconception(NamedTuple):
    """A belief a failure shows, with the stable tag the instructor's report counts."""
    tag: str
    text: str


M = Misconception
TAG_LINE = "misconception: "


def not_written(topic, op_name):
    return M(f"{topic}/not-written",
             f"your {op_name} is not written yet: it still raises NotImplementedError (replace "
             "`raise NotImplementedError()` with your code)")


class CheckFailure(AssertionError):
    """The AssertionError a check raises, shown in a notebook as its message alone.

    IPython shows the lines ``_render_traceback_`` returns in place of the
    traceback (its public protocol for exceptions that know how to show
    themselves): the message says what to fix, and the frames would all be the
    checks' own. It is named AssertionError, as nbgrader, the self-check and the
    class report read it; points and messages are unchanged.
    """

    def _render_traceback_(self):
        first, *rest = str(self).splitlines() or [""]
        return ["AssertionError: " + first, *rest]


CheckFailure.__name__ = CheckFailure.__qualname__ = "AssertionError"


def failure(misconception, lines):
    """The AssertionError a check raises: the belief, the evidence, the tag."""
    text = "\n".join([misconception.text] + ["    " + line for line in lines]
                     + ["    " + TAG_LINE + misconception.tag])
    return CheckFailure(text)


def describe_input(t):
    """A reftorch input, in numbers: size, stride, offset, dtype, device, autograd state."""
    R = ReftorchReader
    if not R.is_tensor(t):
        return type_name(t)
    return (f"size {R.size(t)}, stride {R.stride(t)}, offset {R.storage_offset(t)}, {R.dtype(t)}, "
            f"{R.device(t)}, requires_grad={R.requires_grad(t)}, "
            + ("leaf" if R.is_leaf(t) else "grad_fn " + R.node_name(R.grad_fn(t))))


# --- observing ----------------------------------------------------------------

def observe(module, case, op, device_of="source"):
    """torch's run (or a learner's function run here, outside any grading) of ``op`` on ``case``
    (``autograder.witness.observe``)."""
    return _observe(module, reader(module), case, op, device_of)


def observe_yours(case, op, device_of="source"):
    """The learner's run: asked of the witness when ``op`` is the learner's (the judge grades),
    else run here on reftorch (a test calling the check with a plain function)."""
    if is_learners(op):
        return _with_input(ask_witness(case, op, device_of), case)
    return observe(reftorch, case, op, device_of)


def _with_input(seen, case):
    seen["_input"] = case.build(reftorch)[0]   # the judge's own twin, for the messages
    return seen


def observe_all_yours(cases, op, device_of="source"):
    """:func:`observe_yours` for each case, as functions called in turn: the witness is asked about
    every case in one round trip (its answers checked one by one, as each is used)."""
    if is_learners(op):
        return [lambda seen=seen, case=case: _with_input(seen(), case)
                for seen, case in zip(ask_witness_all(cases, op, device_of), cases)]
    return [lambda case=case: observe(reftorch, case, op, device_of) for case in cases]


def battery(cases, salt="cases", **drawn):
    """``"basic"`` or ``"full"`` (the named batteries of ``_battery``; ``"full"`` adds the
    inputs drawn for this student, see ``_variants``), ``"drawn"`` (only those), or a
    tuple of cases.

    The visible tests (``"basic"``) run every fixed case, so that the self-check meets every
    kind of input the grader does: the hidden tests add only inputs drawn for the student,
    which vary the numbers, shapes and combinations, never the kinds."""
    if cases == "basic":
        return _battery.FULL
    if cases == "full":
        return _battery.FULL + _variants.tensor_cases(salt, **drawn)
    if cases == "drawn":
        return _variants.tensor_cases(salt, **drawn)
    return tuple(cases)


def choose(battery, basic, full, drawn=()):
    """The cases of a named battery: ``"basic"`` the visible ones, ``"full"`` the hidden ones
    plus those drawn for this student, ``"drawn"`` only the drawn ones (the property tests).

    ``basic`` (a few cases, one for each belief an exercise names) comes first; the visible
    battery then runs every fixed case of ``full`` as well, so the self-check fails a learner
    exactly when the grader's fixed cases do (see ``battery``)."""
    if battery == "basic":
        return tuple(basic) + tuple(c for c in full if c not in tuple(basic))
    if battery == "drawn":
        return tuple(drawn)
    return tuple(full) + tuple(drawn)


def _where_of(yours):
    """The learner's line that raised: as the witness described it, or from the exception here."""
    if "_where" in yours:
        return yours["_where"]
    error = yours.get("_error")
    return where(error) if error is not None else ""


def _show(value):
    return repr(value)


def _pick(entry, theirs, yours, context):
    return entry(theirs, yours, context) if callable(entry) else entry


def expect_same(op_name, cases, torch_op, your_op, fields, misconceptions, topic=None,
                device_of="source"):
    """For each case, compare ``fields`` of torch's run with yours.

    ``misconceptions`` maps a field to a ``Misconception`` (or to a function of
    torch's value, yours and both observations that returns one). What was
    raised, and whether a tensor was returned, are always compared first: if
    torch raises, yours must raise the same error; if both raise, the field
    ``after_refusal`` (when asked for) compares what the inputs look like.
    """
    topic = topic or op_name
    cases = battery(cases, op_name)
    for case, yours_of in zip(cases, observe_all_yours(cases, your_op, device_of)):
        theirs = observe(torch, case, torch_op, device_of)
        yours = yours_of()
        context = {"theirs": theirs, "yours": yours, "case": case}
        error = yours.get("_error")
        if theirs["raised"] != yours["raised"]:
            if yours.get("_stub") or (error is not None and is_stub(error)):
                raise failure(not_written(topic, op_name), _evidence(case))
            if theirs["raised"] is None:
                what = _pick(misconceptions.get("raised_unexpectedly")
                             or M(f"{topic}/raises", f"your {op_name} raised where torch's does not"),
                             theirs["raised"], yours["raised"], context)
                detail = [f"yours raised {yours['raised'][0]}: {yours['raised'][1]}{_where_of(yours)}"]
            else:
                what = _pick(misconceptions.get("raised")
                             or M(f"{topic}/raises", f"torch's {op_name} raises an error here and yours "
                                  "does not (or raises another one)"),
                             theirs["raised"], yours["raised"], context)
                detail = [f"torch raises {theirs['raised'][0]}: {theirs['raised'][1]}",
                          "yours " + (f"raised {yours['raised'][0]}: {yours['raised'][1]}{_where_of(yours)}"
                                      if yours["raised"] else "raised nothing")]
            raise failure(what, _evidence(case, *detail))
        if theirs["raised"] is not None:
            if "after_refusal" in fields and theirs["after_refusal"] != yours.get("after_refusal"):
                what = _pick(misconceptions["after_refusal"], theirs["after_refusal"],
                             yours.get("after_refusal"), context)
                raise failure(what, _evidence(
                    case, f"both raise {theirs['raised'][0]}: {theirs['raised'][1]}",
                    f"the inputs afterwards: torch's {_show(theirs['after_refusal'])}, "
                    f"yours {_show(yours.get('after_refusal'))}"))
            continue
        if "not_a_tensor" in yours:
            raise failure(M(f"{topic}/not-a-tensor",
                            f"your {op_name} returned {yours['not_a_tensor']}"), _evidence(case))
        if yours.get("returned") != theirs["returned"]:
            raise failure(M(f"{topic}/not-a-tensor",
                            f"your {op_name} returned a {yours.get('returned')}, where torch's returns a "
                            f"{theirs['returned']}"), _evidence(case))
        for field in fields:
            if field == "after_refusal":
                continue
            if theirs.get(field) != yours.get(field):
                what = _pick(misconceptions[field], theirs.get(field), yours.get(field), context)
                for cause in ("returns_an_argument", "same_object"):
                    if cause in misconceptions and cause in theirs and theirs[cause] != yours.get(cause):
                        # the data shows the cause of every other difference: the wrong object came back
                        what = _pick(misconceptions[cause], theirs[cause], yours.get(cause), context)
                        break
                raise failure(what, _evidence(
                    case, f"{field}: torch's {op_name} gives {_show(theirs.get(field))}, "
                          f"yours gives {_show(yours.get(field))}"))


def _evidence(case, *lines):
    """The lines under a failure's first line: the input (a fresh reftorch twin, described in
    numbers: the run may have changed the one it used), then ``lines``."""
    source, _, args = case.build(reftorch)
    tensors = [source] + [a for a in args if ReftorchReader.is_tensor(a)]
    roles = getattr(case, "roles", ("",) * len(tensors))
    described = ["       " + (role + ": " if role else "") + describe_input(t) for role, t in zip(roles, tensors)]
    return ["input: " + case.label()] + described + list(lines)
