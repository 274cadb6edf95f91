"""Shapes that change: a ``-1`` in a shape, and reshapes that are views.

* ``infer_size``: ``view(-1, 3)``: the one ``-1`` in a requested shape.
* ``view_strides``: whether ``view``/``reshape`` can show the same memory in a
  new shape, and with which strides. When it cannot, ``view`` raises and
  ``reshape`` copies.

Pure functions of sizes and strides, as in ``_strides``: no memory is
touched. Broadcasting (``broadcast_shapes``, ``sum_to_shape``) is in
``_broadcast``; its names are kept here too, where the chapters find them.
"""

from ._broadcast import broadcast_shapes, sum_to_shape  # noqa: F401  (named as _shapes.* by chapters)
from . import _messages
from ._strides import _fmt, contiguous_strides, numel


def infer_size(shape, count):
    """Resolve one ``-1`` in a requested shape so that it holds ``count`` elements."""
    shape = list(shape)
    unknown = [i for i, n in enumerate(shape) if n == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for i, n in enumerate(shape):
        if n < -1:
            raise RuntimeError(f"invalid shape dimension {n} at index {i} of shape {_fmt(shape)}")
    known = numel([n for n in shape if n != -1])
    if unknown:
        if known == 0 == count:  # any size would do for the -1: torch will not pick one
            raise RuntimeError(_messages.RESHAPE_AMBIGUOUS.format(_fmt(shape)))
        if known == 0 or count % known != 0:
            raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {count}")
        shape[unknown[0]] = count // known
    elif known != count:
        raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {count}")
    return tuple(shape)


def view_strides(old_shape, old_strides, new_shape):
    """Strides that show the same elements in ``new_shape``, or None if impossible.

    A view can only merge or split dimensions that are laid out back to back in
    memory. Walk the old dimensions from the innermost, in "chunks" of
    dimensions that are contiguous with each other, and require every chunk to
    be covered exactly by whole new dimensions.
    """
    if len(old_shape) == 0:
        return tuple(1 for _ in new_shape)
    count = numel(old_shape)
    if count == 0:
        if tuple(old_shape) == tuple(new_shape):
            return tuple(old_strides)
        return contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        chunk_ends = tensor_d == 0 or (
            old_shape[tensor_d - 1] != 1
            and old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride
        )
        if chunk_ends:
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_strides[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)
