"""Bounds: every element of a tensor must lie inside its storage.

A layout's last element sits at slot ``offset + sum((n - 1) * s)``, so the storage
needs ``(offset + 1 + sum((n - 1) * s)) * itemsize`` bytes. ``Tensor._make`` refuses a
layout whose last element lies past the storage, with torch's error; ``element_bytes``
checks again, trusting nothing, where metadata becomes addresses. (torch's other
refusals of a caller's metadata are in ``_layout_checks``.)
"""

import operator

from . import _core_messages, _overrides
from ._strides import _fmt


def storage_nbytes(size, stride, itemsize, storage_offset=0):
    """Bytes a storage needs for the layout's last element (torch's ``computeStorageNbytes``)."""
    if 0 in size:
        return 0
    return (storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))) * itemsize


def check_in_bounds_for_storage(size, stride, storage_offset, itemsize, nbytes):
    """Raise torch's RuntimeError when the layout's last element lies past ``nbytes``."""
    if 0 in size:
        return
    last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
    needed = (last + 1) * itemsize
    if needed > nbytes:
        raise RuntimeError(_core_messages.OUT_OF_BOUNDS.format(
            sizes=_fmt(size), strides=_fmt(stride), offset=storage_offset, itemsize=itemsize,
            needed=needed, available=nbytes))
check_in_bounds_for_storage = _overrides.overridable(check_in_bounds_for_storage)


def element_bytes(size, stride, storage_offset, itemsize, storage_nbytes_available):
    """The bytes ``[start, stop)`` that hold the layout's elements (None if none), trusting nothing:
    metadata that is not ints, or reaches outside the storage, raises a RuntimeError naming it."""
    try:
        size, stride = tuple(map(operator.index, size)), tuple(map(operator.index, stride))
        storage_offset = operator.index(storage_offset)
    except TypeError as error:
        raise RuntimeError(_core_messages.CORRUPT_LAYOUT.format(
            sizes=size, strides=stride, offset=storage_offset, why=error)) from None
    if len(size) != len(stride):
        why = f"{len(size)} sizes but {len(stride)} strides"
    elif 0 in size:
        return None
    elif any(n < 0 for n in size):
        why = "a size is negative"
    else:
        lowest = storage_offset + sum((n - 1) * s for n, s in zip(size, stride) if s < 0)
        highest = storage_offset + sum((n - 1) * s for n, s in zip(size, stride) if s > 0)
        start, stop = lowest * itemsize, (highest + 1) * itemsize
        if 0 <= start and stop <= storage_nbytes_available:
            return start, stop
        why = f"its elements span bytes [{start}, {stop}) of a storage of {storage_nbytes_available} bytes"
    raise RuntimeError(_core_messages.CORRUPT_LAYOUT.format(
        sizes=_fmt(size), strides=_fmt(stride), offset=storage_offset, why=why))
