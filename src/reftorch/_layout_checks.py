"""torch's refusals of sizes, strides and an offset that come from outside, in torch's order.

``as_strided``, ``set_`` and the other in-place metadata changes, ``from_numpy``,
``torch.load`` and ``primitives.tensor_on`` lay a caller's metadata on a storage. Before
``Tensor._make`` does so, they check it here as torch does: the lengths, the offset, the storage
size (summed in unsigned 64-bit integers, so a backward stride, a negative size or a sum above
2**63 bytes "overflowed"), the bounds (``_bounds``), then the element count. The factories check
the size of a new storage here too. Nothing here touches memory, the version counter or the graph.
"""

import operator

from . import _bounds, _messages
from ._strides import _fmt

_UINT64 = 1 << 64
_STORAGE_MAX = (1 << 63) - 1  # torch's largest storage, in bytes


def storage_nbytes(size, stride, itemsize, storage_offset=0):
    """``_bounds.storage_nbytes``, refused where torch's unsigned 64-bit sum overflows."""
    if 0 in size:
        return 0
    overflow = RuntimeError(_messages.STORAGE_SIZE_OVERFLOW.format(
        sizes=_fmt(size), strides=_fmt(stride)) if size else _messages.STORAGE_SIZE_OVERFLOW_0D)
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


def check_numel(size):
    """The sizes multiplied as unsigned 64-bit numbers, as torch does."""
    count = 1
    for n in size:
        count *= n % _UINT64
        if count >= _UINT64:
            raise RuntimeError(_messages.NUMEL_OVERFLOW)
    if count > _STORAGE_MAX:
        raise RuntimeError(_messages.NUMEL_OVERFLOW)


def ints(values, name):
    """``values`` as a tuple of Python ints (a Size, a list, numpy ints...), or a TypeError."""
    result = []
    for pos, v in enumerate(values):
        try:
            result.append(operator.index(v))
        except TypeError:
            raise TypeError(_messages.LAYOUT_NOT_INTS.format(
                name=name, type=_messages.type_name(v), pos=pos)) from None
    return tuple(result)


def check_fits(size, stride, storage_offset, itemsize, storage_nbytes_available):
    """Refuse, with torch's RuntimeError, a layout that reaches outside a storage (torch's order),
    and sizes or strides that are not ints with a TypeError."""
    size, stride = ints(size, "size"), ints(stride, "stride")
    if len(size) != len(stride):
        raise RuntimeError(_messages.SIZE_STRIDE_LENGTHS.format(len(size), len(stride)))
    if storage_offset < 0:
        raise RuntimeError(_messages.INVALID_STORAGE_OFFSET.format(storage_offset))
    storage_nbytes(size, stride, itemsize, storage_offset)
    _bounds.check_in_bounds_for_storage(size, stride, storage_offset, itemsize, storage_nbytes_available)
    check_numel(size)


def check_new_storage(size, itemsize):
    """Refuse a row-major storage for ``size`` that is larger than torch allows (its
    ``computeStorageNbytesContiguous``): before any number is drawn or written."""
    nbytes = itemsize
    for n in size:
        nbytes *= n
    if nbytes > _STORAGE_MAX:
        raise RuntimeError(_messages.STORAGE_SIZE_OVERFLOW_CONTIGUOUS.format(sizes=_fmt(size)))
