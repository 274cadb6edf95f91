"""AdvancedIndex: how torch turns ``a[idx]`` into an elementwise loop.

``_advanced_indexing`` says what reading and writing with index tensors do to
the four parts of a tensor. This module is the arithmetic underneath, torch's
``AdvancedIndex``; it also decides the result's shape and memory layout.

1. A bool mask becomes one long index per mask dimension (its ``nonzero()``):
   ``a[mask]`` is ``a[rows, cols]`` for the positions where the mask is True.
2. The index tensors are broadcast together to one shape ``B``.
3. ``B`` replaces the indexed dimensions. If they are next to each other it
   takes their place (``x[:, [0, 1]]`` is ``(n, 2)``); if a slice separates
   them, the indexed dimensions go first (``x[[0, 1], :, [0, 1]]``).
4. The rest is elementwise, like ``a + b``. Each result element reads (or
   ``index_put_`` writes) storage slot

       where the non-indexed dimensions point + sum_j idx_j * stride_j

   Because it is an elementwise loop, the result is laid out in memory as an
   elementwise result would be: following ``a``'s non-indexed dimensions.
   Negative indices count from the end; the loop checks each index value when
   it reaches it, so an error names the first bad value in the loop's order.
"""

from . import _messages, _shapes, _strides
from ._broadcast import expanded_strides
from ._dtype import bool as bool_, int32, int64, uint8
from ._warn import warn


def is_mask(t):
    """A bool (or, deprecated, uint8) tensor indexes by mask, one dimension per mask dimension."""
    return t._dtype in (bool_, uint8)


class _Indexer:
    """One long index as the kernel sees it: its numbers (row-major, of ``shape``) and their strides."""

    def __init__(self, values, shape, strides):
        self.values = values
        self.shape = tuple(shape)
        self.strides = tuple(strides)


def broadcast_values(values, shape, to):
    """Row-major ``values`` of ``shape`` read as if expanded to shape ``to``."""
    if tuple(shape) == tuple(to):
        return values
    strides = expanded_strides(shape, _strides.contiguous_strides(shape), to)
    return [values[p] for p in _strides.element_positions(to, strides, 0)]


def _nonzero(t):
    """For each dimension of ``t``, the coordinates of its non-zero elements, in row-major order."""
    hits = [k for k, x in enumerate(t._read()) if x]
    columns = [[0] * len(hits) for _ in t._size]
    for j, k in enumerate(hits):
        for dim in reversed(range(t.dim())):
            k, columns[dim][j] = divmod(k, t._size[dim])
    return columns


def _indexers(size, indices):
    """Steps 1 and 2: long indexers for a list of index tensors (None: not indexed)."""
    for t in indices:
        if t is not None and not is_mask(t) and t._dtype not in (int64, int32):
            raise IndexError(_messages.INDEX_DTYPE)
    result = []
    for t in indices:
        if t is None:
            result.append(None)
        elif is_mask(t):
            if t._dtype is uint8:
                warn(_messages.UINT8_INDEX)
            for j, n in enumerate(t._size):
                dim = len(result) + j
                if n != size[_strides.normalize_dim(dim, len(size))]:
                    raise IndexError(_messages.MASK_SHAPE.format(
                        mask=_strides._fmt(t._size), mask_dim=j, shape=_strides._fmt(size), dim=dim))
            result.extend(_Indexer(column, (len(column),), (1,)) for column in _nonzero(t))
        else:
            # int32 indices are first converted to int64, keeping their layout.
            strides = t._stride if t._dtype is int64 else _strides.preserve_format_strides(t._size, t._stride)
            result.append(_Indexer(t._read(), t._size, strides))
    shapes = [ix.shape for ix in result if ix is not None]
    try:
        shape = _shapes.broadcast_shapes(*shapes)
    except RuntimeError:
        raise IndexError(_messages.INDICES_NOT_BROADCASTABLE.format(
            ", ".join(_strides._fmt(s) for s in shapes))) from None
    return [ix if ix is None or ix.shape == shape else _expand(ix, shape) for ix in result]


