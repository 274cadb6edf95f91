"""Remainders: ``a % b`` (``remainder``) and ``a.fmod(b)``, with their in-place ``_`` forms.

Both leave ``a - q * b`` for a whole number ``q``; they differ in its sign. ``remainder`` takes
the sign of the divisor, as Python's ``%`` (``-7 % 3`` is 2); ``fmod`` the sign of the dividend,
as C's ``fmod`` (``-7`` fmod ``3`` is -1). An integer divided by zero is torch's error; a float
one is NaN. The dtype is the one ``a + b`` would have; bools have no remainder kernel, though
``fmod`` of a bool by a number promotes and computes.

* Python object, metadata and memory: a new tensor with new memory, as ``_math``'s arithmetic;
  ``remainder_``, ``fmod_`` and ``%=`` write into ``a``'s own and bump its version counter.
* History: the gradient passes to ``a`` unchanged; to a tensor ``b``, ``-grad * q`` (``q`` the
  quotient rounded down for ``remainder``, toward zero for ``fmod``). ``2 % a`` records
  ``NotImplemented``: torch has no derivative for it. On an inference tensor (made in
  ``inference_mode``, used outside it) with a number, torch's kernel calls the tensor form on the
  number wrapped in a normal tensor, which autograd sees: ``a % 2`` records ``RemainderBackward1``,
  ``2 % a`` must save ``a`` and raises; ``a.remainder_(2)`` is not seen, so it writes and the
  counter refuses.
"""

import math

from . import _metadata_inplace
from ._copy_ import values_of
from ._dtype import bool as bool_, no_kernel
from ._floor_divide import floor_of_quotient
from ._inplace import _arith_inplace, _snapshot
from ._math import _binary, _is_operand, _result, as_operator, div, mul, operand_refused, result_type
from ._shapes import broadcast_shapes
from ._tensor import Tensor
from .autograd.graph import Node


def fmod_value(x, y):
    """C's ``fmod``: the sign of ``x``; an integer by zero is torch's error, a float one NaN."""
    if isinstance(x, float) or isinstance(y, float):
        if y == 0 or math.isinf(x) or x != x or y != y:
            return math.nan
        return x if math.isinf(y) else math.fmod(x, y)
    if y == 0:
        raise RuntimeError("ZeroDivisionError")
    return -(abs(x) % abs(y)) if x < 0 else abs(x) % abs(y)


def remainder_value(x, y):
    """torch's ``remainder``: C's ``fmod``, moved by one ``y`` when its sign differs from ``y``'s."""
    r = fmod_value(x, y)
    if r != 0 and r == r and (r < 0) != (y < 0):
        r += y
    return r


class RemainderBackward0(Node):
    """``a % 2``: the gradient passes to ``a`` unchanged."""

    def __init__(self, a):
        super().__init__(a)

    def apply(self, grad):
        return (grad,)


class FmodBackward0(RemainderBackward0):
    pass


class RemainderBackward1(Node):
    """``a % b`` for a tensor ``b``: ``grad`` for ``a``, ``-grad * q`` for ``b``."""

    rounding = staticmethod(floor_of_quotient)

    def __init__(self, a, b, old_self=None):
        super().__init__(a, b)
        self.saved = [self.save(old_self if old_self is not None else a), self.save(b)] if self.needs_input_grad(1) else None

    def quotient(self, a, b):
        dtype = result_type(a, b)
        return _result([self.rounding(x, y) for x, y in zip(values_of(a, dtype, _shape(a, b)), values_of(b, dtype, _shape(a, b)))],
                       _shape(a, b), dtype, a.device)

    def apply(self, grad):
        if not self.needs_input_grad(1):
            return grad, None
        a, b = (s.unpack() for s in self.saved)
        return (grad if self.needs_input_grad(0) else None), mul(mul(grad, -1), self.quotient(a, b))


class FmodBackward1(RemainderBackward1):
    """``a.fmod(b)``: ``q`` is ``a / b`` rounded toward zero."""

    def quotient(self, a, b):
        q = div(a, b)
        return _result([float(math.trunc(v)) if math.isfinite(v) else v for v in q._read()], q._size, q.dtype, q.device)


def _shape(a, b):
    return broadcast_shapes(a._size, b._size)


def _check_kernel(name, dtype):
    if dtype is bool_:
        raise no_kernel(f"{name}_cpu", bool_)


def _operation(name, value, number_node, tensor_node):
    def method(self, other):
        if not _is_operand(other):
            raise operand_refused(name, other)
        dtype = result_type(self, other)
        _check_kernel(name, dtype)
        # an inference ``self``: torch's plain kernel for a number calls the tensor form, which autograd sees
        tensor_form = isinstance(other, Tensor) or self._inference
        node = (lambda: tensor_node(self, other)) if tensor_form else (lambda: number_node(self))
        return _binary(self, other, value, node, dtype)

    def in_place(self, other):
        def node():
            if isinstance(other, Tensor):
                return tensor_node(self, other, old_self=_snapshot(self))
            return number_node(self)
        # a number into an inference ``self``: autograd does not see it; written, then the counter refuses
        return _arith_inplace(f"{name}_", self, other, value, node,
                              check_kernel=lambda dtype: _check_kernel(name, dtype),
                              seen=isinstance(other, Tensor) or not self._inference)

    method.__name__ = method.__qualname__ = name
    in_place.__name__ = in_place.__qualname__ = f"{name}_"
    return method, in_place


remainder, remainder_ = _operation("remainder", remainder_value, RemainderBackward0, RemainderBackward1)
fmod, fmod_ = _operation("fmod", fmod_value, FmodBackward0, FmodBackward1)
__mod__ = as_operator(remainder)


def __rmod__(self, other):
    """``2 % a``: ``remainder(2, a)``, the number as the dividend; torch records no derivative."""
    if not _is_operand(other):
        return NotImplemented
    dtype = result_type(other, self)
    _check_kernel("remainder", dtype)
    if self._inference:  # torch's plain kernel calls the tensor form on the number wrapped: it saves both
        return _binary(other, self, remainder_value, lambda: RemainderBackward1(
            Tensor._from_values([other], (), dtype, self.device), self), dtype)
    return _binary(other, self, remainder_value, lambda: _metadata_inplace.NotImplemented(
        self, message="derivative for aten::remainder is not implemented"), dtype)


__imod__ = as_operator(remainder_)
