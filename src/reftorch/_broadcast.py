"""Broadcasting: the shape operands stretch to, and the gradient's way back.

``a + b`` and ``dst.copy_(src)`` work on operands of different shapes when,
aligned on the right, each pair of sizes is equal or one of them is 1: those
dimensions are stretched, as if the numbers were repeated, copying nothing.

* ``broadcast_shapes``: the shape the operands stretch to, or torch's error.
* ``sum_to_shape``: broadcasting undone, for gradients. An element that was
  used many times gets the sum of their gradients, so an input that was
  stretched gets the gradient summed over the stretched dimensions.

Pure functions of sizes (``sum_to_shape`` of a list of gradient values): no
tensor's memory is touched.
"""

from . import _core_messages, _strides


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
                raise RuntimeError(_core_messages.BROADCAST_SIZES.format(result[-i], n, ndim - i))
    return tuple(result)


def expanded_strides(size, stride, shape):
    """The strides ``expand(shape)`` gives: 0 for a new or stretched dimension (read again and again)."""
    lead = len(shape) - len(size)
    return (0,) * lead + tuple(0 if n == 1 and m != 1 else s for n, s, m in zip(size, stride, shape[lead:]))


def sum_to_shape(values, size, shape):
    """Undo broadcasting: the row-major ``values`` of ``size`` summed down to ``shape``,
    each added into the element it was stretched from (stride 0 along stretched dims)."""
    if tuple(size) == tuple(shape):
        return list(values)
    sums = [0] * _strides.numel(shape)
    into = expanded_strides(shape, _strides.contiguous_strides(shape), size)
    for p, v in zip(_strides.element_positions(size, into, 0), values):
        sums[p] += v
    return sums
