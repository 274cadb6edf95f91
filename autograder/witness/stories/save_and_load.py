"""The save and load stories: what a file holds for tensors saved together, and how load shares.

Played in the judge on torch and here, in the witness, on reftorch with the
learner's ``my_saved_bytes``, ``my_save_compact`` and ``my_rebuild``
(``autograder.checks.save_and_load`` compares the facts and names the
misconception). An input is a :class:`Story`: a maker of ``MAKERS`` by name
and its numbers, so the judge can describe the inputs it draws per student.
"""

import io
import os
import re
import tempfile
import zipfile
from typing import NamedTuple

import reftorch

from . import UnknownStory, call
from ..readers import refusal

_RECORD = re.compile(r"(^|/)data/\d+$")


class Story(NamedTuple):
    label: str
    maker: str            # a name of MAKERS: maker(T, *params) -> a list of tensors
    params: tuple = ()
    file_name: str = ""   # save to a file of this name (a path), not to a buffer

    def make(self, T):
        return MAKERS[self.maker](T, *self.params)

    def fields(self):
        return [self.label, self.maker, tuple(self.params), self.file_name]

    @classmethod
    def from_fields(cls, fields):
        label, maker, params, file_name = fields
        if maker not in MAKERS or not isinstance(params, tuple) or not isinstance(file_name, str):
            raise UnknownStory("no input is made by %r" % (maker,))
        if file_name and (os.sep in file_name or file_name.startswith(".")):
            raise UnknownStory("a file name that is not a plain name: %r" % (file_name,))
        return cls(str(label), maker, params, file_name)


