"""Indexing: how ``a[...]`` reads and writes are taken apart.

An index is read from left to right. Basic parts never copy; each becomes one
view of the tensor built so far:

* an integer ``i``    -> ``select``    (the dimension disappears)
* a slice ``a:b:c``   -> ``slice``     (stride multiplied by ``c``)
* ``None``            -> ``unsqueeze`` (a new dimension of size 1)
* ``...``             -> skips the dimensions no other part names

If that is all, ``a[...]`` is that view. Tensors, lists and bools are
*advanced* parts. They are collected in a list, with None for each dimension
between them that they leave alone, and handed to ``_advanced_indexing``,
which copies (``a[idx]``) or writes in place (``a[idx] = v``). ``True`` and
``False`` add a dimension of size 1 and index it with ``[0]`` or with nothing.
A list of ints becomes a long tensor, a list of bools a mask.

Writing, ``a[idx] = v``: with basic parts only, the view is filled in place
(``fill_`` for a number, ``copy_`` for a tensor), and a write through a view
is recorded on ``a`` as a ``CopySlices`` node. With advanced parts it is
``index_put_`` on the view.
"""

import builtins
import collections.abc
import numbers
import operator

from . import _advanced_index, _advanced_indexing, _messages, _strides, _views
from ._binding import tensor
from ._device import cpu
from ._dtype import check_float_scalar, check_scalar, float16, int64, refuse_complex, stored_complex
from ._numpy_objects import is_array, is_bool, is_scalar
from ._tensor import Tensor
from ._warn import warn
from ._overrides import overridable


def __getitem__(self, index):
    """``self[index]``: a view for basic indices, a copy for advanced ones."""
    # One basic part on its own (a lone slice is always applied, even ``a[:]``).
    if index is None:
        return _views.unsqueeze(self, 0)
    if index is Ellipsis:
        return _views.alias(self)
    if _is_int(index):
        return _select(self, 0, operator.index(index), 0)
    if isinstance(index, slice):
        return _slice(self, 0, index, skip_whole=False)
    if isinstance(index, builtins.bool):
        result = _views.unsqueeze(self, 0)
        return _advanced_indexing.index(result, [_bool_index(index, self.device)])
    sliced, indices = _apply_slicing(self, _as_tuple(index))
    if not indices:
        return _views.alias(self) if sliced is self else sliced
    return _advanced_indexing.index(sliced, _without_trailing_none(indices))
__getitem__ = overridable(__getitem__)


def __setitem__(self, index, value):
    """``self[index] = value``: always in place into ``self``'s storage."""
    value = _value_to_tensor(self, value)
    if index is False:
        return  # indexes nothing: no write, no version bump
    if index is Ellipsis:
        return _copy_to(self, value)
    if index is None or index is True:
        return _copy_to(_views.unsqueeze(self, 0), value)
    if _is_int(index):
        return _copy_to(_select(self, 0, operator.index(index), 0), value)
    if isinstance(index, slice):
        return _copy_to(_slice(self, 0, index, skip_whole=True), value)
    sliced, indices = _apply_slicing(self, _as_tuple(index))
    if not indices:
        return _copy_to(sliced, value)
    stripped = _strip_leading_ones(value._size)
    if stripped != value._size:
        value = value.view(stripped)
    _advanced_indexing.write(sliced, _without_trailing_none(indices), value)


# --- reading the index ------------------------------------------------------------


def _is_int(part):
    return isinstance(part, numbers.Integral) and not is_bool(part)  # numpy's ints too


def _is_sequence(part):
    return (isinstance(part, collections.abc.Sequence) or is_array(part)) and not isinstance(part, Tensor)


