"""Advanced indexing: ``a[[0, 2]]``, ``a[mask]``, ``a[rows, cols] = v``.

Basic indexing (``_indexing``) picks elements that one (size, stride, offset)
triple can describe, so it returns a view. An index *tensor* (or a list, or a
bool mask) can pick any elements, in any order, some of them twice, and no
stride can describe that. So advanced indexing moves numbers:

* **Reading**, ``a[idx]`` (``index``), copies. The result is a new Python
  object with new metadata, a new storage of exactly its own size and a new
  version counter. Writing into it never changes ``a``. When ``a`` requires
  grad its ``grad_fn`` is ``IndexBackward0``, which adds the gradient back at
  the positions that were read (twice for a position read twice).
* **Writing**, ``a[idx] = v`` (``index_put_``), works in place: the numbers go
  into ``a``'s storage, ``a``'s version counter goes up once, and ``a``'s
  history becomes ``IndexPutBackward0`` (through ``CopySlices`` when ``a`` is
  a view). The usual in-place checks apply (no write into a leaf that
  requires grad, or a view of one, outside ``no_grad``).

Which elements, and the result's shape and strides, are worked out in
``_advanced_index``.
"""

from . import _elements, _iterator_strides, _messages, _meta, _strides
from ._arguments import MISSING, _check_given, _type_name
from ._advanced_index import AdvancedIndex, broadcast_values, in_order, is_mask
from ._dtype import uint8
from ._inplace_write import check_inplace, rebase_history
from ._math import sum_to_shape
from ._tensor import Tensor
from ._version_counter import bump
from .autograd.graph import Node, any_requires_grad
from ._warn import warn
from ._overrides import overridable


def _check_indices(self, indices):
    if len(indices) > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()} (got {len(indices)})")
    for t in indices:
        if t is not None and t.device.type != "cpu" and t.device != self.device:
            raise RuntimeError(_messages.INDICES_DEVICE.format(self.device))


# --- reading: index --------------------------------------------------------------


def index(self, indices):
    """``self[indices]`` for a list of index tensors (None where a dimension is not indexed).

    Python object, metadata, memory and version counter: all new. History:
    ``IndexBackward0`` when ``self`` requires grad.
    """
    _check_indices(self, indices)
    on_meta = self.device.type == "meta"
    if on_meta:  # torch's meta kernel: its own checks, and an int8 index read as a mask
        _meta.check_indices(self, indices)
        indices = _meta.as_masks(indices)
    if any(t is not None and t.device.type == "meta" and is_mask(t) for t in indices):
        # How many elements a mask picks is data, and a meta tensor has none.
        raise NotImplementedError(_messages.META_MASK_READ)
    info = AdvancedIndex(self._geometry(), indices)
    order = _iterator_strides.iteration_order(info.shape, info.operands())
    error = None if on_meta else info.first_out_of_bounds(order)  # a meta tensor has no elements to miss
    if error is not None:
        raise error[1]
    values = 0 if on_meta else _elements.read(self._storage, self._dtype, info.positions())
    strides = _iterator_strides.tensor_iterator_output_strides(info.shape, info.operands())
    out = Tensor._from_values(values, info.shape, self._dtype, self.device, strides)
    if any_requires_grad(self, *indices):  # the index tensors too: an inference ``self`` alone is not recorded
        out._set_grad_fn(IndexBackward0(self, indices))
    return out


class IndexBackward0(Node):
    """Gradient of ``a[idx]``: zeros shaped like ``a``, plus the result's gradient
    added at every position that was read (a position read twice gets it twice)."""

    def __init__(self, source, indices):
        super().__init__(source)
        self.input_size = source._size
        # The indices are saved (not the input): writing into the input later
        # does not break backward, writing into an index tensor does.
        self.indices = [None if t is None else self.save(t) for t in indices]

    def apply(self, grad):
        info = _contiguous_info(self.input_size, self.indices)
        out = [0] * _strides.numel(self.input_size)
        for slot, value in zip(info.positions(), grad._read()):
            out[slot] += value
        result = Tensor._from_values(out, self.input_size, grad._dtype, grad.device)
        bump(result)  # torch adds the gradient into zeros with index_put_(accumulate=True): one write
        return (result,)