def record_bytes(data):
    """The bytes of numbers in a saved file: the sizes of its ``data/<key>`` records."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return sum(info.file_size for info in archive.infolist() if _RECORD.search(info.filename))


def saved(T, obj):
    buffer = io.BytesIO()
    T.save(obj, buffer)
    return buffer.getvalue()


def _base(T, shape, dtype="float32", grad=False):
    n = 1
    for s in shape:
        n *= s
    t = T.arange(1, n + 1, dtype=getattr(T, dtype)).reshape(shape)
    return t.requires_grad_() if grad else t


# --- the inputs ---------------------------------------------------------------------

def _leaf_with_grad(T):
    x = _base(T, (2, 3), "float32", grad=True)
    (x * 2).sum().backward()
    return [x]


def _drawn(T, dtype, rows, cols, start, step, together):
    base = _base(T, (rows, cols), str(dtype))
    view = base[start:, ::step]
    return [view, base.t()] if together else [view]


def _leaf_and_detach(T):
    x = _base(T, (4,), "float32", grad=True)
    return [x, x.detach()[1:]]


def _expanded(T):
    return [_base(T, (1, 3))[:, 1:].expand(4, 2)]


def _bools(T):
    return [_base(T, (2, 3), "int32") > 3]


MAKERS = {
    "slice": lambda T: [_base(T, (4, 3))[1:3]],
    "tensor_and_transpose": lambda T: (lambda b: [b, b[:, :2].t()])(_base(T, (2, 3))),
    "two_rows": lambda T: (lambda b: [b[0], b[2]])(_base(T, (3, 4), "float64")),
    "two_dtypes": lambda T: [_base(T, (2, 2), "int64"), _base(T, (3,), "float32")],
    "leaf_and_detach": _leaf_and_detach,
    "leaf_with_grad": _leaf_with_grad,
    "equal_storages": lambda T: [_base(T, (3,)), _base(T, (3,))],
    "expanded": _expanded,
    "bools": _bools,
    "view_of_view": lambda T: (lambda b: [b[1:, ::2][1:], b[3]])(_base(T, (4, 4), "float64")),
    "stepped": lambda T: [_base(T, (3, 4), "float64")[:, ::2]],
    "transpose": lambda T: [_base(T, (2, 3)).t()],
    "graph_view": lambda T: [(_base(T, (6,), grad=True) * 2)[::2]],
    "int_row": lambda T: [_base(T, (3, 2), "int64")[1]],
    "column": lambda T: [_base(T, (3, 3))[:, 1]],
    "bool_view": lambda T: [(_base(T, (2, 3), "int32") > 3)[1:]],
    "only_view_of_view": lambda T: [_base(T, (4, 4), "float64")[1:, ::2][1:]],
    "base_view_transpose": lambda T: (lambda b: [b, b[1:, ::2], b.t()])(_base(T, (2, 3))),
    "float64_and_int64": lambda T: [_base(T, (2, 2), "float64"), _base(T, (3,), "int64")],
    "base_and_expanded": lambda T: (lambda b: [b, b[:, 1:].expand(4, 2)])(_base(T, (1, 3))),
    "bool_and_float": lambda T: _bools(T) + [_base(T, (2,))],
    "interleaved": lambda T: (lambda a, b: [a, b, a[1]])(_base(T, (2, 2)), _base(T, (3,), "float64")),
    "equal_and_view": lambda T: (lambda a, b: [a, b, a[1:]])(_base(T, (3,)), _base(T, (3,))),
    "drawn": _drawn,
}


# --- my_saved_bytes -------------------------------------------------------------------

def _candidates(tensors):
    """What the usual wrong beliefs compute for these (reftorch) tensors."""
    storages = {}
    for t in tensors:
        storages[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
    element = {}
    for t in tensors:
        element[t.data_ptr()] = t.untyped_storage().nbytes()
    with_grads = dict(storages)
    for t in tensors:
        grad = t.grad if t.is_leaf else None
        if grad is not None:
            with_grads[grad.untyped_storage().data_ptr()] = grad.untyped_storage().nbytes()
    by_size = {n: n for n in storages.values()}
    return {
        "counts-grad": sum(with_grads.values()),
        "merges-equal-storages": sum(by_size.values()),
        "view-elements": sum(t.numel() * t.element_size() for t in tensors),
        # before counts-each-tensor: where both fit, only tensors starting at one address tell them apart
        "identifies-by-data-ptr": sum(element.values()),
        "counts-each-tensor": sum(t.untyped_storage().nbytes() for t in tensors),
        "four-bytes-each": sum(t.untyped_storage().nbytes() // t.element_size() * 4
                               for t in {t.untyped_storage().data_ptr(): t for t in tensors}.values()),
    }


def bytes_story(T, R, functions, arguments):
    """``function(tensors)``: the bytes of numbers torch.save writes for the story's tensors."""
    story = Story.from_fields(arguments)
    tensors = story.make(T)
    answer = call("my_saved_bytes", functions["function"], list(tensors))
    facts = {"bytes of numbers in the file": answer if type(answer) is int else f"a {type(answer).__name__}"}
    if T is reftorch:
        facts["_candidates"] = _candidates(tensors)
    return facts


# --- my_save_compact ------------------------------------------------------------------

def loaded_facts(R, t, prefix=""):
    """What a loaded tensor is: type, size, dtype, layout, numbers, autograd state, version."""
    lie = refusal(R, t)
    if lie is not None:
        return {prefix + "type": lie}
    node = R.grad_fn(t)
    return {
        prefix + "type": R.kind(t),
        prefix + "size": R.size(t),
        prefix + "dtype": R.dtype(t),
        prefix + "stride": R.stride(t),
        prefix + "storage offset": R.storage_offset(t),
        prefix + "values": R.values(t),
        prefix + "requires_grad": R.requires_grad(t),
        prefix + "grad_fn": None if node is None else R.node_name(node),
        prefix + "version": R.version(t),
    }


