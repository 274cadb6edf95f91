"""Checks for the learner's ``detach``: ``my_detach(t)``.

torch's answer: a new tensor object with new metadata (same size, stride,
offset, dtype, device) on the *same* storage and the *same* version counter,
with ``requires_grad=False`` and no ``grad_fn`` (a leaf), not an autograd
view (``_base`` is None), and without the source's ``.grad`` or Python
attributes.
"""

from ._observe import M, expect_same

OP = "detach"


def _same_layout(text):
    return M("detach/changes-metadata", text)


MISCONCEPTIONS = {
    "same_object": M("detach/returns-source", "your detach returns the source itself: detach builds a new "
                     "tensor object (new metadata) that looks at the same memory"),
    "shares_memory": M("detach/copies-memory", "your detach copies the memory: detach shares the source's "
                       "storage, so it is no way to get data that is not shared (that is detach().clone())"),
    "values": M("detach/wrong-values", "your detach shows other numbers than its source"),
    "grad": M("detach/copies-grad", "your detach carries a .grad: a detached tensor starts with .grad = None"),
    "attributes": M("detach/copies-attributes", "your detach carries the source's Python attributes: "
                    "detach makes new metadata, not a copy of the Python object's __dict__"),
    "size": _same_layout("your detach changes the metadata: it keeps size, stride and offset exactly"),
    "stride": _same_layout("your detach changes the metadata: it keeps size, stride and offset exactly"),
    "storage_offset": _same_layout("your detach changes the metadata: it keeps size, stride and offset "
                                   "exactly"),
    "dtype": M("detach/changes-dtype", "your detach changes the dtype"),
    "device": M("detach/changes-device", "your detach changes the device: it looks at the source's own "
                "memory, wherever that is"),
    "is_view": M("detach/is-a-view", "your detach is an autograd view (it has a _base): detach shares "
                 "the source's memory but is not an autograd view"),
    "requires_grad": M("detach/keeps-requires-grad", "your detach still requires grad: its result is cut "
                       "off from the graph"),
    "is_leaf": M("detach/keeps-history", "your detach is not a leaf: a detached tensor has no grad_fn"),
    "grad_fn": M("detach/keeps-history", "your detach keeps a grad_fn: detach leaves the history behind"),
    "gradient": M("detach/lets-gradients-through", "gradients flow through your detach: it must stop them"),
    "input_grads": M("detach/touches-source-grad", "your detach changes the source's .grad"),
    "version": M("detach/own-version-counter", "your detach does not show the source's version: the two "
                 "share one version counter"),
    "source_version": M("detach/bumps-source-version", "your detach bumped the source's version: "
                        "detaching is not an in-place write"),
    "shares_version_counter": M("detach/own-version-counter", "your detach has its own version counter: "
                                "detach shares the source's counter, so autograd still notices in-place "
                                "writes made through it (only .data and copy.copy escape it)"),
}


def _torch(t):
    return t.detach()


def _check(battery, my_detach, fields):
    expect_same(OP, battery, _torch, my_detach, fields, MISCONCEPTIONS, topic="detach")


def check_detach_memory(my_detach, battery="basic"):
    """New object, same memory; not the .grad or the attributes."""
    _check(battery, my_detach, ("same_object", "shares_memory", "values", "grad", "attributes"))


def check_detach_metadata(my_detach, battery="basic"):
    """The same size, stride, offset, dtype and device; not a view."""
    _check(battery, my_detach, ("size", "stride", "storage_offset", "dtype", "device", "is_view"))


def check_detach_graph(my_detach, battery="basic"):
    """Off the graph: a leaf without grad; the source's .grad untouched."""
    _check(battery, my_detach, ("requires_grad", "is_leaf", "grad_fn", "gradient", "input_grads"))


def check_detach_version(my_detach, battery="basic"):
    """One version counter shared with the source."""
    _check(battery, my_detach, ("shares_version_counter", "version", "source_version"))
