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
"""

import numpy as np

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

    order = _memory_order(len(shape), should_swap)
    # A dimension of size 0 counts as 1 here, so later strides stay non-zero.
    return _dense_strides(shape, order, lambda n: max(n, 1))


def _memory_order(ndim, should_swap):
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


def _dense_strides(shape, order, size_of=lambda n: n):
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
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim + max(ndim, 1) if dim < 0 else dim


def broadcast_shapes(*shapes):
    """The shape that all ``shapes`` stretch to, aligning them on the right.

    Two sizes are compatible when they are equal or one of them is 1.
    """
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        for i in range(1, len(shape) + 1):
            n = shape[-i]
            if result[-i] == 1:
                result[-i] = n
            elif n != 1 and n != result[-i]:
                raise RuntimeError(
                    f"The size of tensor a ({result[-i]}) must match the size of "
                    f"tensor b ({n}) at non-singleton dimension {ndim - i}"
                )
    return tuple(result)


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
        if known == 0 or count % known != 0:
            raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {count}")
        shape[unknown[0]] = count // known
    elif known != count:
        raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {count}")
    return tuple(shape)


def _fmt(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


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


def element_positions(shape, strides, offset):
    """For every element, the index of the storage slot it lives in.

    This is the strided formula ``offset + sum(i_k * stride_k)`` evaluated for
    all indices at once. Two tensors on one storage overlap exactly where their
    positions coincide.

    >>> element_positions((2, 2), (1, 2), 0).tolist()   # a transposed 2x2
    [[0, 2], [1, 3]]
    """
    positions = np.full(shape, offset, dtype=np.int64)
    for dim, (n, s) in enumerate(zip(shape, strides)):
        along = [1] * len(shape)
        along[dim] = n
        positions = positions + (np.arange(n, dtype=np.int64) * s).reshape(along)
    return positions


def preserve_format_strides(shape, strides):
    """The strides a fresh copy gets with ``memory_format=torch.preserve_format``.

    A dense tensor keeps its strides exactly (a transposed matrix stays
    transposed); any other layout is packed densely in the same order.
    """
    if is_non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    return dense_strides_like(shape, strides)


def elementwise_output_strides(shape, operands):
    """Strides torch gives the result of an elementwise op (its TensorIterator).

    ``operands`` are the inputs' (shape, strides). The result is dense, with
    its dimensions ordered in memory as the inputs' are: ``a.t() + 1`` is
    transposed like ``a.t()``. Broadcast dimensions (stride 0) do not vote;
    the first input that can decide does.
    """
    if len(shape) <= 1:
        return contiguous_strides(shape)
    return strides_in_order(shape, iteration_order(shape, operands))


def iteration_order(shape, operands):
    """The order in which torch's TensorIterator walks the dimensions, innermost first.

    ``operands`` are the (shape, strides) of the tensors it walks together,
    aligned on the right with ``shape``. The dimension with the smallest
    stride goes innermost, so memory is read in order. Broadcast dimensions
    (stride 0) do not vote; the first operand that can decide does.
    """
    ndim = len(shape)
    # Each operand's strides as seen in the broadcast shape.
    seen = []
    for op_shape, op_strides in operands:
        lead = ndim - len(op_shape)
        strides = [0] * lead
        for i, (n, s) in enumerate(zip(op_shape, op_strides)):
            strides.append(0 if n == 1 and shape[lead + i] != 1 else s)
        seen.append(strides)

    def should_swap(d0, d1):
        for strides in seen:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    return _memory_order(ndim, should_swap)


def tensor_iterator_output_strides(shape, operands):
    """Strides of a result that torch's TensorIterator allocates (the advanced index loop).

    When every operand already has the result's shape, a shortcut decides: all
    contiguous gives a contiguous result; all dense with the same strides gives
    those strides. Otherwise the result is packed in ``iteration_order``.
    """
    if all(tuple(op_shape) == tuple(shape) for op_shape, _ in operands):
        if all(is_contiguous(op_shape, op_strides) for op_shape, op_strides in operands):
            return contiguous_strides(shape)
        first = tuple(operands[0][1])
        if all(is_non_overlapping_and_dense(op_shape, op_strides) and tuple(op_strides) == first
               for op_shape, op_strides in operands):
            return first
    return strides_in_order(shape, iteration_order(shape, operands))


def strides_in_order(shape, order):
    """Strides of a fresh tensor whose dimensions sit in memory in ``order`` (innermost first).

    This is how TensorIterator allocates a result: in plain row-major order it
    asks for ordinary contiguous strides, otherwise it packs the dimensions in
    ``order`` (a dimension of size 0 then makes the strides after it 0).
    """
    if list(order) == list(reversed(range(len(shape)))):
        return contiguous_strides(shape)
    return _dense_strides(shape, order)
