"""lerp, addcmul_, addcdiv_: the one-line updates of moving averages and optimizers.

``ema.lerp_(x, w)`` moves ``ema`` a fraction ``w`` of the way towards ``x``:
``ema + w * (x - ema)``. It is the exponential moving average of a target
network and of Adam's first moment. ``lerp_`` writes into ``ema``'s storage
and bumps its version counter, like every in-place op (see ``_inplace``);
``lerp`` returns a new tensor.

torch chooses the formula by the size of the weight, so both ends are hit
exactly (``lerp(a, b, 1)`` is ``b``, not ``a + 1 * (b - a)``):

    |w| <  0.5:  self + w * (end - self)
    |w| >= 0.5:  end - (end - self) * (1 - w)

``end``, and a weight tensor with dimensions, must have ``self``'s dtype; a
0-d weight tensor may have any dtype and joins the type promotion, as a 0-d
operand of ``+`` does. Like every in-place op, ``lerp_`` refuses an expanded
``self`` and an operand that partly overlaps it.

reftorch computes them as written, each operation rounded. Some CPUs' kernels
round the last multiply and add once (a fused multiply-add); torch promises
neither, and the two agree whenever the products are exact (small multiples
of powers of two, such as ``w = 0.25``). A float16 tensor is computed in
float32 and rounded to float16 once, at the end, as torch's kernels do (its
"opmath" type): ``end - self`` may pass float16's largest number on the way.

``addcmul_(t1, t2, value=v)`` adds ``v * t1 * t2`` and ``addcdiv_(t1, t2,
value=v)`` adds ``v * t1 / t2``: Adam's second moment and its step. The three
tensors are promoted to one dtype, as the operands of ``+`` are; the result
must fit ``self`` (a float result cannot go into an integer ``self``), and
``addcmul_`` has no bool kernel. reftorch gives them no backward; they refuse
to run where autograd would record them.
"""

from . import _core_messages, _messages, _shapes, _strides
from ._arguments import _type_name
from ._elements import cast
from ._inplace import _snapshot
from ._dtype import bool as bool_, _category, compute_dtype, no_kernel, refuse_complex
from ._inplace_write import write_inplace
from ._meta import check_overlaps
from ._math import __rsub__, _device_of, _result, mul, result_type, sub, true_divide, values_of
from ._tensor import Tensor
from .autograd.graph import Node, any_requires_grad


class LerpBackward0(Node):
    """``lerp`` with a number as weight: ``d/dself = 1 - w``, ``d/dend = w``."""

    def __init__(self, start, end, weight):
        super().__init__(start, end)
        self.start, self.end, self.weight = start, end, weight

    def apply(self, grad):
        return (
            mul(grad, 1 - self.weight) if self.needs_input_grad(0) else None,
            mul(grad, self.weight) if self.needs_input_grad(1) else None,
        )


class LerpBackward1(Node):
    """``lerp`` with a tensor weight; the weight's gradient is ``end - self``
    (``self`` as it was before an in-place ``lerp_``: a private copy)."""

    def __init__(self, start, end, weight, old_start=None):
        super().__init__(start, end, weight)
        self.start, self.end, self.weight = start, end, weight
        self.saved_weight = self.save(weight)
        if self.needs_input_grad(2):
            self.saved_start = self.save(old_start if old_start is not None else start)
            self.saved_end = self.save(end)

    def apply(self, grad):
        w = self.saved_weight.unpack()
        grads = [None, None, None]
        if self.needs_input_grad(0):
            grads[0] = mul(grad, __rsub__(w, 1))
        if self.needs_input_grad(1):
            grads[1] = mul(grad, w)
        if self.needs_input_grad(2):
            difference = sub(self.saved_end.unpack(), self.saved_start.unpack())
            grads[2] = mul(grad, difference)
        return tuple(grads)


