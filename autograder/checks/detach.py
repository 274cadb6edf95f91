"""Checks for the learner's ``detach``: ``my_detach(t)``.

torch's answer: a new tensor object with new metadata (same size, stride,
offset, dtype, device) on the *same* storage and the *same* version counter,
with ``requires_grad=False`` and no ``grad_fn`` (a leaf), and not an autograd
view (``_base`` is None).
"""

from ._observe import expect_same

OP = "detach"

MISCONCEPTIONS = {
    "same_object": "your detach returns the source itself: detach builds a new tensor object "
                   "(new metadata) that looks at the same memory",
    "shares_memory": "your detach copies the memory: detach shares the source's storage, so it is "
                     "no way to get data that is not shared (that is detach().clone())",
    "values": "your detach shows other numbers than its source",
    "size": "your detach changes the metadata: it keeps size, stride and offset exactly",
    "stride": "your detach changes the metadata: it keeps size, stride and offset exactly",
    "storage_offset": "your detach changes the metadata: it keeps size, stride and offset exactly",
    "dtype": "your detach changes the dtype",
    "device": "your detach changes the device",
    "is_view": "your detach is an autograd view (it has a _base): detach shares memory but is not a view",
    "requires_grad": "your detach still requires grad: its result is cut off from the graph",
    "is_leaf": "your detach is not a leaf: a detached tensor has no grad_fn",
    "grad_fn": "your detach keeps a grad_fn: detach leaves the history behind",
    "gradient": "gradients flow through your detach: it must stop them",
    "version": "your detach does not show the source's version: the two share one version counter",
    "source_version": "your detach bumped the source's version: detaching is not an in-place write",
    "shares_version_counter": "your detach has its own version counter: detach shares the source's "
                              "counter, so autograd still notices in-place writes made through it "
                              "(only .data and copy.copy escape it)",
}


def _torch(t):
    return t.detach()


def check_detach_memory(my_detach, battery="basic"):
    """New object, same memory."""
    expect_same(OP, battery, _torch, my_detach,
                ("same_object", "shares_memory", "values"), MISCONCEPTIONS)


def check_detach_metadata(my_detach, battery="basic"):
    """The same size, stride, offset, dtype and device; not a view."""
    expect_same(OP, battery, _torch, my_detach,
                ("size", "stride", "storage_offset", "dtype", "device", "is_view"), MISCONCEPTIONS)


def check_detach_graph(my_detach, battery="basic"):
    """Off the graph: a leaf without grad."""
    expect_same(OP, battery, _torch, my_detach,
                ("requires_grad", "is_leaf", "grad_fn", "gradient"), MISCONCEPTIONS)


def check_detach_version(my_detach, battery="basic"):
    """One version counter shared with the source."""
    expect_same(OP, battery, _torch, my_detach,
                ("shares_version_counter", "version", "source_version"), MISCONCEPTIONS)
