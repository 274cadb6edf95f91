"""Clamping: ``t.clamp(min, max)``, ``clamp_min``, ``clamp_max``, ``clip``, and ``clamp_`` in place.

Each element is raised to ``min`` and then lowered to ``max`` (so with ``min > max`` every element
is ``max``); a NaN anywhere (the element or a bound) gives NaN. The bounds are numbers or tensors:
with numbers (a 0-d tensor counts as its number) the node is ``ClampBackward1``, with tensors,
broadcast against ``t``, ``ClampBackward0``. The result's dtype is the promotion of ``t`` with the
bounds given (``int_tensor.clamp(min=0.5)`` is float), and a bound is cast to it first.

* Python object, metadata and memory: a new tensor with new memory; ``clamp_`` writes into
  ``t``'s own, whose dtype must hold the result.
* Version counter: ``clamp_`` bumps ``t``'s; the out-of-place forms leave it.
* History: the gradient passes where the element was within its bounds, 0 elsewhere; a tensor
  bound gets it where it won.
"""

from . import _messages, _shapes
from ._arguments import parse_overloads
from ._copy_ import values_of
from ._dtype import bool as bool_, _category, compute_dtype, no_kernel
from ._inplace import _snapshot, check_meta_operands
from ._inplace_write import check_inplace_shape, write_inplace
from ._math import _device_of, _result, result_type
from ._meta import check_overlaps
from ._numpy_objects import is_number
from ._tensor import Tensor
from .autograd.graph import Node, any_requires_grad

def _refused(op, args, kwargs):
    """torch's parser's text: the arguments (keywords last, the last given first), each signature,
    and, when two were given, why neither took them."""
    keywords = list(reversed(kwargs))
    shown = [_messages.type_name(a) for a in args] + [f"{k}={_messages.type_name(kwargs[k])}" for k in keywords]
    got = ", ".join(shown) + (", " if kwargs and not args else "")
    why = ""
    if len(args) + len(kwargs) == 2:
        why = (_messages.KEYWORDS_INCORRECT.format(", ".join(keywords)) if kwargs else
               _messages.ARGUMENTS_MARKED.format(", ".join(f"!{_messages.type_name(a)}!" for a in args)))
    signatures = _messages.CLAMP_SIGNATURES.splitlines(keepends=True)
    return TypeError(_messages.INVALID_ARGUMENTS.format(op=op, got=got) + "".join(line + why for line in signatures))


def bounds(op, args, kwargs):
    """``(min, max, as_tensors)`` as torch's parser binds ``clamp``'s two signatures: both tensors,
    or both numbers (a 0-d tensor is read as its number)."""
    names = ("min", "max")
    if len(args) > 2 or set(kwargs) - set(names) or set(kwargs) & set(names[:len(args)]):
        raise _refused(op, args, kwargs)
    given = dict(zip(names, args), **kwargs)
    low, high = given.get("min"), given.get("max")
    if all(b is None or isinstance(b, Tensor) for b in (low, high)):
        return low, high, True
    if all(b is None or is_number(b) or isinstance(b, Tensor) and b.dim() == 0 for b in (low, high)):
        return tuple(b.item() if isinstance(b, Tensor) else b for b in (low, high)) + (False,)
    raise _refused(op, args, kwargs)


def clamp_value(x, low, high):
    """One element: NaN if it or a given bound is NaN, else raised to ``low`` and lowered to ``high``."""
    for bound, stays in ((low, lambda: x >= low), (high, lambda: x <= high)):
        if bound is None or x != x:
            continue
        if bound != bound:
            return bound
        if not stays():
            x = bound
    return x


def _kernel(low, high, as_tensors):
    if as_tensors:
        return "clamp_cpu" if low is not None and high is not None else None
    return "clamp_scalar_cpu" if low is not None and high is not None else (
        "clamp_min_scalar_cpu" if low is not None else "clamp_max_scalar_cpu")


def _values(self, low, high, as_tensors, dtype, shape):
    if low is None and high is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    kernel = _kernel(low, high, as_tensors)
    if dtype is bool_ and kernel is not None:
        raise no_kernel(kernel, bool_)
    compute = compute_dtype(dtype)
    xs = values_of(self, compute, shape)
    lows, highs = ([None] * len(xs) if b is None else values_of(b, dtype, shape) for b in (low, high))
    return [clamp_value(x, lo, hi) for x, lo, hi in zip(xs, lows, highs)]


class ClampBackward1(Node):
    """Number bounds: the gradient where ``min <= x <= max``, 0 elsewhere."""

    def __init__(self, a, low, high, old_self=None):
        super().__init__(a)
        self.saved_self, self.low, self.high = self.save(old_self if old_self is not None else a), low, high

    def apply(self, grad):
        x = self.saved_self.unpack()
        kept = [(self.low is None or v >= self.low) and (self.high is None or v <= self.high)
                for v in values_of(x, compute_dtype(x.dtype), grad._size)]
        return (_where(kept, grad),)


class ClampMinBackward0(ClampBackward1):
    pass


class ClampMaxBackward0(ClampBackward1):
    pass


