"""Reductions: ``sum`` and ``mean`` collapse dimensions into one number each.

Backward spreads the gradient back over every element that was summed
(``mean`` divides it by how many there were).
"""

import math

from . import _messages, _strides
from ._arguments import MISSING, _check_given, _is_int, _is_later_int, _joined, _type_name, check_keywords
from ._broadcast import expanded_strides
from ._dtype import compute_dtype, int64
from ._elements import cast
from ._nested_data import check_dtype
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad

def _is_dim(dim):
    """A dim as torch's parser reads one: an int (not a bool) or a one-element integer tensor, or
    a list or tuple of them (a bool counts as 0 or 1 after the first)."""
    if isinstance(dim, (tuple, list)):
        return not dim or (_is_int(dim[0]) and all(_is_later_int(d) for d in dim[1:]))
    return _is_int(dim)


# numpy's names, which torch's parser takes too
_ALIASES = {"axis": "dim", "keepdims": "keepdim"}


def _arguments(op, args, kwargs, dtype):
    """``(dim, keepdim, whether dim was given)`` of ``sum`` or ``mean``, by position or by keyword.
    Given at all, even as None, ``dim`` makes the node ``SumBackward1``.

    torch's two signatures are ``(*, dtype)`` and ``(dim, keepdim=False, *, dtype)``. A call of
    one argument either could take: if neither does, torch lists both. A longer call only the
    second could take: torch names what is wrong with it, as for a function of one signature.
    """
    kwargs = {k if _ALIASES.get(k, k) in kwargs else _ALIASES.get(k, k): v for k, v in kwargs.items()}
    names = ("dim", "keepdim")
    given = dict(zip(names, args), **{k: v for k, v in kwargs.items() if k in names[len(args):]})
    dim, keepdim = given.get("dim"), given.get("keepdim", False)
    if len(args) + len(kwargs) + (dtype is not None) <= 1:
        if set(kwargs) - {"dim"} or not (dim is None or _is_dim(dim)):
            got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
            raise TypeError(_messages.INVALID_ARGUMENTS.format(op=op, got=_joined(got, args))
                            + _messages.REDUCTION_SIGNATURES)
        return dim, keepdim, "dim" in given
    if len(args) > 2:
        raise TypeError(_messages.POSITIONAL_COUNT.format(op=op, low=1, high=2, given=len(args)))
    _check_given(op, dim=given.get("dim", MISSING))
    for name, value, fits, expected in (("dim", dim, dim is None or _is_dim(dim), "tuple of ints"),
                                        ("keepdim", keepdim, isinstance(keepdim, bool), "bool")):
        if not fits:
            position = f" (position {names.index(name) + 1})" if name not in kwargs else ""
            raise TypeError(f"{op}(): argument '{name}'{position} must be {expected}, not {_type_name(value)}")
    for name in kwargs:
        if name in names[:len(args)]:
            raise TypeError(f"{op}() got multiple values for argument '{name}'")
        check_keywords(op, [name] if name not in names else [])
    return dim, keepdim, True


def _dims(self, dim, op):
    """The dimensions to reduce, in order: every one for None or an empty tuple, as in torch."""
    if dim is None or (isinstance(dim, (tuple, list)) and not dim):
        return tuple(range(self.dim()))
    dims = [int(d) for d in dim] if isinstance(dim, (tuple, list)) else (int(dim),)
    normalized = [_strides.normalize_dim(d, self.dim()) for d in dims]
    for d in normalized:
        if normalized.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    if self.dim() == 0:
        return ()  # a 0-d tensor accepts dim 0 or -1 and has nothing to reduce
    return tuple(sorted(normalized))


class _ReductionBackward(Node):
    def __init__(self, a, dims, keepdim, scale):
        super().__init__(a)
        self.a, self.dims, self.keepdim, self.scale = a, dims, keepdim, scale

    def apply(self, grad):
        scaled = grad * self.scale  # a tensor operation: rounded to the gradient's dtype
        if not self.keepdim:
            for d in self.dims:
                scaled = scaled.unsqueeze(d)
        spread = scaled.expand(self.a._size)
        return (Tensor._from_values(spread._read(), self.a._size, self.a._dtype, self.a.device),)


