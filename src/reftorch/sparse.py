"""Sparse layouts: an optional part of reftorch, with one method table per layout.

A plain ``import reftorch`` knows only strided tensors: each method on
``Tensor`` is the function of the module that explains it, a class attribute
and nothing more. The first sparse tensor (``to_sparse()``,
``to_sparse_csr()``, ``sparse_coo_tensor``, or ``import reftorch.sparse``)
imports this module, and importing it installs the sparse method tables.

torch picks each operation's kernel by layout: ``s.clone()`` on a sparse
tensor runs the sparse clone, and ``s.exp()``, which has no sparse kernel,
raises. Once installed, reftorch keeps one table of methods per layout:

* strided: ``_tensor_methods._METHODS`` and ``_more_methods._METHODS``, the
  functions of the modules that explain them. ``Tensor.clone is _clone.clone`` still holds.
* sparse COO: ``SPARSE_VERSIONS`` below; sparse CSR:
  ``_sparse_csr.CSR_VERSIONS``. A method missing from a sparse table
  refuses, naming itself and reftorch's limit.

Which table a tensor uses is fixed when it is made, by what it holds where a
strided tensor holds its storage: an ``UntypedStorage``, a ``SparseCOO`` or a
``SparseCSR``. A sparse tensor is still of class ``Tensor``, as in torch, and
Python looks a method up on the class; so for each method the class now holds
a ``ByLayout``: when ``t.clone`` is looked up, it hands back the function of
``t``'s table, bound to ``t``. Looked up on the class (``Tensor.clone``) it
hands back the strided function itself. The strided code (``_clone``,
``_views``, ``_math`` ...) never meets a sparse ``self``.

torch's dispatcher also looks at the other tensor arguments; the tables look
at ``self`` only. A strided tensor given a sparse argument: ``t.data = s``
is refused here (the setter sees both tensors), ``t.copy_(s)`` by
``_copy_binding.copy_`` (torch's error), and any other method refuses when its
strided code reads the sparse argument's numbers (``_positions`` below).

Nothing here touches memory, metadata, the version counter or the graph: it
only chooses which function runs.
"""

from types import MethodType

from . import _messages, _more_methods, _sparse, _sparse_convert, _sparse_copies, _sparse_csr, _tensor_methods
from ._dtype import bool as bool_, float32, float64, int64
from ._sparse import SparseCOO, sparse_coo_tensor  # noqa: F401 (reftorch.sparse_coo_tensor)
from ._tensor import Tensor


def _positions(self):
    """Strided code outside the method table (``torch.tensor(s)``, ``nn.Linear``,
    ``primitives`` ...) reads and writes a tensor's numbers at the storage slots
    ``Tensor._positions()`` names. A sparse tensor has no such memory."""
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
    "_positions": _positions, "untyped_storage": _untyped_storage, "data_ptr": _no_data_pointer,
    "share_memory_": _untyped_storage, "is_shared": _untyped_storage,
    "tolist": _no_data_pointer, "numpy": _numpy, "is_contiguous": _is_contiguous, "type": _type,
    "item": _item, "stride": Tensor.stride,
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

# The methods about layouts, for every layout: each looks at the layout itself.
# Before this module is imported a tensor is strided, and ``_tensor_methods``
# holds simpler versions of them (``layout`` is ``strided``; the others import
# this module at their first call).
LAYOUT_METHODS = {
    "layout": property(_sparse_csr.layout), "is_sparse": property(_sparse.is_sparse),
    "is_sparse_csr": property(_sparse_csr.is_sparse_csr),
    "to_sparse": _sparse_convert.to_sparse, "to_dense": _sparse_csr.to_dense,
    "coalesce": _sparse_convert.coalesce, "is_coalesced": _sparse.is_coalesced, "_nnz": _sparse_csr._nnz,
    "sparse_dim": _sparse_csr.sparse_dim, "dense_dim": _sparse_csr.dense_dim,
    "_indices": _sparse._indices, "_values": _sparse._values, "indices": _sparse.indices,
    "values": _sparse_csr.values,
    "to_sparse_csr": _sparse_csr.to_sparse_csr, "crow_indices": _sparse_csr.crow_indices,
    "col_indices": _sparse_csr.col_indices,
}

# Methods that are right for every layout as they are: they only touch
# metadata and the graph, or (``LAYOUT_METHODS``) they look at the layout
# themselves. They are plain methods for all tensors.
SAME_FOR_ALL = {
    "requires_grad", "grad", "grad_fn", "is_leaf", "retain_grad", "requires_grad_", "backward", "detach_",
    "__setstate__", "__len__", "__iter__", "__bool__", "__float__", "__int__", "__index__", "__format__",
    "to_sparse", "to_dense", "coalesce", "is_coalesced", "_nnz", "sparse_dim", "dense_dim",
    "_indices", "_values", "indices", "values", "layout", "is_sparse",
    "to_sparse_csr", "crow_indices", "col_indices", "is_sparse_csr",
    "__array_priority__",  # a number numpy reads on the class, not a method
    "is_cuda", "_cdata", "is_inference", "output_nr", "nelement", "ndim",  # the device, the id, flags, numel, dim
    "retains_grad",
}

