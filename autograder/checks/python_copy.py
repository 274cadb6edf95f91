"""Checks for the learner's ``copy.copy`` and ``copy.deepcopy`` of a tensor.

``copy.copy(t)`` (torch goes through the pickle protocol): a new tensor object
on the *same* storage, same size/stride/offset, device and ``requires_grad``,
a leaf with no ``.grad``, a ``__dict__`` of its own holding the *same*
attribute objects, and a *new* version counter (it already reads 1: torch
rebuilds the tensor with an in-place ``set_``). An alias autograd cannot see
through, like ``.data``.

``copy.deepcopy(t)``: refuses a non-leaf; otherwise a new tensor on a copy of
the *whole* storage (so offset and strides are kept), same device and
``requires_grad``, ``.grad`` and attribute values deep-copied, a new version
counter (reading 1, as for copy.copy). Within one ``deepcopy`` call the memo
makes a tensor met twice come back as one copy, views of one storage keep
sharing one new storage, and ``.grad`` and attributes that point to tensors of
the same call point to their copies.
"""

import copy

from ..judge.calls import through, value_through
from ..judge.learner import WitnessFailed
from ..witness import battery as _battery, variants as _variants
from ..witness.copies import Annotated, memo_facts
from ..judge.language import N_, _
from ._observe import (M, battery as resolve_battery, by_torch, choose, clean, expect_same, failure, is_stub,
                       not_written, where, yours_raised)
from ._readers import TorchReader


_shares_memory = by_torch(M("copy.copy/copies-memory", "your copy.copy copies the memory: a shallow copy is a new "
                            "tensor object on the same storage"),
                          M("deepcopy/shares-memory", "your deepcopy shares memory with the source: a deep copy "
                            "owns a copy of the storage"))


def _grad(theirs, yours, context):
    if theirs is not None:
        return M("deepcopy/forgets-grad", "your deepcopy forgets .grad: deepcopy copies the gradient too")
    return M("copy.copy/copies-grad", "your copy.copy brings .grad along: the shallow copy has no gradient")


def _attribute_identity(theirs, yours, context):
    if theirs and theirs[0] != (yours or ("",))[0]:
        return M("copy.copy/shares-dict", "your copy shares the source's __dict__ object itself: the copy "
                 "gets a dictionary of its own (holding the same attribute objects for copy.copy, copies of "
                 "them for deepcopy), so setting an attribute on one does not set it on the other")
    if any("the source's object" in entry for entry in theirs):
        return M("copy.copy/copies-attributes", "your copy.copy copies the attribute values: a shallow copy "
                 "holds the very same attribute objects as the source")
    return M("deepcopy/shares-attributes", "your deepcopy shares attribute values with the source: deepcopy "
             "deep-copies them too (copy.deepcopy(self.__dict__, memo))")


def _version(theirs, yours, context):
    return M("copy/version", f"your copy's version counter reads {yours} where torch's reads {theirs}: both "
             "copies get a counter of their own, and torch rebuilds the tensor with an in-place set_, so it "
             "already reads 1 (bump the new tensor's version once)")


MISCONCEPTIONS = {
    "same_object": M("copy/returns-source", "your copy returns the source itself: copying must give a new "
                     "tensor object"),
    "shares_memory": _shares_memory,
    "values": M("copy/wrong-values", "your copy holds other numbers than the source"),
    "size": M("copy/changes-metadata", "your copy changes the metadata: both copies keep size, stride and "
              "offset"),
    "stride": M("copy/changes-strides", "your copy changes the strides: both copies keep them (deepcopy "
                "copies the whole storage, not just the elements in view)"),
    "storage_offset": M("copy/changes-offset", "your copy changes the storage offset: both copies keep it "
                        "(deepcopy copies the whole storage, so the elements stay where they were)"),
    "dtype": M("copy/changes-dtype", "your copy changes the dtype"),
    "device": M("copy/changes-device", "your copy changes the device: both copies stay where the source is"),
    "requires_grad": M("copy/drops-requires-grad", "your copy does not keep requires_grad: both copies "
                       "rebuild the tensor with the source's requires_grad"),
    "is_leaf": M("copy/keeps-history", "your copy is not a leaf: a copy never carries the source's history"),
    "grad_fn": M("copy/keeps-history", "your copy keeps a grad_fn: a copy never carries the source's "
                 "history"),
    "grad": _grad,
    "grad_shares_memory": M("deepcopy/shares-grad", "your deepcopy shares .grad with the source: the "
                            "gradient is deep-copied too"),
    "attributes": M("copy/loses-attributes", "your copy loses the tensor's Python attributes (t.note = ...): "
                    "both copies carry them"),
    "attribute_identity": _attribute_identity,
    "version": _version,
    "source_version": M("copy/bumps-source-version", "your copy bumped the source's version: copying reads "
                        "the source, it does not write into it"),
    "shares_version_counter": M("copy/shares-version-counter", "your copy shares the source's version "
                                "counter: both copies start a counter of their own (so, like .data, writes "
                                "through copy.copy go unseen)"),
}


