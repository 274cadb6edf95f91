"""Which version of a method runs: the strided one or a sparse one.

torch picks each operation's kernel by layout: ``s.clone()`` on a sparse
tensor runs the sparse clone, and ``s.exp()``, which has no sparse kernel,
raises. reftorch does the same at one place: every method attached to
``Tensor`` is wrapped by ``by_layout``. When no sparse tensor is involved the
strided function runs, unchanged; when one is, its version for that layout
runs (COO: ``SPARSE_VERSIONS``; CSR: ``_sparse_csr.CSR_VERSIONS``), or
reftorch says it has none. So the strided code (``_clone``, ``_views``,
``_math`` ...) never meets a tensor without storage.
"""

import functools

from . import _messages, _sparse_copies, _sparse_csr
from ._dtype import bool as bool_, float32, float64, int64
from ._sparse import SparseCOO
from ._tensor import Tensor


def _elements(self):
    """Strided code outside the method table (``torch.tensor(s)``, ``nn.Linear``,
    ``primitives`` ...) reads a tensor's numbers through ``Tensor._elements()``,
    a numpy view of its memory. A sparse tensor has no such memory."""
    raise NotImplementedError(_messages.SPARSE_NEEDS_MEMORY)


def _untyped_storage(self):
    raise NotImplementedError(_messages.SPARSE_NO_STORAGE)


def _no_data_pointer(self, *args):
    raise RuntimeError(_messages.SPARSE_NO_DATA_POINTER)


def _numpy(self, *args, **kwargs):
    raise TypeError(_messages.SPARSE_TO_NUMPY)


def _is_contiguous(self, memory_format=None):
    return False


def _type(self):
    name = self._dtype._short_name + "Tensor"
    return f"torch.cuda.sparse.{name}" if self.is_cuda else f"torch.sparse.{name}"


def _item(self):
    """torch's rule: no stored entry is the int 0; otherwise the sum of the stored values."""
    if self.numel() != 1:
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
    held = self._storage
    if held.indices.shape[1] == 0:
        return 0
    return (held.values if held.coalesced else held.values.sum()).item()


# The sparse version of each method that has one.
SPARSE_VERSIONS = {
    # what a tensor without storage answers
    "_elements": _elements, "untyped_storage": _untyped_storage, "data_ptr": _no_data_pointer,
    "tolist": _no_data_pointer, "numpy": _numpy, "is_contiguous": _is_contiguous, "type": _type,
    "item": _item,
    # copies
    "clone": _sparse_copies.clone, "detach": _sparse_copies.detach, "data": _sparse_copies.data,
    "data=": _sparse_copies.set_data,
    "zero_": _sparse_copies.zero_, "add_": _sparse_copies.add_, "copy_": _sparse_copies.copy_,
    "__iadd__": _sparse_copies.add_,
    "to": _sparse_copies.to,
    "cpu": lambda self: _sparse_copies.to(self, "cpu"),
    "cuda": lambda self, device=None: _sparse_copies.to(self, "cuda" if device is None else device),
    "float": lambda self: _sparse_copies.to(self, float32),
    "double": lambda self: _sparse_copies.to(self, float64),
    "long": lambda self: _sparse_copies.to(self, int64),
    "bool": lambda self: _sparse_copies.to(self, bool_),
    "__reduce_ex__": _sparse_copies.__reduce_ex__, "__deepcopy__": _sparse_copies.__deepcopy__,
}

# Methods that are right for both layouts as they are: they only touch
# metadata and the graph, or (``_sparse``) they look at the layout themselves.
SAME_FOR_BOTH = {
    "requires_grad", "grad", "grad_fn", "is_leaf", "retain_grad", "requires_grad_", "backward", "detach_",
    "__setstate__", "__len__", "__iter__", "__bool__", "__float__", "__int__", "__index__", "__format__",
    "to_sparse", "to_dense", "coalesce", "is_coalesced", "_nnz", "sparse_dim", "dense_dim",
    "_indices", "_values", "indices", "values", "layout", "is_sparse",
    "to_sparse_csr", "crow_indices", "col_indices", "is_sparse_csr",
}

# Methods attached to Tensor by its class body (not by the method table) that
# a sparse tensor answers differently.
CLASS_METHODS = ("_elements", "untyped_storage", "data_ptr", "type")


# What a sparse tensor holds in place of a storage, one class per layout.
SPARSE_HOLDERS = frozenset({SparseCOO, _sparse_csr.SparseCSR})


def _any_sparse(values):
    for value in values:
        if isinstance(value, Tensor) and type(value._storage) in SPARSE_HOLDERS:
            return True
    return False


def _any_csr(args, kwargs):
    return any(type(getattr(v, "_storage", None)) is _sparse_csr.SparseCSR for v in (*args, *kwargs.values()))


def by_layout(name, strided_function):
    """``strided_function`` as a method that runs the sparse version of ``name`` for sparse tensors."""
    sparse_function = SPARSE_VERSIONS.get(name)
    csr_function = _sparse_csr.CSR_VERSIONS.get(name)
    shown_name = getattr(strided_function, "__name__", name).strip("_") or name

    @functools.wraps(strided_function)
    def method(self, *args, **kwargs):
        # Written for speed: every method call of every tensor passes here.
        if (type(self._storage) not in SPARSE_HOLDERS and not (args and _any_sparse(args))
                and not (kwargs and _any_sparse(kwargs.values()))):
            return strided_function(self, *args, **kwargs)
        if type(self._storage) is _sparse_csr.SparseCSR:
            if csr_function is None:
                raise NotImplementedError(_messages.SPARSE_CSR_UNSUPPORTED.format(name=shown_name))
            return csr_function(self, *args, **kwargs)
        if sparse_function is None or _any_csr(args, kwargs):
            raise NotImplementedError(_messages.SPARSE_UNSUPPORTED.format(name=shown_name))
        return sparse_function(self, *args, **kwargs)

    return method


def dispatch_on_layout(methods):
    """Wrap the methods of the table (``name -> function``) and ``CLASS_METHODS`` with ``by_layout``."""
    for name, function in methods.items():
        if name in SAME_FOR_BOTH:
            continue
        if isinstance(function, property):
            setter = by_layout(name + "=", function.fset) if function.fset else None
            setattr(Tensor, name, property(by_layout(name, function.fget), setter))
        elif callable(function):
            setattr(Tensor, name, by_layout(name, function))
    for name in CLASS_METHODS:
        setattr(Tensor, name, by_layout(name, Tensor.__dict__[name]))
