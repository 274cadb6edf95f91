"""Powers: ``t ** 2``, ``t ** u`` and ``2 ** t``, each with its own backward node.

torch records three different nodes, depending on which side is a tensor:
``PowBackward0`` (tensor ** number), ``PowBackward1`` (tensor ** tensor) and
``PowBackward2`` (number ** tensor). Results are computed in float64 and
rounded once, as torch's float32 results are.
"""

import math

from . import _messages, _shapes
from ._dtype import float64, int64
from ._math import _device_of, _is_operand, _result, as_operator, operand_refused, _shape_of, mul, result_type, sub, values_of
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad


class PowBackward0(Node):
    """``t ** 2``: d/dt = 2 * t ** 1."""

    def __init__(self, a, exponent):
        super().__init__(a)
        self.a, self.exponent, self.saved_a = a, exponent, self.save(a)

    def apply(self, grad):
        x = self.saved_a.unpack()
        return (mul(mul(grad, self.exponent), pow(x, self.exponent - 1)),)


class PowBackward1(Node):
    """``t ** u`` for two tensors."""

    def __init__(self, a, b, result):
        super().__init__(a, b)
        self.a, self.b = a, b
        self.saved_a, self.saved_b = self.save(a), self.save(b)
        self.saved_result = self.save(result, is_output=True)

    def apply(self, grad):
        x, y = self.saved_a.unpack(), self.saved_b.unpack()
        grads = [None, None]
        if self.needs_input_grad(0):
            grads[0] = mul(mul(grad, y), pow(x, sub(y, 1)))
        if self.needs_input_grad(1):
            grads[1] = mul(mul(grad, self.saved_result.unpack()), _log(x))
        return tuple(grads)


class PowBackward2(Node):
    """``2 ** t``: d/dt = 2 ** t * log(2)."""

    def __init__(self, base, b, result):
        super().__init__(b)
        self.base, self.b, self.saved_result = base, b, self.save(result, is_output=True)

    def apply(self, grad):
        r = self.saved_result.unpack()
        return (mul(mul(grad, r), _ln(self.base)),)


def _compute(dtype):
    """Powers of floats are computed in float64 and rounded once; integers exactly (then wrapped)."""
    return float64 if dtype.is_floating_point else dtype


def _power(x, y):
    """``x ** y`` as C's ``pow`` gives it: inf on overflow and nan for a negative base
    and a fractional exponent, where Python would raise or answer a complex number."""
    if isinstance(x, int) and isinstance(y, int):
        return x ** y  # y >= 0: pow checks it first
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf if x > 0 or y % 2 != 1 else -math.inf
    except ValueError:  # 0 ** negative, or a negative base and a fractional exponent
        return math.copysign(math.inf, x) if x == 0 and y % 2 == 1 else (math.inf if x == 0 else math.nan)


def _powers(bases, exponents):
    return [_power(x, y) for x, y in zip(bases, exponents)]


def _ln(x):
    """The natural logarithm, -inf at 0 and nan below, as C's ``log``."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _log(t):
    """``log`` of each element of ``t``, in ``t``'s dtype."""
    return _result([_ln(x) for x in values_of(t, float64)], t._size, t._dtype, t.device)


def pow(self, exponent):
    if not _is_operand(exponent):
        raise operand_refused("pow", exponent, "exponent")
    dtype = result_type(self, exponent)
    _shapes.broadcast_shapes(self._size, _shape_of(exponent))
    if not dtype.is_floating_point and any(e < 0 for e in values_of(exponent, int64)):
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    shape = _shapes.broadcast_shapes(self._size, _shape_of(exponent))
    values = _powers(values_of(self, _compute(dtype), shape), values_of(exponent, _compute(dtype), shape))
    # pow(t, 2) takes the number as a parameter of its kernel, not as an operand
    operands = (self, exponent) if isinstance(exponent, Tensor) else (self,)
    out = _result(values, shape, dtype, _device_of(self, exponent), inputs=operands)
    if any_requires_grad(*operands):
        if isinstance(exponent, Tensor):
            out._set_grad_fn(PowBackward1(self, exponent, out))
        else:
            out._set_grad_fn(PowBackward0(self, exponent))
    return out


def __rpow__(self, base):
    if not _is_operand(base):
        return NotImplemented
    dtype = result_type(self, base)
    values = _powers(values_of(base, _compute(dtype), self._size), values_of(self, _compute(dtype)))
    out = plain_kernel_writes(_result(values, self._size, dtype, self.device), (self,))  # row-major, as torch
    if any_requires_grad(self):
        out._set_grad_fn(PowBackward2(base, self, out))
    elif any_requires_grad(out, self):  # an inference ``self``: torch's kernel writes ``out`` with pow's out= form
        raise RuntimeError(_messages.OUT_NOT_DIFFERENTIABLE.format(op="pow"))
    return out


__pow__ = as_operator(pow)