def _expand(ix, shape):
    """``index.expand(shape)``: stretched dimensions get stride 0."""
    lead = len(shape) - len(ix.shape)
    strides = [0] * lead + [0 if n == 1 and shape[lead + i] != 1 else s
                            for i, (n, s) in enumerate(zip(ix.shape, ix.strides))]
    return _Indexer(broadcast_values(ix.values, ix.shape, shape), shape, strides)


class AdvancedIndex:
    """Steps 3 and 4 for a tensor's geometry: what the elementwise kernel walks.

    ``shape`` is the result's shape. ``src_strides`` are the tensor's strides
    with the indexed dimensions replaced by ``B`` at stride 0; each indexer
    adds ``idx * stride`` of the dimension it indexes.
    """

    def __init__(self, geometry, indices):
        size, stride, offset = geometry
        indexers = _indexers(size, indices)
        indexers += [None] * (len(size) - len(indexers))
        defined = [d for d, ix in enumerate(indexers) if ix is not None]
        if defined and defined != list(range(defined[0], defined[-1] + 1)):
            # Not adjacent: move the indexed dimensions to the front.
            order = defined + [d for d in range(len(size)) if d not in defined]
            size, stride = [size[d] for d in order], [stride[d] for d in order]
            indexers = [indexers[d] for d in order]
            defined = list(range(len(defined)))
        before = defined[0] if defined else len(size)
        after = len(size) - before - len(defined)
        replacement = indexers[before].shape if defined else ()
        self.indexed_sizes = [size[d] for d in defined]
        self.indexed_strides = [stride[d] for d in defined]
        if 0 in self.indexed_sizes and 0 not in replacement:
            raise IndexError("index is out of bounds for dimension with size 0")
        end = before + len(defined)
        self.shape = tuple(size[:before]) + tuple(replacement) + tuple(size[end:])
        self.src_strides = tuple(stride[:before]) + (0,) * len(replacement) + tuple(stride[end:])
        self.offset = offset
        self.indexers = [_reshape(indexers[d], before, after) for d in defined]

    def operands(self):
        """(shape, strides) of the indexed tensor and each indexer, as the kernel sees them."""
        return [(self.shape, self.src_strides)] + [(ix.shape, ix.strides) for ix in self.indexers]

    def _each_index(self):
        for ix, n in zip(self.indexers, self.indexed_sizes):
            yield broadcast_values(ix.values, ix.shape, self.shape), n

    def positions(self):
        """For each result element (row-major), the storage slot it is read from (or written to)."""
        slots = _strides.element_positions(self.shape, self.src_strides, self.offset)
        for (values, n), stride in zip(self._each_index(), self.indexed_strides):
            slots = [slot + (v + n if v < 0 else v) * stride for slot, v in zip(slots, values)]
        return slots

    def first_out_of_bounds(self, order):
        """``(k, IndexError)`` for the first index value out of range, or None.

        The kernel checks each value as it reaches it, walking the dimensions
        in ``order``: ``k`` elements were handled before the bad one.
        """
        if not self.indexers or 0 in self.shape:
            return None
        visited = [(in_order(values, self.shape, order), n) for values, n in self._each_index()]
        for k in range(_strides.numel(self.shape)):
            for j, (values, n) in enumerate(visited):
                if not -n <= values[k] < n:
                    return k, IndexError(f"index {values[k]} is out of bounds for dimension {j} with size {n}")
        return None


def _reshape(ix, before, after):
    """Give an indexer size-1 dimensions so that it lines up with the result."""
    shape = (1,) * before + ix.shape + (1,) * after
    strides = _shapes.view_strides(ix.shape, ix.strides, shape) or _strides.contiguous_strides(shape)
    return _Indexer(ix.values, shape, strides)


def in_order(values, shape, order):
    """Row-major ``values`` of ``shape`` in the order the kernel visits them (``order``: innermost first)."""
    outermost_first = tuple(reversed(order))
    row_major = _strides.contiguous_strides(shape)
    return [values[p] for p in _strides.element_positions(tuple(shape[d] for d in outermost_first),
                                                       tuple(row_major[d] for d in outermost_first), 0)]
