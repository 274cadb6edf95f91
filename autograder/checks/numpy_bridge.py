"""Checks for the learner's numpy bridge: share or copy, as torch decides.

The learner writes, on reftorch's building blocks (``array_memory``,
``dtype_of_numpy``, ``tensor_on``, ``elements_of``, and ``t.to``, ``t.detach``,
``t.cpu``, ``torch.tensor`` for Python data):

* ``my_from_numpy(array)``: a tensor on the array's memory, always;
* ``my_as_tensor(data, dtype=None, device=None)``: the tensor itself when nothing
  changes, the array's memory when dtype and device allow, a copy otherwise
  (one that stays in the graph for a tensor), new memory for Python lists;
* ``my_numpy(t, force=False)``: an array on the tensor's memory, refused for a
  GPU tensor (TypeError) and, in grad mode, for a tensor that requires grad
  (RuntimeError), unless ``force=True`` (then ``t.detach().cpu()``: a copy only
  from the GPU).

Each case is a story played in torch and in reftorch (the stories live with the
witness, ``autograder.witness.stories.numpy_bridge``); the facts compared:
what came back (type, same object), dtype, device, size, strides, values,
autograd state, whether a write into the input shows in the output (that is
what sharing means), and the version counter.

The simulated GPU: the torch here is a CPU build. Where the learner's input
lives on reftorch's ``cuda:0``, torch's twin lives on torch's ``meta`` device,
which follows the same rules for sharing and refusing (it is not the CPU); the
numbers a meta tensor cannot hold are read from the CPU twin.
"""

import torch

from ..witness import variants as _variants
from ..witness.stories.numpy_bridge import Story
from ._facts import compare, play_both
from ..judge.language import N_, _
from ._observe import M

TOPIC = "numpy_bridge"


def _tag(name, text):
    return M(f"{TOPIC}/{name}", text)


def _array(dtype, shape, layout="contiguous"):
    return ("array", dtype, tuple(shape), layout)


def _tensor(values, dtype="float32", grad=False, layout="contiguous", non_leaf=False):
    return ("tensor", values, dtype, grad, layout, non_leaf)


def _list(values):
    return ("list", values)


def _play(stories, name, torch_side, yours, messages, step):
    """Each story in torch and in reftorch (``autograder.witness.stories.numpy_bridge``)."""
    for story in stories:
        said = _(story.label) + (f", called with {dict(story.kwargs)}" if story.kwargs else "")
        label = _(N_("input: {0}")).format(said if story.grad_mode else _(N_("{0}, inside no_grad")).format(said))
        theirs, mine = play_both(f"{TOPIC}.{name}", story.fields(), {"function": torch_side},
                                 {"function": yours}, TOPIC, label, _out_of_bounds)
        if "_error" in mine and mine.get("raised") != theirs.get("raised"):
            label += "\n    " + _(N_("yours raised {0}")).format(mine["_error"])
        theirs.pop("_error", None)
        mine.pop("_error", None)
        compare(theirs, mine, messages, label)


def _out_of_bounds(error):
    if "out of bounds" in str(error):
        return _tag("strides-in-bytes", "your tensor's layout reaches past the end of the array's memory: "
                    "numpy's strides count bytes, torch's count elements (divide by the item size)")
    return None


def _sharing(op):
    def pick(theirs, yours, facts):
        if theirs:
            return _tag("copies-when-it-could-share", f"your {op} copies where torch shares memory: nothing "
                        "asks for a copy here (same dtype, same device), so the result is a tensor on the "
                        "input's own memory and a write into one shows in the other")
        return _tag("shares-when-it-must-copy", f"your {op} shares memory where torch copies: a change of "
                    "dtype or device (or Python data) needs new memory")
    return pick


def _dtype(op):
    def pick(theirs, yours, facts):
        if facts["yours"].get("_input") == "a Python list" and theirs == "torch.float32" \
                and yours == "torch.float64":
            return _tag("list-floats-as-float64", f"your {op} gives float64 for a list of Python floats: "
                        "torch.as_tensor (like torch.tensor) builds Python floats with the default dtype, "
                        "float32; float64 is numpy's default (np.array(data) on the way gives it)")
        if yours == "torch.float32" and theirs == "torch.float64":
            return _tag("default-dtype", f"your {op} gives float32 where torch gives float64: an array keeps "
                        "numpy's dtype (float64 stays float64) and an asked-for dtype is honoured; float32 is only "
                        "the default for Python floats when no dtype is given")
        return _tag("ignores-dtype", f"your {op} gives another dtype than torch: an asked-for dtype is "
                    "honoured (by a copy), and without one the input's dtype is kept")
    return pick


