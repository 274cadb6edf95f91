"""Shape and stride arithmetic: how an index finds its element in a storage.

A strided tensor is a storage plus three pieces of metadata:

* ``size``   - how many elements along each dimension, e.g. ``(2, 3)``;
* ``stride`` - how many *elements* (not bytes) to step in the storage to move
  one position along each dimension, e.g. ``(3, 1)``;
* ``storage_offset`` - where element ``[0, 0]`` is.

Element ``[i, j]`` lives at ``offset + i * stride[0] + j * stride[1]``. Views
(``t()``, ``a[::2]``, ``expand``) are new (size, stride, offset) triples on the
same storage; no number is moved. This module holds the small pure functions
that compute such triples. None of them touches memory.

``preserve_format_strides`` and ``strides_for`` give a new tensor's strides
for each memory format (``_memory_formats``). Neighbours hold the rest:
``_broadcast``, ``_shapes`` (a ``-1`` in a shape, which reshapes can be
views) and ``_iterator_strides`` (the layout of an elementwise result).
"""

from . import _core_messages
from ._layout import channels_last, channels_last_3d, contiguous_format

Shape = tuple
Strides = tuple


def contiguous_strides(shape):
    """Row-major strides: the last dimension moves fastest.

    >>> contiguous_strides((2, 3, 4))
    (12, 4, 1)
    """
    strides = []
    step = 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def numel(shape):
    count = 1
    for n in shape:
        count *= n
    return count


def is_contiguous(shape, strides):
    """True when the elements sit in row-major order with no gaps.

    Dimensions of size 1 may have any stride, and an empty tensor is always
    contiguous, as in torch.
    """
    if numel(shape) == 0:
        return True
    expected = 1
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1:
            if s != expected:
                return False
            expected *= n
    return True


def is_non_overlapping_and_dense(shape, strides):
    """True when the elements fill a block of memory exactly once, in any order.

    A transposed matrix is dense (just not row-major); a stepped slice or an
    expanded tensor is not. Anything contiguous counts as dense, including
    every tensor with no elements.
    """
    if is_contiguous(shape, strides):
        return True
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    dims = sorted(range(len(shape)), key=lambda d: (shape[d] < 2, strides[d] if shape[d] >= 2 else 0))
    expected = 1
    for d in dims:
        if shape[d] < 2:
            return True
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def dense_strides_like(shape, strides):
    """Strides for a fresh, dense tensor that keeps the memory order of ``strides``.

    This is what ``clone()`` (``preserve_format``) gives a tensor that is not
    dense: dimensions are ordered by their stride, and a dimension whose stride
    is 0 (an expanded one) keeps its place. A transposed slice stays
    "transposed"; the gaps are squeezed out.
    """
    def should_swap(d0, d1):
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if shape[d0] > shape[d1] else 0

    order = memory_order(len(shape), should_swap)
    # A dimension of size 0 counts as 1 here, so later strides stay non-zero.
    return dense_strides(shape, order, lambda n: max(n, 1))


def memory_order(ndim, should_swap):
    """Dimensions listed from innermost (fastest in memory) to outermost.

    Starts from row-major order and moves dimensions with a stable insertion
    sort, exactly the one torch uses, so that ties resolve alike.
    ``should_swap(d0, d1)`` says 1 (swap), -1 (keep, stop) or 0 (undecided).
    """
    order = list(reversed(range(ndim)))
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            comparison = should_swap(order[d0], order[d1])
            if comparison > 0:
                order[d0], order[d1] = order[d1], order[d0]
                d1 = d0
            elif comparison < 0:
                break
    return order


def dense_strides(shape, order, size_of=lambda n: n):
    """Strides that pack the elements densely, innermost dimension first in ``order``."""
    result = [0] * len(shape)
    step = 1
    for d in order:
        result[d] = step
        step *= size_of(shape[d])
    return tuple(result)


def normalize_dim(dim, ndim):
    """Turn a possibly negative ``dim`` into an index, with torch's IndexError."""
    low, high = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not low <= dim <= high:
        raise IndexError(_core_messages.DIM_OUT_OF_RANGE.format(low=low, high=high, dim=dim))
    return dim + max(ndim, 1) if dim < 0 else dim


def _fmt(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def element_positions(shape, strides, offset):
    """The storage slot ``offset + sum(i_k * stride_k)`` of every element, in row-major order.

    >>> element_positions((2, 2), (1, 2), 0)   # a transposed 2x2
    [0, 2, 1, 3]
    """
    positions = [offset]
    for n, s in zip(shape, strides):
        positions = [p + i * s for p in positions for i in range(n)]
    return positions


def preserve_format_strides(shape, strides):
    """The strides a fresh copy gets with ``memory_format=torch.preserve_format``.

    A dense tensor keeps its strides exactly (a transposed matrix stays
    transposed); any other layout is packed densely in the same order.
    """
    if is_non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    return dense_strides_like(shape, strides)


# The order of the dimensions in memory, fastest first.
MEMORY_FORMAT_ORDERS = {channels_last: (1, 3, 2, 0), channels_last_3d: (1, 4, 3, 2, 0)}
_FORMAT_NAMES = {channels_last: "channels_last", channels_last_3d: "channels_last_3d"}


def strides_for(size, fmt):
    """The strides ``fmt`` gives a dense tensor of this ``size`` (rank checked, as in torch)."""
    if fmt is contiguous_format:
        return contiguous_strides(size)
    order = MEMORY_FORMAT_ORDERS[fmt]
    if len(size) != len(order):
        raise RuntimeError(_core_messages.MEMORY_FORMAT_RANK.format(rank=len(order), name=_FORMAT_NAMES[fmt]))
    strides, step = [0] * len(size), 1
    for d in order:
        strides[d] = step
        step *= size[d]
    return tuple(strides)
