"""Arithmetic with broadcasting, and the backward formula of each operation.

Every operation here allocates a new storage for its result (math never
writes into its inputs; the ``_`` methods in ``_inplace`` do). When an input
requires grad, the result gets a node whose ``apply`` turns the result's
gradient into the inputs' gradients, as in micrograd:

    out = a * b      ->  grad_a = grad * b,  grad_b = grad * a

Broadcasting stretches size-1 dimensions, so a gradient flowing back to a
smaller input is summed over the stretched dimensions: the engine does it, to the
size and dtype the input had when it was made (``autograd/engine``), as torch's does.
The backward formulas are themselves tensor operations (run with grad mode
off), so each step is rounded to the gradient's dtype, as in torch.
"""

import functools
import math
import numbers
import operator

from . import _alpha_first, _iterator_strides, _messages, _meta, _shapes
from ._dtype import (
    _combine_categories, bool as bool_, check_float_scalar, check_scalar, check_scalar_int, compute_dtype,
    get_default_dtype, promote_types, refuse_complex, scalar_dtype,
)
from ._elements import cast
from ._numpy_objects import is_bool, is_number
from ._copy_ import values_of
from ._broadcast import sum_to_shape
from ._tensor import Tensor
from .autograd.graph import Node, any_requires_grad


def result_type(*operands):
    """The dtype of an elementwise result, following torch's three tiers.

    Tensors with one or more dimensions decide first. Zero-dimensional tensors
    and then Python numbers only matter when they belong to a higher category
    (``int_tensor + 2.5`` is float, ``float32_tensor + float64_scalar_tensor``
    stays float32).
    """
    dim_result = zero_dim_result = scalar_result = None
    for x in operands:
        if isinstance(x, Tensor):
            if x.dim() > 0:
                dim_result = x.dtype if dim_result is None else promote_types(dim_result, x.dtype)
            else:
                zero_dim_result = x.dtype if zero_dim_result is None else promote_types(zero_dim_result, x.dtype)
        else:
            d = scalar_dtype(x)
            scalar_result = d if scalar_result is None else promote_types(scalar_result, d)
    return _combine_categories(dim_result, _combine_categories(zero_dim_result, scalar_result))


def _device_of(*operands):
    """All tensor operands must be on one device (0-d cpu tensors may join any)."""
    devices = [x.device for x in operands if isinstance(x, Tensor) and not (x.dim() == 0 and x.device.type == "cpu")]
    devices = devices or [x.device for x in operands if isinstance(x, Tensor)]
    for d in devices[1:]:
        _meta.check_same_device(devices[0], d)
        if d != devices[0]:
            raise RuntimeError(
                _messages.DEVICES_DIFFER.format(devices[0], d)
            )
    return devices[0]


def _shape_of(x):
    return x._size if isinstance(x, Tensor) else ()


def _result(values, shape, dtype, device, node=None, inputs=()):
    """A new tensor for an elementwise result (``values`` of ``shape``, row-major),
    laid out in memory like its inputs.

    A Python number among ``inputs`` counts as a 0-d operand, as the number
    torch wraps into a tensor for ``t * 2`` does: it has no say in the
    layout, but the result's shape is then not every operand's shape.
    """
    layouts = [(x._size, x._stride) if isinstance(x, Tensor) else ((), ()) for x in inputs]
    strides = _iterator_strides.elementwise_output_strides(tuple(shape), layouts) if layouts else None
    out = Tensor._from_values(values, shape, dtype, device, strides)
    if node is not None:
        out._set_grad_fn(node)
    return out


def true_divide(x, y):
    """``x / y`` as floating point divides: by zero it gives inf, or nan for 0 / 0, with no error."""
    try:
        return x / y
    except ZeroDivisionError:
        if x != x or x == 0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)


# --- binary operations ----------------------------------------------------

class AddBackward0(Node):
    def __init__(self, a, b, alpha=1):
        super().__init__(a, b)
        self.a, self.b, self.alpha = a, b, alpha

    def apply(self, grad):
        return (
            grad if self.needs_input_grad(0) else None,
            (grad if self.alpha == 1 else mul(grad, self.alpha)) if self.needs_input_grad(1) else None,
        )


class SubBackward0(AddBackward0):
    def __init__(self, a, b, alpha=1):
        super().__init__(a, b, -alpha)


class SavedNumber:
    """A Python number a node keeps for backward (``a * 2`` keeps the 2).

    torch wraps it in a 0-d tensor and saves that, so it is freed with the
    node's saved tensors, and a second backward through the node raises.
    """

    def __init__(self, node, value):
        self._value, self._released = value, False
        node._saved.append(self)

    def release(self):
        self._released = True

    def unpack(self):
        if self._released:
            raise RuntimeError(_messages.BACKWARD_TWICE)
        return self._value


