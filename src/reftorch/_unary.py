"""Functions of one tensor: ``-t``, ``t.exp()``, ``t.sigmoid()``.

``exp`` and ``sigmoid`` save their own *result* for backward (the derivative
of exp(x) is exp(x)), so writing into that result in place makes backward
raise. Integer inputs give floating results.
"""

import numpy as np

from ._dtype import bool as bool_, float64, get_default_dtype
from ._math import _grad_for, _result, values_of
from .autograd.graph import Node, any_requires_grad


class NegBackward0(Node):
    def __init__(self, a):
        super().__init__(a)
        self.a = a

    def apply(self, grad):
        return (_grad_for(self.a, -grad._values()),)


def neg(self):
    if self.dtype is bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return _result(-self._values(), self.dtype, self.device,
                   NegBackward0(self) if any_requires_grad(self) else None, inputs=(self,))


class ExpBackward0(Node):
    """d/dx exp(x) = exp(x): the node saves its own *result*."""

    def __init__(self, a, result):
        super().__init__(a)
        self.a, self.saved_result = a, self.save(result, is_output=True)

    def apply(self, grad):
        return (_grad_for(self.a, grad._values() * self.saved_result.unpack()._values()),)


class SigmoidBackward0(ExpBackward0):
    """d/dx sigmoid(x) = s * (1 - s), with s the saved result."""

    def apply(self, grad):
        s = self.saved_result.unpack()._values()
        return (_grad_for(self.a, grad._values() * s * (1 - s)),)


def _floating(self):
    return self.dtype if self.dtype.is_floating_point else get_default_dtype()


def exp(self):
    dtype = _floating(self)
    # Computed in float64 and rounded once, so float32 results are correctly
    # rounded, as torch's are.
    with np.errstate(all="ignore"):
        values = np.exp(values_of(self, float64))
    out = _result(values, dtype, self.device, inputs=(self,))
    if any_requires_grad(self):
        out._set_grad_fn(ExpBackward0(self, out))
    return out


def sigmoid(self):
    dtype = _floating(self)
    # As torch does it: exp(-x) rounded to the dtype, then 1 / (1 + e) in the dtype.
    with np.errstate(all="ignore"):
        e = np.exp(-values_of(self, float64)).astype(dtype._numpy_type)
        one = dtype._numpy_type.type(1)
        values = one / (one + e)
    out = _result(values, dtype, self.device, inputs=(self,))
    if any_requires_grad(self):
        out._set_grad_fn(SigmoidBackward0(self, out))
    return out
