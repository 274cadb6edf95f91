"""Checks for the learner's ``copy.copy`` and ``copy.deepcopy`` of a tensor.

``copy.copy(t)`` (torch goes through the pickle protocol): a new tensor object
on the *same* storage, same size/stride/offset and ``requires_grad``, a leaf
with no ``.grad``, the same Python attributes, and a *new* version counter: an
alias autograd cannot see through, like ``.data``.

``copy.deepcopy(t)``: refuses a non-leaf; otherwise a new tensor on a copy of
the *whole* storage (so offset and strides are kept), same ``requires_grad``,
``.grad`` and attributes deep-copied. Within one ``deepcopy`` call the memo
makes a tensor met twice come back as one copy, and views of one storage keep
sharing one new storage.
"""

import copy
from contextlib import contextmanager

from . import _battery
from ._observe import battery as resolve_battery, expect_same

MISCONCEPTIONS = {
    "same_object": "your copy returns the source itself: copying must give a new tensor object",
    "shares_memory": lambda theirs, yours: (
        "your copy.copy copies the memory: a shallow copy is a new tensor object on the same storage"
        if theirs else
        "your deepcopy shares memory with the source: a deep copy owns a copy of the storage"
    ),
    "values": "your copy holds other numbers than the source",
    "size": "your copy changes the metadata: both copies keep size, stride and offset",
    "stride": "your copy changes the strides: both copies keep them (deepcopy copies the whole storage, "
              "not just the elements in view)",
    "storage_offset": "your copy changes the storage offset: both copies keep it (deepcopy copies the "
                      "whole storage, so the elements stay where they were)",
    "dtype": "your copy changes the dtype",
    "requires_grad": "your copy does not keep requires_grad: both copies rebuild the tensor with the "
                     "source's requires_grad",
    "is_leaf": "your copy is not a leaf: a copy never carries the source's history",
    "grad_fn": "your copy keeps a grad_fn: a copy never carries the source's history",
    "grad": lambda theirs, yours: (
        "your deepcopy forgets .grad: deepcopy copies the gradient too" if theirs is not None else
        "your copy.copy brings .grad along: the shallow copy has no gradient"
    ),
    "grad_shares_memory": "your deepcopy shares .grad with the source: the gradient is deep-copied too",
    "attributes": "your copy loses the tensor's Python attributes (t.note = ...): both copies carry them",
    "shares_version_counter": "your copy shares the source's version counter: both copies start a "
                              "counter of their own (so, like .data, writes through copy.copy go unseen)",
}


def _annotated_leaf_with_grad(T):
    x = T.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
    (x * 2).sum().backward()
    x.note = "a note"
    return x, x


ANNOTATED = _battery.Case("a leaf with .grad and an attribute t.note", _annotated_leaf_with_grad)
LEAVES = (_battery.GRAD_LEAF, _battery.PLAIN, ANNOTATED, _battery.WRITTEN)
STEPPED_PLAIN = _battery.Case("a stepped slice of a tensor without grad",
                              lambda T: (T.arange(1.0, 13.0).reshape(3, 4)[:, ::2], None))
FULL_LEAVES = LEAVES + (_battery.OFFSET, STEPPED_PLAIN, _battery.EXPANDED, _battery.INT64, _battery.BOOL, _battery.FLOAT64, _battery.EMPTY,
    _battery.LEAF_NO_GRAD_MODE)

ALIAS_FIELDS = ("same_object", "shares_memory", "values", "size", "stride", "storage_offset", "dtype",
                "grad", "attributes")
AUTOGRAD_FIELDS = ("requires_grad", "is_leaf", "grad_fn", "shares_version_counter")


def _copy_cases(battery):
    return (ANNOTATED,) + resolve_battery(battery) if battery in ("basic", "full") else battery


def check_copy_alias(my_copy, battery="basic"):
    """copy.copy: a new object on the same memory, metadata and attributes; no .grad."""
    expect_same("copy.copy", _copy_cases(battery), copy.copy, lambda t: my_copy(t), ALIAS_FIELDS,
                MISCONCEPTIONS)