def _as_tuple(index):
    """The parts of an index. A short list holding slices, lists, tensors, None
    or ``...`` is read as a tuple (as numpy once did), with a warning."""
    if isinstance(index, tuple):
        return index
    if isinstance(index, Tensor) or is_array(index) or not _is_sequence(index) or len(index) >= 32:
        return (index,)
    for item in index:
        if isinstance(item, (Tensor, slice)) or _is_sequence(item):
            warn(_messages.NON_TUPLE_SEQUENCE_INDEX.format(line=349))
            return tuple(index)
        if item is None or item is Ellipsis:
            warn(_messages.NON_TUPLE_SEQUENCE_INDEX.format(line=359))
            return tuple(index)
    return (index,)


def is_advanced(part):
    """Does this part of an index make ``a[...]`` a copy? Its kind decides, never its values.

    Advanced: a bool, a list (or other sequence), a tensor; but a 0-d integer
    tensor is read as the integer it holds. Basic (a view): an integer, a
    slice, None and ``...``. A numpy array is read as the index tensor torch
    makes of it (``np.array(1)`` is a 0-d integer: basic; ``np.array(1,
    dtype=np.uint8)`` a mask: advanced). Parts torch refuses as an index (a
    float tensor, a numpy bool) are not asked about.
    """
    if is_array(part):
        part = _index_tensor(part)
    if isinstance(part, Tensor):
        return part.dim() > 0 or part.dtype.is_floating_point or _advanced_index.is_mask(part)
    return isinstance(part, builtins.bool) or _is_sequence(part)
is_advanced = overridable(is_advanced)


def _dims_named(part):
    """How many dimensions of the tensor a part uses up (a mask: one per mask dimension)."""
    if isinstance(part, Tensor):
        return part.dim() if _advanced_index.is_mask(part) else 1
    if part is None or part is Ellipsis or isinstance(part, builtins.bool):
        return 0
    return 1


def _as_part(obj, device):
    """One part as int, slice, None, ..., bool or Tensor; a list becomes an index tensor on the
    indexed tensor's ``device`` (so a list of bools is a mask on the meta device for a meta tensor)."""
    if _is_int(obj):
        return operator.index(obj)
    if obj is None or obj is Ellipsis or isinstance(obj, (slice, builtins.bool, Tensor)):
        return obj
    if _is_sequence(obj):
        return _index_tensor(obj).to(device)
    try:
        return operator.index(obj)
    except TypeError:
        raise IndexError(_messages.INVALID_INDEX.format(_messages.type_name(obj))) from None


def _index_tensor(sequence):
    """The index tensor torch makes of a list or a numpy array: bools (and a numpy uint8 array)
    stay a mask, anything else becomes int64 (floats truncated: ``np.array(1.0)`` is 1). A string
    is given as it is, to be refused as torch refuses it."""
    data = tensor(sequence if is_array(sequence) or isinstance(sequence, str) else list(sequence), device=cpu)
    if data.dtype is not int64 and not _advanced_index.is_mask(data):
        data = Tensor._from_values(data._read(), data._size, int64)
    return data


def _apply_slicing(self, parts):
    """Apply the basic parts as views; collect the advanced ones.

    Returns the view and the list of index tensors for it, with None for
    each dimension between them that is not indexed (a mask counts once,
    however many dimensions it covers).
    """
    specified = sum(_dims_named(part) for part in parts)
    if specified > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    result, dim, indices = self, 0, []

    def record(index_tensor):
        nonlocal dim
        if not indices:
            indices.extend([None] * dim)
        indices.append(index_tensor)
        dim += index_tensor.dim() if _advanced_index.is_mask(index_tensor) else 1

    for real_dim, obj in enumerate(parts):
        part = _as_part(obj, self.device)
        if is_advanced(obj):
            if isinstance(part, builtins.bool) or (part.dim() == 0 and _advanced_index.is_mask(part)):
                result = _views.unsqueeze(result, dim)  # True/False, or a 0-d bool tensor
                record(_bool_index(builtins.bool(part if isinstance(part, builtins.bool) else part.item()),
                                   self.device))
            else:
                record(part)
        elif isinstance(part, Tensor):  # a 0-d integer tensor is the integer it holds
            result = _select(result, dim, int(part.item()), real_dim)
        elif isinstance(part, int):
            result = _select(result, dim, part, real_dim)
        elif isinstance(part, slice):
            result = _slice(result, dim, part, skip_whole=True)
            dim += 1
            if indices:
                indices.append(None)
        elif part is Ellipsis:
            # Every ``...`` skips the dimensions no other part names (torch
            # accepts several, and each one skips them again).
            dim += self.dim() - specified
            if indices:
                indices.extend([None] * (self.dim() - specified))
        elif part is None:
            result = _views.unsqueeze(result, dim)
            dim += 1
            if indices:
                indices.append(None)
    return result, indices


