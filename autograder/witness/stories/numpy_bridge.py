"""The numpy bridge stories: hand an array, a list or a tensor across, then write into the input.

Played in the judge on torch and here, in the witness, on reftorch with the
learner's ``my_from_numpy``, ``my_as_tensor`` and ``my_numpy``
(``autograder.checks.numpy_bridge`` compares the facts). The only witness
module that imports numpy: it is loaded when a numpy bridge story is first
asked for.

The simulated GPU: torch in the judge is a CPU build. Where the learner's input
lives on reftorch's ``cuda:0``, torch's twin lives on torch's ``meta`` device,
which follows the same rules for sharing and refusing (it is not the CPU); the
numbers a meta tensor cannot hold are read from the CPU twin.
"""

from typing import NamedTuple

import numpy as np
import reftorch

from . import LearnerRaised, UnknownStory, call
from ..observe import is_stub, where
from ..readers import refusal

_DTYPES = ("float32", "float64", "int64", "int32", "bool")
_LAYOUTS = ("contiguous", "transposed", "stepped", "offset")


class Story(NamedTuple):
    label: str
    make: tuple               # ("array", dtype, shape, layout), ("tensor", values, dtype, grad, layout,
    on: str = "cpu"           # non_leaf) or ("list", values); on: where a tensor input lives (cuda: the GPU)
    kwargs: tuple = ()        # (name, value) pairs for the call
    grad_mode: bool = True

    def fields(self):
        return [self.label, tuple(self.make), self.on, tuple(tuple(p) for p in self.kwargs), self.grad_mode]

    @classmethod
    def from_fields(cls, fields):
        label, make, on, kwargs, grad_mode = fields
        if not (isinstance(make, tuple) and make and make[0] in MAKERS) or on not in ("cpu", "cuda"):
            raise UnknownStory("no input is made by %r" % (make,))
        return cls(str(label), make, on, tuple(tuple(p) for p in kwargs), bool(grad_mode))

    def build(self, T, device):
        kind, *params = self.make
        return MAKERS[kind](T, device, *params)

    def device(self, T):
        if self.on != "cuda":
            return None
        return "cuda" if T is reftorch else "meta"

    def arguments(self, T):
        """The call's keyword arguments; ``device="cuda"`` is torch's ``meta`` for a CPU input."""
        out = dict(self.kwargs)
        if out.get("device") == "cuda" and T is not reftorch:
            out["device"] = "meta"
        return out


def _array(T, device, dtype, shape, layout="contiguous"):
    if dtype not in _DTYPES or layout not in _LAYOUTS:
        raise UnknownStory("no array is %r, %r" % (dtype, layout))
    n = int(np.prod(shape)) if shape else 1
    base = np.arange(1, n + 1).astype(dtype).reshape(shape)
    if layout == "transposed":
        return base.T
    if layout == "stepped":
        return base[..., ::2]
    if layout == "offset":
        return base[1:]
    return base


def _tensor(T, device, values, dtype="float32", grad=False, layout="contiguous", non_leaf=False):
    if dtype not in _DTYPES or layout not in _LAYOUTS:
        raise UnknownStory("no tensor is %r, %r" % (dtype, layout))
    t = T.tensor(values, dtype=getattr(T, dtype), device=device)
    if grad:
        t.requires_grad_()
    if non_leaf:
        t = t * 2
    if layout == "transposed":
        t = t.t()
    elif layout == "stepped":
        t = t[..., ::2]
    return t


def _list(T, device, values):
    return [list(row) if isinstance(row, list) else row for row in values]


MAKERS = {"array": _array, "tensor": _tensor, "list": _list}


# --- facts ---------------------------------------------------------------------

def _first(array_or_tensor):
    return (0,) * array_or_tensor.ndim


def _meta(T, t):
    return T is not reftorch and t.device.type == "meta"


def _device(T, R, t, story):
    if T is not reftorch and (t.device.type == "meta" or (story.on == "cuda" and t.device.type == "cpu")):
        return "cuda:0"
    return str(R.device(t))