def _check_lerp_dtypes(self, end, weight):
    """torch's first checks: ``end`` has ``self``'s dtype, and so has a weight with dimensions
    (a 0-d weight tensor joins the type promotion instead, as a 0-d operand does)."""
    names = _messages.CPP_TYPE_NAMES
    for argument, other in (("end", end), ("weight", weight)):
        if isinstance(other, Tensor) and other.dtype is not self.dtype and (argument == "end" or other.dim() > 0):
            raise RuntimeError(_messages.LERP_DTYPE.format(
                expected=names[self.dtype._name], argument=argument, got=names[other.dtype._name]))


def _lerp_dtype(self, end, weight, inplace=False):
    """The dtype the numbers are computed in, after the overlap and shape checks: an in-place
    result must fit ``self``, and there are no integer kernels."""
    dtype = result_type(self, end, weight) if isinstance(weight, Tensor) else self.dtype
    if inplace and _category(dtype) > _category(self.dtype):
        raise RuntimeError(_messages.RESULT_CAST.format(dtype._short_name, self.dtype._short_name))
    if not dtype.is_floating_point:
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise no_kernel(kernel, dtype)
    return self.dtype if inplace else dtype


def _lerp_shape(self, end, weight):
    return _shapes.broadcast_shapes(*(x._size for x in (self, end, weight) if isinstance(x, Tensor)))


def _parse_lerp(op, args, kwargs):
    """``(end, weight)`` from torch's two signatures, or its TypeError naming both."""
    named = [(None, a) for a in args] + [(k, kwargs[k]) for k in ("end", "weight") if k in kwargs]
    values = [v for _, v in named]
    for value in values:
        refuse_complex(value)
    if len(named) == 2 and len(kwargs) == len(named) - len(args) and isinstance(values[0], Tensor):
        if isinstance(values[1], (Tensor, int, float)):
            return values
    got = [_type_name(v) if k is None else f"{k}={_type_name(v)}" for k, v in named]
    overloads = [("Tensor end, Tensor weight", None), ("Tensor end, Number weight", None)]
    if len(named) == 2 and len(kwargs) == len(named) - len(args):
        end_ok = isinstance(values[0], Tensor)
        # Once ``end`` failed, torch's parser no longer takes a number for ``weight`` either.
        fits = (
            (end_ok, isinstance(values[1], Tensor)),
            (end_ok, end_ok and isinstance(values[1], (int, float))),
        )
        overloads = [
            (signature, [text if ok else f"!{text}!" for text, ok in zip(got, oks)])
            for (signature, _), oks in zip(overloads, fits)
        ]
    raise TypeError(_messages.invalid_combination(op, got, overloads))


def _lerp_values(start, end, weight, shape, dtype):
    """The interpolated numbers, by torch's two formulas (see the module docstring), each
    operation rounded to ``dtype``'s opmath, the result to ``dtype``; ``weight`` is a tensor
    or a number."""
    opmath = compute_dtype(dtype)
    s, e, w = (values_of(x, opmath, shape) for x in (start, end, weight))
    difference = cast([b - a for a, b in zip(s, e)], opmath)
    near = cast([x * d for x, d in zip(w, difference)], opmath)
    far = cast([d * v for d, v in zip(difference, cast([1 - x for x in w], opmath))], opmath)
    return cast(cast([a + n if abs(x) < 0.5 else b - f for a, b, x, n, f in zip(s, e, w, near, far)], opmath), dtype)


def lerp(self, *args, **kwargs):
    """A new tensor ``self + weight * (end - self)``, on new memory."""
    end, weight = _parse_lerp("lerp", args, kwargs)
    _check_lerp_dtypes(self, end, weight)
    shape = _lerp_shape(self, end, weight)
    dtype = _lerp_dtype(self, end, weight)
    values = _lerp_values(self, end, weight, shape, dtype)
    node = None
    operands = (self, end, weight) if isinstance(weight, Tensor) else (self, end)  # a number weight is a parameter
    if any_requires_grad(*operands):
        node = LerpBackward1(self, end, weight) if isinstance(weight, Tensor) else LerpBackward0(self, end, weight)
    return _result(values, shape, dtype, _device_of(self, end, weight), node, inputs=operands)


