"""Checks for the learner's ``detach().clone()``: ``my_detach_clone(t)``.

torch's answer: the independent copy. New object, new memory holding the same
numbers, laid out as ``clone()`` lays it out (``preserve_format``), off the
graph (a leaf without grad, in grad mode or not), with a new version counter
at 0. ``t.clone().detach()`` gives exactly the same result; it only builds a
``CloneBackward0`` node first and throws it away.
"""

from ._observe import expect_same

OP = "detach().clone()"

MISCONCEPTIONS = {
    "same_object": "your detach().clone() returns the source itself",
    "shares_memory": "your detach().clone() shares memory with its source: it stopped after detach, "
                     "and detach alone never copies",
    "values": "your detach().clone() holds other numbers than its source",
    "size": "your detach().clone() has another size than its source",
    "dtype": "your detach().clone() changes the dtype",
    "storage_offset": "your detach().clone() does not start at offset 0 of its own storage",
    "stride": "your detach().clone() does not lay the copy out as clone() does (preserve_format)",
    "requires_grad": "your detach().clone() requires grad: it stopped after clone, and a clone stays "
                     "in the graph; the detach must cut it off",
    "is_leaf": "your detach().clone() is not a leaf: the copy must carry no history",
    "grad_fn": "your detach().clone() keeps a grad_fn: the copy must carry no history",
    "version": "your detach().clone() does not start at version 0",
    "shares_version_counter": "your detach().clone() shares the source's version counter: new memory "
                              "gets a new counter",
}


def _torch(t):
    return t.detach().clone()


def check_detach_clone_copy(my_detach_clone, battery="basic"):
    """New object, new memory, same numbers, clone's layout."""
    expect_same(OP, battery, _torch, lambda t: my_detach_clone(t),
                ("same_object", "shares_memory", "values", "size", "dtype", "storage_offset", "stride"),
                MISCONCEPTIONS)


def check_detach_clone_graph(my_detach_clone, battery="basic"):
    """No history, and a counter of its own."""
    expect_same(OP, battery, _torch, lambda t: my_detach_clone(t),
                ("requires_grad", "is_leaf", "grad_fn", "version", "shares_version_counter"),
                MISCONCEPTIONS)
