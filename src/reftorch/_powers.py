"""Powers: ``t ** 2``, ``t ** u`` and ``2 ** t``, each with its own backward node.

torch records three different nodes, depending on which side is a tensor:
``PowBackward0`` (tensor ** number), ``PowBackward1`` (tensor ** tensor) and
``PowBackward2`` (number ** tensor). Results are computed in float64 and
rounded once, as torch's float32 results are.
"""

import numpy as np

from . import _shapes
from ._dtype import float64, int64
from ._math import _device_of, _grad_for, _is_operand, _result, _shape_of, result_type, values_of
from ._tensor import Tensor
from ._version_counter import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad


class PowBackward0(Node):
    """``t ** 2``: d/dt = 2 * t ** 1."""

    def __init__(self, a, exponent):
        super().__init__(a)
        self.a, self.exponent, self.saved_a = a, exponent, self.save(a)

    def apply(self, grad):
        x = self.saved_a.unpack()._elements()
        return (_grad_for(self.a, grad._elements() * self.exponent * x ** (self.exponent - 1)),)


class PowBackward1(Node):
    """``t ** u`` for two tensors."""

    def __init__(self, a, b, result):
        super().__init__(a, b)
        self.a, self.b = a, b
        self.saved_a, self.saved_b = self.save(a), self.save(b)
        self.saved_result = self.save(result, is_output=True)

    def apply(self, grad):
        g, x, y = grad._elements(), self.saved_a.unpack()._elements(), self.saved_b.unpack()._elements()
        grads = [None, None]
        if self.needs_input_grad(0):
            grads[0] = _grad_for(self.a, g * y * x ** (y - 1))
        if self.needs_input_grad(1):
            grads[1] = _grad_for(self.b, g * self.saved_result.unpack()._elements() * np.log(x))
        return tuple(grads)


class PowBackward2(Node):
    """``2 ** t``: d/dt = 2 ** t * log(2)."""

    def __init__(self, base, b, result):
        super().__init__(b)
        self.base, self.b, self.saved_result = base, b, self.save(result, is_output=True)

    def apply(self, grad):
        r = self.saved_result.unpack()._elements()
        return (_grad_for(self.b, grad._elements() * r * np.log(self.base)),)


def pow(self, exponent):
    if not _is_operand(exponent):
        return NotImplemented
    dtype = result_type(self, exponent)
    _shapes.broadcast_shapes(self._size, _shape_of(exponent))
    if not dtype.is_floating_point and np.any(values_of(exponent, int64) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    compute = float64 if dtype.is_floating_point else dtype
    with np.errstate(all="ignore"):
        values = values_of(self, compute) ** values_of(exponent, compute)
    # pow(t, 2) takes the number as a parameter of its kernel, not as an operand
    operands = (self, exponent) if isinstance(exponent, Tensor) else (self,)
    out = _result(values, dtype, _device_of(self, exponent), inputs=operands)
    if any_requires_grad(self, exponent):
        if isinstance(exponent, Tensor):
            out._set_grad_fn(PowBackward1(self, exponent, out))
        else:
            out._set_grad_fn(PowBackward0(self, exponent))
    return out


def __rpow__(self, base):
    if not _is_operand(base):
        return NotImplemented
    dtype = result_type(self, base)
    compute = float64 if dtype.is_floating_point else dtype
    with np.errstate(all="ignore"):
        values = values_of(base, compute) ** values_of(self, compute)
    out = plain_kernel_writes(_result(values, dtype, self.device), (self,))  # row-major, as torch lays it out
    if any_requires_grad(self):
        out._set_grad_fn(PowBackward2(base, self, out))
    return out