def _drawn(salt, leaf_only):
    r = _variants.generator(salt + "/extras")
    cases = []
    for case in resolve_battery("drawn", salt, leaf_only=leaf_only, true_leaf=leaf_only):
        extra = (r.choice((None, "n%d" % r.randint(0, 99))), r.choice((None, (r.randint(0, 9),))),
                 r.random() < 0.5)
        cases.append(Annotated(case.name + (" with .grad" if extra[2] else "")
                               + (" and Python attributes" if extra[0] or extra[1] else ""),
                               case.recipe, case.grad_mode, case.on, extra))
    return tuple(cases)


LEAVES = (_battery.GRAD_LEAF, _battery.PLAIN, _battery.ANNOTATED, _battery.WRITTEN, _battery.OFFSET,
          _battery.STEPPED_PLAIN, _battery.ON_GPU)
FULL_LEAVES = LEAVES + (_battery.EXPANDED, _battery.INT64, _battery.BOOL, _battery.FLOAT64, _battery.EMPTY,
                        _battery.PLAIN_ON_GPU, _battery.LEAF_NO_GRAD_MODE)

ALIAS_FIELDS = ("same_object", "shares_memory", "values", "size", "stride", "storage_offset", "dtype",
                "device", "grad", "attributes", "attribute_identity")
AUTOGRAD_FIELDS = ("requires_grad", "is_leaf", "grad_fn", "shares_version_counter", "version", "source_version")


def _copy_cases(battery, salt):
    return choose(battery, _battery.BASIC, _battery.FULL, _drawn(salt, leaf_only=False))


def _expect(op, cases, theirs, yours, fields, misconceptions=MISCONCEPTIONS, topic="copy.copy"):
    expect_same(op, cases, theirs, yours, fields, misconceptions, topic=topic)


def check_copy_alias(my_copy, battery="basic"):
    """copy.copy: a new object on the same memory, metadata and attribute objects; no .grad."""
    _expect("copy.copy", _copy_cases(battery, "copy.copy/alias"), copy.copy, my_copy, ALIAS_FIELDS)


def check_copy_autograd(my_copy, battery="basic"):
    """copy.copy: same requires_grad, a leaf, a new version counter (reading 1)."""
    _expect("copy.copy", _copy_cases(battery, "copy.copy/autograd"), copy.copy, my_copy, AUTOGRAD_FIELDS)


def check_deepcopy_copy(my_deepcopy, battery="basic"):
    """deepcopy of a leaf: new memory (whole storage), same metadata, .grad and attributes copied."""
    cases = choose(battery, LEAVES, FULL_LEAVES, _drawn("deepcopy/copy", leaf_only=True))
    _expect("copy.deepcopy", cases, copy.deepcopy, through(my_deepcopy, "copy.deepcopy"),
            ALIAS_FIELDS + AUTOGRAD_FIELDS + ("grad_shares_memory",), topic="deepcopy")


def check_deepcopy_non_leaf(my_deepcopy, battery="basic"):
    """deepcopy refuses a non-leaf, with torch's error."""
    cases = choose(battery, (_battery.NON_LEAF, _battery.TRANSPOSED), (
        _battery.NON_LEAF, _battery.TRANSPOSED, _battery.STEPPED, _battery.PERMUTED, _battery.NON_LEAF_ON_GPU))
    _expect("copy.deepcopy", cases, copy.deepcopy, through(my_deepcopy, "copy.deepcopy"), ("same_object",), {
        "same_object": MISCONCEPTIONS["same_object"],
        "raised": M("deepcopy/copies-history", "your deepcopy copies a non-leaf: history cannot be "
                    "deep-copied, torch refuses any tensor that is not a graph leaf (a tensor with a "
                    "grad_fn, or a view of a leaf that requires grad) with a RuntimeError"),
    }, topic="deepcopy")


def check_deepcopy_memo(my_deepcopy, battery="basic"):
    """One deepcopy call: a tensor met twice is copied once; views keep sharing one new storage;
    .grad and attribute values are copied through the same memo. Its containers are fixed, each
    showing one belief: nothing is drawn for a student, so ``"drawn"`` (the hidden test) asks nothing."""
    if battery == "drawn":
        return
    import torch

    theirs = memo_facts(torch, TorchReader)
    try:
        yours = value_through(my_deepcopy, "the memo story")
    except Exception as error:
        given = [_(N_("input: {0}")).format("copy.deepcopy of the containers " + ", ".join(theirs))]
        if is_stub(error):
            raise failure(not_written("deepcopy", "deepcopy"), given) from None
        raise failure(M("deepcopy/raises", "your deepcopy raised an error where torch's does not"),
                      given + [yours_raised(type(error).__name__, f"{clean(error)}{where(error)}")]) from None
    if not (isinstance(yours, dict) and all(isinstance(yours.get(name), dict) for name in theirs)):
        raise WitnessFailed("the witness's facts do not have the shape of facts")
    for name, facts in theirs.items():
        for fact, value in facts.items():
            if yours[name].get(fact) != value:
                raise failure(M("deepcopy/ignores-memo", "your deepcopy does not use the memo as torch does: "
                                "within one deepcopy call, a tensor met twice must come back as the same "
                                "copy, views of one storage must share one new storage (look storages up "
                                "in the memo too), and .grad and attributes must be deep-copied with the "
                                "same memo (copy.deepcopy(..., memo))"),
                              [_(N_("input: {0}")).format(f"copy.deepcopy of {name}"),
                               _(N_("{0}: torch gives {1}, yours gives {2}")).format(
                                   fact, repr(value), repr(yours[name].get(fact))[:500])])
