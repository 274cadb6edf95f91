"""Copying a sparse COO tensor: clone, detach, in-place writes, to, copy/deepcopy.

A sparse tensor's memory is its two dense tensors, indices and values (see
``_sparse``). Each copy answers the course's questions about *them*:

* ``clone()``: a new sparse tensor with new indices and values (copies), the
  same coalesced flag, and ``CloneBackward0`` when the source requires grad.
* ``detach()``: a new sparse tensor on the *same* indices and values, with the
  same version counter, off the graph. ``.data`` is the same with a new
  version counter, and so is ``copy.copy`` (which also drops
  ``requires_grad``). ``s.data = t`` puts ``t``'s indices and values in ``s``.
* ``zero_()``, ``add_()``, ``copy_()`` are in-place operations, and bump the
  version counter, but torch 2.13 does not write into the old indices and
  values: it gives the tensor *new* ones. So after ``d = s.detach()``,
  ``d.zero_()`` empties ``d`` and leaves ``s``'s numbers alone, although the
  shared version counter says both were written. (Older torch documentation
  says this raises an error; torch 2.13 does not.)
* ``copy.deepcopy``: new indices and values, ``requires_grad`` kept, a leaf.
"""

import copy as copy_module

from . import _core_messages, _messages
from ._arguments import _to_arguments
from ._clone import CloneBackward0, contiguous_format, preserve_format
from ._copy_ import CopyBackwards
from ._dtype import _category, promote_types
from ._inplace import ZeroBackward0
from ._inplace_write import check_inplace, rebase_history
from ._math import AddBackward0
from ._sparse import SparseCOO, _make_sparse, entries, is_sparse_tensor, rows
from ._sparse_convert import coalesce
from ._tensor import Tensor
from ._to import ToCopyBackward0
from .autograd.graph import any_requires_grad
from .autograd.grad_mode import no_grad


def clone(self, *, memory_format=None):
    """New indices and values holding the same numbers; still in the graph."""
    held = self._storage
    return cloned(self, memory_format, lambda: _make_sparse(held.indices.clone(), held.values.clone(), self._size,
                                                            held.coalesced))


def cloned(self, memory_format, make):
    """``make()``, a sparse tensor of new memory, recorded as ``self``'s clone (torch refuses a memory format)."""
    if memory_format is contiguous_format:
        raise RuntimeError("unsupported memory format option Contiguous")
    out = make()
    if any_requires_grad(self):
        out._set_grad_fn(CloneBackward0(self))
    return out


def detach(self):
    """The same indices, values and version counter; new object, off the graph."""
    held = self._storage
    return _make_sparse(held.indices, held.values, self._size, held.coalesced, self._version_counter)


def data(self):
    """Like ``detach()``, with a new version counter."""
    held = self._storage
    return _make_sparse(held.indices, held.values, self._size, held.coalesced)


