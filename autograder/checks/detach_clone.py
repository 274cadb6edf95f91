"""Checks for the learner's ``detach().clone()``: ``my_detach_clone(t)``.

torch's answer: the independent copy. New object, new memory holding the same
numbers, laid out as ``clone()`` lays it out (``preserve_format``), on the
source's device, off the graph (a leaf without grad, in grad mode or not),
with a new version counter at 0, and no ``.grad`` or attributes.
``t.clone().detach()`` gives exactly the same result; it only builds a
``CloneBackward0`` node first and throws it away.
"""

from ._observe import M, expect_same

OP = "detach().clone()"

MISCONCEPTIONS = {
    "same_object": M("detach-clone/returns-source", "your detach().clone() returns the source itself"),
    "shares_memory": M("detach-clone/stops-after-detach", "your detach().clone() shares memory with its "
                       "source: it stopped after detach, and detach alone never copies"),
    "values": M("detach-clone/wrong-values", "your detach().clone() holds other numbers than its source"),
    "grad": M("detach-clone/copies-grad", "your detach().clone() carries a .grad: the copy starts without "
              "one"),
    "attributes": M("detach-clone/copies-attributes", "your detach().clone() carries the source's Python "
                    "attributes: it copies numbers, not the object's __dict__"),
    "size": M("detach-clone/wrong-size", "your detach().clone() has another size than its source"),
    "dtype": M("detach-clone/changes-dtype", "your detach().clone() changes the dtype"),
    "device": M("detach-clone/changes-device", "your detach().clone() changes the device: the new memory "
                "is allocated on the source's device"),
    "storage_offset": M("detach-clone/keeps-offset", "your detach().clone() does not start at offset 0 of "
                        "its own storage"),
    "stride": M("detach-clone/wrong-strides", "your detach().clone() does not lay the copy out as clone() "
                "does (preserve_format: a dense layout is kept, any other is packed densely)"),
    "requires_grad": lambda theirs, yours, context: (
        M("detach-clone/keeps-requires-grad", "your detach().clone() requires grad: the copy is a new leaf "
          "without grad; copying the source's requires_grad puts it back in the graph")
        if context["yours"].get("is_leaf") else
        M("detach-clone/stops-after-clone", "your detach().clone() requires grad: it stopped after clone, and "
          "a clone stays in the graph; the detach must cut it off")),
    "is_leaf": M("detach-clone/keeps-history", "your detach().clone() is not a leaf: the copy must carry "
                 "no history"),
    "grad_fn": M("detach-clone/keeps-history", "your detach().clone() keeps a grad_fn: the copy must carry "
                 "no history"),
    "version": M("detach-clone/version-not-zero", "your detach().clone() does not start at version 0"),
    "source_version": M("detach-clone/bumps-source-version", "your detach().clone() bumped the source's "
                        "version: reading a tensor is not writing into it"),
    "input_grads": M("detach-clone/touches-source-grad", "your detach().clone() changes the source's .grad"),
    "shares_version_counter": M("detach-clone/shares-version-counter", "your detach().clone() shares the "
                                "source's version counter: new memory gets a new counter"),
}


def _torch(t):
    return t.detach().clone()


def check_detach_clone_copy(my_detach_clone, battery="basic"):
    """New object, new memory, same numbers, clone's layout, the source's device."""
    expect_same(OP, battery, _torch, my_detach_clone,
                ("same_object", "shares_memory", "values", "size", "dtype", "device", "storage_offset",
                 "stride", "grad", "attributes"), MISCONCEPTIONS, topic="detach-clone")


def check_detach_clone_graph(my_detach_clone, battery="basic"):
    """No history, and a counter of its own."""
    expect_same(OP, battery, _torch, my_detach_clone,
                ("requires_grad", "is_leaf", "grad_fn", "version", "source_version", "shares_version_counter",
                 "input_grads"), MISCONCEPTIONS, topic="detach-clone")
