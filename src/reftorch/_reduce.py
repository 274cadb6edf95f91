"""Reductions: ``sum`` and ``mean`` collapse dimensions into one number each.

Backward spreads the gradient back over every element that was summed
(``mean`` divides it by how many there were).
"""

import math

from . import _messages, _strides
from ._broadcast import expanded_strides
from ._dtype import compute_dtype, int64
from ._elements import cast
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad

def _check_dim_types(dim, op):
    """A dim argument must be None, an int or a tuple of ints (checked before anything else)."""
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    if dim is not None and not all(isinstance(d, int) for d in dims):
        raise TypeError(
            _messages.INVALID_ARGUMENTS.format(op=op, got=_messages.type_name(dim)) + _messages.REDUCTION_SIGNATURES
        )


def _dims(self, dim, op):
    _check_dim_types(dim, op)
    if dim is None:
        return tuple(range(self.dim()))
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
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


def sum(self, dim=None, keepdim=False, *, dtype=None):
    dims = _dims(self, dim, "sum")
    out_dtype = dtype or (self.dtype if self.dtype.is_floating_point else int64)
    values, size = _sums(self, dims, keepdim, out_dtype)
    out = plain_kernel_writes(Tensor._from_values(values, size, out_dtype, self.device), (self,))
    if any_requires_grad(self):
        node = SumBackward0 if dim is None else SumBackward1
        out._set_grad_fn(node(self, dims, keepdim, 1))
    return out


def mean(self, dim=None, keepdim=False, *, dtype=None):
    _check_dim_types(dim, "mean")  # argument types first, then dtype, then dim ranges
    out_dtype = dtype or self.dtype
    if not out_dtype.is_floating_point:
        raise RuntimeError(_messages.MEAN_DTYPE.format(self.dtype._short_name))
    dims = _dims(self, dim, "mean")
    sums, size = _sums(self, dims, keepdim, out_dtype)
    count = _strides.numel([self._size[d] for d in dims])
    values = [s / count if count else math.nan for s in sums]  # the sum, rounded, then divided
    out = plain_kernel_writes(Tensor._from_values(values, size, out_dtype, self.device), (self,), writes=2)
    if any_requires_grad(self):
        node = MeanBackward0 if dim is None else MeanBackward1
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