def compact_story(T, R, functions, arguments):
    """``function(view, f)`` saves the view; what the file holds and how it loads back."""
    story = Story.from_fields(arguments)
    function = functions["function"]
    view = story.make(T)[0]
    version, values = R.version(view), R.values(view)
    if story.file_name:  # f is a file name too, as torch.save allows
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, story.file_name)
            call("my_save_compact", function, view, path)
            data = b""
            if os.path.isfile(path):
                with open(path, "rb") as file:
                    data = file.read()
    else:
        buffer = io.BytesIO()
        call("my_save_compact", function, view, buffer)
        data = buffer.getvalue()
    facts = {"the view's version after saving": R.version(view) - version,
             "the view's numbers after saving": R.values(view) == values}
    if data[:2] != b"PK":
        facts["loaded type"] = "not a saved file"
        return facts
    loaded = loaded_facts(R, T.load(io.BytesIO(data)), "loaded ")
    # what the file is first (a dtype lost through Python numbers also shrinks the file), then its size
    for fact in ("loaded type", "loaded size", "loaded dtype"):
        if fact in loaded:
            facts[fact] = loaded.pop(fact)
    facts["bytes of numbers in the file"] = record_bytes(data)
    facts.update(loaded)
    return facts


# --- my_rebuild -------------------------------------------------------------------------

def describe(tensors):
    """What a file says about ``tensors`` saved together (reftorch): the entries and the records."""
    keys, entries, records = {}, [], {}
    for t in tensors:
        storage = t.untyped_storage()
        key = keys.setdefault(storage.data_ptr(), str(len(keys)))
        records[key] = bytes(storage._bytes.tobytes())
        entries.append({"key": key, "storage_offset": t.storage_offset(), "size": tuple(t.shape),
                        "stride": tuple(t.stride()), "dtype": t.dtype, "requires_grad": t.requires_grad})
    return entries, records


def _load(T, R, function, tensors):
    """The file of ``tensors`` loaded: by torch (the judge), or by the learner's ``my_rebuild`` from a
    fresh description (reftorch: the file's entries and records, equal each time)."""
    if T is not reftorch:
        return T.load(io.BytesIO(saved(T, tensors)))
    entries, records = describe(tensors)
    return call("my_rebuild", function, entries, records)


def rebuild_story(T, R, functions, arguments):
    """Load the story's tensors, write into the first loaded one, load the same file again."""
    story = Story.from_fields(arguments)
    function = functions.get("function")
    tensors = story.make(T)
    loaded = _load(T, R, function, tensors)
    if not isinstance(loaded, list) or len(loaded) != len(tensors):
        return {"returned": "a list with one tensor per entry" if T is not reftorch else
                f"a {type(loaded).__name__}" + (f" of {len(loaded)}" if isinstance(loaded, list) else "")}
    facts = {"returned": "a list with one tensor per entry"}
    memory = []
    for i, t in enumerate(loaded):
        one = loaded_facts(R, t, f"tensor {i}: ")
        facts.update(one)
        if one[f"tensor {i}: type"] not in ("Tensor", "Parameter"):
            return facts
        memory.append(R.memory(t))
    facts["which tensors share a storage"] = [memory.index(m) for m in memory]
    if T is reftorch:   # for the message: which records hold the same bytes (they are still two)
        records = describe(tensors)[1]
        facts["_equal_records"] = len(set(records.values())) < len(records)
    facts["the originals' memory is reused"] = any(R.memory(t) in memory for t in tensors)
    with T.no_grad():
        before = [R.version(t) for t in loaded]
        loaded[0].copy_(loaded[0].clone())   # a write: the numbers stay
        facts["whose version moves when tensor 0 is written"] = [
            i for i, t in enumerate(loaded) if R.version(t) != before[i]]
    again = _load(T, R, function, tensors)   # the first load is still alive: no address is reused
    if T is reftorch and isinstance(again, list):
        again = [t for t in again if R.is_tensor(t)]
    facts["a second load of the same file shares memory with the first"] = (
        any(R.memory(t) in memory for t in again) if isinstance(again, list) else "no list")
    return facts


STORIES = {"bytes": bytes_story, "compact": compact_story, "rebuild": rebuild_story}