def _contiguous_info(size, saved_indices):
    indices = [None if s is None else s.unpack() for s in saved_indices]
    return AdvancedIndex((size, _strides.contiguous_strides(size), 0), indices)


# --- writing: index_put_ ---------------------------------------------------------


def index_put_(self, indices=MISSING, values=MISSING, accumulate=False):
    """``self[indices] = values``, with ``indices`` a tuple of index tensors.

    In place: same Python object, metadata and storage; the version counter
    goes up by one. With ``accumulate=True`` the values are added, so a
    position named twice gets both. History: ``IndexPutBackward0``.
    """
    _check_given("index_put_", indices=indices, values=values)
    if not isinstance(indices, (tuple, list)):
        raise TypeError(
            _messages.ARGUMENT_TYPE.format(
                fn='index_put_', name='indices', position=1, expected='tuple of Tensors', got=_type_name(indices)
            ))
    for i, t in enumerate(indices):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {_type_name(t)}")
    if not isinstance(values, Tensor):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='index_put_', name='values', position=2, expected='Tensor', got=_type_name(values)
        ))
    if not isinstance(accumulate, bool):
        raise TypeError(f"index_put_(): argument 'accumulate' must be bool, not {_type_name(accumulate)}")
    return write(self, list(indices), values, accumulate)
index_put_ = overridable(index_put_)


def write(self, indices, values, accumulate=False):
    """The in-place write behind ``index_put_`` and ``a[idx] = v`` (None: a dimension not indexed).

    The steps of every in-place op (see ``_inplace``): autograd's check, the
    write, one version bump, then ``IndexPutBackward0`` as the new history.
    ``a[mask] = number`` is written as torch writes it, with ``masked_fill_``.
    An error half way (an index out of range) leaves what was written so far
    and no version bump, as in torch.
    """
    # Unlike arithmetic, index_put_ records history whatever self's dtype.
    recording = any_requires_grad(self, values)
    check_inplace(self, recording)
    if len(indices) > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()} (got {len(indices)})")
    node = IndexPutBackward0(self, indices, values, accumulate) if recording else None
    if self.device.type == "meta":  # torch's meta kernel writes no numbers, so it checks none of them
        return _recorded(self, node)
    if _has_internal_overlap(self):
        warn(_messages.INDEX_PUT_EXPANDED)
    mask_and_shape = None if accumulate else _fill_mask(self, indices, values)
    if mask_and_shape is not None:
        _masked_fill(self, mask_and_shape, values)
    else:
        _write_in_order(self, indices, values, accumulate)
    return _recorded(self, node)


def _recorded(self, node):
    """After the write: one version bump, and ``node`` (if any) as ``self``'s history."""
    bump(self)
    if node is not None:
        rebase_history(self, node)
    return self


def _write_in_order(self, indices, values, accumulate):
    """Write ``values`` at the indexed positions, in the kernel's order, checking as it goes."""
    if values.device != self.device and values.dim() != 0:
        raise RuntimeError(
            _messages.DEVICES_DIFFER.format(self.device, values.device))
    _check_no_overlap(self, values)
    for t in indices:
        if t is not None:
            _check_no_overlap(self, t)
    info = AdvancedIndex(self._geometry(), indices)
    if not _expandable(values._size, info.shape):
        raise RuntimeError(_messages.VALUE_NOT_BROADCASTABLE.format(
            _strides._fmt(values._size), _strides._fmt(info.shape)))
    if values._dtype is not self._dtype:
        raise RuntimeError(_messages.INDEX_PUT_DTYPE.format(self._dtype._short_name, values._dtype._short_name))
    operands = info.operands()
    order = _iterator_strides.iteration_order(info.shape, operands[:1] + [(values._size, values._stride)] + operands[1:])
    error = info.first_out_of_bounds(order)
    count = error[0] if error is not None else _strides.numel(info.shape)
    slots = in_order(info.positions(), info.shape, order)[:count]
    new = in_order(broadcast_values(values._read(), values._size, info.shape), info.shape, order)[:count]
    written = {}  # slot -> its new number; a slot named twice keeps the value written last
    if accumulate:  # ... or, accumulating, gets both, each sum rounded to the dtype
        written = dict(zip(slots, _elements.read(self._storage, self._dtype, slots)))
        for slot, value in zip(slots, new):
            written[slot] = _elements.cast([written[slot] + value], self._dtype)[0]
    else:
        written.update(zip(slots, new))
    _elements.write(self._storage, self._dtype, list(written), list(written.values()))
    if error is not None:
        raise error[1]


