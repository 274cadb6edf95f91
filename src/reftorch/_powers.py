"""Powers: ``t ** 2``, ``t ** u`` and ``2 ** t``, each with its own backward node.

torch records three different nodes, depending on which side is a tensor:
``PowBackward0`` (tensor ** number), ``PowBackward1`` (tensor ** tensor) and
``PowBackward2`` (number ** tensor). A float32 or float16 power of two tensors (or of a
number and a tensor) is C's ``powf`` on the float32 values, the function torch's portable kernel
calls; a tensor to a number's power is computed in float64 and rounded once, as torch's kernel
does element by element. (torch's AVX2 and AVX-512 kernels compute whole vectors with another
function, which can differ in the last place: reftorch follows the portable kernel.) ``pow_`` (``a **= e``, in ``_inplace``) writes the
same numbers into ``a`` and records the same nodes, with a private copy of the old ``a``.
"""

import ctypes
import ctypes.util
import functools
import math

from . import _messages, _shapes
from ._dtype import bool as bool_, float16, float32, float64, int64, no_kernel
from ._math import _device_of, _is_operand, _result, as_operator, operand_refused, _shape_of, mul, result_type, sub, values_of
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad


class PowBackward0(Node):
    """``t ** 2``: d/dt = 2 * t ** 1 (0 everywhere for the exponent 0, as torch says). For the
    in-place ``t.pow_(2)``, ``old_self`` is a private copy of ``t`` taken before the write,
    because ``t`` itself is overwritten."""

    def __init__(self, a, exponent, old_self=None):
        super().__init__(a)
        self.a, self.exponent, self.saved_a = a, exponent, self.save(a if old_self is None else old_self)

    def apply(self, grad):
        x = self.saved_a.unpack()
        if self.exponent == 0:  # not 0 * x ** -1, which is nan at x = 0
            return (Tensor._from_values(0, x._size, x._dtype, x.device),)
        return (mul(grad, mul(pow(x, self.exponent - 1), self.exponent)),)


class PowBackward1(Node):
    """``t ** u`` for two tensors: d/dt = u * t ** (u - 1), 0 where u is 0; d/du = t ** u * log(t),
    0 where t is 0 and u >= 0 (torch's choices at those points). ``old_self`` as in
    ``PowBackward0``; the in-place ``t.pow_(u)`` saves its result, ``t`` itself, once it is
    written: ``save_result``."""

    def __init__(self, a, b, result, old_self=None):
        super().__init__(a, b)
        self.a, self.b = a, b
        self.saved_a, self.saved_b = self.save(a if old_self is None else old_self), self.save(b)
        if result is not None:
            self.save_result(result)

    def save_result(self, result):
        self.saved_result = self.save(result, is_output=True)

    def apply(self, grad):
        # all three are checked, as torch unpacks every saved tensor before it computes
        x, y, result = self.saved_a.unpack(), self.saved_b.unpack(), self.saved_result.unpack()
        grads = [None, None]
        if self.needs_input_grad(0):
            by_x = mul(grad, mul(y, pow(x, sub(y, 1))))
            grads[0] = _zero_where(by_x, [e == 0 for e in values_of(y, float64, by_x._size)])
        if self.needs_input_grad(1):
            by_y = mul(result, _log(x, result_type(x, y)))
            zero = [b == 0 and e >= 0 for b, e in zip(values_of(x, float64, by_y._size), values_of(y, float64, by_y._size))]
            grads[1] = mul(grad, _zero_where(by_y, zero))
        return tuple(grads)


class PowBackward2(Node):
    """``2 ** t``: d/dt = 2 ** t * log(2); for the base 0, 0 where t >= 0."""

    def __init__(self, base, b, result):
        super().__init__(b)
        self.base, self.b = base, b
        self.saved_b, self.saved_result = self.save(b), self.save(result, is_output=True)

    def apply(self, grad):
        exponent, r = self.saved_b.unpack(), self.saved_result.unpack()
        by_t = mul(r, _ln(self.base))
        if self.base == 0:
            by_t = _zero_where(by_t, [e >= 0 for e in values_of(exponent, float64, by_t._size)])
        return (mul(grad, by_t),)


def _zero_where(t, zero):
    """``torch.where(zero, 0, t)``: ``zero`` holds one flag per element, in row-major order."""
    values = [0 if z else v for v, z in zip(values_of(t, t._dtype), zero)]
    return _result(values, t._size, t._dtype, t.device, inputs=(t,))


