"""Checks for the learner's save and load: what torch.save writes for a view, and how load shares.

The learner writes, on reftorch's ``save``/``load`` and building blocks
(``storage_from_bytes``, ``tensor_on``, ``bump_version``):

* ``my_saved_bytes(tensors)``: how many bytes of numbers ``torch.save(tensors)``
  writes: one record per *storage* (its whole length), however many tensors
  look into it;
* ``my_save_compact(t, f)``: save ``t`` so that the file holds only ``t``'s own
  elements, loaded back as ``torch.save(t.clone(), f)`` loads (shape, strides,
  dtype, requires_grad);
* ``my_rebuild(entries, records)``: what load does with a file's description:
  one new storage per record key (shared by every entry naming it), each tensor
  on it with its offset, size and strides, its own version counter at 1 (torch
  rebuilds with ``set_``), its ``requires_grad`` flag, no history.

Each case is a story played in torch and in reftorch (``_facts``; the stories
themselves live with the witness, ``autograder.witness.stories.save_and_load``,
which plays the learner's side in the student's kernel when a notebook is
graded); the facts
compared are the bytes of the file's ``data/`` records (read from the zip that
``save`` writes), and for loaded tensors their type, size, stride, offset,
dtype, numbers, autograd state, version, and which of them share a storage or
a version counter; and, loading the same file a second time while the first
load is alive, whether the two loads share memory (they never do: a load that
names storages by their bytes, or keeps them from one call to the next, is
caught there and by two separate records that hold the same bytes).
"""

import torch

from ..witness import variants as _variants
from ..witness.stories.save_and_load import Story, describe, record_bytes, saved
from ._facts import compare, play_both
from ..judge.language import N_, _
from ._observe import M, choose

TOPIC = "save_and_load"


def _tag(name, text):
    return M(f"{TOPIC}/{name}", text)


# --- the stories (their inputs are made by autograder.witness.stories.save_and_load) ---------

BYTES = (
    Story("a slice base[1:3] of a 4x3 float32 tensor", "slice"),
    Story("a 2x3 float32 tensor and base[:, :2].t()", "tensor_and_transpose"),
    Story("rows base[0] and base[2] of one 3x4 float64 tensor", "two_rows"),
    Story("a 2x2 int64 tensor and a float32 tensor of 3 elements", "two_dtypes"),
    Story("a leaf that requires grad, x, and x.detach()[1:]", "leaf_and_detach"),
)
MORE_BYTES = (
    Story("a leaf x with a .grad (after a backward)", "leaf_with_grad"),
    Story("two separate float32 tensors holding the same three numbers", "equal_storages"),
    Story("an expanded view base[:, 1:].expand(4, 2) of a 1x3 tensor", "expanded"),
    Story("a bool tensor", "bools"),
    Story("a view of a view of a 4x4 float64 tensor, and another row of it", "view_of_view"),
)


def _drawn_base(r):
    dtype = r.choice(("float32", "float64", "int64", "int32"))
    rows, cols = r.randint(2, 4), r.randint(2, 4)
    return dtype, rows, cols


def _drawn_stories(salt):
    r = _variants.generator(salt)
    out = []
    for i in range(3):
        dtype, rows, cols = _drawn_base(r)
        start, step = r.randint(0, rows - 1), r.randint(1, 2)
        together = r.random() < 0.5
        what = f"base[{start}:, ::{step}] of a {rows}x{cols} {dtype} tensor" + (", with base.t()" if together else "")
        out.append(Story(f"drawn #{i + 1}: {what}", "drawn", (dtype, rows, cols, start, step, together)))
    return tuple(out)


def _play(stories, name, torch_side, yours, messages):
    for story in stories:
        label = _(N_("input: {0}")).format(_(story.label))
        theirs, mine = play_both(f"{TOPIC}.{name}", story.fields(), {"function": torch_side},
                                 {"function": yours}, TOPIC, label)
        compare(theirs, mine, messages, label)


# --- my_saved_bytes -------------------------------------------------------------------

_BYTES_TEXT = {
    "counts-grad": "you count the storage of a tensor's .grad too, but torch.save writes a tensor's numbers, "
                   "its metadata and its requires_grad flag, never its gradient (.grad is not saved)",
    "merges-equal-storages": "you count two storages once because they hold as many bytes (here, the same "
                             "bytes), but torch.save writes one record per storage object: two tensors "
                             "made separately are two records, whatever numbers they hold (compare "
                             "t.untyped_storage().data_ptr(), where the storage lives)",
    "view-elements": "you count each tensor's own elements, but torch.save writes the whole storage a view "
                     "looks into (a slice of a big tensor costs the big tensor)",
    "counts-each-tensor": "you count a storage once per tensor, but tensors saved together that share a "
                          "storage (a tensor and its views, its detach()) share one record in the file",
    "identifies-by-data-ptr": "you tell storages apart by t.data_ptr(), the address of the tensor's first "
                              "element; two views of one storage start at different addresses but share "
                              "one record (compare t.untyped_storage().data_ptr())",
    "four-bytes-each": "you count 4 bytes per element, but a record holds the storage's own bytes: 8 per "
                       "element for float64 and int64, 1 for bool",
}


