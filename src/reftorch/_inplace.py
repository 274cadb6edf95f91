"""In-place arithmetic: ``add_``, ``sub_``, ``mul_``, ``div_``, ``floor_divide_``, ``bitwise_or_``,
``zero_``, ``fill_``, and the operators ``+=``, ``-=``, ``*=``, ``/=``, ``//=``, ``|=``.

Each one computes its numbers as the out-of-place operation does
(``_math.binary_values``), checks that the result fits the destination's
dtype (no float into an int tensor), and hands the write to
``_inplace_write.write_inplace``, which checks autograd's rules, writes into
the existing memory, bumps the version counter and rewrites the history.

* Python object, metadata and memory: the destination's own, all kept.
* Version counter: bumped by one. ``a += b`` is ``a.add_(b)``: the same
  object, so every name bound to it sees the new numbers.
* History: the op's node (``AddBackward0`` ...) becomes ``grad_fn``; a view's
  base gets ``CopySlices``.
"""

import operator

from . import _messages, _metadata_inplace
from ._meta import check_overlaps
from ._dtype import _category, bool as bool_, check_float_scalar, check_scalar
from ._inplace_write import (  # noqa: F401  (the chapters name these as reftorch._inplace.*)
    CopySlices, check_inplace, check_inplace_shape, check_no_internal_overlap, check_no_partial_overlap,
    rebase_history, write_inplace,
)
from ._math import (
    AddBackward0, DivBackward0, MulBackward0, SubBackward0, _is_operand, binary_values, result_type, sum_to_shape,
    true_divide, values_of,
)
from ._tensor import Tensor
from .autograd.graph import Node
from ._overrides import overridable


def check_inplace_dtype(self, other):
    """An in-place result must fit the destination's shape, then its dtype (no float into int):
    torch reports a shape that does not broadcast before a dtype that does not fit."""
    check_inplace_shape(self, other)
    dtype = result_type(self, other)
    if _category(dtype) > _category(self.dtype):
        raise RuntimeError(
            f"result type {dtype._short_name} can't be cast to the desired output type {self.dtype._short_name}"
        )
    return dtype


def _arith_inplace(self, other, compute, make_node, alpha=None, check_kernel=None):
    """Compute as the out-of-place op does (``_math.binary_values``), then write. ``check_kernel(dtype)``
    refuses a dtype torch has no kernel for, once the result's dtype is known."""
    if not _is_operand(other):  # torch's parser refuses it, so a += None raises TypeError too
        raise TypeError(f"argument 'other' must be Tensor or a number, not {type(other).__name__}")

    def new_values():
        check_overlaps(self, other)
        dtype = check_inplace_dtype(self, other)
        if check_kernel is not None:
            check_kernel(dtype)
        return binary_values(self, other, compute, dtype, alpha)

    return write_inplace(self, new_values, make_node, other)


def _snapshot(t):
    """A private copy of the old values, for nodes that need them after the write."""
    return Tensor._from_values(t._read(), t._size, t._dtype, t.device)


def add_(self, other, *, alpha=1):
    return _arith_inplace(self, other, operator.add, lambda: AddBackward0(self, other, alpha), alpha=alpha)


def sub_(self, other, *, alpha=1):
    return _arith_inplace(self, other, operator.sub, lambda: SubBackward0(self, other, alpha), alpha=alpha)


def mul_(self, other):
    return _arith_inplace(
        self, other, operator.mul, lambda: MulBackward0(self, other, old_self=_snapshot(self))
    )


def div_(self, other):
    if not self.dtype.is_floating_point:
        raise RuntimeError(_messages.INPLACE_RESULT_CAST.format(self.dtype._short_name))
    return _arith_inplace(
        self, other, true_divide, lambda: DivBackward0(self, other, old_self=_snapshot(self))
    )


def _floor_divide(x, y):
    """``x // y`` rounded down, as Python's ``//`` does for ints and floats (the same steps as
    torch's kernel); a float divided by zero is inf or nan, an integer one torch's error."""
    if y == 0 and isinstance(x, float):
        return true_divide(x, y)
    if y == 0:
        raise RuntimeError("ZeroDivisionError")
    return x // y