class ClampBackward0(Node):
    """Tensor bounds: ``x`` gets the gradient where it lay within them; ``min`` where it won
    (``x < min``, and ``min < max``), ``max`` where it won (``x > max``, or ``max < min``)."""

    def __init__(self, a, low, high, old_self=None):
        super().__init__(a, *(b for b in (low, high) if b is not None))
        self.low, self.high = low, high
        self.saved = [self.save(old_self if old_self is not None else a)] + [self.save(b) for b in (low, high) if b is not None]

    def apply(self, grad):
        saved = [s.unpack() for s in self.saved]
        x, rest = saved[0], saved[1:]
        low = rest.pop(0) if self.low is not None else None
        high = rest.pop(0) if self.high is not None else None
        dtype = result_type(*(t for t in (x, low, high) if t is not None))
        xs, lows, highs = ([None] * grad.numel() if t is None else values_of(t, dtype, grad._size)
                           for t in (x, low, high))
        grads = [_where([(lo is None or v >= lo) and (hi is None or v <= hi)
                         for v, lo, hi in zip(xs, lows, highs)], grad)]
        if low is not None:
            grads.append(_where([v < lo and (hi is None or lo < hi) for v, lo, hi in zip(xs, lows, highs)], grad)
                         if self.needs_input_grad(1) else None)
        if high is not None:
            grads.append(_where([v > hi or (lo is not None and hi < lo) for v, lo, hi in zip(xs, lows, highs)], grad)
                         if self.needs_input_grad(len(grads)) else None)
        return tuple(grads)


class ClampMinBackward1(ClampBackward0):
    pass


class ClampMaxBackward1(ClampBackward0):
    pass


def _where(kept, grad):
    """``where(kept, grad, 0)``: the gradient where ``kept``, a zero elsewhere."""
    return Tensor._from_values([g if k else 0 for g, k in zip(grad._read(), kept)], grad._size, grad.dtype, grad.device)


def _node(self, low, high, as_tensors, old_self=None, classes=(ClampBackward0, ClampBackward1)):
    return classes[0 if as_tensors else 1](self, low, high, old_self)


def _seen(operands, as_tensors):
    """What autograd sees: number bounds stay numbers (torch wraps none), so on an inference ``self``
    used outside the mode ``clamp(0, 1)`` records nothing, as any operation on inference tensors alone."""
    return operands if as_tensors else operands[:1]


def _clamp(self, low, high, as_tensors, classes=(ClampBackward0, ClampBackward1)):
    operands = [self] + [b for b in (low, high) if b is not None]
    dtype = result_type(*operands)
    shape = self._size
    for b in (low, high):
        if isinstance(b, Tensor):
            shape = _shapes.broadcast_shapes(shape, b._size)
    values = _values(self, low, high, as_tensors, dtype, shape)
    recording = any_requires_grad(*_seen(operands, as_tensors))
    node = _node(self, low, high, as_tensors, classes=classes) if recording else None
    return _result(values, shape, dtype, _device_of(*operands), node, inputs=tuple(operands))


def clamp(self, *args, **kwargs):
    low, high, as_tensors = bounds("clamp", args, kwargs)
    return _clamp(self, low, high, as_tensors)


def clip(self, *args, **kwargs):
    low, high, as_tensors = bounds("clip", args, kwargs)
    return _clamp(self, low, high, as_tensors)


def _one_bound(op, args, kwargs):
    name = op.split("_")[1]
    (bound,) = parse_overloads(op, [(f"Tensor {name}", (lambda b: isinstance(b, Tensor),)),
                                    (f"Number {name}", (is_number,))], args, kwargs)
    return bound


def clamp_min(self, *args, **kwargs):
    low = _one_bound("clamp_min", args, kwargs)
    return _clamp(self, low, None, isinstance(low, Tensor), (ClampMinBackward1, ClampMinBackward0))


def clamp_max(self, *args, **kwargs):
    high = _one_bound("clamp_max", args, kwargs)
    return _clamp(self, None, high, isinstance(high, Tensor), (ClampMaxBackward1, ClampMaxBackward0))


def clamp_(self, *args, **kwargs):
    """``clamp`` written into ``self``: the result's dtype must fit ``self``'s."""
    low, high, as_tensors = bounds("clamp_", args, kwargs)
    operands = [self] + [b for b in (low, high) if b is not None]

    def new_values():
        check_meta_operands("clamp_", self, *operands[1:])
        check_overlaps(self, *operands[1:])
        for b in (low, high):
            if isinstance(b, Tensor):
                check_inplace_shape(self, b)
        dtype = result_type(*operands)
        if _category(dtype) > _category(self.dtype):
            target = self.dtype._short_name if as_tensors else _C_NAMES.get(self.dtype._name, self.dtype._short_name)
            raise RuntimeError(f"result type {dtype._short_name} can't be cast to the desired output type {target}")
        return _values(self, low, high, as_tensors, self.dtype, self._size)

    def make_node():
        return _node(self, low, high, as_tensors, old_self=_snapshot(self))

    return write_inplace(self, new_values, make_node, *_seen(operands, as_tensors)[1:])


# torch's scalar clamp_ names the destination by its C type
_C_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}
