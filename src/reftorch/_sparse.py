"""Sparse COO tensors: a tensor with no storage of its own.

When most entries are zero, torch can keep only the others. A sparse COO
tensor (``layout=torch.sparse_coo``) is still a ``torch.Tensor``, but it
answers the course's four questions differently from a strided one:

* **Python object and metadata**: an ordinary tensor object with a size, a
  dtype, a device, ``requires_grad`` and a version counter. It has no strides
  into memory: ``stride()`` is 0 in every dimension.
* **Memory**: no storage (``untyped_storage()`` and ``data_ptr()`` raise). In
  its place it holds two dense tensors (a ``SparseCOO``): ``indices``, int64 of
  shape ``(sparse_dim, nnz)``, one column of coordinates per stored entry, and
  ``values``, of shape ``(nnz, *dense dims)``, the numbers stored there.
  Entries with the same coordinates add up; every other entry is zero.
* **Coalesced or not**: the flag ``is_coalesced()`` says the columns are
  sorted and no coordinate repeats. ``sparse_coo_tensor`` never checks, so its
  result is uncoalesced (unless it stores at most one entry);
  ``coalesce()`` sorts and adds up duplicates into new memory.
* **History**: as for strided tensors (``SparseCooTensorWithDimsAndTensors``,
  ``ValuesBackward0`` ...), but reftorch does not run backward through a
  sparse tensor.

``_indices()`` and ``_values()`` are aliases: new tensor objects on the same
memory as the sparse tensor's own indices and values, sharing the sparse
tensor's version counter, so writing into them changes the sparse tensor.
``coalesce``, ``to_dense`` and ``to_sparse`` are in ``_sparse_convert``, the
copies (``clone``, ``detach``, in-place ops) in ``_sparse_copies``.
"""

from . import _messages, _strides
from ._arguments import _is_int, _type_name
from ._binding import tensor
from ._dtype import dtype as dtype_type, int64
from ._layout import sparse_coo, strided
from ._tensor import Tensor
from .autograd.graph import Node, any_requires_grad
from .autograd.grad_mode import is_grad_enabled
from ._warn import warn


class SparseParts:
    """Where a strided tensor holds its storage, a sparse one holds dense parts (``values``
    among them): code written for strided tensors that reaches for a storage finds none."""

    __slots__ = ()
    NO_STORAGE = _messages.SPARSE_NO_STORAGE

    @property
    def device(self):
        return self.values.device

    def nbytes(self):
        return 0

    def data_ptr(self):
        raise RuntimeError(_messages.SPARSE_NO_DATA_POINTER)

    @property
    def _bytes(self):
        raise NotImplementedError(self.NO_STORAGE)


class SparseCOO(SparseParts):
    """What a COO sparse tensor holds: two dense tensors and a flag.

    They are never changed: an in-place operation on a sparse tensor gives it
    a new ``SparseCOO``.
    """

    __slots__ = ("indices", "values", "coalesced")

    def __init__(self, indices, values, coalesced):
        self.indices = indices
        self.values = values
        self.coalesced = coalesced


def is_sparse_tensor(t):
    return isinstance(t, Tensor) and isinstance(t._storage, SparseCOO)


def _make_sparse(indices, values, size, coalesced, version_counter=None):
    """A sparse tensor on ``indices`` and ``values`` (no copy), new object and metadata."""
    # Tensor._make lays metadata on a storage; a sparse tensor has none, so it
    # starts with no elements and then takes its size. No strides into memory.
    t = Tensor._make(SparseCOO(indices, values, coalesced), 0, (0,), (1,), values._dtype, version_counter)
    t._size = tuple(size)
    t._stride = (0,) * len(size)
    return t


def _alias(t, version_counter):
    """New metadata on ``t``'s memory, with the given version counter."""
    return Tensor._make(t._storage, t._storage_offset, t._size, t._stride, t._dtype, version_counter)


# --- making a sparse tensor --------------------------------------------------

_warned_about_invariants = False  # torch says it once per process


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory=False,
                      requires_grad=False, check_invariants=None, is_coalesced=None):
    """A sparse tensor on ``indices`` and ``values``: no copy when they are already
    int64 and of the right dtype and device. ``values`` keeps its history."""
    global _warned_about_invariants
    _check_arguments(indices, values, size, dtype)
    if check_invariants is None and not _warned_about_invariants:
        _warned_about_invariants = True
        warn(_messages.SPARSE_INVARIANTS_WARNING)
    values = values.to(device=device, dtype=dtype) if isinstance(values, Tensor) else tensor(
        values, dtype=dtype, device=device)
    indices = indices.to(device=values.device, dtype=int64) if isinstance(indices, Tensor) else tensor(
        indices, dtype=int64, device=values.device)
    if values.dim() == 0:
        values = values.unsqueeze(0)
    if indices.dim() != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(indices.shape)}")
    sparse_dim, dense_dim = indices.shape[0], values.dim() - 1
    if size is None:
        size = _inferred_size(indices, values)
    size = tuple(int(n) for n in size)
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(_messages.SPARSE_LEN_SIZE.format(
            size=len(size), sparse_dim=sparse_dim, dense_dim=dense_dim))
    if indices.shape[1] != values.shape[0]:
        raise RuntimeError(
            _messages.SPARSE_NNZ_MISMATCH.format(indices.shape[1], values.shape[0]))
    if tuple(values.shape[1:]) != size[sparse_dim:]:
        expected = [values.shape[0], *size[sparse_dim:]]
        raise RuntimeError(f"values has incorrect size, expected {expected}, got {list(values.shape)}")
    if check_invariants:
        _check_indices_in_bounds(indices, size)
    # Unless told, torch takes only zero or one stored entry to be coalesced.
    coalesced = bool(is_coalesced) if is_coalesced is not None else indices.shape[1] < 2
    t = _make_sparse(_alias(indices, None), _alias(values, None), size, coalesced)
    if any_requires_grad(values):
        t._set_grad_fn(SparseCooTensorWithDimsAndTensorsBackward0(values))
    if requires_grad and t.is_leaf:
        if not t.dtype.is_floating_point:
            raise RuntimeError(_messages.NOT_FLOAT_REQUIRES_GRAD)
        t._requires_grad = True
    return t


