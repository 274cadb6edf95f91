"""Watch a copy operation answer the four questions, in torch and in your reftorch code.

``observe(module, case, op)`` builds the case's input with ``module`` (torch or
reftorch), runs ``op`` on it, and writes down everything a learner could check:

1. object      is the result the very same Python object as the source? Exactly a Tensor?
2. metadata    size, stride, storage offset, dtype, device, requires_grad, is_leaf, is it a view?
3. memory      does the result share the source's storage? Which numbers does it hold?
               Its ``.grad``; its Python attributes, by value and by identity
4. history     grad_fn's name, where its next_functions lead, the leaves' gradients after backward
   + version   the result's version right after the op, the version of every input, and
               whether the result shares the source's version counter (write into the
               source, watch the result's version)
   + what the op raised and warned, and, when it raised, the state it left its inputs in.

The reftorch side is read through reftorch's own functions, never through the
returned object's methods (``_readers``): a subclass of Tensor, a look-alike or
a hand-made graph node is reported as such.

``expect_same(...)`` compares a chosen list of those fields between torch's
run and yours, case by case, and raises an ``AssertionError`` whose message
names the misconception behind the first difference, shows the input and both
values, and ends with a stable tag (``misconception: clone/shares-memory``) that
the instructor's report counts. Every warning is caught, so nothing reaches
stderr (nbgrader gives 0 to a cell that writes to stderr).
"""

import linecache
import os
import re
import traceback
import warnings
from typing import NamedTuple

import reftorch
import torch

from . import _battery, _variants
from ._readers import NotATensor, ReftorchReader, reader, type_name

_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*\)\s*$", re.S)


class Misconception(NamedTuple):
    """A belief a failure shows, with the stable tag the instructor's report counts."""
    tag: str
    text: str


M = Misconception
TAG_LINE = "misconception: "


def clean(message):
    """An error or warning text without torch's C++ source location."""
    return _TRIGGERED.sub("", str(message)).strip()


# --- the learner's own exceptions --------------------------------------------

def _folder(module):
    return os.path.dirname(os.path.abspath(module.__file__)) + os.sep


_LIBRARY_FOLDERS = (_folder(reftorch), _folder(torch), _folder(os),
                    os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep)


def _is_library(filename):
    path = os.path.abspath(filename) if not filename.startswith("<") else filename
    return path.startswith(_LIBRARY_FOLDERS) or "site-packages" in path


def _learner_frames(error):
    frames = traceback.extract_tb(error.__traceback__)
    return [f for f in frames if not _is_library(f.filename)]


def where(error):
    """``" (in my_clone, line 3: `return self.clone()`)"``: the learner's line that raised, if any."""
    frames = _learner_frames(error)
    if not frames:
        return ""
    frame = frames[-1]
    line = (frame.line or linecache.getline(frame.filename, frame.lineno)).strip()
    place = f"in {frame.name}, line {frame.lineno}" if frame.name != "<module>" else f"line {frame.lineno}"
    return f" ({place}: `{line}`)" if line else f" ({place})"


def is_stub(error):
    """A ``NotImplementedError`` raised by the learner's own code: the exercise's untouched stub."""
    if not isinstance(error, NotImplementedError):
        return False
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and not _is_library(frames[-1].filename)


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

def _edge(R, node, source, leaves):
    """Where one entry of next_functions leads, in words that mean the same in both modules."""
    if node is None:
        return "nothing (None)"
    if source is not None and R.is_tensor(source) and node is R.grad_fn(source):
        return "the source's grad_fn"
    variable = getattr(node, "variable", None)
    if variable is not None:
        for i, leaf in enumerate(leaves):
            if variable is leaf:
                return f"AccumulateGrad of input leaf #{i}"
        return "AccumulateGrad of a tensor that is not an input"
    return R.node_name(node)