def _bytes_message(theirs, yours, facts):
    candidates = facts["yours"].get("_candidates", {})
    causes = [name for name, value in candidates.items() if value == yours and value != theirs]
    if not causes:
        return _tag("wrong-bytes", "your count differs from the bytes torch.save writes: one record per "
                    "storage reached, each its whole length (storage.nbytes())")
    text = "; or ".join(_BYTES_TEXT[c] for c in causes)
    if len(causes) > 1:
        text = "several beliefs give your number: " + text
    return _tag(causes[0], text)


def check_saved_bytes(my_saved_bytes, battery="basic"):
    """The bytes of numbers torch.save writes for tensors saved together: one record per storage."""
    stories = choose(battery, BYTES, BYTES + MORE_BYTES, _drawn_stories(TOPIC + "/bytes"))
    _play(stories, "bytes", lambda tensors: record_bytes(saved(torch, tensors)), my_saved_bytes,
          {"bytes of numbers in the file": _bytes_message})


# --- my_save_compact ------------------------------------------------------------------

COMPACT = (
    Story("a slice base[1:3] of a 4x3 float32 tensor", "slice"),
    Story("a stepped view base[:, ::2] of a 3x4 float64 tensor", "stepped"),
    Story("the transpose of a 2x3 float32 tensor", "transpose"),
    Story("(x * 2)[::2] for a leaf x that requires grad", "graph_view"),
    Story("a row base[1] of a 3x2 int64 tensor", "int_row"),
    Story("a column base[:, 1] of a 3x3 float32 tensor, saved to a file name", "column", file_name="column.pt"),
)
MORE_COMPACT = (
    Story("an expanded view of a 1x3 tensor", "expanded"),
    Story("a bool view", "bool_view"),
    Story("a view of a view of a 4x4 float64 tensor", "only_view_of_view"),
)

_COMPACT = {
    "bytes of numbers in the file": lambda theirs, yours, facts: (
        _tag("saves-whole-storage", "your file holds more than the view's elements: torch.save writes the "
             "whole storage a tensor looks into, and t, t.detach(), t.view(...) and t.contiguous() of a "
             "contiguous view all share it; clone() (or another copy) first")
        if isinstance(yours, int) and yours > theirs else
        _tag("wrong-file", "your file does not hold the view's elements once, as torch.save(t.clone(), f) "
             "writes them")),
    "the view's version after saving": _tag("writes-source", "saving changes the view's version: a snapshot "
                                            "only reads the view"),
    "the view's numbers after saving": _tag("writes-source", "saving changes the view's numbers"),
    "loaded type": _tag("not-a-tensor", "your file does not load back as one plain tensor"),
    "loaded size": _tag("changes-shape", "the loaded tensor has another shape than the view"),
    "loaded dtype": _tag("changes-dtype", "the loaded tensor has another dtype than the view: numbers taken "
                         "out as Python floats (tolist) come back as the default float32, so float64 is lost"),
    "loaded values": _tag("wrong-values", "the loaded tensor holds other numbers than the view"),
    "loaded stride": _tag("changes-layout", "the loaded tensor is laid out differently from the view's clone: "
                          "clone() keeps the layout of a dense view (a transpose stays transposed), "
                          "contiguous() and torch.tensor(...) make it row-major"),
    "loaded storage offset": _tag("saves-whole-storage", "the loaded tensor starts inside a bigger storage: "
                                  "the file holds more than the view's elements"),
    "loaded requires_grad": lambda theirs, yours, facts: (
        _tag("drops-requires-grad", "the loaded tensor lost requires_grad: torch.save keeps the flag (not the "
             "graph), and t.clone() of a view that requires grad requires grad; detach() drops it")
        if theirs else _tag("requires-grad", "the loaded tensor requires grad where the view does not")),
    "loaded grad_fn": _tag("keeps-history", "the loaded tensor has a history: a file holds no graph"),
    "loaded version": _tag("wrong-version", "the loaded tensor's version differs from torch's"),
}


def check_save_compact(my_save_compact, battery="basic"):
    """The file holds only the view's elements, loaded back as torch.save(t.clone(), f) is."""
    stories = choose(battery, COMPACT, COMPACT + MORE_COMPACT)

    def torch_side(t, f):
        torch.save(t.clone(), f)
    _play(stories, "compact", torch_side, my_save_compact, _COMPACT)


# --- my_rebuild -------------------------------------------------------------------------