def _without_trailing_none(indices):
    while indices and indices[-1] is None:
        indices = indices[:-1]
    return indices


def _bool_index(flag, device):
    """``True`` indexes a new size-1 dimension with ``[0]``, ``False`` with nothing."""
    return Tensor._from_values([0] if flag else [], (1 if flag else 0,), int64, device)


def _select(result, dim, index, real_dim):
    if result.dim() == 0:
        if index == 0:
            raise IndexError(_messages.INVALID_0_DIM_INDEX)
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size 0")
    n = result._size[_strides.normalize_dim(dim, result.dim())]
    if not -n <= index < n:
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size {n}")
    return _views.select(result, dim, index)


def _slice(result, dim, part, skip_whole):
    """``part`` along ``dim``; inside an index, a slice that keeps everything is skipped."""
    step = 1 if part.step is None else operator.index(part.step)
    if step <= 0:  # Python's own words for a zero step, torch's for a negative one
        raise ValueError("step must be greater than zero" if step else "slice step cannot be zero")
    if result.dim() == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    n = result._size[_strides.normalize_dim(dim, result.dim())]
    start = 0 if part.start is None else operator.index(part.start)
    stop = n if part.stop is None else operator.index(part.stop)
    if skip_whole and step == 1 and start == 0 and stop >= n:
        return result
    return _views._slice(result, dim, part.start, part.stop, step)


# --- writing ----------------------------------------------------------------------


def _value_to_tensor(self, value):
    """A number becomes a 0-d cpu tensor of ``self``'s dtype; a tensor is used as is.

    Anything else (a list, a numpy array, a numpy float32) is refused.
    """
    if isinstance(value, Tensor):
        return value
    value = stored_complex(value, self._dtype)  # 2 + 0j stores 2.0, as in torch
    if isinstance(value, (int, builtins.float)) or (is_scalar(value) and isinstance(value, numbers.Integral)):
        if isinstance(value, int) and not -(1 << 63) <= value < (1 << 63):
            raise ValueError(_messages.UNPACK_LONG_OVERFLOW)  # torch reads a Python int here as an int64
        check_scalar(value, self._dtype)  # e.g. 300 into uint8: torch's overflow error
        if self._dtype is not float16:  # into float16, torch rounds an overflow to inf
            check_float_scalar(value, self._dtype)
        return Tensor._from_values(value, (), self._dtype, cpu)
    refuse_complex(value)
    kind = type(value)
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    raise TypeError(f"can't assign a {name} to a {self.type()}")


def _strip_leading_ones(size):
    """numpy's rule for values: leading dimensions of size 1 are dropped."""
    size = list(size)
    while size and size[0] == 1:
        size.pop(0)
    return tuple(size)


def _copy_to(target, value):
    """Same shape: copy_. A 0-d cpu value: fill_. Otherwise broadcast, then copy_."""
    if target._size == value._size:
        target.copy_(value)
    elif value.dim() == 0 and value.device.type == "cpu":
        target.fill_(value)
    else:
        stripped = _strip_leading_ones(value._size)
        if stripped != value._size:
            value = value.view(stripped)
        target.copy_(value if value._size == target._size else value.expand(target._size))