def lerp_(self, *args, **kwargs):
    """Move ``self`` towards ``end`` in place: same object, same storage, version + 1."""
    end, weight = _parse_lerp("lerp_", args, kwargs)

    def new_values():
        _check_lerp_dtypes(self, end, weight)
        check_overlaps(self, end, weight)
        _check_fits(self, _lerp_shape(self, end, weight))
        _device_of(self, end, weight)  # one device, as lerp's (a cpu 0-d weight may join any)
        return _lerp_values(self, end, weight, self._size, _lerp_dtype(self, end, weight, inplace=True))

    def make_node():
        if isinstance(weight, Tensor):
            return LerpBackward1(self, end, weight, old_start=_snapshot(self))
        return LerpBackward0(self, end, weight)

    return write_inplace(self, new_values, make_node, end, weight)


def _check_fits(self, shape):
    """An in-place result has nowhere to go but ``self``: the broadcast shape must be ``self``'s."""
    if shape != self._size:
        raise RuntimeError(_core_messages.OUTPUT_SHAPE.format(_strides._fmt(self._size), _strides._fmt(shape)))


def _no_backward(op):
    def refuse():
        raise NotImplementedError(_messages.NO_BACKWARD.format(op=op))
    return refuse


def addcmul_(self, tensor1, tensor2, *, value=1):
    """``self += value * tensor1 * tensor2`` in place: same storage, version + 1."""
    def new_values():
        check_overlaps(self, tensor1, tensor2)
        _check_fits(self, _shapes.broadcast_shapes(self._size, tensor1._size, tensor2._size))
        _device_of(self, tensor1, tensor2)
        dtype = _ternary_dtype(self, tensor1, tensor2)
        if dtype is bool_:
            raise no_kernel("addcmul_cpu_out", bool_)
        opmath = compute_dtype(dtype)
        products = _times(_times(cast([value], opmath) * self.numel(), tensor1, self, opmath), tensor2, self, opmath)
        return cast(cast([s + x for s, x in zip(values_of(self, opmath), products)], opmath), self.dtype)

    return write_inplace(self, new_values, _no_backward("addcmul_"), tensor1, tensor2)


def addcdiv_(self, tensor1, tensor2, *, value=1):
    """``self += value * tensor1 / tensor2`` in place: same storage, version + 1. Two integer
    (or bool) operands are refused: torch no longer divides integers here."""
    def new_values():
        if not (tensor1.dtype.is_floating_point or tensor2.dtype.is_floating_point):
            raise RuntimeError(_messages.ADDCDIV_INTEGER_DIVISION)
        check_overlaps(self, tensor1, tensor2)
        _check_fits(self, _shapes.broadcast_shapes(self._size, tensor1._size, tensor2._size))
        _device_of(self, tensor1, tensor2)
        opmath = compute_dtype(_ternary_dtype(self, tensor1, tensor2))
        scaled = _times(cast([value], opmath) * self.numel(), tensor1, self, opmath)
        quotients = cast([true_divide(x, y) for x, y in zip(scaled, values_of(tensor2, opmath, self._size))], opmath)
        return cast(cast([s + x for s, x in zip(values_of(self, opmath), quotients)], opmath), self.dtype)

    return write_inplace(self, new_values, _no_backward("addcdiv_"), tensor1, tensor2)


def _ternary_dtype(self, tensor1, tensor2):
    """The dtype the three tensors promote to, as for ``+``; it must fit ``self``, the output."""
    dtype = result_type(self, tensor1, tensor2)
    if _category(dtype) > _category(self.dtype):
        raise RuntimeError(_messages.RESULT_CAST.format(dtype._short_name, self.dtype._short_name))
    return dtype


def _times(factors, t, self, opmath):
    """``factors`` (one for each element of ``self``) times ``t`` broadcast to ``self``, rounded to ``opmath``."""
    return cast([f * x for f, x in zip(factors, values_of(t, opmath, self._size))], opmath)
