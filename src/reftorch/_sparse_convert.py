"""Converting a sparse COO tensor: coalesce, to_dense, to_sparse.

Each conversion makes new memory; none writes into its input.

* ``coalesce()`` sorts the stored entries by their coordinates (row-major)
  and adds up the ones with equal coordinates: a new sparse tensor with new
  indices and values, flagged coalesced. A tensor already flagged coalesced
  is returned as it is.
* ``to_dense()`` writes every entry out into a new strided tensor; stored
  duplicates add up, everything else is zero.
* ``to_sparse()`` keeps the non-zero entries of a strided tensor, in
  row-major order, so the result is coalesced.

reftorch checks the indices against the size before it reads them: torch
does not (unless ``check_invariants=True``) and reads or writes outside the
memory of its result.
"""

import numpy as np

from . import _messages
from ._dtype import int64
from ._sparse import _SparseNode, _expect_sparse, _make_sparse, is_sparse_tensor
from ._tensor import Tensor
from .autograd.graph import any_requires_grad


def _linear_positions(self):
    """Each stored entry's position among the sparse dims, counted row-major.

    Refuses indices outside the size: torch does not check, and reads or
    writes outside its memory.
    """
    coords = self._storage.indices._elements()
    sparse_size = self._size[:coords.shape[0]]
    for dim, row in enumerate(coords):
        bad = row[(row < 0) | (row >= sparse_size[dim])]
        if bad.size:
            raise RuntimeError(_messages.SPARSE_OUT_OF_BOUNDS.format(
                index=bad[0], dim=dim, size=tuple(self._size)))
    return np.ravel_multi_index(tuple(coords), sparse_size) if coords.shape[0] else np.zeros(
        coords.shape[1], dtype=np.int64)


def coalesce(self):
    """``self`` if already coalesced; otherwise a new sparse tensor, in new memory,
    with the entries sorted by coordinates and duplicates added up."""
    _expect_sparse(self, "coalesce")
    if self._storage.coalesced:
        return self
    positions = _linear_positions(self)
    order = np.argsort(positions, kind="stable")
    unique, first = np.unique(positions[order], return_index=True)
    stored = self._storage.values._elements()[order]
    summed = np.add.reduceat(stored, first, axis=0) if len(unique) else stored[:0]
    sparse_size = self._size[:self._storage.indices.shape[0]]
    coords = np.array(np.unravel_index(unique, sparse_size) if sparse_size else [], dtype=np.int64)
    coords = coords.reshape(len(sparse_size), len(unique))
    out = _make_sparse(Tensor._from_values(coords, int64, self.device),
                       Tensor._from_values(summed.astype(stored.dtype), self._dtype, self.device),
                       self._size, True)
    if any_requires_grad(self):
        out._set_grad_fn(CoalesceBackward0(self))
    return out


def to_dense(self):
    """A new strided tensor with every entry written out (duplicates added up).

    A strided tensor is returned as it is, the same object.
    """
    if not is_sparse_tensor(self):
        return self
    dense = np.zeros(self._size, dtype=self._dtype._numpy_type)
    stored = self._storage.values._elements()
    flat = dense.reshape((-1, *self._size[self._storage.indices.shape[0]:]))
    np.add.at(flat, _linear_positions(self), stored)
    out = Tensor._from_values(dense, self._dtype, self.device)
    if any_requires_grad(self):
        out._set_grad_fn(ToDenseBackward0(self))
    return out


def to_sparse(self, *args, **kwargs):
    """A coalesced sparse tensor holding the non-zero entries of ``self``, in new memory.

    A sparse tensor is returned as it is, the same object.
    """
    if args or kwargs:
        raise NotImplementedError(_messages.SPARSE_TO_SPARSE_ARGS)
    if is_sparse_tensor(self):
        return self
    dense = self._elements()
    coords = np.argwhere(dense).T.astype(np.int64)  # row-major order: already coalesced
    stored = dense[tuple(coords)] if dense.ndim else dense.reshape(-1)[: coords.shape[1]]
    out = _make_sparse(Tensor._from_values(coords, int64, self.device),
                       Tensor._from_values(stored, self._dtype, self.device), self._size, True)
    if any_requires_grad(self):
        out._set_grad_fn(ToSparseBackward1(self))
    return out


class CoalesceBackward0(_SparseNode):
    pass


class ToDenseBackward0(_SparseNode):
    pass


class ToSparseBackward1(_SparseNode):
    pass
