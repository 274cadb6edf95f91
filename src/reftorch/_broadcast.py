"""Broadcasting: aligned on the right, sizes that are equal or 1 stretch to one shape, copying
nothing; ``sum_to_shape`` sums a gradient back. No memory is touched."""

from . import _core_messages, _overrides, _strides


def broadcast_shapes(*shapes):
    """The shape that all ``shapes`` stretch to, or torch's error."""
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        for i in range(1, len(shape) + 1):
            n = shape[-i]
            if result[-i] == 1:
                if n < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                result[-i] = n
            elif n != 1 and n != result[-i]:
                raise RuntimeError(_core_messages.BROADCAST_SIZES.format(result[-i], n, ndim - i))
    return tuple(result)
broadcast_shapes = _overrides.overridable(broadcast_shapes)


def expanded_strides(size, stride, shape):
    """The strides ``expand(shape)`` gives: 0 for a new or stretched dimension (read again and again)."""
    lead = len(shape) - len(size)
    return (0,) * lead + tuple(0 if n == 1 and m != 1 else s for n, s, m in zip(size, stride, shape[lead:]))


def sum_to_shape(values, size, shape):
    """The row-major ``values`` of ``size`` summed down to ``shape``, each into the element it came from."""
    if tuple(size) == tuple(shape):
        return list(values)
    sums = [0] * _strides.numel(shape)
    into = expanded_strides(shape, _strides.contiguous_strides(shape), size)
    for p, v in zip(_strides.element_positions(size, into, 0), values):
        sums[p] += v
    return sums