def set_data(self, new):
    """``s.data = t``: ``s`` takes ``t``'s indices, values, size and dtype; it keeps
    its version counter and history. Both must be sparse."""
    if not isinstance(new, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {_messages.type_name(new)}")
    if not (is_sparse_tensor(self) and is_sparse_tensor(new)):
        raise RuntimeError(_messages.SPARSE_SET_DATA)
    if self.requires_grad and not new._dtype.is_floating_point:  # then the dtype, as the strided setter
        raise RuntimeError(_core_messages.SET_DATA_NOT_FLOAT)
    self._storage = SparseCOO(new._storage.indices, new._storage.values, new._storage.coalesced)
    self._size, self._stride, self._dtype = new._size, new._stride, new._dtype


# --- in-place: new indices and values, one version bump ----------------------

def _write(self, indices, values, size, coalesced, node):
    """Give ``self`` new indices and values: the old ones are left to whoever holds them."""
    if indices is not None:
        self._storage = SparseCOO(indices, values, coalesced)
        self._size, self._stride = tuple(size), (0,) * len(size)
    self._version_counter.bump()
    if node is not None:
        rebase_history(self, node)
    return self


def _recording(self, *inputs):
    recording = self.dtype.is_floating_point and any_requires_grad(self, *inputs)
    check_inplace(self, recording)
    return recording


def zero_(self):
    """No stored entries any more: empty indices and values."""
    recording = _recording(self)
    held = self._storage
    indices = Tensor._from_values([], (held.indices.shape[0], 0), held.indices.dtype, self.device)
    values = Tensor._from_values([], (0, *held.values.shape[1:]), self._dtype, self.device)
    return _write(self, indices, values, self._size, True, ZeroBackward0(self) if recording else None)


def add_(self, other, *, alpha=1):
    """``self += alpha * other`` for two sparse tensors of the same size."""
    recording = _recording(self, other)
    if not is_sparse_tensor(self) or not is_sparse_tensor(other):
        if not is_sparse_tensor(self):
            raise NotImplementedError(_messages.SPARSE_UNSUPPORTED.format(name="add_"))
        raise RuntimeError(_messages.SPARSE_ADD_DENSE)
    if self._size != other._size:
        raise RuntimeError(
            _messages.SPARSE_ADD_SIZES.format(list(self._size), list(other._size)))
    common = promote_types(self._dtype, other._dtype)
    if _category(common) > _category(self._dtype):
        raise RuntimeError(
            f"Can't convert result type {common._short_name} to output {self._dtype._short_name} in add operation")
    node = AddBackward0(self, other, alpha) if recording else None
    mine, theirs = self._storage, other._storage
    if theirs.indices.shape[1] == 0:
        return _write(self, None, None, None, None, node)
    if mine.indices.shape[1] == 0:  # self becomes alpha * other
        values = _as_dtype([[x * alpha for x in entry] for entry in entries(theirs.values)],
                           theirs.values._size, self)
        return _write(self, _new(rows(theirs.indices), theirs.indices), values, other._size,
                      theirs.coalesced, node)
    if mine.indices.shape[0] != theirs.indices.shape[0]:
        raise RuntimeError(
            _messages.SPARSE_ADD_DENSITY.format(mine.indices.shape[0], theirs.indices.shape[0]))
    a, b = entries(mine.values.to(common)), entries(theirs.values.to(common))
    entry_size = mine.values._size[1:]
    if mine.values.is_contiguous() and theirs.values.is_contiguous():
        indices, values = _merge(rows(mine.indices), a, rows(theirs.indices), b, alpha)
        return _write(self, _new(indices, mine.indices), _as_dtype(values, (len(values), *entry_size), self),
                      self._size, mine.coalesced and theirs.coalesced, node)
    # With strided values torch puts the two lists of columns one after the
    # other, and coalesces only when that stores more entries than numel().
    indices = [r + s for r, s in zip(rows(mine.indices), rows(theirs.indices))]
    values = a + ([[x * alpha for x in entry] for entry in b] if alpha != 1 else b)
    result = _make_sparse(_new(indices, mine.indices), _as_dtype(values, (len(values), *entry_size), self),
                          self._size, False)
    if len(values) > self.numel():
        result = coalesce(result)
    held = result._storage
    return _write(self, held.indices, held.values, self._size, False, node)


def _merge(i, a, j, b, alpha):
    """torch's walk over two lists of columns, each assumed sorted: equal
    coordinates are added into one entry, the others are taken in order.

    ``i`` and ``j`` are rows of coordinates, ``a`` and ``b`` one list of numbers per entry.
    """
    columns, out_i, out_v = (lambda rows, k: tuple(row[k] for row in rows)), [], []
    p = q = 0
    while p < len(a) or q < len(b):
        if p >= len(a):
            order = -1
        elif q >= len(b):
            order = 1
        else:
            left, right = columns(i, p), columns(j, q)
            order = 1 if left < right else (-1 if left > right else 0)
        value = [0] * len(a[0] if a else b[0])
        if order >= 0:
            coords, value = columns(i, p), [v + x for v, x in zip(value, a[p])]
            p += 1
        if order <= 0:
            coords, value = columns(j, q), [v + alpha * x for v, x in zip(value, b[q])]
            q += 1
        out_i.append(coords)
        out_v.append(value)
    return [list(row) for row in zip(*out_i)] if out_i else [[] for _ in i], out_v


def _new(rows, like):
    """An ``indices`` tensor with these rows of coordinates."""
    return Tensor._from_values([x for row in rows for x in row], (len(rows), len(rows[0]) if rows else 0),
                               like.dtype, like.device)


def _as_dtype(entries, size, self):
    """A ``values`` tensor of ``size``, one list of numbers per entry, in ``self``'s dtype."""
    return Tensor._from_values([x for entry in entries for x in entry], size, self._dtype, self.device)


_NUMBER_TYPES = {bool: "torch.BoolTensor", int: "torch.LongTensor", float: "torch.DoubleTensor"}


def copy_(self, src, non_blocking=False):
    """Copies of ``src``'s indices and values (cast to ``self``'s dtype and device);
    ``self`` takes ``src``'s size and coalesced flag."""
    if not isinstance(src, (Tensor, int, float, bool)):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='copy_', name='other', position=1, expected='Tensor', got=_messages.type_name(src)
        ))
    recording = _recording(self, src)
    if not (is_sparse_tensor(self) and is_sparse_tensor(src)):
        # torch turns a number into a 0-d tensor first: bool, int64 or float64
        src_type = src.type() if isinstance(src, Tensor) else _NUMBER_TYPES[type(src)]
        raise RuntimeError(_messages.SPARSE_COPY_DENSE.format(self=self.type(), src=src_type))
    _check_resize(self, src)
    node = CopyBackwards(self, src) if recording else None
    if src is self:
        return _write(self, None, None, None, None, node)
    held = src._storage
    indices = held.indices.to(self.device, copy=True)
    values = held.values.to(self.device, self._dtype, copy=True)
    return _write(self, indices, values, src._size, held.coalesced, node)