def _check_arguments(indices, values, size, dtype):
    """torch's argument parser: ``size`` a sequence of ints, ``dtype`` a dtype."""
    if isinstance(size, (tuple, list)) and size and _is_int(size[0]):
        for pos, n in enumerate(size[1:], start=2):
            if not _is_int(n):
                raise TypeError(
                    _messages.ARGUMENT_UNPACK.format(
                        fn="sparse_coo_tensor", name="size", pos=pos, got=_type_name(n)
                    ))
    good_size = size is None or (isinstance(size, (tuple, list)) and all(_is_int(n) for n in size))
    if not good_size or not (dtype is None or isinstance(dtype, dtype_type)):
        got = [_type_name(a) for a in (indices, values) + (() if size is None else (size,))]
        if dtype is not None:
            got.append(f"dtype={_type_name(dtype)}")
        raise TypeError(_messages.SPARSE_COO_TENSOR_SIGNATURES.format(got=", ".join(got)))
    if size is not None and any(n < 0 for n in size):
        raise RuntimeError("numel: integer multiplication overflow")


def rows(t):
    """The rows of a 2-d tensor (``indices``: one row of coordinates per sparse dim) as lists."""
    values, n = t._read(), t._size[1]
    return [values[i * n:(i + 1) * n] for i in range(t._size[0])]


def entries(values):
    """``values`` (one entry per stored element, each of ``values.shape[1:]``) as one list per entry."""
    numbers, block = values._read(), _strides.numel(values._size[1:])
    return [numbers[k * block:(k + 1) * block] for k in range(values._size[0])]


def _inferred_size(indices, values):
    """Without a size: one more than the largest index in each sparse dim."""
    coords = rows(indices)
    for dim, row in enumerate(coords):
        if row and min(row) < 0:
            raise RuntimeError(f"found negative index {min(row)} for dim {dim}")
    sparse = [max(row) + 1 if row else 0 for row in coords]
    return (*sparse, *values.shape[1:])


def _check_indices_in_bounds(indices, size):
    for dim, row in enumerate(rows(indices)):
        if row and min(row) < 0:
            raise RuntimeError(f"found negative index {min(row)} for dim {dim}")
        if row and max(row) >= size[dim]:
            raise RuntimeError(
                _messages.SPARSE_SIZE_INCONSISTENT.format(dim=dim, size=size[dim], index=max(row)))


# --- what a sparse tensor is made of -----------------------------------------

def layout(self):
    return sparse_coo if is_sparse_tensor(self) else strided


def is_sparse(self):
    return is_sparse_tensor(self)


def _expect_sparse(self, op, what="sparse coordinate tensor layout"):
    if not is_sparse_tensor(self):
        raise RuntimeError(f"{op} expected {what} but got Strided")


def _sparse_only(self, op):
    if not is_sparse_tensor(self):
        raise NotImplementedError(_messages.SPARSE_ONLY.format(op=op))


def _indices(self):
    """An alias of the stored indices, on the sparse tensor's version counter."""
    _sparse_only(self, "_indices")
    return _alias(self._storage.indices, self._version_counter)


def _values(self):
    """An alias of the stored values, on the sparse tensor's version counter."""
    _sparse_only(self, "_values")
    return _alias(self._storage.values, self._version_counter)


def indices(self):
    """``_indices()``, for a coalesced tensor only."""
    _expect_sparse(self, "indices")
    if not self._storage.coalesced:
        raise RuntimeError(_messages.SPARSE_UNCOALESCED.format(what="indices"))
    return _indices(self)


def values(self):
    """A view of the stored values (``_base`` is the sparse tensor), for a coalesced tensor only."""
    _expect_sparse(self, "values", "sparse tensor layout")
    if not self._storage.coalesced:
        raise RuntimeError(_messages.SPARSE_UNCOALESCED.format(what="values"))
    view = _values(self)
    view._base_tensor = self
    view._view_made_in_no_grad = not is_grad_enabled()
    view._view_version = view._version
    if any_requires_grad(self):
        view._set_grad_fn(ValuesBackward0(self))
    return view


def _nnz(self):
    _sparse_only(self, "_nnz")
    return self._storage.indices.shape[1]


def sparse_dim(self):
    return self._storage.indices.shape[0] if is_sparse_tensor(self) else 0


def dense_dim(self):
    return self._storage.values.dim() - 1 if is_sparse_tensor(self) else self.dim()


def is_coalesced(self):
    _expect_sparse(self, "is_coalesced")
    return self._storage.coalesced


# --- history ---------------------------------------------------------------

class _SparseNode(Node):
    """A node on a sparse tensor. reftorch records it, but cannot run it."""

    def __init__(self, source):
        super().__init__(source)

    def apply(self, grad):
        raise RuntimeError(_messages.SPARSE_BACKWARD)


class SparseCooTensorWithDimsAndTensorsBackward0(_SparseNode):
    """``sparse_coo_tensor`` from values that require grad."""


class ValuesBackward0(_SparseNode):
    pass
