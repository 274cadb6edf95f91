"""The layout torch gives a computed result: its TensorIterator's rules.

``a + b``, ``a * 2``, ``a[idx]`` allocate a fresh result. Its memory order
follows the inputs': ``a.t() + 1`` is laid out like ``a.t()`` (transposed),
so the result is dense but not always row-major. torch's TensorIterator
decides, by walking the dimensions in the order its inputs' strides suggest;
these functions reproduce that decision. Pure arithmetic, as in ``_strides``.
"""

from . import _strides
from ._broadcast import expanded_strides
from ._strides import contiguous_strides, dense_strides, is_contiguous, is_non_overlapping_and_dense


def elementwise_output_strides(shape, operands):
    """Strides torch gives the result of an elementwise op (its TensorIterator).

    ``operands`` are the inputs' (shape, strides). The result is dense, with
    its dimensions ordered in memory as the inputs' are: ``a.t() + 1`` is
    transposed like ``a.t()``. Broadcast dimensions (stride 0) do not vote;
    the first input that can decide does. Inputs of the result's own shape
    take torch's shortcut first (``tensor_iterator_output_strides``).
    """
    if len(shape) <= 1:
        return contiguous_strides(shape)
    return tensor_iterator_output_strides(shape, operands)


def iteration_order(shape, operands):
    """``_strides.iteration_order`` for ``operands`` given as the (shape, strides) of the tensors
    TensorIterator walks together, aligned on the right with ``shape`` (broadcast first)."""
    return _strides.iteration_order(shape, [expanded_strides(size, strides, shape) for size, strides in operands])


def tensor_iterator_output_strides(shape, operands):
    """Strides of a result that torch's TensorIterator allocates (elementwise ops, the advanced index loop).

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
    return dense_strides(shape, order)
