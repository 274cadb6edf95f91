"""Checks for the learner's ``.data`` getter: ``my_data(t)``.

torch's answer: like ``detach()`` (a new tensor object on the same memory,
same metadata, no history, not a view) except for the last safety net: a
*new* version counter. Writes through ``.data`` are invisible to autograd, so
a gradient computed afterwards can be silently wrong.
"""

from ._observe import M, expect_same
from .detach import MISCONCEPTIONS as DETACH

OP = ".data"


def _as_data(m):
    return M(m.tag.replace("detach/", "data/"),
             m.text.replace("your detach", "your .data").replace("detach ", ".data ")
             .replace("detached tensor", ".data tensor"))


MISCONCEPTIONS = {field: _as_data(m) for field, m in DETACH.items()}
MISCONCEPTIONS.update({
    "shares_memory": M("data/copies-memory", "your .data copies the memory: .data is an alias of the same "
                       "storage"),
    "shares_version_counter": M("data/shares-version-counter", "your .data shares the source's version "
                                "counter: .data is the alias autograd cannot see through, it gets a "
                                "counter of its own (that is exactly why writing through it can give "
                                "silently wrong gradients)"),
    "version": M("data/carries-version", "your .data does not start a new counter at 0: it must not carry "
                 "the source's version"),
})


def _torch(t):
    return t.data


def check_data_alias(my_data, battery="basic"):
    """Same memory, same metadata, off the graph."""
    expect_same(OP, battery, _torch, my_data,
                ("same_object", "shares_memory", "values", "size", "stride", "storage_offset",
                 "dtype", "device", "is_view", "requires_grad", "is_leaf", "grad_fn", "grad", "attributes"),
                MISCONCEPTIONS, topic="data")


def check_data_version(my_data, battery="basic"):
    """A version counter of its own, starting at 0."""
    expect_same(OP, battery, _torch, my_data, ("shares_version_counter", "version", "source_version"),
                MISCONCEPTIONS, topic="data")