def _expandable(shape, target):
    return len(shape) <= len(target) and all(
        n == 1 or n == m for n, m in zip(reversed(shape), reversed(target)))


def _fill_mask(self, indices, values):
    """``a[mask] = scalar`` is done by ``masked_fill_``: the mask and the shape that
    lines it up with ``a``, when the index is one mask and the value one cpu number."""
    if values.numel() != 1 or values.device.type != "cpu":
        return None
    mask, dims = None, 0
    for t in indices:
        if t is None:
            dims += 1
            continue
        if not is_mask(t) or t.device != self.device or mask is not None:
            return None
        mask = t
        for j, n in enumerate(t._size):
            if n != self._size[_strides.normalize_dim(dims + j, self.dim())]:
                raise IndexError(_messages.MASK_SHAPE.format(
                    mask=_strides._fmt(t._size), mask_dim=j, shape=_strides._fmt(self._size), dim=dims + j))
        dims += t.dim()
    if mask is None:
        return None
    return mask, mask._size + (1,) * (self.dim() - dims)


def _masked_fill(self, mask_and_shape, values):
    mask, shape = mask_and_shape
    if _has_internal_overlap(self):
        warn(_messages.MASKED_FILL_EXPANDED)
    if mask._dtype is uint8:
        raise RuntimeError(_messages.MASKED_FILL_UINT8_MASK)
    hits = broadcast_values(mask._read(), shape, self._size)
    slots = [slot for slot, hit in zip(self._positions(), hits) if hit]
    _elements.write(self._storage, self._dtype, slots, values._read() * len(slots))


def _has_internal_overlap(t):
    """Some element shares its memory with another (an expanded tensor)."""
    return not _strides.is_non_overlapping_and_dense(t._size, t._stride) and any(
        n > 1 and s == 0 for n, s in zip(t._size, t._stride))


def _check_no_overlap(self, other):
    """Refuse to write into memory that an input is read from (torch's assert_no_overlap)."""
    if other is self:
        raise RuntimeError(_messages.INPLACE_OVERLAP)
    if self.numel() == 0 or other.numel() == 0 or other._storage is not self._storage:
        return
    if not all(_strides.is_non_overlapping_and_dense(t._size, t._stride) for t in (self, other)):
        return  # too hard to tell: torch lets it through
    a = (self.data_ptr(), self.data_ptr() + self.numel() * self.element_size())
    b = (other.data_ptr(), other.data_ptr() + other.numel() * other.element_size())
    if a[0] < b[1] and b[0] < a[1]:
        raise RuntimeError(_messages.INPLACE_OVERLAP)


class IndexPutBackward0(Node):
    """Gradient of ``a[idx] = v``.

    The old values of ``a`` at the written positions were overwritten, so they
    get no gradient (with ``accumulate=True`` they were added to, and get all of
    it). ``v`` gets the gradient of every position it was written to, summed
    back to its own shape.
    """

    def __init__(self, target, indices, values, accumulate):
        super().__init__(target, values)
        self.values_size, self.values_dtype, self.values_device = values._size, values._dtype, values.device
        self.indices = [None if t is None else self.save(t) for t in indices]
        self.accumulate = accumulate

    def apply(self, grad):
        info = _contiguous_info(grad._size, self.indices)
        g = grad._read()
        slots = info.positions()
        to_values = None
        if self.needs_input_grad(1):
            picked = [g[slot] for slot in slots]
            if not _expandable(self.values_size, info.shape):
                # Only a[mask] = v with a one-element v of more dimensions gets here.
                raise RuntimeError(
                    _messages.INDEX_PUT_BAD_GRAD.format(
                        got=_strides._fmt(info.shape), expected=_strides._fmt(self.values_size)
                    ))
            summed = sum_to_shape(picked, info.shape, self.values_size)
            to_values = Tensor._from_values(summed, self.values_size, self.values_dtype, self.values_device)
        if not self.accumulate:
            for slot in slots:
                g[slot] = 0
        to_target = Tensor._from_values(g, grad._size, grad._dtype, grad.device)
        return (to_target, to_values)