class _SumBackward(_ReductionBackward):
    """Every summed element gets the gradient of its sum: the gradient *expanded*
    back to the input's size, a view with stride 0 that holds each number once
    (as in torch; the engine never adds into such a tensor in place)."""

    def apply(self, grad):
        if grad._dtype is not self.a._dtype or self.a.device != grad.device:
            return super().apply(grad)
        if not self.keepdim:
            for d in self.dims:
                grad = grad.unsqueeze(d)
        return (grad.expand(self.a._size),)


class SumBackward0(_SumBackward):
    """sum() of all elements."""


class SumBackward1(_SumBackward):
    """sum(dim)."""


class MeanBackward0(_ReductionBackward):
    """mean() of all elements."""


class MeanBackward1(_ReductionBackward):
    """mean(dim)."""


def sum(self, *args, dtype=None, **kwargs):
    """``sum()``, ``sum(dim)``, ``sum(dim, keepdim)``: a new tensor of the sums."""
    dim, keepdim, dim_given = _arguments("sum", args, kwargs, dtype)
    dtype = check_dtype(dtype, "sum")
    dims = _dims(self, dim, "sum")
    out_dtype = dtype or (self.dtype if self.dtype.is_floating_point else int64)
    values, size = _sums(self, dims, keepdim, out_dtype)
    out = plain_kernel_writes(Tensor._from_values(values, size, out_dtype, self.device), (self,))
    if any_requires_grad(self):
        node = SumBackward1 if dim_given else SumBackward0
        out._set_grad_fn(node(self, dims, keepdim, 1))
    return out


def mean(self, *args, dtype=None, **kwargs):
    """``mean()``, ``mean(dim)``, ``mean(dim, keepdim)``: a new tensor of the means."""
    dim, keepdim, dim_given = _arguments("mean", args, kwargs, dtype)  # types, then dtype, then dim ranges
    out_dtype = check_dtype(dtype, "mean") or self.dtype
    if not out_dtype.is_floating_point:  # torch names the dtype asked for, else the input's
        raise RuntimeError(_messages.MEAN_DTYPE.format("Optional" if dtype else "Input", out_dtype._short_name))
    dims = _dims(self, dim, "mean")
    sums, size = _sums(self, dims, keepdim, out_dtype)
    count = _strides.numel([self._size[d] for d in dims])
    values = [s / count if count else math.nan for s in sums]  # the sum, rounded, then divided
    out = plain_kernel_writes(Tensor._from_values(values, size, out_dtype, self.device), (self,), writes=2)
    if any_requires_grad(self):
        node = MeanBackward1 if dim_given else MeanBackward0
        out._set_grad_fn(node(self, dims, keepdim, 1 / count if count else math.nan))
    elif any_requires_grad(out, self):  # an inference ``self``: torch's kernel writes ``out`` with sum's out= form
        raise RuntimeError(_messages.OUT_NOT_DIFFERENTIABLE.format(op="sum"))
    return out


def _sums(self, dims, keepdim, out_dtype):
    """The sums over ``dims`` (in the dtype torch adds in: float32 for float16), and their size.

    Each element is added into the sum it belongs to: the slot that a stride
    of 0 along the summed dimensions points at, as ``sum_to_shape`` does.
    """
    kept = tuple(1 if d in dims else n for d, n in enumerate(self._size))
    sums = [0] * _strides.numel(kept)
    into = expanded_strides(kept, _strides.contiguous_strides(kept), self._size)
    step = compute_dtype(out_dtype)
    rounds = step._format == "f"  # a float32 sum is rounded after every addition, in order, as torch's is
    for slot, value in zip(_strides.element_positions(self._size, into, 0), cast(self._read(), step)):
        sums[slot] = cast([sums[slot] + value], step)[0] if rounds else sums[slot] + value
    size = kept if keepdim else tuple(n for d, n in enumerate(self._size) if d not in dims)
    return cast(sums, step), size