def _compute(dtype):
    """Powers of floats are computed in float64 and rounded once; integers exactly (then wrapped)."""
    return float64 if dtype.is_floating_point else dtype


def _power(x, y):
    """``x ** y`` as C's ``pow`` gives it: inf on overflow and nan for a negative base
    and a fractional exponent, where Python would raise or answer a complex number."""
    if isinstance(x, int) and isinstance(y, int):
        if y < 0:  # C's integer power: 1 and -1 stay whole, any other base rounds down to 0
            return 1 if x == 1 else ((-1 if y % 2 else 1) if x == -1 else 0)
        return x ** y
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf if x > 0 or y % 2 != 1 else -math.inf
    except ValueError:  # 0 ** negative, or a negative base and a fractional exponent
        return math.copysign(math.inf, x) if x == 0 and y % 2 == 1 else (math.inf if x == 0 else math.nan)


def _powers(bases, exponents):
    return [_power(x, y) for x, y in zip(bases, exponents)]


@functools.cache
def _powf():
    """C's ``powf`` (float32 ** float32, in float32), looked up on first use in the running program
    (which links the C maths library), else in the maths library by name; None where neither has it
    (Python's own power is used then)."""
    try:
        powf = ctypes.CDLL(None).powf
    except (OSError, AttributeError, TypeError):
        try:
            powf = ctypes.CDLL(ctypes.util.find_library("m")).powf
        except (OSError, AttributeError, TypeError):
            return None
    powf.argtypes, powf.restype = (ctypes.c_float, ctypes.c_float), ctypes.c_float
    return powf


def _tensor_powers(bases, exponents, dtype):
    """The powers of two tensors' numbers (or of a number and a tensor's), as torch's portable
    kernel computes them: ``powf`` for float32, and for float16 (computed in float32)."""
    powf = _powf() if dtype in (float32, float16) else None
    if powf is not None:
        return [powf(x, y) for x, y in zip(bases, exponents)]
    return _powers(bases, exponents)


def _ln(x):
    """The natural logarithm, -inf at 0 and nan below, as C's ``log``."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _log(t, dtype):
    """``log`` of each element of ``t``, in ``dtype``."""
    return _result([_ln(x) for x in values_of(t, float64)], t._size, dtype, t.device)


def pow_values(self, exponent, dtype, shape):
    """The numbers of ``self ** exponent`` in ``dtype``, for ``pow`` and ``pow_``. An integer
    tensor refuses a negative number as its exponent; a tensor of negative exponents gives C's
    integer powers."""
    if not dtype.is_floating_point and not isinstance(exponent, Tensor) and values_of(exponent, int64)[0] < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if dtype is bool_ and isinstance(exponent, Tensor):  # torch's tensor ** tensor has no bool kernel
        raise no_kernel("pow", bool_)
    # a float16 power takes its exponent as float16 too, as torch casts every operand to the result's dtype
    exponents = values_of(exponent, dtype if dtype is float16 else _compute(dtype), shape)
    if isinstance(exponent, Tensor):
        return _tensor_powers(values_of(self, dtype, shape), values_of(exponent, dtype, shape), dtype)
    return _powers(values_of(self, _compute(dtype), shape), exponents)


def pow(self, exponent):
    if not _is_operand(exponent):
        raise operand_refused("pow", exponent, "exponent")
    dtype = result_type(self, exponent)
    shape = _shapes.broadcast_shapes(self._size, _shape_of(exponent))
    values = pow_values(self, exponent, dtype, shape)
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
    if dtype is bool_:
        raise no_kernel("pow", bool_)
    bases = values_of(base, dtype if dtype.is_floating_point else _compute(dtype), self._size)  # rounded, as torch
    values = _tensor_powers(bases, values_of(self, dtype if dtype.is_floating_point else _compute(dtype)), dtype)
    out = plain_kernel_writes(_result(values, self._size, dtype, self.device), (self,))  # row-major, as torch
    if any_requires_grad(self):
        out._set_grad_fn(PowBackward2(base, self, out))
    elif any_requires_grad(out, self):  # an inference ``self``: torch's kernel writes ``out`` with pow's out= form
        raise RuntimeError(_messages.OUT_NOT_DIFFERENTIABLE.format(op="pow"))
    return out


__pow__ = as_operator(pow)
