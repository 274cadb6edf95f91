"""Sparse CSR tensors: a matrix kept row by row, with no storage of its own.

``to_sparse_csr()`` turns a 2-D strided or COO tensor into compressed
sparse row form (``layout=torch.sparse_csr``). Like a COO tensor (``_sparse``) it is a
``torch.Tensor`` without storage, and it answers the course's questions so:

* **Python object and metadata**: a new tensor object with a size, dtype,
  device, ``requires_grad`` and a version counter; no strides (``stride()``
  raises).
* **Memory**: three dense tensors (a ``SparseCSR``), in new memory; from a
  coalesced COO tensor, ``col_indices`` and ``values`` are its memory.
  ``values`` holds the non-zero entries row by row, ``col_indices`` the
  column of each, and ``crow_indices`` (``rows + 1`` int64 numbers) where
  each row's entries start in the other two: row ``i`` owns positions
  ``crow_indices[i]`` to ``crow_indices[i + 1]``.
* **Version counter**: ``crow_indices()``, ``col_indices()`` and
  ``values()`` are aliases of that memory sharing the tensor's counter, so
  ``csr.values()[0] = 5`` changes the tensor and bumps its version.
  ``values()`` also has the tensor as ``_base``.
* **Copies**: ``clone()`` copies the three tensors (``CloneBackward0`` when
  the source requires grad); ``detach()`` shares them and the counter;
  ``to_dense()`` writes every entry out into a new strided tensor.
* **History**: recorded (``ToSparseCsrBackward0``, ``ValuesBackward0``), not
  run: reftorch does not run backward through a sparse tensor.

torch warns once per process that CSR support is in beta; so does reftorch.
This module's methods also answer for strided and COO tensors, by handing
them to ``_sparse`` and ``_sparse_convert``.
"""

from . import _messages, _sparse, _sparse_convert, _sparse_copies
from ._dtype import int64
from ._layout import sparse_csr
from ._tensor import Tensor
from ._warn import warn
from .autograd.graph import any_requires_grad
from .autograd.grad_mode import is_grad_enabled


class SparseCSR(_sparse.SparseParts):
    """What a CSR tensor holds: three dense tensors, never changed in place by reftorch."""

    __slots__ = ("crow_indices", "col_indices", "values")
    NO_STORAGE = _messages.SPARSE_CSR_NO_STORAGE

    def __init__(self, crow_indices, col_indices, values):
        self.crow_indices = crow_indices
        self.col_indices = col_indices
        self.values = values


def is_sparse_csr_tensor(t):
    return isinstance(t, Tensor) and type(t._storage) is SparseCSR


def _make_csr(crow_indices, col_indices, values, size, version_counter=None):
    """A CSR tensor on the three tensors (no copy): new object and metadata."""
    t = Tensor._make(SparseCSR(crow_indices, col_indices, values), 0, (0,), (1,), values._dtype, version_counter)
    t._size = tuple(size)
    t._stride = None  # no strides: Tensor.stride() raises torch's error
    return t


def _alias(t, version_counter):
    """New metadata on ``t``'s memory, with the given version counter."""
    return Tensor._make(t._storage, t._storage_offset, t._size, t._stride, t._dtype, version_counter)


# --- making one ------------------------------------------------------------------

_warned_beta = False  # torch says it once per process


def to_sparse_csr(self, dense_dim=None):
    """The entries of a matrix, row by row: a strided one's non-zero entries in
    new memory, or a COO one's stored entries.

    A CSR tensor is returned as it is, the same object.
    """
    global _warned_beta
    if is_sparse_csr_tensor(self):
        return self
    if dense_dim is not None or self.dim() != 2 or (_sparse.is_sparse_tensor(self) and _sparse.dense_dim(self)):
        raise NotImplementedError(_messages.SPARSE_CSR_ONLY_MATRICES)
    if not _warned_beta:
        _warned_beta = True
        warn(_messages.SPARSE_CSR_BETA)
    out = _from_coo(self) if _sparse.is_sparse_tensor(self) else _from_strided(self)
    if any_requires_grad(self):
        out._set_grad_fn(ToSparseCsrBackward0(self))
    return out


def _row_starts(rows, row_count, device):
    """``crow_indices`` from each entry's row (sorted): where each row's entries start."""
    starts = [0] * (row_count + 1)
    for row in rows:
        starts[row + 1] += 1
    for r in range(row_count):
        starts[r + 1] += starts[r]
    return Tensor._from_values(starts, (row_count + 1,), int64, device)