def _check_resize(self, src):
    """``self`` takes ``src``'s size; while it stores entries, only by growing."""
    if self._storage.indices.shape[1] == 0:
        return
    dims = {"sparse": (self._storage.indices.shape[0], src._storage.indices.shape[0]),
            "dense": (self._storage.values.dim() - 1, src._storage.values.dim() - 1)}
    for kind, (old, new) in dims.items():
        if old != new:
            raise RuntimeError(_messages.SPARSE_RESIZE.format(
                what=f"changing the number of {kind} dimensions (from {old} to {new})"))
    cut = dims["sparse"][0]
    for kind, old, new in (("sparse", self._size[:cut], src._size[:cut]),
                           ("dense", self._size[cut:], src._size[cut:])):
        if any(n < o for o, n in zip(old, new)):
            raise RuntimeError(_messages.SPARSE_RESIZE.format(
                what=f"shrinking the size of {kind} dimensions (from {list(old)} to {list(new)})"))


# --- other copies ---------------------------------------------------------------

def to(self, *args, **kwargs):
    """``self`` when nothing changes; otherwise new indices and values on the new
    device, values in the new dtype."""
    device, dtype, copy, memory_format = _to_arguments(args, kwargs)
    if memory_format is not preserve_format:
        raise NotImplementedError(_messages.TO_MEMORY_FORMAT)
    device, dtype = device or self.device, dtype or self._dtype
    if device == self.device and dtype is self._dtype and not copy:
        return self
    held = self._storage
    out = _make_sparse(held.indices.to(device, copy=True), held.values.to(device, dtype, copy=True),
                       self._size, held.coalesced)
    if dtype.is_floating_point and any_requires_grad(self):
        out._set_grad_fn(ToCopyBackward0(self))
    return out


def _rebuild_sparse_tensor(indices, values, size, coalesced):
    """The inverse of ``__reduce_ex__``: a new sparse tensor on the same indices and values."""
    return _make_sparse(indices, values, size, coalesced)


def __reduce_ex__(self, protocol):
    """``copy.copy`` and pickle: rebuild on the same indices and values
    (torch leaves ``requires_grad`` behind)."""
    held = self._storage
    args = (held.indices, held.values, self._size, held.coalesced)
    return (_rebuild_sparse_tensor, args, self.__dict__ or None)


def __deepcopy__(self, memo):
    """torch's recipe for a sparse tensor: a clone, made without history."""
    if not self.is_leaf:
        raise RuntimeError(_messages.DEEPCOPY_NON_LEAF)
    if id(self) in memo:
        return memo[id(self)]
    with no_grad():
        new = clone(self)
        new._requires_grad = self.requires_grad
        if self._grad is not None:
            new._grad = copy_module.deepcopy(self._grad, memo)
        new.__dict__.update(copy_module.deepcopy(self.__dict__, memo))
    memo[id(self)] = new
    return new