def _refuse(kernel, refused):
    """The check for ``_arith_inplace``: torch has no ``kernel`` for a dtype that is ``refused``."""
    def check_kernel(dtype):
        if refused(dtype):
            raise NotImplementedError(_messages.NOT_IMPLEMENTED_FOR.format(kernel=kernel, dtype=dtype._short_name))
    return check_kernel


def floor_divide_(self, other):
    """``a //= b``: the quotient rounded down, written into ``a``. If autograd records, ``a`` gets
    the node ``NotImplemented`` (edges to the inputs that require grad): torch has no derivative
    for it, and backward says so."""
    inputs = [x for x in (self, other) if isinstance(x, Tensor) and x.requires_grad]
    return _arith_inplace(self, other, _floor_divide, lambda: _metadata_inplace.NotImplemented(
        *inputs, message="derivative for aten::floor_divide_ is not implemented"),
        check_kernel=_refuse("div_floor_cpu", lambda dtype: dtype is bool_))


def bitwise_or_(self, other):
    """``a |= b``: the bits of each pair ORed, for bool and integer tensors (a float has no bits to
    OR: torch has no kernel for it). Nothing is recorded: an integer result has no gradient."""
    return _arith_inplace(self, other, operator.or_, lambda: None,
                          check_kernel=_refuse("bitwise_or_cpu", lambda dtype: dtype.is_floating_point))


class ZeroBackward0(Node):
    def __init__(self, a):
        super().__init__(a)
        self.a = a

    def apply(self, grad):
        return (Tensor._from_values(0, self.a._size, self.a._dtype, self.a.device),)


class FillBackward2(ZeroBackward0):
    """fill_ with a number: the old values do not matter any more."""


class FillBackward3(Node):
    """fill_ with a 0-d tensor: its gradient is the sum of the incoming one."""

    def __init__(self, a, value):
        super().__init__(a, value)
        self.a, self.value = a, value

    def apply(self, grad):
        zeros = Tensor._from_values(0, self.a._size, self.a._dtype, self.a.device)
        total = Tensor._from_values(sum_to_shape(grad._read(), grad._size, ()), (), self.value._dtype,
                                    self.value.device)
        return (zeros, total if self.needs_input_grad(1) else None)


def zero_(self):
    return write_inplace(self, lambda: 0, lambda: ZeroBackward0(self))


def fill_(self, value):
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(
                _messages.FILL_VALUE_DIM.format(value.dim())
            )
        def new_values():
            check_overlaps(self)
            return values_of(value, self.dtype)[0]

        return write_inplace(self, new_values, lambda: FillBackward3(self, value), value)
    check_scalar(value, self.dtype)
    check_float_scalar(value, self.dtype)
    return write_inplace(self, lambda: values_of(value, self.dtype)[0], lambda: FillBackward2(self))


def __iadd__(self, other):
    """``a += b``: ``a.add_(b)``, returning ``a`` itself, which Python binds to the name ``a`` again.
    An ``other`` that ``add_`` refuses with TypeError (None, a string) gives NotImplemented, as in
    torch: Python then raises its own "unsupported operand type(s) for +=", and nothing is written."""
    try:
        return add_(self, other)
    except TypeError:
        return NotImplemented
__iadd__ = overridable(__iadd__)


def _or_not_implemented(op, self, other):
    """``-=``, ``*=``, ``/=`` as ``__iadd__``: the op's TypeError becomes NotImplemented."""
    try:
        return op(self, other)
    except TypeError:
        return NotImplemented


def __isub__(self, other):
    return _or_not_implemented(sub_, self, other)


def __imul__(self, other):
    return _or_not_implemented(mul_, self, other)


def __itruediv__(self, other):
    return _or_not_implemented(div_, self, other)


def __ifloordiv__(self, other):
    return _or_not_implemented(floor_divide_, self, other)


def __ior__(self, other):
    return _or_not_implemented(bitwise_or_, self, other)
