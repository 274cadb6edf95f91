"""Bounds: every element of a tensor must lie inside its storage.

A layout (size, stride, storage offset) is only a formula: element ``[i, j]``
is at slot ``offset + i*stride[0] + j*stride[1]``. Nothing in the formula stops
that slot from lying past the storage's last byte, where other objects live.
So torch checks a layout against the storage before any tensor may use it,
and so does reftorch: ``Tensor._make``, which builds every tensor, calls
``check_fits``, whose bounds step is ``check_in_bounds_for_storage``. A layout that does not fit raises torch's RuntimeError and no
tensor object is made.

The rule. A tensor with no elements fits any storage. Otherwise its last
element sits at slot ``offset + sum((n - 1) * s)``, so the storage needs

    (offset + 1 + sum((n - 1) * s)) * itemsize   bytes.

torch does this sum in unsigned 64-bit integers, which explains its other
refusals: a negative offset; a stride that steps backwards, or a sum above
2**63 bytes ("overflowed"); a negative size ("numel ... overflow").

``element_bytes`` is the second line of defence, used by ``Tensor._positions``
(the one place where metadata becomes memory addresses): it recomputes the
bytes a tensor's elements occupy from its metadata *as it is now*, so that a
tensor whose ``_stride`` was changed by hand still cannot reach outside.
"""

import operator

from . import _core_messages
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
    """Bytes a storage needs so that the layout's last element fits in it (0 if no elements).

    torch's ``computeStorageNbytes``: a negative stride counts as a huge
    unsigned number, so stepping backwards overflows, as in torch.
    """
    if 0 in size:
        return 0
    # torch words the overflow without strides for a 0-d tensor (it has none).
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
    """torch multiplies the sizes as unsigned 64-bit numbers: a negative size overflows."""
    count = 1
    for n in size:
        count *= n % _UINT64
        if count >= _UINT64:
            raise RuntimeError(_core_messages.NUMEL_OVERFLOW)
    if count > _STORAGE_MAX:
        raise RuntimeError(_core_messages.NUMEL_OVERFLOW)


def check_fits(size, stride, storage_offset, itemsize, storage_nbytes_available):
    """Refuse, with torch's RuntimeError, a layout that reaches outside a storage.

    The checks run in torch's order: lengths, offset, the size calculation
    (which refuses what overflows), the bounds, then the element count.
    """
    if len(size) != len(stride):
        raise RuntimeError(_core_messages.SIZE_STRIDE_LENGTHS.format(len(size), len(stride)))
    if storage_offset < 0:
        raise RuntimeError(_core_messages.INVALID_STORAGE_OFFSET.format(storage_offset))
    storage_nbytes(size, stride, itemsize, storage_offset)
    check_in_bounds_for_storage(size, stride, storage_offset, itemsize, storage_nbytes_available)
    _check_numel(size)


def check_in_bounds_for_storage(size, stride, storage_offset, itemsize, nbytes):
    """Raise torch's RuntimeError when the layout's last element lies past the storage's
    ``nbytes`` bytes (torch's ``checkInBoundsForStorage``).

    With no elements, nothing is read: any storage will do. Otherwise the
    last element sits at slot ``offset + sum((n - 1) * s)``, and the storage
    must hold that slot and every one before it: ``(slot + 1) * itemsize``
    bytes. (``check_fits`` has refused negative offsets and strides before.)
    """
    if 0 in size:
        return
    last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
    needed = (last + 1) * itemsize
    if needed > nbytes:
        raise RuntimeError(_core_messages.OUT_OF_BOUNDS.format(
            sizes=_fmt(size), strides=_fmt(stride), offset=storage_offset, itemsize=itemsize,
            needed=needed, available=nbytes))


def element_bytes(size, stride, storage_offset, itemsize, storage_nbytes_available):
    """The bytes ``[start, stop)`` that hold the layout's elements; None if it has none.

    Unlike ``check_fits`` this trusts nothing: negative strides are allowed
    and walked backwards, and anything reaching outside the storage (or
    metadata that is not made of ints) raises a RuntimeError naming the
    metadata. No memory is touched either way.
    """
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