def _plain(value):
    """An attribute value as data that compares the same in both runs."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return f"a {type(value).__name__}"


def _mutable(value):
    return not isinstance(value, (str, int, float, bool, type(None), tuple, frozenset))


def _grad_values(R, t):
    g = R.grad(t)
    if g is None:
        return None
    return R.values(g) if R.is_tensor(g) else f"a {type_name(g)}"


def _state(R, t):
    """What a refused operation must leave untouched: numbers, version, autograd state."""
    node = R.grad_fn(t)
    return {"values": R.values(t), "version": R.version(t), "requires_grad": R.requires_grad(t),
            "grad_fn": None if node is None else R.node_name(node)}


def observe(module, case, op, device_of="source"):
    """Run ``op(source, *args)`` on a fresh input from ``case`` and record what happened.

    Keys starting with ``_`` are not observations: the input and the exception, kept
    for the message.
    """
    R = reader(module)
    seen = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        source, leaves, args = case.build(module)
        inputs = (source,) + tuple(a for a in args if R.is_tensor(a))
        seen["_input"] = source
        caught.clear()
        with module.set_grad_enabled(case.grad_mode):
            try:
                result = op(source, *args)
            except Exception as error:  # what the op raised is one of the observations
                seen["raised"] = (type(error).__name__, clean(error))
                seen["_error"] = error
                result = None
        seen["warnings"] = tuple((w.category.__name__, clean(w.message)) for w in caught)
        if "raised" in seen:
            seen["after_refusal"] = tuple(_state(R, t) for t in inputs)
            return seen
        seen["raised"] = None
        seen["returned"] = R.kind(result) if R.is_tensor(result) else type_name(result)
        try:
            R.require(result)
            node = R.grad_fn(result)
        except NotATensor as lie:
            seen["not_a_tensor"] = str(lie)
            return seen
        if not R.is_tensor(result):
            return seen
        seen["same_object"] = result is source
        seen["returns_an_argument"] = tuple(i for i, a in enumerate(args) if result is a)
        seen["size"] = R.size(result)
        seen["stride"] = R.stride(result)
        seen["storage_offset"] = R.storage_offset(result)
        seen["dtype"] = R.dtype(result)
        devices = case.devices()
        seen["device"] = R.device(result) if module is reftorch or device_of not in devices else devices[device_of]
        seen["requires_grad"] = R.requires_grad(result)
        seen["is_leaf"] = R.is_leaf(result)
        seen["is_view"] = R.is_view(result)
        seen["values"] = R.values(result)
        seen["grad"] = _grad_values(R, result)
        grad, source_grad = R.grad(result), R.grad(source)
        seen["grad_shares_memory"] = (
            R.is_tensor(grad) and R.is_tensor(source_grad) and R.memory(grad) == R.memory(source_grad))
        attributes, source_attributes = R.attributes(result), R.attributes(source)
        seen["attributes"] = {k: _plain(v) for k, v in attributes.items()}
        seen["attribute_identity"] = (
            ("the source's own __dict__" if attributes is source_attributes else "a __dict__ of its own",)
            + tuple(f"{k}: " + ("the source's object" if k in source_attributes and v is source_attributes[k]
                                else "a new object")
                    for k, v in sorted(attributes.items()) if _mutable(v)))
        seen["shares_memory"] = R.memory(result) == R.memory(source)
        seen["version"] = R.version(result)
        seen["source_version"] = R.version(source)
        seen["input_versions"] = tuple(R.version(t) for t in inputs[1:])
        seen["input_grads"] = tuple(_grad_values(R, t) for t in inputs)
        seen["grad_fn"] = None if node is None else R.node_name(node)
        seen["next_functions"] = (
            tuple(_edge(R, n, source, leaves) for n, _ in R.next_functions(node)) if node is not None else ())
        seen["gradient"] = _gradients(module, R, result, leaves)
        before = R.version(result)
        try:
            with module.no_grad():
                source.zero_()
            seen["shares_version_counter"] = R.version(result) != before
        except Exception as error:
            seen["shares_version_counter"] = f"could not write into the source: {clean(error)}"
        return seen


def _gradients(module, R, result, leaves):
    """Backward through ``(result * w).sum()`` with w = 1, 2, 3...; each leaf's ``.grad`` after it."""
    if not R.requires_grad(result):
        return "no backward: the result does not require grad"
    try:
        device = R.device(result) if module is reftorch else None
        weights = module.arange(1, R.numel(result) + 1, device=device).reshape(R.size(result))
        (result * weights.to(result.dtype)).sum().backward()
    except Exception as error:
        return f"backward raised {type(error).__name__}: {clean(error)}"
    return tuple(_grad_values(R, leaf) for leaf in leaves)


def battery(cases, salt="cases", **drawn):
    """``"basic"`` or ``"full"`` (the named batteries of ``_battery``; ``"full"`` adds the
    inputs drawn for this student, see ``_variants``), ``"drawn"`` (only those), or a
    tuple of cases.

    The visible tests (``"basic"``) run every fixed case, so that the self-check meets every
    kind of input the grader does: the hidden tests add only inputs drawn for the student,
    which vary the numbers, shapes and combinations, never the kinds (issue 21)."""
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
    for case in battery(cases, op_name):
        theirs = observe(torch, case, torch_op, device_of)
        yours = observe(reftorch, case, your_op, device_of)
        context = {"theirs": theirs, "yours": yours, "case": case}
        error = yours.get("_error")
        if theirs["raised"] != yours["raised"]:
            if error is not None and is_stub(error):
                raise failure(not_written(topic, op_name), _evidence(case))
            if theirs["raised"] is None:
                what = _pick(misconceptions.get("raised_unexpectedly")
                             or M(f"{topic}/raises", f"your {op_name} raised where torch's does not"),
                             theirs["raised"], yours["raised"], context)
                detail = [f"yours raised {yours['raised'][0]}: {yours['raised'][1]}{where(error)}"]
            else:
                what = _pick(misconceptions.get("raised")
                             or M(f"{topic}/raises", f"torch's {op_name} raises an error here and yours "
                                  "does not (or raises another one)"),
                             theirs["raised"], yours["raised"], context)
                detail = [f"torch raises {theirs['raised'][0]}: {theirs['raised'][1]}",
                          "yours " + (f"raised {yours['raised'][0]}: {yours['raised'][1]}{where(error)}"
                                      if yours["raised"] else "raised nothing")]
            raise failure(what, _evidence(case, *detail))
        if theirs["raised"] is not None:
            if "after_refusal" in fields and theirs["after_refusal"] != yours["after_refusal"]:
                what = _pick(misconceptions["after_refusal"], theirs["after_refusal"],
                             yours["after_refusal"], context)
                raise failure(what, _evidence(
                    case, f"both raise {theirs['raised'][0]}: {theirs['raised'][1]}",
                    f"the inputs afterwards: torch's {_show(theirs['after_refusal'])}, "
                    f"yours {_show(yours['after_refusal'])}"))
            continue
        if "not_a_tensor" in yours:
            raise failure(M(f"{topic}/not-a-tensor",
                            f"your {op_name} returned {yours['not_a_tensor']}"), _evidence(case))
        if yours["returned"] != theirs["returned"]:
            raise failure(M(f"{topic}/not-a-tensor",
                            f"your {op_name} returned a {yours['returned']}, where torch's returns a "
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
