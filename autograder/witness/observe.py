"""What an operation does to one input: the observations the judge compares with torch's.

``observe(module, R, case, op)`` builds the case's input with ``module`` (torch or
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

The same function runs on both sides: in the judge on torch (its reader is torch's
API), and in the student's kernel, the witness, on reftorch with the learner's
function (``autograder.witness.serve``), where every value it returns is plain data
the judge checks before it compares anything. Every warning is caught, so nothing
reaches stderr (nbgrader gives 0 to a cell that writes to stderr).
"""

import linecache
import os
import re
import sys
import traceback
import warnings

import reftorch

from .readers import NotATensor, type_name

_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*\)\s*$", re.S)


def clean(message):
    """An error or warning text without torch's C++ source location."""
    return _TRIGGERED.sub("", str(message)).strip()


# --- the learner's own exceptions --------------------------------------------

def _folder(module):
    return os.path.dirname(os.path.abspath(module.__file__)) + os.sep


# reftorch, the standard library, the grader's own code, and torch where it is installed (the judge)
_LIBRARY_FOLDERS = tuple([_folder(reftorch), _folder(os),
                          os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep]
                         + ([_folder(sys.modules["torch"])] if "torch" in sys.modules else []))


def _is_library(filename):
    path = os.path.abspath(filename) if not filename.startswith("<") else filename
    return path.startswith(_LIBRARY_FOLDERS) or "site-packages" in path


def _learner_frames(error):
    frames = traceback.extract_tb(error.__traceback__)
    return [f for f in frames if not _is_library(f.filename)]


def where(error):
    """``" (in my_clone, line 3: `return self.clone()`)"``: the learner's line that raised, if any.

    An error the witness described (``autograder.judge.learner.LearnerRaised``) carries its own."""
    if hasattr(error, "learner_line"):
        return error.learner_line
    frames = _learner_frames(error)
    if not frames:
        return ""
    frame = frames[-1]
    line = (frame.line or linecache.getline(frame.filename, frame.lineno)).strip()
    place = f"in {frame.name}, line {frame.lineno}" if frame.name != "<module>" else f"line {frame.lineno}"
    return f" ({place}: `{line}`)" if line else f" ({place})"


def is_stub(error):
    """A ``NotImplementedError`` raised by the learner's own code: the exercise's untouched stub."""
    if hasattr(error, "learner_stub"):
        return error.learner_stub
    if not isinstance(error, NotImplementedError):
        return False
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and not _is_library(frames[-1].filename)


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


def observe(module, R, case, op, device_of="source"):
    """Run ``op(source, *args)`` on a fresh input from ``case``, built with ``module`` (torch or
    reftorch) and read with ``R`` (its reader), and record what happened.

    Keys starting with ``_`` are not observations: the input and the exception, kept
    for the message (:func:`plain_observations` turns them into words for the judge).
    """
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
        seen["device"] = (R.device(result) if module is reftorch or device_of not in devices
                          else devices[device_of])
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


def plain_observations(seen):
    """``seen`` as the witness sends it: the input becomes nothing (the judge builds its own twin),
    the learner's exception its place in their code and whether it is the untouched stub."""
    out = {k: v for k, v in seen.items() if not k.startswith("_")}
    error = seen.get("_error")
    if error is not None:
        out["_where"] = where(error)
        out["_stub"] = is_stub(error)
    return out