def _messages(op):
    return {
        "returned": _tag("not-a-tensor", f"your {op} does not return a reftorch Tensor"),
        "the same object as the input": lambda theirs, yours, facts: (
            _tag("new-object", f"your {op} returns a new tensor where torch returns the input itself: as_tensor "
                 "of a tensor that needs no change of dtype or device is that very tensor (history included)")
            if theirs else _tag("returns-input", f"your {op} returns its input where torch makes a new tensor")),
        "dtype": _dtype(op),
        "device": _tag("ignores-device", f"your {op} puts the result on another device than torch: an asked-for "
                       "device is honoured (by a copy), and without one a tensor stays where it is and an "
                       "array's memory is on the CPU"),
        "size": _tag("wrong-size", f"your {op} changes the shape"),
        "stride": lambda theirs, yours, facts: (
            _tag("strides-in-bytes", f"your {op} keeps numpy's strides, which count bytes: torch's strides "
                 "count elements (divide by the item size)")
            if yours and theirs and any(y != t for y, t in zip(yours, theirs)) and all(
                t == 0 or y % t == 0 for y, t in zip(yours, theirs)) and yours != theirs and max(yours) > max(theirs)
            else _tag("wrong-strides", f"your {op} lays the elements out differently: a tensor on an array's "
                      "memory takes the array's strides (in elements), so a transposed array stays transposed")),
        "requires_grad": lambda theirs, yours, facts: (
            _tag("drops-history", f"your {op} drops requires_grad: as_tensor of a tensor keeps it in the graph "
                 "(it is the tensor itself, or a copy made by .to() that records a node)")
            if theirs else _tag("requires-grad", f"your {op} requires grad where torch's does not")),
        "is_leaf": _tag("drops-history", f"your {op} gives a leaf where torch's result has a history (a copy "
                        "made by .to() records ToCopyBackward0; a detach does not)"),
        "grad_fn": _tag("drops-history", f"your {op} records another node than torch (a copy of a tensor that "
                        "requires grad is recorded by .to(): ToCopyBackward0)"),
        "values": _tag("wrong-values", f"your {op} holds other numbers than the input"),
        "a write into the input shows in the result": _sharing(op),
    }


# --- from_numpy ------------------------------------------------------------------

FROM_NUMPY = (
    Story("a float64 array of shape (2, 3)", _array("float64", (2, 3))),
    Story("a transposed float32 array a.T", _array("float32", (2, 3), "transposed")),
    Story("a stepped int64 array a[:, ::2]", _array("int64", (2, 4), "stepped")),
    Story("a slice a[1:] of an int32 array", _array("int32", (3, 2), "offset")),
)
MORE_FROM_NUMPY = (
    Story("a 0-d float32 array", _array("float32", ())),
    Story("a bool array", _array("bool", (4,))),
    Story("an empty float64 array", _array("float64", (0, 3))),
    Story("a 3-d transposed float64 array", _array("float64", (2, 3, 2), "transposed")),
)


def _drawn_arrays(salt):
    r = _variants.generator(salt)
    out = []
    for i in range(4):
        dtype = r.choice(("float32", "float64", "int64", "int32", "bool"))
        shape = tuple(r.randint(1, 3) for _ in range(r.randint(1, 3)))
        layout = r.choice(("contiguous", "transposed", "stepped", "offset" if shape[0] > 1 else "contiguous"))
        out.append(Story(f"drawn array #{i + 1}: {dtype}, shape {shape}, {layout}", _array(dtype, shape, layout)))
    return tuple(out)


def _choose(battery, basic, more, drawn):
    if battery == "basic":
        return basic + more     # the visible tests meet every kind of input the hidden ones do
    if battery == "drawn":
        return drawn()
    return basic + more + drawn()


def check_from_numpy(my_from_numpy, battery="basic"):
    """A tensor on the array's memory: numpy's dtype, strides in elements, writes shown both ways."""
    stories = _choose(battery, FROM_NUMPY, MORE_FROM_NUMPY, lambda: _drawn_arrays(TOPIC + "/from_numpy"))
    _play(stories, "from_numpy", torch.from_numpy, my_from_numpy,
          _messages("from_numpy"), "my_from_numpy")


# --- as_tensor -------------------------------------------------------------------

