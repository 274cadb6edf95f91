"""Checks for the learner's ``.data`` getter: ``my_data(t)``.

torch's answer: like ``detach()`` (a new tensor object on the same memory,
same metadata, no history, not a view) except for the last safety net: a
*new* version counter. Writes through ``.data`` are invisible to autograd, so
a gradient computed afterwards can be silently wrong.
"""

from ._observe import expect_same
from .detach import MISCONCEPTIONS as DETACH

OP = ".data"

MISCONCEPTIONS = {field: text.replace("your detach", "your .data").replace("detach ", ".data ")
                  for field, text in DETACH.items()}
MISCONCEPTIONS.update({
    "shares_memory": "your .data copies the memory: .data is an alias of the same storage",
    "shares_version_counter": "your .data shares the source's version counter: .data is the alias "
                              "autograd cannot see through, it gets a counter of its own (that is "
                              "exactly why writing through it can give silently wrong gradients)",
    "version": "your .data does not start a new counter at 0: it must not carry the source's version",
})


def _torch(t):
    return t.data


def check_data_alias(my_data, battery="basic"):
    """Same memory, same metadata, off the graph."""
    expect_same(OP, battery, _torch, lambda t: my_data(t),
                ("same_object", "shares_memory", "values", "size", "stride", "storage_offset",
                 "dtype", "is_view", "requires_grad", "is_leaf", "grad_fn"), MISCONCEPTIONS)


def check_data_version(my_data, battery="basic"):
    """A version counter of its own, starting at 0."""
    expect_same(OP, battery, _torch, lambda t: my_data(t),
                ("shares_version_counter", "version", "source_version"), MISCONCEPTIONS)