class MulBackward0(Node):
    """``a * b``. For the in-place ``a.mul_(b)``, ``old_self`` is a private copy
    of ``a`` taken before the write, because ``a`` itself is overwritten."""

    def __init__(self, a, b, old_self=None):
        super().__init__(a, b)
        self.a, self.b = a, b
        # Each input's gradient needs the *other* input: save only what is needed.
        save_b = self.save if isinstance(b, Tensor) else (lambda number: SavedNumber(self, number))
        self.saved_b = save_b(b) if self.needs_input_grad(0) else None
        self.saved_a = self.save(old_self if old_self is not None else a) if self.needs_input_grad(1) else None

    def apply(self, grad):
        grads = [None, None]
        if self.needs_input_grad(0):
            grads[0] = mul(grad, self.saved_b.unpack())
        if self.needs_input_grad(1):
            grads[1] = mul(grad, self.saved_a.unpack())
        return tuple(grads)


class DivBackward0(Node):
    """``a / b`` (``old_self`` as in ``MulBackward0``)."""

    def __init__(self, a, b, old_self=None):
        super().__init__(a, b)
        self.a, self.b = a, b
        self.saved_b = self.save(b) if isinstance(b, Tensor) else SavedNumber(self, b)
        self.saved_a = self.save(old_self if old_self is not None else a) if self.needs_input_grad(1) else None

    def apply(self, grad):
        b = self.saved_b.unpack()
        grads = [None, None]
        if self.needs_input_grad(0):
            grads[0] = div(grad, b)
        if self.needs_input_grad(1):
            # torch's formula, in this order: -grad * ((a / b) / b)
            grads[1] = mul(mul(grad, -1), div(div(self.saved_a.unpack(), b), b))
        return tuple(grads)


def _is_operand(x):
    """A tensor, or a number torch takes as a scalar (numpy's too); a complex one is refused."""
    refuse_complex(x)
    return isinstance(x, Tensor) or is_number(x)


def operand_refused(op, other, name="other"):
    """torch's TypeError for a method given what is neither a tensor nor a number (``t.add(None)``,
    ``t.eq(array)``, ``t.add_(None)``); add, sub, mul and div (and their ``_`` forms) have one
    signature each, the others two."""
    if op.rstrip("_") in ("add", "sub", "mul", "div"):  # add_ ... too
        return TypeError(_messages.ARGUMENT_TYPE.format(fn=op, name=name, position=1, expected="Tensor",
                                                        got=_messages.type_name(other)))
    shown = _messages.type_name(other)
    if isinstance(other, (list, tuple)):
        items = ", ".join(_messages.type_name(x) for x in other)
        shown += f" of [{items}]" if isinstance(other, list) else f" of ({items})"
    why = _messages.DID_NOT_MATCH.format(got=shown)
    return TypeError(_messages.INVALID_ARGUMENTS.format(op=op, got=_messages.type_name(other))
                     + f" * (Tensor {name})\n" + why + f" * (Number {name})\n" + why)


def as_operator(method):
    """The operator made of a method, as torch makes ``t + other`` of ``t.add(other)``: an operand
    the method refuses for its type (a TypeError) is NotImplemented, so Python asks ``other`` next
    (a numpy array then computes it: ``_convert.__array_wrap__``)."""
    @functools.wraps(method)
    def operator_(self, other):
        try:
            return method(self, other)
        except TypeError:
            return NotImplemented
    return operator_


def binary_values(a, b, compute, dtype, alpha=None):
    """``compute`` on the numbers of ``a`` and ``b``, in the dtype torch computes ``dtype`` in.

    For float16 that is float32, rounded to float16 when the result is
    stored; a number operand of mul or div (``h * 0.1``) joins in float32 as
    it is. add and sub pass ``alpha`` and ``operator.add``/``operator.sub``: the
    formula torch documents, ``a + alpha * b``, as written: the product is
    rounded to ``dtype``, then the sum. torch does not promise that: its AVX2,
    AVX-512 and ARM kernels round the two once (a fused multiply-add), its
    portable ones twice. Both agree when ``alpha * b`` is exact (``alpha=0.25``,
    ``b=1.5``). For float16 torch is not even consistent within one call: its
    vectorised loop (32 elements at a time) keeps ``alpha * b`` in float32, its
    scalar loop (a short tensor, the tail of a long one) rounds it to float16,
    as reftorch does. Integers wrap around, as in C, ``alpha`` too. The in-place
    ops (``_inplace``) use the same rules.
    """
    if alpha is not None:
        _check_alpha(alpha, dtype)
    shape = _shapes.broadcast_shapes(_shape_of(a), _shape_of(b))
    if alpha is None:
        xs, ys = values_of(a, compute_dtype(dtype), shape), values_of(b, compute_dtype(dtype), shape)
    else:
        xs, ys = values_of(a, dtype, shape), values_of(b, dtype, shape)
        if alpha != 1:
            scale = cast([alpha], dtype)[0]
            ys = cast([y * scale for y in ys], dtype)
    # Python computes in float64 (or exact integers); storing the result rounds it once to
    # the dtype, which for one operation on float32 numbers is float32 arithmetic.
    return [compute(x, y) for x, y in zip(xs, ys)]