AS_TENSOR = (
    Story("a float64 array", _array("float64", (2, 3))),
    Story("a float64 array, asked for float32", _array("float64", (2, 3)), kwargs=(("dtype", "float32"),)),
    Story("a float32 array, asked for the GPU", _array("float32", (2, 2)), kwargs=(("device", "cuda"),)),
    Story("a transposed float32 array", _array("float32", (2, 3), "transposed")),
    Story("a Python list of ints", _list([[1, 2], [3, 4]])),
    Story("a list of floats, asked for float64", _list([0.5, 1.5]), kwargs=(("dtype", "float64"),)),
    Story("a leaf that requires grad", _tensor([1.0, 2.0, 3.0], grad=True)),
    Story("a leaf that requires grad, asked for float64", _tensor([1.0, 2.0, 3.0], grad=True),
          kwargs=(("dtype", "float64"),)),
    Story("a GPU tensor (cuda:0), asked for the GPU", _tensor([[1.0, 2.0], [3.0, 4.0]]), on="cuda",
          kwargs=(("device", "cuda"),)),
)
MORE_AS_TENSOR = (
    Story("a transposed non-leaf", _tensor([[1.0, 2.0], [3.0, 4.0]], grad=True, layout="transposed", non_leaf=True)),
    Story("an int64 tensor, asked for int64", _tensor([1, 2, 3], dtype="int64"), kwargs=(("dtype", "int64"),)),
    Story("a stepped float32 array", _array("float32", (2, 4), "stepped")),
    Story("a list of ints, asked for float32", _list([1, 2]), kwargs=(("dtype", "float32"),)),
    Story("a float32 array, asked for the CPU", _array("float32", (3,)), kwargs=(("device", "cpu"),)),
    # Python floats with no dtype (the default float32), and device= for a list and for a tensor
    Story("a list of Python floats", _list([[0.5, 1.5], [2.5, -1.0]])),
    Story("a list of Python floats, asked for the GPU", _list([0.5, 1.5]), kwargs=(("device", "cuda"),)),
    Story("a float64 tensor, asked for the GPU", _tensor([1.0, 2.0], "float64"), kwargs=(("device", "cuda"),)),
)


def _drawn_as_tensor(salt):
    r = _variants.generator(salt)
    out = []
    for i in range(4):
        kind = r.choice(("array", "tensor"))
        dtype = r.choice(("float32", "float64"))
        ask = r.choice((None, "float32", "float64"))
        kwargs = (("dtype", ask),) if ask else ()
        if kind == "array":
            make = _array(dtype, (r.randint(1, 3), 2), r.choice(("contiguous", "transposed")))
            out.append(Story(f"drawn input #{i + 1}: a {dtype} array", make, kwargs=kwargs))
        else:
            grad = r.random() < 0.5
            make = _tensor([[1.0, -2.0], [0.5, 4.0]][:r.randint(1, 2)], dtype, grad=grad)
            out.append(Story(f"drawn input #{i + 1}: a {dtype} tensor" + (" that requires grad" if grad else ""),
                             make, kwargs=kwargs))
    return tuple(out)


def check_as_tensor(my_as_tensor, battery="basic"):
    """The tensor itself, the array's memory, or a copy: exactly where torch.as_tensor decides."""
    stories = _choose(battery, AS_TENSOR, MORE_AS_TENSOR, lambda: _drawn_as_tensor(TOPIC + "/as_tensor"))
    _play(stories, "as_tensor", torch.as_tensor, my_as_tensor, _messages("as_tensor"), "my_as_tensor")


# --- numpy() -----------------------------------------------------------------------

def _numpy_raised(theirs, yours, facts):
    if theirs == "TypeError" and yours == "RuntimeError":
        return _tag("refusal-order", "your numpy() refuses a GPU tensor that requires grad with RuntimeError: "
                    "when both refusals apply, torch checks the device first and raises TypeError (numpy "
                    "cannot see GPU memory at all, whatever autograd would say)")
    if theirs and yours:
        return _tag("wrong-refusal", f"your numpy() refuses with {yours} where torch raises {theirs} (TypeError "
                    "for a GPU tensor, RuntimeError for one that requires grad in grad mode)")
    if theirs == "RuntimeError":
        return _tag("ignores-requires-grad", "your numpy() hands out the memory of a tensor that requires grad "
                    "in grad mode: torch refuses (RuntimeError), because writes through the array would change "
                    "numbers autograd has saved without its knowing; t.detach().numpy() or force=True asks for it")
    if theirs == "TypeError":
        return _tag("numpy-of-gpu", "your numpy() hands out a GPU tensor's memory: numpy only sees host "
                    "memory, so torch refuses (TypeError) unless force=True, which copies to the CPU")
    if yours in ("RuntimeError", "TypeError"):
        return _tag("refuses-without-need", "your numpy() refuses where torch does not: inside no_grad, or "
                    "with force=True, or for a tensor that does not require grad, torch hands out the memory")
    return _tag("raises", f"your numpy() raised {yours} where torch returns an array")


