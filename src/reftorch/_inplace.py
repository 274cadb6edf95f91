"""In-place arithmetic: ``add_``, ``sub_``, ``mul_``, ``div_``, ``pow_``, ``floor_divide_``,
``bitwise_or_``, ``bitwise_and_``, ``bitwise_xor_``, ``bitwise_left_shift_``, ``bitwise_right_shift_``,
``zero_``, ``fill_``, and the operators ``+=``, ``-=``, ``*=``, ``/=``, ``**=``, ``//=``, ``|=``, ``&=``,
``^=``, ``<<=``, ``>>=``.

Each one computes its numbers as the out-of-place operation does
(``_math.binary_values``; ``pow_``: ``_powers.pow_values``), checks that the result fits the destination's
dtype (no float into an int tensor), and hands the write to
``_inplace_write.write_inplace``, which checks autograd's rules, writes into
the existing memory, bumps the version counter and rewrites the history.
With a meta tensor among the operands of ``add_``, ``sub_``, ``mul_`` or
``div_``, torch's meta kernel checks instead and nothing is written
(``_meta_arithmetic``).

* Python object, metadata and memory: the destination's own, all kept.
* Version counter: bumped by one. ``a += b`` is ``a.add_(b)``: the same
  object, so every name bound to it sees the new numbers.
* History: the op's node (``AddBackward0`` ...) becomes ``grad_fn``; a view's
  base gets ``CopySlices``.
"""

import numbers
import operator

from . import _alpha_first, _bitwise, _floor_divide, _messages, _meta_arithmetic, _metadata_inplace
from ._arguments import check_no_arguments
from ._meta import check_overlaps
from ._dtype import _category, check_float_scalar, check_scalar, check_scalar_int, stored_complex
from ._inplace_write import (  # noqa: F401  (the chapters name these as reftorch._inplace.*)
    CopySlices, check_inplace, check_inplace_shape, check_no_internal_overlap, check_no_partial_overlap,
    rebase_history, write_inplace,
)
from ._math import (
    AddBackward0, DivBackward0, MulBackward0, SubBackward0, _check_bool_subtraction, _device_of, _is_operand,
    as_operator, binary_values, operand_refused, result_type, sum_to_shape, true_divide, values_of,
)
from ._powers import PowBackward0, PowBackward1, pow_values
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


def _check_operand(op, other):
    """torch's parser refuses what is neither a tensor nor a number, so ``a += None`` raises
    TypeError too (``__iadd__`` makes it NotImplemented)."""
    if not _is_operand(other):
        raise operand_refused(op, other)


def check_meta_operands(op, self, *others):
    """What torch checks first when a meta tensor is among the tensors of ``self.op(*others)``: its
    Python reference of the op runs (``add_``, ``sub_``, ``mul_`` and ``div_`` have meta kernels
    instead, ``_meta_arithmetic``). The shapes must broadcast, in its words; then
    ``floor_divide_`` refuses a divisor elsewhere than a cpu dividend, and the others want one
    device (a 0-d cpu tensor may join any) and refuse to copy a meta result into a cpu ``self``."""
    tensors = [t for t in (self, *others) if isinstance(t, Tensor)]
    if all(t.device.type != "meta" for t in tensors) or self.device.type not in ("cpu", "meta"):
        return
    _meta_arithmetic.broadcast_shapes(*(t.shape for t in tensors))
    if op == "floor_divide_":
        if self.device.type == "cpu":
            raise RuntimeError(_messages.FLOOR_DIVIDE_DEVICE.format(dividend=self.device, divisor=tensors[-1].device))
        return
    _device_of(self, *others)
    if self.device.type == "cpu":  # a 0-d one: the result, on meta, is copied into it
        if "shift" in op:  # the shifts copy it with copy_
            raise NotImplementedError(_messages.META_NO_DATA)
        raise RuntimeError(_messages.CROSS_DEVICE_COPY.format(got="meta", expected="cpu"))


def _arith_inplace(op, self, other, compute, make_node, alpha=None, check_kernel=None, seen=True):
    """``self.op(other)``: compute as the out-of-place op does (``_math.binary_values``), then
    write. ``check_kernel(dtype)`` refuses a dtype torch has no kernel for, once the result's
    dtype is known. ``seen=False``: autograd does not see ``other`` (a number torch does not wrap)."""
    _check_operand(op, other)

    def new_values():
        if _meta_arithmetic.runs_meta_kernel(op, self, other):
            _meta_arithmetic.check(op, self, other)
            return self._read()  # torch's meta kernel writes nothing, even into a cpu tensor
        check_meta_operands(op, self, other)
        check_overlaps(self, other)
        dtype = check_inplace_dtype(self, other)
        if check_kernel is not None:
            check_kernel(dtype)
        return binary_values(self, other, compute, dtype, alpha)

    return write_inplace(self, new_values, make_node, *([other] if seen else []))


def _snapshot(t):
    """A private copy of the old values, for nodes that need them after the write."""
    return Tensor._from_values(t._read(), t._size, t._dtype, t.device)


def add_(self, *args, **keywords):
    other, alpha = _alpha_first.other_and_alpha("add_", args, keywords)
    return _arith_inplace("add_", self, other, operator.add, lambda: AddBackward0(self, other, alpha), alpha=alpha)


