"""Shape and stride arithmetic: how an index finds its element in a storage.

Element ``[i, j]`` of a tensor with size ``(2, 3)``, stride ``(3, 1)`` (in elements, not
bytes) and storage offset ``o`` lives at slot ``o + i*3 + j*1``. A view is a new
(size, stride, offset) triple on the same storage. These pure functions compute such
triples and touch no memory.
"""

import math
import operator

from . import _core_messages, _overrides
from ._layout import channels_last, channels_last_3d, contiguous_format


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
contiguous_strides = _overrides.overridable(contiguous_strides)


def numel(shape):
    return math.prod(shape)


def is_contiguous(shape, strides):
    """True when the elements sit in row-major order with no gaps (a size-1 dimension's stride,
    or an empty tensor, never breaks that)."""
    if numel(shape) == 0:
        return True
    expected = 1
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1:
            if s != expected:
                return False
            expected *= n
    return True
is_contiguous = _overrides.overridable(is_contiguous)


def is_non_overlapping_and_dense(shape, strides):
    """True when the elements fill a block of memory exactly once, in any order: a transposed
    matrix is dense, a stepped slice or an expanded tensor is not."""
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
is_non_overlapping_and_dense = _overrides.overridable(is_non_overlapping_and_dense)


def dense_strides_like(shape, strides):
    """Dense strides in the memory order of ``strides`` (a stride-0 dimension keeps its place):
    a transposed slice stays transposed, its gaps squeezed out."""
    return dense_strides(shape, iteration_order(shape, [strides]), lambda n: max(n, 1))


def iteration_order(shape, operands):
    """The order in which torch's TensorIterator walks the dimensions, innermost first: row-major, then
    its insertion sort by ``operands`` (their strides, in ``shape``), the first that can decide: the smaller
    stride goes inside, a stride 0 (broadcast) has no say, of two equal strides the smaller dimension."""
    def should_swap(d0, d1):
        for strides in operands:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    order = list(reversed(range(len(shape))))
    for i in range(1, len(shape)):
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


def dim_of(op, dim, shape):
    """``t.size(dim)``'s and ``t.stride(dim)``'s ``dim``: an index (not a bool) naming one of ``shape``'s dims."""
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(_core_messages.DIM_NOT_INT.format(op=op, got=_core_messages.type_name(dim)))
    if not shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return normalize_dim(operator.index(dim), len(shape))


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
element_positions = _overrides.overridable(element_positions)


def preserve_format_strides(shape, strides):
    """``preserve_format``: a dense tensor's own strides, else dense ones in the same order."""
    if is_non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    return dense_strides_like(shape, strides)


MEMORY_FORMAT_ORDERS = {channels_last: (1, 3, 2, 0), channels_last_3d: (1, 4, 3, 2, 0)}
_FORMAT_NAMES = {channels_last: "channels_last", channels_last_3d: "channels_last_3d"}


def strides_for(size, fmt):
    """The strides ``fmt`` gives a dense tensor of this ``size`` (rank checked, as in torch)."""
    if fmt is contiguous_format:
        return contiguous_strides(size)
    order = MEMORY_FORMAT_ORDERS[fmt]
    if len(size) != len(order):
        raise RuntimeError(_core_messages.MEMORY_FORMAT_RANK.format(rank=len(order), name=_FORMAT_NAMES[fmt]))
    return dense_strides(size, order)


def suggest_memory_format(size, stride):
    """The format torch reads off strides (``suggest_memory_format``): channels_last(_3d) for a 4-d
    (5-d) tensor whose strides look channels-last, else row-major."""
    for fmt, order in MEMORY_FORMAT_ORDERS.items():
        if len(size) == len(order) and _looks_channels_last(size, stride, order):
            return fmt
    return contiguous_format


def _looks_channels_last(size, stride, order):
    """torch's is_channels_last_strides_2d/3d: strides growing along ``order``; ties go to row-major."""
    if stride[1] == 0:
        return False
    low = 0
    for d in order:
        if size[d] == 0 or stride[d] < low or (d == 0 and low == stride[1]):
            return False
        low = stride[d] * max(size[d], 1)
    return True
