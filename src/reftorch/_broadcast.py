"""Broadcasting: the shape operands stretch to, and the gradient's way back.

``a + b`` and ``dst.copy_(src)`` work on operands of different shapes when,
aligned on the right, each pair of sizes is equal or one of them is 1: those
dimensions are stretched, as if the numbers were repeated, copying nothing.

* ``broadcast_shapes``: the shape the operands stretch to, or torch's error.
* ``sum_to_shape``: broadcasting undone, for gradients. An element that was
  used many times gets the sum of their gradients, so an input that was
  stretched gets the gradient summed over the stretched dimensions.

Pure functions of sizes (``sum_to_shape`` of a numpy array of gradient
values): no tensor's memory is touched.
"""

from . import _core_messages


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


def sum_to_shape(values, shape):
    """Undo broadcasting: sum ``values`` down to ``shape``."""
    lead = values.ndim - len(shape)
    values = values.sum(axis=tuple(range(lead))) if lead > 0 else values
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and values.shape[i] != 1)
    if stretched:
        values = values.sum(axis=stretched, keepdims=True)
    return values.reshape(shape)