REBUILD = (
    Story("a 2x3 float32 tensor, base[1:, ::2] and base.t()", "base_view_transpose"),
    Story("a leaf x that requires grad and x.detach()[1:]", "leaf_and_detach"),
    Story("a float64 tensor and an int64 tensor", "float64_and_int64"),
)
MORE_REBUILD = (
    Story("a 1x3 tensor and its expanded view base[:, 1:].expand(4, 2)", "base_and_expanded"),
    Story("a bool tensor and a float32 tensor", "bool_and_float"),
    Story("rows base[0] and base[2] of one 3x4 float64 tensor", "two_rows"),
    Story("interleaved records: a 2x2 tensor a, a separate tensor b, then a[1]", "interleaved"),
    Story("two separate float32 tensors holding the same three numbers, and a view of the first",
          "equal_and_view"),
)


def _runs(owners):
    """Where a list of storage owners changes from one entry to the next."""
    return [a != b for a, b in zip(owners, owners[1:])]


def _per_tensor(name, text):
    return lambda theirs, yours, facts: _tag(name, text)


def _rebuild_messages():
    messages = {
        "returned": _tag("not-a-list", "your my_rebuild does not return a list with one tensor per entry"),
        "which tensors share a storage": lambda theirs, yours, facts: (
            _tag("shares-only-neighbours", "your my_rebuild shares a storage only between entries that follow "
                 "each other: entries naming the same record key share one storage wherever they are in the "
                 "list (records interleave: a, b, then a view of a); keep every key's storage, not the last")
            if _runs(yours) == _runs(theirs) and len(set(yours)) > len(set(theirs)) else
            _tag("no-sharing", "entries that name the same record key must share one new storage after "
                 "loading, as the saved tensors did (make each key's storage once, then reuse it)")
            if len(set(yours)) > len(set(theirs)) else
            _tag("merges-equal-records", "your my_rebuild gives records that hold the same bytes one storage: "
                 "a storage is named by its record key, not by its numbers (two tensors saved separately "
                 "stay two storages after loading, whatever numbers they hold)")
            if facts["yours"].get("_equal_records") else
            _tag("shares-too-much", "tensors from different records share a storage in yours")),
        "the originals' memory is reused": _tag("reuses-memory", "a loaded tensor looks into the saved "
                                               "tensor's memory: loading makes new storages"),
        "whose version moves when tensor 0 is written": _tag(
            "shares-version-counter", "loaded tensors that share a storage still have version counters of "
            "their own: load rebuilds each tensor separately (writing into one moves only its version)"),
        "a second load of the same file shares memory with the first": _tag(
            "keeps-storages-between-loads", "your my_rebuild hands a second load of the same file storages of "
            "an earlier load: every load makes new storages (keep nothing from one call to the next), or a "
            "write into one loaded tensor would change a tensor loaded before"),
    }
    per = {
        "type": ("not-a-tensor", "your my_rebuild returns something other than plain tensors"),
        "size": ("wrong-size", "a loaded tensor has another size than its entry says"),
        "dtype": ("ignores-dtype", "a loaded tensor reads its record with another dtype than its entry says: "
                                   "the same bytes mean other numbers in another dtype"),
        "values": ("wrong-values", "a loaded tensor holds other numbers than the saved one"),
        "stride": ("ignores-stride", "a loaded tensor is laid out row-major instead of with its entry's "
                                     "strides: a transpose or a stepped view must keep its strides into "
                                     "the storage"),
        "storage offset": ("ignores-offset", "a loaded tensor starts at slot 0 instead of its entry's storage "
                                             "offset: a view saved with its storage keeps its place in it"),
        "requires_grad": ("drops-requires-grad", "a loaded tensor lost its requires_grad flag: the file keeps "
                                                 "the flag (a leaf comes back a leaf that requires grad)"),
        "grad_fn": ("keeps-history", "a loaded tensor has a history: load builds leaves"),
        "version": ("version", "a loaded tensor's version is not 1: torch rebuilds each tensor with set_, an "
                               "in-place op, so every loaded tensor starts at version 1 (bump_version)"),
    }
    for i in range(8):
        for fact, (name, text) in per.items():
            messages[f"tensor {i}: {fact}"] = _tag(name, text)
    return messages


def check_rebuild(my_rebuild, battery="basic"):
    """New storages, one per record key and shared by its entries; each tensor with its metadata,
    its own version counter at 1, its requires_grad flag and no history."""
    stories = choose(battery, REBUILD, REBUILD + MORE_REBUILD, _drawn_stories(TOPIC + "/rebuild"))
    _play(stories, "rebuild", None, my_rebuild, _rebuild_messages())


__all__ = ["check_saved_bytes", "check_save_compact", "check_rebuild", "record_bytes", "describe"]
