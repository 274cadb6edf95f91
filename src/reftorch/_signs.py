"""Signs: ``abs(t)`` (``t.abs()``, ``absolute``), ``+t`` (``positive``), ``negative``, and the in-place
``abs_`` and ``neg_`` (``-t`` itself is ``_unary.neg``).

``abs`` of an integer wraps as in C (int8's -128 stays -128); bools have no ``abs`` nor sign.
``+t`` copies nothing: it is ``t`` itself, the same object.

* Python object, metadata and memory: ``abs`` gives a new tensor with new memory; ``+t`` the
  very same tensor; ``abs_`` and ``neg_`` write into ``t``'s own memory.
* Version counter: ``abs_`` and ``neg_`` bump ``t``'s; the others leave it. ``abs`` of an
  inference tensor outside the mode starts at 1: torch's plain kernel writes it with ``abs``'s
  ``out=`` form, which refuses a ``t`` that requires grad.
* History: ``AbsBackward0`` multiplies the gradient by the sign of ``t`` (0 at 0);
  ``NegBackward0`` negates it.
"""

from . import _messages
from ._dtype import bool as bool_, no_kernel
from ._inplace import _snapshot
from ._inplace_write import write_inplace
from ._math import _result, mul
from ._meta import check_overlaps, is_meta
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from ._unary import NegBackward0, neg
from .autograd.graph import Node, any_requires_grad


def _sign(x):
    return (x > 0) - (x < 0) if x == x else x


class AbsBackward0(Node):
    """d/dx |x| = sign(x), saved as the input before any write."""

    def __init__(self, a, old_self=None):
        super().__init__(a)
        self.saved_self = self.save(old_self if old_self is not None else a)

    def apply(self, grad):
        x = self.saved_self.unpack()
        return (mul(grad, Tensor._from_values([_sign(v) for v in x._read()], x._size, x.dtype, x.device)),)


def _check_abs(self):
    if self.dtype is bool_:
        raise no_kernel("abs_cpu", bool_)


def abs(self):  # noqa: A001 - torch's name
    _check_abs(self)
    out = _result([-x if x < 0 else x for x in self._read()], self._size, self.dtype, self.device, inputs=(self,))
    if any_requires_grad(self):
        out._set_grad_fn(AbsBackward0(self))
    elif not is_meta(self):  # an inference ``self``: torch's kernel writes ``out`` with abs's out= form
        plain_kernel_writes(out, (self,))
        if any_requires_grad(out, self):
            raise RuntimeError(_messages.OUT_NOT_DIFFERENTIABLE.format(op="abs"))
    return out


def _unary_inplace(self, compute, make_node):
    def new_values():
        check_overlaps(self)
        return [compute(x) for x in self._read()]
    return write_inplace(self, new_values, make_node)


def abs_(self):
    _check_abs(self)
    return _unary_inplace(self, lambda x: -x if x < 0 else x, lambda: AbsBackward0(self, old_self=_snapshot(self)))


def neg_(self):
    if self.dtype is bool_:
        raise RuntimeError(_messages.BOOL_NEGATION)
    return _unary_inplace(self, lambda x: -x, lambda: NegBackward0(self))


negative = neg  # torch's other name for -t


def positive(self):
    """``+t``: ``t`` itself, as torch returns it."""
    if self.dtype is bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self
