"""Bounds: every element of a tensor must lie inside its storage.

A layout's last element sits at slot ``offset + sum((n - 1) * s)``, so the storage
needs ``(offset + 1 + sum((n - 1) * s)) * itemsize`` bytes. ``Tensor._make`` refuses a
layout that does not fit, with torch's error (torch sums in unsigned 64-bit integers,
so a negative size, offset or stride overflows); ``element_bytes`` checks again where
metadata becomes addresses.
"""

import operator

from . import _core_messages, _overrides
from ._strides import _fmt

_UINT64 = 1 << 64
_STORAGE_MAX = (1 << 63) - 1  # torch's largest storage, in bytes


def ints(values, name):
    """``values`` as a tuple of Python ints (a Size, a list, numpy ints...), or a TypeError."""
    result = []
    for pos, v in enumerate(values):
        try:
            result.append(operator.index(v))
        except TypeError:
            raise TypeError(_core_messages.LAYOUT_NOT_INTS.format(
                name=name, type=type(v).__name__, pos=pos)) from None
    return tuple(result)


def storage_nbytes(size, stride, itemsize, storage_offset=0):
    """Bytes a storage needs for the layout's last element (torch's ``computeStorageNbytes``)."""
    if 0 in size:
        return 0
    overflow = RuntimeError(_core_messages.STORAGE_SIZE_OVERFLOW.format(
        sizes=_fmt(size), strides=_fmt(stride)) if size else _core_messages.STORAGE_SIZE_OVERFLOW_0D)
    needed = storage_offset + 1
    for n, s in zip(size, stride):
        step = (s % _UINT64) * ((n - 1) % _UINT64)
        needed += step
        if step >= _UINT64 or needed >= _UINT64:
            raise overflow
    needed *= itemsize
    if needed > _STORAGE_MAX:
        raise overflow
    return needed


def _check_numel(size):
    """The sizes multiplied as unsigned 64-bit numbers, as torch does."""
    count = 1
    for n in size:
        count *= n % _UINT64
        if count >= _UINT64:
            raise RuntimeError(_core_messages.NUMEL_OVERFLOW)
    if count > _STORAGE_MAX:
        raise RuntimeError(_core_messages.NUMEL_OVERFLOW)


def check_fits(size, stride, storage_offset, itemsize, storage_nbytes_available):
    """Refuse, with torch's RuntimeError, a layout that reaches outside a storage (torch's order)."""
    if len(size) != len(stride):
        raise RuntimeError(_core_messages.SIZE_STRIDE_LENGTHS.format(len(size), len(stride)))
    if storage_offset < 0:
        raise RuntimeError(_core_messages.INVALID_STORAGE_OFFSET.format(storage_offset))
    storage_nbytes(size, stride, itemsize, storage_offset)
    check_in_bounds_for_storage(size, stride, storage_offset, itemsize, storage_nbytes_available)
    _check_numel(size)


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
        size, stride, storage_offset = ints(size, "size"), ints(stride, "stride"), operator.index(storage_offset)
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
