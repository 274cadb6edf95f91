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

from . import _messages, _strides
from ._dtype import int64
from ._metadata_inplace import NotImplemented
from ._sparse import (
    SparseCooTensorWithDimsAndTensorsBackward0, _SparseNode, _expect_sparse, _make_sparse, entries, is_sparse_tensor,
    rows,
)
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import any_requires_grad


def _linear_positions(self):
    """Each stored entry's position among the sparse dims, counted row-major.

    Refuses indices outside the size: torch does not check, and reads or
    writes outside its memory.
    """
    coords = rows(self._storage.indices)
    sparse_size = self._size[:len(coords)]
    for dim, row in enumerate(coords):
        bad = [i for i in row if not 0 <= i < sparse_size[dim]]
        if bad:
            raise RuntimeError(_messages.SPARSE_OUT_OF_BOUNDS.format(
                index=bad[0], dim=dim, size=tuple(self._size)))
    positions = [0] * self._storage.indices._size[1]
    for n, row in zip(sparse_size, coords):
        positions = [p * n + i for p, i in zip(positions, row)]
    return positions


def _coordinates(positions, size):
    """Row-major positions among ``size`` back to coordinates: one list per dim (``indices``'s rows)."""
    coords = [[0] * len(positions) for _ in size]
    for j, p in enumerate(positions):
        for dim in reversed(range(len(size))):
            p, coords[dim][j] = divmod(p, size[dim])
    return coords


def _indices(coords, count, device):
    """An ``indices`` tensor: ``coords`` (one row per sparse dim) of ``count`` entries each."""
    return Tensor._from_values([i for row in coords for i in row], (len(coords), count), int64, device)


def coalesce(self):
    """``self`` if already coalesced; otherwise a new sparse tensor, in new memory,
    with the entries sorted by coordinates and duplicates added up."""
    _expect_sparse(self, "coalesce")
    if self._storage.coalesced:
        return self
    summed = {}  # position -> the sum of the entries stored there
    for p, entry in zip(_linear_positions(self), entries(self._storage.values)):
        summed[p] = [a + b for a, b in zip(summed[p], entry)] if p in summed else entry
    unique = sorted(summed)
    sparse_size = self._size[:self._storage.indices.shape[0]]
    values = self._storage.values
    out = _make_sparse(_indices(_coordinates(unique, sparse_size), len(unique), self.device),
                       Tensor._from_values([x for p in unique for x in summed[p]], (len(unique), *values._size[1:]),
                                           self._dtype, self.device),
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
    dense, block = [0] * _strides.numel(self._size), _strides.numel(self._size[self._storage.indices.shape[0]:])
    for p, entry in zip(_linear_positions(self), entries(self._storage.values)):
        for r, x in enumerate(entry):
            dense[p * block + r] += x
    out = Tensor._from_values(dense, self._size, self._dtype, self.device)
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
    dense = self._read()
    nonzero = [k for k, x in enumerate(dense) if x]  # row-major order: already coalesced (nan is not zero)
    out = _make_sparse(_indices(_coordinates(nonzero, self._size), len(nonzero), self.device),
                       Tensor._from_values([dense[k] for k in nonzero], (len(nonzero),), self._dtype, self.device),
                       self._size, True)
    if any_requires_grad(self):
        out._set_grad_fn(ToSparseBackward1(self))
    else:
        _as_the_plain_kernel_does(self, out)
    return out


def _as_the_plain_kernel_does(self, out):
    """An inference ``self`` used outside the mode has no autograd key: torch runs its plain kernel,
    whose steps autograd sees. The values are ``self[rows of the indices].squeeze(0).clone()``
    (recorded, the indices being normal tensors), ``sparse_coo_tensor`` wraps them, and
    ``_coalesced_(True)`` marks the result in place: version 1, and ``NotImplemented`` on top
    (that step has no derivative), so a backward through it raises."""
    plain_kernel_writes(out, (self,))
    indices = out._storage.indices
    if self.dim() and indices.shape[1] and any_requires_grad(self, indices):
        values = self[tuple(indices.chunk(self.dim(), 0))].squeeze(0).clone()
        out._set_grad_fn(SparseCooTensorWithDimsAndTensorsBackward0(values))
        out._set_grad_fn(NotImplemented(out, message="derivative for aten::_coalesced_ is not implemented"))


class CoalesceBackward0(_SparseNode):
    pass


class ToDenseBackward0(_SparseNode):
    pass


class ToSparseBackward1(_SparseNode):
    pass
