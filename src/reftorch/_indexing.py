"""Indexing: how ``a[...]`` reads and writes become view operations.

Basic indexing (integers, slices, ``None``, ``...``) never copies. Each part of
the index is applied as one view, from left to right:

* an integer ``i``    -> ``select``    (the dimension disappears)
* a slice ``a:b:c``   -> ``slice``     (stride multiplied by ``c``)
* ``None``            -> ``unsqueeze`` (a new dimension of size 1)
* ``...``             -> skips the dimensions it stands for

Writing, ``a[idx] = value``, takes that view and fills it in place (``fill_``
for a number, ``copy_`` for a tensor). If the view is a view of ``a``, the
write is recorded on ``a`` as a ``CopySlices`` node.
"""

import builtins

from . import _views
from ._dtype import check_scalar
from ._tensor import Tensor

_BAD_INDEX = (
    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
    "valid indices (got {})"
)


def _expand_index(self, index):
    """Turn an index into a list of parts, with ``...`` replaced by full slices."""
    parts = list(index) if isinstance(index, tuple) else [index]
    for part in parts:
        if isinstance(part, Tensor):
            if part.dim() == 0 and not part.dtype.is_floating_point and part.dtype.itemsize == 8:
                continue
            raise IndexError(
                "reftorch supports basic indexing only (integers, slices, None, ...): "
                "indexing with a tensor is advanced indexing, which copies"
            )
        if isinstance(part, (list, builtins.bool)):
            raise IndexError(
                "reftorch supports basic indexing only (integers, slices, None, ...): "
                f"indexing with a {type(part).__name__} is advanced indexing, which copies"
            )
        if isinstance(part, str):
            raise TypeError("new(): invalid data type 'str'")
        if not isinstance(part, (int, slice, type(None), type(Ellipsis))):
            raise IndexError(_BAD_INDEX.format(type(part).__name__))
    if sum(part is Ellipsis for part in parts) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 for part in parts if part is not None and part is not Ellipsis)
    if used > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    if Ellipsis in parts:
        i = parts.index(Ellipsis)
        parts[i:i + 1] = [slice(None)] * (self.dim() - used)
    return parts


def _apply_index(self, index, skip_full_slices):
    """The view that ``index`` selects, or ``self`` if it selects everything as is."""
    if self.dim() == 0 and isinstance(index, int) and not isinstance(index, bool):
        if index != 0:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
            "in C++ to convert a 0-dim tensor to a number"
        )
    result = self
    dim = 0  # position in the result
    real_dim = 0  # how many parts of the index were applied, for error messages
    for part in _expand_index(self, index):
        if part is None:
            result = _views.unsqueeze(result, dim)
            dim += 1
            real_dim += 1
        elif isinstance(part, slice):
            step = 1 if part.step is None else part.step
            stop = part.stop
            whole = part.start in (None, 0) and (stop is None or stop >= result._size[dim]) and step == 1
            if not (whole and skip_full_slices):
                result = _views._slice(result, dim, part.start, part.stop, step)
            dim += 1
            real_dim += 1
        else:
            n = result._size[dim]
            if not -n <= int(part) < n:
                raise IndexError(f"index {int(part)} is out of bounds for dimension {real_dim} with size {n}")
            result = _views.select(result, dim, int(part))
            real_dim += 1
    return result


def __getitem__(self, index):
    if index is Ellipsis or (isinstance(index, tuple) and len(index) == 0):
        return _views.alias(self)
    # A lone slice is always applied (torch does not skip ``a[:]``); inside a
    # tuple, a slice that keeps everything is skipped.
    result = _apply_index(self, index, skip_full_slices=isinstance(index, tuple))
    return _views.alias(self) if result is self else result


def __setitem__(self, index, value):
    target = _apply_index(self, index, skip_full_slices=True)
    if not isinstance(value, Tensor):
        # A number becomes a 0-d tensor of self's dtype and device.
        check_scalar(value, self._dtype)
        value = Tensor._from_values(value, self._dtype, self.device)
    else:
        # Leading dimensions of size 1 are dropped: a[0] = t[None] works.
        sizes = list(value._size)
        while sizes and sizes[0] == 1:
            sizes.pop(0)
        if len(sizes) != value.dim():
            value = value.view(*sizes)
    _copy_to(target, value)


def _copy_to(target, value):
    """Same shape: copy_. A 0-d value: fill_. Otherwise expand, then copy_."""
    if target._size == value._size:
        target.copy_(value)
    elif value.dim() == 0 and value.device.type == "cpu":
        target.fill_(value)
    else:
        target.copy_(value.expand(target._size))