def _tensor_facts(T, R, story, data, result, write_into):
    """What a tensor result is, and whether writing into the input shows in it."""
    seen = {"returned": R.kind(result) if R.is_tensor(result) else f"a {type(result).__name__}"}
    lie = refusal(R, result)
    if lie is not None:
        seen["returned"] = lie
        return seen
    if not R.is_tensor(result):
        return seen
    seen["the same object as the input"] = result is data
    seen["dtype"] = R.dtype(result)
    seen["device"] = _device(T, R, result, story)
    seen["size"] = R.size(result)
    seen["stride"] = R.stride(result)
    seen["requires_grad"] = R.requires_grad(result)
    seen["is_leaf"] = R.is_leaf(result)
    node = R.grad_fn(result)
    seen["grad_fn"] = None if node is None else R.node_name(node)
    if _meta(T, result):
        seen["values"] = T.as_tensor(story.build(T, None), dtype=result.dtype).tolist()
        # new memory on another device, unless it is the very input
        seen["a write into the input shows in the result"] = result is data
        return seen
    seen["values"] = R.values(result)
    if write_into is not None and R.numel(result):
        before = R.values(result)
        write_into()
        seen["a write into the input shows in the result"] = R.values(result) != before
    elif write_into is None:
        # Python data (or an empty array): nothing to write into; only the input itself would share
        seen["a write into the input shows in the result"] = result is data
    return seen


def _write_array(array):
    def write():
        array[_first(array)] = not array[_first(array)] if array.dtype == bool else array[_first(array)] + 7
    return write if array.size else None


def _write_tensor(T, t):
    def write():
        with T.no_grad():
            t.add_(7) if t.dtype != T.bool else t.logical_not_()
    return write


def _writer(T, R, data):
    if isinstance(data, np.ndarray):
        return _write_array(data)
    if R.is_tensor(data) and not _meta(T, data):
        return _write_tensor(T, data)
    return None


def conversion_story(step):
    """``function(data, **kwargs)`` for ``my_from_numpy`` (``step``): the result, then a write into the input."""
    def play(T, R, functions, arguments):
        story = Story.from_fields(arguments)
        data = story.build(T, story.device(T))
        with T.set_grad_enabled(story.grad_mode):
            result = call(step, functions["function"], data, **story.arguments(T))
        return _tensor_facts(T, R, story, data, result, _writer(T, R, data))
    return play


def as_tensor_story(T, R, functions, arguments):
    """``function(data, dtype=..., device=...)``: the result, then a write into the input."""
    story = Story.from_fields(arguments)
    data = story.build(T, story.device(T))
    kwargs = story.arguments(T)
    if "dtype" in kwargs:
        kwargs["dtype"] = None if kwargs["dtype"] is None else getattr(T, kwargs["dtype"])
    if story.on == "cuda" and T is not reftorch:
        kwargs.pop("device", None)   # a GPU tensor asked for the GPU: nothing moves (meta stays meta)
    result = call("my_as_tensor", functions["function"], data, **kwargs)
    facts = _tensor_facts(T, R, story, data, result, _writer(T, R, data))
    if T is reftorch and isinstance(data, list):
        facts["_input"] = "a Python list"   # for the message only (torch's run has no such fact)
    return facts


def numpy_story(T, R, functions, arguments):
    """``function(t, force=...)``: refused, or an array; then a write through the array."""
    story = Story.from_fields(arguments)
    source = story.build(T, story.device(T))
    kwargs = story.arguments(T)
    force_from_gpu = story.on == "cuda" and kwargs.get("force") and T is not reftorch
    if force_from_gpu:
        source = story.build(T, None)   # meta cannot be copied to the host: the CPU twin, copied below
    before = R.version(source)
    with T.set_grad_enabled(story.grad_mode):
        try:
            array = functions["function"](source, **kwargs)
        except Exception as error:  # a refusal is one of the facts; anything else is the learner's bug
            if T is not reftorch or not is_stub(error):
                return {"raised": type(error).__name__, "_error": f"{type(error).__name__}: {error}{where(error)}"}
            raise LearnerRaised("my_numpy", error) from None
    seen = {"raised": None, "returned": type(array).__name__}
    if not isinstance(array, np.ndarray):
        return seen
    if force_from_gpu:
        array = array.copy()
    seen["dtype"] = str(array.dtype)
    seen["shape"] = array.shape
    seen["strides (bytes)"] = array.strides
    seen["values"] = array.tolist()
    seen["the source's version after numpy()"] = R.version(source) - before
    seen["the source still requires grad"] = R.requires_grad(source)
    if array.size:
        with T.no_grad():
            was = R.values(source)
            array[_first(array)] = not array[_first(array)] if array.dtype == bool else array[_first(array)] + 7
            seen["a write into the array shows in the tensor"] = R.values(source) != was
        seen["the source's version after a write through the array"] = R.version(source) - before
    return seen


STORIES = {"from_numpy": conversion_story("my_from_numpy"), "as_tensor": as_tensor_story, "numpy": numpy_story}
