"""Functions of one tensor: ``-t``, ``t.exp()``, ``t.sigmoid()``, ``t.reciprocal()``, ``t.sqrt()``.

``exp``, ``sigmoid`` and ``reciprocal`` save their own *result* for backward (the derivative
of exp(x) is exp(x)), so writing into that result in place makes backward
raise. Integer inputs give floating results.
"""

import math

from . import _messages
from ._dtype import bool as bool_, float64, get_default_dtype
from ._elements import cast
from ._math import NegatedGradient, __rsub__, _result, div, mul, true_divide, values_of
from .autograd.graph import Node, any_requires_grad


class NegBackward0(NegatedGradient):
    pass


def neg(self):
    if self.dtype is bool_:
        raise RuntimeError(
            _messages.BOOL_NEGATION
        )
    return _result([-x for x in self._read()], self._size, self.dtype, self.device,
                   NegBackward0(self) if any_requires_grad(self) else None, inputs=(self,))


class _ResultSavingNode(Node):
    """A node whose derivative is a function of the op's own *result*, which it saves."""

    def __init__(self, a, result):
        super().__init__(a)
        self.a, self.saved_result = a, self.save(result, is_output=True)


class ExpBackward0(_ResultSavingNode):
    """d/dx exp(x) = exp(x)."""

    def apply(self, grad):
        return (mul(grad, self.saved_result.unpack()),)


class SigmoidBackward0(_ResultSavingNode):
    """d/dx sigmoid(x) = s * (1 - s), with s the saved result."""

    def apply(self, grad):
        s = self.saved_result.unpack()
        return (mul(mul(grad, s), __rsub__(s, 1)),)


class ReciprocalBackward0(_ResultSavingNode):
    """d/dx (1 / x) = -r * r, with r the saved result."""

    def apply(self, grad):
        r = self.saved_result.unpack()
        return (mul(mul(mul(grad, -1), r), r),)


class SqrtBackward0(_ResultSavingNode):
    """d/dx sqrt(x) = 1 / (2 * r), with r the saved result."""

    def apply(self, grad):
        r = self.saved_result.unpack()
        return (div(grad, mul(r, 2)),)


def _floating(self):
    return self.dtype if self.dtype.is_floating_point else get_default_dtype()


def _unary_result(self, values, node_class):
    """The result tensor, laid out like ``self``, with its node if ``self`` requires grad."""
    out = _result(values, self._size, _floating(self), self.device, inputs=(self,))
    if any_requires_grad(self):
        out._set_grad_fn(node_class(self, out))
    return out


def exp(self):
    # Computed in float64 and rounded once, so float32 results are correctly
    # rounded, as torch's are.
    values = [_exp(x) for x in values_of(self, float64)]
    return _unary_result(self, values, ExpBackward0)


def _exp(x):
    """e ** x, inf when too large (Python's math.exp raises instead)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def sigmoid(self):
    dtype = _floating(self)
    # As torch does it: exp(-x) rounded to the dtype, then 1 / (1 + e) in the dtype.
    e = cast([_exp(-x) for x in values_of(self, float64)], dtype)
    values = [true_divide(1, v) for v in cast([1 + v for v in e], dtype)]
    return _unary_result(self, values, SigmoidBackward0)


def reciprocal(self):
    values = [true_divide(1, x) for x in values_of(self, _floating(self))]  # 1/0 is inf, as in torch
    return _unary_result(self, values, ReciprocalBackward0)


def __rtruediv__(self, other):
    """``2 / t`` is computed by torch as ``t.reciprocal() * 2``, with Python's ``*``: so
    ``array / t`` is numpy's ``array * t.reciprocal()``, a tensor again (``_convert.__array_wrap__``).
    What ``*`` refuses (None, a string) is NotImplemented."""
    try:
        return reciprocal(self) * other
    except TypeError:
        return NotImplemented


def sqrt(self):
    # A square root computed in float64 and rounded once is correctly rounded;
    # torch's CPU kernel is not always (it can be one unit in the last place
    # away), so results may differ from torch's in the last bit.
    values = [math.sqrt(x) if x >= 0 else math.nan for x in values_of(self, _floating(self))]  # sqrt(-1) is nan
    return _unary_result(self, values, SqrtBackward0)