# Methods defined in Tensor's class body (not in the method table) that a
# sparse tensor answers differently.
CLASS_METHODS = ("_positions", "untyped_storage", "data_ptr", "type", "stride")

# The strided table: ``install`` fills it with the two method tables
# (``_tensor_methods``, ``_more_methods``) and ``LAYOUT_METHODS``.
STRIDED_VERSIONS = {}


def _refusal(name, shown_name, message):
    """What a sparse tensor's table holds for a method it has no version of."""

    def refuse(self, *args, **kwargs):
        raise NotImplementedError(message.format(name=shown_name))

    refuse.__name__ = refuse.__qualname__ = name
    return refuse


def _table(versions, message, names):
    """A sparse layout's table: its versions, and a refusal for every other method. A refusal
    names the operation as the strided function is named (``s / 2``: ``div()``)."""
    table = {}
    for name in names:
        shown_name = getattr(STRIDED_VERSIONS[name.rstrip("=")], "__name__", name.rstrip("=")).strip("_")
        table[name] = versions.get(name) or _refusal(name, shown_name or name, message)
    return table


# Each layout's table, by what its tensors hold in place of a storage.
SPARSE_TABLES = {}


class ByLayout:
    """A method of ``Tensor`` with a version per layout.

    ``t.name`` is the function of ``t``'s table, bound to ``t``;
    ``Tensor.name`` is the strided function itself.
    """

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __get__(self, tensor, owner=None):
        strided = STRIDED_VERSIONS[self.name]
        if tensor is None:
            return strided
        table = SPARSE_TABLES.get(type(tensor._storage))
        if table is None:
            return MethodType(strided, tensor)
        return MethodType(table[self.name], tensor)

    def __repr__(self):
        return f"<method {self.name!r} of reftorch.Tensor, by layout>"


class PropertyByLayout(ByLayout):
    """A property of ``Tensor`` with a version per layout (``data``). Its setter
    sees both tensors: a strided one and a sparse one cannot trade ``.data``."""

    __slots__ = ()

    def __get__(self, tensor, owner=None):
        strided = STRIDED_VERSIONS[self.name]
        if tensor is None:
            return strided
        table = SPARSE_TABLES.get(type(tensor._storage))
        return strided.__get__(tensor, owner) if table is None else table[self.name](tensor)

    def __set__(self, tensor, value):
        table = SPARSE_TABLES.get(type(tensor._storage))
        if table is not None:
            table[self.name + "="](tensor, value)
        elif type(getattr(value, "_storage", None)) in SPARSE_TABLES:
            # torch's rule for any two tensors of different kinds (TensorImpl types)
            raise RuntimeError(_messages.SPARSE_SET_DATA)
        else:
            STRIDED_VERSIONS[self.name].__set__(tensor, value)


def install(methods):
    """Make ``methods`` (``name -> function or property``) with ``LAYOUT_METHODS`` and
    ``CLASS_METHODS``'s functions from Tensor's class body the strided table; put a
    ``ByLayout`` on ``Tensor`` for each method, except those in ``SAME_FOR_ALL``,
    which go on ``Tensor`` as they are. Run once, when this module is imported."""
    global STRIDED_VERSIONS
    STRIDED_VERSIONS = {**methods, **LAYOUT_METHODS}
    for name in CLASS_METHODS:
        STRIDED_VERSIONS[name] = Tensor.__dict__[name]
    by_layout = [name for name in STRIDED_VERSIONS if name not in SAME_FOR_ALL]
    names = by_layout + [name + "=" for name in by_layout if isinstance(STRIDED_VERSIONS[name], property)]
    SPARSE_TABLES[SparseCOO] = _table(SPARSE_VERSIONS, _messages.SPARSE_UNSUPPORTED, names)
    SPARSE_TABLES[_sparse_csr.SparseCSR] = _table(_sparse_csr.CSR_VERSIONS, _messages.SPARSE_CSR_UNSUPPORTED,
                                                  names)
    for name, function in STRIDED_VERSIONS.items():
        if name in SAME_FOR_ALL:
            setattr(Tensor, name, function)
        elif isinstance(function, property):
            setattr(Tensor, name, PropertyByLayout(name))
        else:
            setattr(Tensor, name, ByLayout(name))


install({**_tensor_methods._METHODS, **_more_methods._METHODS})