def check_copy_autograd(my_copy, battery="basic"):
    """copy.copy: same requires_grad, a leaf, a new version counter."""
    expect_same("copy.copy", _copy_cases(battery), copy.copy, lambda t: my_copy(t), AUTOGRAD_FIELDS,
                MISCONCEPTIONS)


@contextmanager
def installed(my_deepcopy):
    """Use ``my_deepcopy`` as reftorch's ``Tensor.__deepcopy__`` for the length of a check."""
    import reftorch

    previous = reftorch.Tensor.__deepcopy__
    reftorch.Tensor.__deepcopy__ = lambda self, memo: my_deepcopy(self, memo)
    try:
        yield
    finally:
        reftorch.Tensor.__deepcopy__ = previous


def check_deepcopy_copy(my_deepcopy, battery="basic"):
    """deepcopy of a leaf: new memory (whole storage), same metadata, .grad and attributes copied."""
    cases = LEAVES if battery == "basic" else FULL_LEAVES
    with installed(my_deepcopy):
        expect_same("copy.deepcopy", cases, copy.deepcopy, copy.deepcopy,
                    ALIAS_FIELDS + AUTOGRAD_FIELDS + ("grad_shares_memory",), MISCONCEPTIONS)


def check_deepcopy_non_leaf(my_deepcopy, battery="basic"):
    """deepcopy refuses a non-leaf, with torch's error."""
    cases = (_battery.NON_LEAF,) if battery == "basic" else (
        _battery.NON_LEAF, _battery.TRANSPOSED, _battery.STEPPED, _battery.PERMUTED)
    with installed(my_deepcopy):
        expect_same("copy.deepcopy", cases, copy.deepcopy, copy.deepcopy, ("same_object",), {
            "same_object": MISCONCEPTIONS["same_object"],
            "raised": "your deepcopy copies a non-leaf: history cannot be deep-copied, torch refuses any "
                      "tensor that is not a graph leaf (a tensor with a grad_fn, or a view of a leaf "
                      "that requires grad) with a RuntimeError",
        })


def _memo_facts(module, containers):
    """What one deepcopy call of several related tensors gives back."""
    x = module.arange(1.0, 7.0).reshape(2, 3)
    inputs = {
        "list": lambda: [x, x[:, 1:], x],
        "dict": lambda: {"w": x, "wt": x.t(), "again": x},
    }
    facts = {}
    for name in containers:
        out = copy.deepcopy(inputs[name]())
        first, view, again = out if name == "list" else (out["w"], out["wt"], out["again"])
        ptr = lambda t: t.untyped_storage().data_ptr()  # noqa: E731
        facts[name] = {
            "the tensor met twice comes back as one object": first is again,
            "the copied view shares the copied base's storage": ptr(view) == ptr(first),
            "the copies share memory with the originals": ptr(first) == ptr(x),
            "the copied view's storage offset": view.storage_offset(),
            "the copied view's strides": tuple(view.stride()),
        }
    return facts


def check_deepcopy_memo(my_deepcopy, battery="basic"):
    """One deepcopy call: a tensor met twice is copied once; views keep sharing one new storage."""
    import reftorch
    import torch

    containers = ("list",) if battery == "basic" else ("list", "dict")
    theirs = _memo_facts(torch, containers)
    with installed(my_deepcopy):
        yours = _memo_facts(reftorch, containers)
    for name in containers:
        for fact, value in theirs[name].items():
            if yours[name][fact] != value:
                raise AssertionError(
                    "your deepcopy does not use the memo as torch does: within one deepcopy call, a "
                    "tensor met twice must come back as the same copy, and views of one storage must "
                    "share one new storage (look storages up in the memo too)\n"
                    f"    input: copy.deepcopy of a {name} holding x, a view of x, and x again\n"
                    f"    {fact}: torch gives {value!r}, yours gives {yours[name][fact]!r}"
                )
