"""The meta device: tensors that have metadata and no numbers.

A tensor on ``device="meta"`` has a size, strides, a dtype, ``requires_grad``
and a graph, like any tensor, so every rule about *metadata* can be tried on
it; torch uses it to plan a model without allocating it, and the course uses
it as a stand-in for a second device on a machine without a GPU. What it does
not have is numbers: its ``data_ptr()`` (and its storage's) is 0, it prints
as ``tensor(..., device='meta', size=(2,))``, and anything that would read
its numbers into cpu memory (``tolist()``, ``item()``, ``.cpu()``,
``copy_`` into a cpu tensor) raises. Operations between meta tensors give
meta tensors; mixing a meta tensor with a cpu one is an error.

reftorch keeps a meta tensor's elements in ordinary memory like any other
(they are never read out), so the rules live at the points where numbers
would leave the device: here, and in ``copy_``, which moves numbers out of a
meta tensor only into another (``_copy_.check_copy_source``, as torch's
``copy_`` kernel checks; ``to()`` copies through the same check).
"""

from . import _messages


def is_meta(tensor):
    return tensor.device.type == "meta"


def check_readable(tensor):
    """Reading numbers out of a meta tensor raises torch's error."""
    if is_meta(tensor):
        raise NotImplementedError(_messages.META_NO_DATA)


def check_item(tensor):
    if is_meta(tensor):
        raise RuntimeError(_messages.META_ITEM)


def check_same_device(first, other):
    """torch's message when a meta tensor meets a tensor on another device."""
    if "meta" in (first.type, other.type) and first != other:
        raise RuntimeError(_messages.META_DEVICE_MIX.format(got=other, expected=first))


def meta_suffixes(tensor, default_dtype_name):
    """What ``repr`` says instead of the numbers: the size, and any dtype but the default."""
    suffixes = ["size=" + str(tuple(tensor.shape))]
    if str(tensor.dtype) != default_dtype_name:
        suffixes.append("dtype=" + str(tensor.dtype))
    return suffixes