def _from_strided(self):
    """The non-zero entries, row by row: three tensors in new memory."""
    dense, width = self._read(), self._size[1]
    nonzero = [k for k, x in enumerate(dense) if x]  # row-major order
    return _make_csr(_row_starts([k // width for k in nonzero], self._size[0], self.device),
                     Tensor._from_values([k % width for k in nonzero], (len(nonzero),), int64, self.device),
                     Tensor._from_values([dense[k] for k in nonzero], (len(nonzero),), self._dtype, self.device),
                     self._size)


def _from_coo(self):
    """A COO matrix's stored entries (explicit zeros too), coalesced first.

    A tensor already flagged coalesced lends its memory: ``col_indices`` is
    its second row of indices and ``values`` its values, so writes show in
    both. Otherwise ``coalesce`` has made new memory.
    """
    held = _sparse_convert.coalesce(self)._storage
    indices, values = held.indices, held.values
    nnz = indices._size[1]
    columns = Tensor._make(indices._storage, indices._storage_offset + indices._stride[0], (nnz,),
                           (indices._stride[1],), int64)
    return _make_csr(_row_starts(_sparse.rows(indices)[0], self._size[0], self.device), columns,
                     _alias(values, None), self._size)


# --- what a CSR tensor is made of ----------------------------------------------

def _expect_csr(self, op):
    if not is_sparse_csr_tensor(self):
        got = "Sparse" if _sparse.is_sparse_tensor(self) else "Strided"
        raise RuntimeError(f"{op} expected sparse row compressed tensor layout but got {got}")


def crow_indices(self):
    """Where each row starts: an alias on the tensor's version counter."""
    return _held_alias(self, "crow_indices")


def col_indices(self):
    """The column of each stored entry: an alias on the tensor's version counter."""
    return _held_alias(self, "col_indices")


def _held_alias(self, name):
    _expect_csr(self, name)
    return _alias(getattr(self._storage, name), self._version_counter)


def _parts(self):
    """The three tensors a CSR tensor holds."""
    held = self._storage
    return held.crow_indices, held.col_indices, held.values


def values(self):
    """The stored entries: a view whose ``_base`` is the CSR tensor (COO: ``_sparse.values``)."""
    if not is_sparse_csr_tensor(self):
        return _sparse.values(self)
    view = _alias(self._storage.values, self._version_counter)
    view._base_tensor = self
    view._view_made_in_no_grad = not is_grad_enabled()
    view._view_version = view._version
    if any_requires_grad(self):
        view._set_grad_fn(_sparse.ValuesBackward0(self))
    return view


def layout(self):
    return sparse_csr if is_sparse_csr_tensor(self) else _sparse.layout(self)


def is_sparse_csr(self):
    return is_sparse_csr_tensor(self)


def _nnz(self):
    return self._storage.values.shape[0] if is_sparse_csr_tensor(self) else _sparse._nnz(self)


def sparse_dim(self):
    return 2 if is_sparse_csr_tensor(self) else _sparse.sparse_dim(self)


def dense_dim(self):
    return 0 if is_sparse_csr_tensor(self) else _sparse.dense_dim(self)


# --- copies ----------------------------------------------------------------------

def to_dense(self):
    """A new strided tensor with every entry written out (COO and strided: ``_sparse_convert``)."""
    if not is_sparse_csr_tensor(self):
        return _sparse_convert.to_dense(self)
    held = self._storage
    dense, width, starts = [0] * self.numel(), self._size[1], held.crow_indices._read()
    columns, values = held.col_indices._read(), held.values._read()
    for row in range(self._size[0]):
        for k in range(starts[row], starts[row + 1]):
            dense[row * width + columns[k]] = values[k]
    out = Tensor._from_values(dense, self._size, self._dtype, self.device)
    if any_requires_grad(self):
        out._set_grad_fn(_sparse_convert.ToDenseBackward0(self))
    return out


def clone(self, *, memory_format=None):
    """New memory for all three tensors, the same numbers; still in the graph."""
    return _sparse_copies.cloned(self, memory_format, lambda: _make_csr(*(t.clone() for t in _parts(self)), self._size))


def detach(self):
    """The same three tensors and version counter; a new object, off the graph."""
    return _make_csr(*_parts(self), self._size, self._version_counter)


def _no_is_contiguous(self, memory_format=None):
    raise RuntimeError("Sparse CSR tensors do not have is_contiguous")


def _numpy(self, *args, **kwargs):
    raise TypeError(_messages.SPARSE_CSR_TO_NUMPY)


def _untyped_storage(self):
    raise NotImplementedError(_messages.SPARSE_CSR_NO_STORAGE)


def _no_data_pointer(self, *args):
    raise RuntimeError(_messages.SPARSE_NO_DATA_POINTER)


def _stride(self, dim=None):
    raise RuntimeError(_messages.NO_STRIDES)


def _tolist(self):
    """torch reads the strides of an empty tensor first, the data pointer of any other."""
    raise RuntimeError(_messages.NO_STRIDES if self.numel() == 0 else _messages.SPARSE_NO_DATA_POINTER)


def _positions(self):
    raise NotImplementedError(_messages.SPARSE_NEEDS_MEMORY)


# The CSR version of each Tensor method that has one (the others refuse: reftorch.sparse).
CSR_VERSIONS = {
    "clone": clone, "detach": detach, "is_contiguous": _no_is_contiguous,
    "numpy": _numpy, "untyped_storage": _untyped_storage, "data_ptr": _no_data_pointer,
    "tolist": _tolist, "_positions": _positions, "stride": _stride,
}


class ToSparseCsrBackward0(_sparse._SparseNode):
    pass