def _check_alpha(alpha, dtype):
    """torch's rules for ``alpha``: a bool only for a bool result, a float only for a float one,
    and an integer one that fits the result's dtype (300 is refused for uint8, as in ``fill_``)."""
    check_scalar_int(alpha)
    if is_bool(alpha) and dtype is not bool_:
        raise RuntimeError(_messages.ALPHA_BOOL)
    if not dtype.is_floating_point and isinstance(alpha, numbers.Real) and not isinstance(alpha, numbers.Integral):
        raise RuntimeError(_messages.ALPHA_INTEGRAL)
    check_scalar(alpha, dtype)
    check_float_scalar(alpha, dtype)


def _binary(a, b, compute, make_node, dtype=None, alpha=None):
    """``compute`` on ``a`` and ``b`` (see ``binary_values``), into a new tensor."""
    device = _device_of(a, b)
    dtype = dtype or result_type(a, b)
    shape = _shapes.broadcast_shapes(_shape_of(a), _shape_of(b))
    values = binary_values(a, b, compute, dtype, alpha)
    node = make_node() if any_requires_grad(a, b) else None
    return _result(values, shape, dtype, device, node, inputs=(a, b))


def add(self, *args, **keywords):
    """``self + alpha * other``, ``other`` and ``alpha`` bound as torch binds them (``_alpha_first``)."""
    other, alpha = _alpha_first.other_and_alpha("add", args, keywords)
    if not _is_operand(other):
        raise operand_refused("add", other)
    return _binary(self, other, operator.add, lambda: AddBackward0(self, other, alpha), alpha=alpha)


def _check_bool_subtraction(a, b):
    bools = [x.dtype is bool_ if isinstance(x, Tensor) else isinstance(x, bool) for x in (a, b)]
    if all(bools):
        raise RuntimeError(
            _messages.BOOL_SUBTRACTION_BOTH
        )
    if any(bools):
        raise RuntimeError(
            _messages.BOOL_SUBTRACTION_ONE
        )


def sub(self, *args, **keywords):
    other, alpha = _alpha_first.other_and_alpha("sub", args, keywords)
    if not _is_operand(other):
        raise operand_refused("sub", other)
    _check_bool_subtraction(self, other)
    return _binary(self, other, operator.sub, lambda: SubBackward0(self, other, alpha), alpha=alpha)


def mul(self, other):
    if not _is_operand(other):
        raise operand_refused("mul", other)
    return _binary(self, other, operator.mul, lambda: MulBackward0(self, other))


def div(self, other):
    if not _is_operand(other):
        raise operand_refused("div", other)
    dtype = result_type(self, other)
    if not dtype.is_floating_point:
        dtype = get_default_dtype()
    return _binary(self, other, true_divide, lambda: DivBackward0(self, other), dtype)


__add__, __sub__, __mul__, __truediv__ = (as_operator(f) for f in (add, sub, mul, div))
__radd__, __rmul__ = as_operator(add), as_operator(mul)  # the same sums and products


class NegatedGradient(Node):
    """A backward whose input's gradient is the incoming one negated (``-a``, ``other - a``)."""

    def __init__(self, a):
        super().__init__(a)
        self.a = a

    def apply(self, grad):
        return (mul(grad, -1),)


class RsubBackward1(NegatedGradient):
    pass


def __rsub__(self, other):
    """``2 - t``: recorded by torch as ``rsub`` with one input."""
    if not _is_operand(other):
        return NotImplemented
    _check_bool_subtraction(self, other)
    dtype = result_type(self, other)
    shape = _shapes.broadcast_shapes(self._size, _shape_of(other))
    values = [y - x for x, y in zip(values_of(self, dtype, shape), values_of(other, dtype, shape))]
    node = RsubBackward1(self) if any_requires_grad(self) else None
    if node is None and any_requires_grad(other, self):  # an inference ``self``: torch's kernel runs sub(other, self)
        node = SubBackward0(other, self)
    return _result(values, shape, dtype, self.device, node, inputs=(self, other))


# --- comparisons ----------------------------------------------------------------

def _compare(op):
    def compare(self, other):
        if not _is_operand(other):
            raise operand_refused(op.__name__, other)
        dtype = result_type(self, other)
        shape = _shapes.broadcast_shapes(self._size, _shape_of(other))
        values = [op(x, y) for x, y in zip(values_of(self, dtype, shape), values_of(other, dtype, shape))]
        return _result(values, shape, bool_, _device_of(self, other), inputs=(self, other))
    return compare


eq, ne, lt, le, gt, ge = (_compare(op) for op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge))
__eq__, __ne__, __lt__, __le__, __gt__, __ge__ = (as_operator(f) for f in (eq, ne, lt, le, gt, ge))