NUMPY_MESSAGES = {
    "raised": _numpy_raised,
    "returned": _tag("not-an-array", "your numpy() does not return a numpy array"),
    "dtype": _tag("changes-dtype", "your numpy() changes the dtype: the array has the tensor's dtype"),
    "shape": _tag("wrong-size", "your numpy() changes the shape"),
    "strides (bytes)": _tag("wrong-strides", "your array lays the elements out differently from the tensor: "
                            "an array on the tensor's memory has the tensor's strides (in bytes)"),
    "values": _tag("wrong-values", "your array holds other numbers than the tensor"),
    "the source's version after numpy()": _tag("bumps-version", "your numpy() bumps the tensor's version: "
                                               "handing out the memory writes nothing"),
    "the source still requires grad": _tag("changes-source", "your numpy() changes the tensor's requires_grad"),
    "a write into the array shows in the tensor": lambda theirs, yours, facts: (
        _tag("copies-when-it-could-share", "your numpy() copies: torch's array is a view of the tensor's own "
             "memory (a write into one shows in the other)") if theirs else
        _tag("shares-when-it-must-copy", "your numpy() shares memory with a GPU tensor: force=True copies to "
             "the CPU first")),
    "the source's version after a write through the array": _tag(
        "version-sees-numpy", "your tensor's version moves when the array is written: writes through numpy "
        "are invisible to the version counter (which is why torch refuses tensors that require grad)"),
}

NUMPY = (
    Story("a float32 tensor", _tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
    Story("a transposed int64 tensor", _tensor([[1, 2, 3], [4, 5, 6]], "int64", layout="transposed")),
    Story("a leaf that requires grad", _tensor([1.0, 2.0], grad=True)),
    Story("a leaf that requires grad", _tensor([1.0, 2.0], grad=True), grad_mode=False),
    Story("a GPU tensor (cuda:0)", _tensor([1.0, 2.0]), on="cuda"),
    Story("a leaf that requires grad, force=True", _tensor([1.0, 2.0], grad=True), kwargs=(("force", True),)),
    Story("a GPU tensor (cuda:0), force=True", _tensor([1.0, 2.0]), on="cuda", kwargs=(("force", True),)),
)
MORE_NUMPY = (
    Story("a stepped float64 tensor", _tensor([[1.0, 2.0, 3.0, 4.0]], "float64", layout="stepped")),
    Story("a non-leaf", _tensor([1.0, 2.0], grad=True, non_leaf=True)),
    Story("a bool tensor", _tensor([True, False], "bool")),
    Story("a GPU leaf that requires grad, force=True", _tensor([3.0], grad=True), on="cuda",
          kwargs=(("force", True),)),
    # two refusals apply: torch checks the device first
    Story("a GPU leaf that requires grad", _tensor([1.0, 2.0], grad=True), on="cuda"),
    Story("an int64 tensor, force=True", _tensor([[1, 2], [3, 4]], "int64"), kwargs=(("force", True),)),
)


def _drawn_numpy(salt):
    r = _variants.generator(salt)
    out = []
    for i in range(4):
        dtype = r.choice(("float32", "float64", "int64"))
        grad = dtype != "int64" and r.random() < 0.5
        on = r.choice(("cpu", "cpu", "cuda"))
        force = r.random() < 0.3
        mode = r.random() < 0.7
        values = [[float(r.randint(-4, 4)) for _ in range(3)] for _ in range(2)]
        out.append(Story(f"drawn tensor #{i + 1}: {dtype}{', requires grad' if grad else ''}, on {on}"
                         f"{', force=True' if force else ''}", _tensor(values, dtype, grad=grad), on=on,
                         kwargs=(("force", True),) if force else (), grad_mode=mode))
    return tuple(out)


def check_numpy(my_numpy, battery="basic"):
    """An array on the tensor's memory; refused for the GPU and for requires_grad in grad mode; force copies
    only from the GPU."""
    stories = _choose(battery, NUMPY, MORE_NUMPY, lambda: _drawn_numpy(TOPIC + "/numpy"))
    _play(stories, "numpy", lambda t, **kw: t.numpy(**kw), my_numpy, NUMPY_MESSAGES, "my_numpy")