def sub_(self, *args, **keywords):
    other, alpha = _alpha_first.other_and_alpha("sub_", args, keywords)
    _check_operand("sub_", other)
    if not _meta_arithmetic.runs_meta_kernel("sub_", self, other):
        _check_bool_subtraction(self, other)  # as ``a - b``: no subtraction of bools
    return _arith_inplace("sub_", self, other, operator.sub, lambda: SubBackward0(self, other, alpha), alpha=alpha)


def mul_(self, other):
    return _arith_inplace(
        "mul_", self, other, operator.mul, lambda: MulBackward0(self, other, old_self=_snapshot(self))
    )


def div_(self, other):
    _check_operand("div_", other)
    if not self.dtype.is_floating_point and not _meta_arithmetic.runs_meta_kernel("div_", self, other):
        raise RuntimeError(_messages.INPLACE_RESULT_CAST.format(self.dtype._short_name))
    return _arith_inplace(
        "div_", self, other, true_divide, lambda: DivBackward0(self, other, old_self=_snapshot(self))
    )


def pow_(self, exponent):
    """``a **= e``: ``a`` to the power ``e`` (a number or a tensor), as ``pow`` computes it, written
    into ``a``. The node is ``pow``'s: ``PowBackward0`` for a number, ``PowBackward1`` for a tensor,
    which also saves the result, ``a`` itself once written."""
    if not _is_operand(exponent):
        raise operand_refused("pow_", exponent, "exponent")
    nodes = []

    def new_values():
        check_meta_operands("pow_", self, exponent)
        check_overlaps(self, exponent)
        return pow_values(self, exponent, check_inplace_dtype(self, exponent), self._size)

    def make_node():
        if isinstance(exponent, Tensor):
            nodes.append(PowBackward1(self, exponent, None, old_self=_snapshot(self)))
        else:
            nodes.append(PowBackward0(self, exponent, old_self=_snapshot(self)))
        return nodes[0]

    write_inplace(self, new_values, make_node, exponent)
    if nodes and isinstance(exponent, Tensor):
        nodes[0].save_result(self)
    return self


def floor_divide_(self, other):
    """``a //= b``: the quotient rounded down, written into ``a``. If autograd records, ``a`` gets
    the node ``NotImplemented`` (edges to the inputs that require grad): torch has no derivative
    for it, and backward says so."""
    inputs = [x for x in (self, other) if isinstance(x, Tensor) and x.requires_grad]
    return _arith_inplace(
        "floor_divide_", self, other, _floor_divide.floor_of_quotient, lambda: _metadata_inplace.NotImplemented(
            *inputs, message="derivative for aten::floor_divide_ is not implemented"),
        check_kernel=_floor_divide.check_kernel)


def _bitwise_inplace(op, name):
    """``a |= b`` (``bitwise_or_``) and the others: the bits of each pair combined, for bool and
    integer tensors (a float has no bits: torch has no kernel for it). Nothing is recorded: an
    integer result has no gradient."""
    def method(self, other):
        return _arith_inplace(f"{name}_", self, other, op, lambda: None,
                              check_kernel=lambda dtype: _bitwise.check_kernel(f"{name}_cpu", dtype))
    method.__name__ = method.__qualname__ = f"{name}_"
    return method


bitwise_or_, bitwise_and_, bitwise_xor_ = (
    _bitwise_inplace(op, name) for op, name in ((operator.or_, "bitwise_or"), (operator.and_, "bitwise_and"),
                                                (operator.xor, "bitwise_xor")))


def _shift_inplace(left):
    """``a <<= b`` (``bitwise_left_shift_``) and ``a >>= b``: shifted in the dtype ``a << b`` has,
    then written into ``a``. Nothing is recorded: an integer result has no gradient."""
    name, kernel = _bitwise.shift_names(left)

    def method(self, other):
        _check_operand(f"{name}_", other)
        return _arith_inplace(f"{name}_", self, other, _bitwise.shift_values(left, result_type(self, other)),
                              lambda: None, check_kernel=lambda dtype: _bitwise.check_shift_kernel(kernel, dtype))
    method.__name__ = method.__qualname__ = f"{name}_"
    return method


bitwise_left_shift_, bitwise_right_shift_ = _shift_inplace(True), _shift_inplace(False)


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


def zero_(self, *args, **keywords):
    check_no_arguments("zero_", args, keywords)
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
    if not isinstance(value, numbers.Complex):  # numbers.Real included
        raise operand_refused("fill_", value, "value")
    if self.device.type == "meta":  # torch's meta kernel stores nothing, so it checks no value
        value = check_scalar_int(value) or 0
    value = stored_complex(value, self.dtype)  # 2 + 0j fills 2.0, as in torch
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


# ``-=``, ``*=``, ``/=`` and the rest, as ``__iadd__``: the in-place op's TypeError becomes NotImplemented
__isub__ = as_operator(sub_)
__imul__ = as_operator(mul_)
__itruediv__ = as_operator(div_)
__ipow__ = as_operator(pow_)
__ifloordiv__ = as_operator(floor_divide_)
__ior__ = as_operator(bitwise_or_)
__iand__ = as_operator(bitwise_and_)
__ixor__ = as_operator(bitwise_xor_)
__ilshift__ = as_operator(bitwise_left_shift_)
__irshift__ = as_operator(bitwise_right_shift_)
