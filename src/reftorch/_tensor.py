"""The Tensor: a Python object holding metadata that points into a storage.

Every copy operation is described by what it does to four things: the Python object
(``id(t)``); the metadata (size, stride, offset, dtype, device, ``requires_grad``); the
memory (the ``UntypedStorage``); and the history (``grad_fn``, the version counter).
This module holds the object, its fields and its metadata queries; operations live in
the modules that explain them, attached by ``_tensor_methods``.
"""

import operator

from . import _bounds, _core_messages, _elements, _strides
from ._device import cpu
from ._size import Size
from ._storage import TypedStorage, UntypedStorage
from ._torch_bookkeeping import is_inference_mode_enabled
from ._version_counter import VersionCounter


class Tensor:
    """A strided view of a storage, plus what autograd needs to know about it. Every operation
    builds its result with ``Tensor._make``; ``t.__dict__`` holds only what a user sets."""

    __slots__ = (
        "_storage", "_storage_offset", "_size", "_stride", "_dtype", "_version_counter",
        "_requires_grad", "_grad_fn", "_grad", "_grad_acc", "_retains_grad",
        "_base_tensor", "_view_version", "_creation_meta", "_output_nr", "_inference",
        "_backward_hooks", "_tensor_pre_hooks",
        "__dict__", "__weakref__",
    )

    @classmethod
    def _make(cls, storage, offset, size, stride, dtype, version_counter=None, inference=None):
        """New metadata on ``storage``, its last element checked to lie inside it, with a new version
        counter unless one is passed in (none for an inference tensor made inside the mode)."""
        size, stride, offset = tuple(map(operator.index, size)), tuple(map(operator.index, stride)), operator.index(offset)
        _bounds.check_in_bounds_for_storage(size, stride, offset, dtype.itemsize, storage.nbytes())
        t = object.__new__(cls)
        t._inference = is_inference_mode_enabled() if inference is None else inference
        if version_counter is None and not (t._inference and is_inference_mode_enabled()):
            version_counter = VersionCounter()
        t._storage, t._storage_offset, t._size, t._stride, t._dtype = storage, offset, size, stride, dtype
        t._version_counter = version_counter
        t._requires_grad = t._retains_grad = False  # no history yet: a leaf, not a view
        t._grad_fn = t._grad = t._grad_acc = t._backward_hooks = t._base_tensor = t._view_version = None
        t._creation_meta, t._output_nr, t._tensor_pre_hooks = "DEFAULT", 0, ()
        return t

    @classmethod
    def _from_values(cls, values, size, dtype, device=cpu, strides=None):
        """A tensor on a new storage holding ``values`` (row-major, or one for all), laid out by ``strides``."""
        strides = _strides.contiguous_strides(size) if strides is None else strides
        t = cls._make(UntypedStorage(_bounds.storage_nbytes(size, strides, dtype.itemsize), device), 0, size, strides,
                      dtype)
        t._write(values)
        return t

    def _geometry(self):
        """(size, stride, storage_offset): where this tensor's elements are."""
        return (self._size, self._stride, self._storage_offset)

    def _positions(self):
        """The storage slot of each element, in row-major order, checked to lie inside the storage."""
        _bounds.element_bytes(self._size, self._stride, self._storage_offset, self._dtype.itemsize,
                              self._storage.nbytes())
        return _strides.element_positions(self._size, self._stride, self._storage_offset)

    def _read(self):
        """This tensor's numbers, read from its storage, in row-major order."""
        return _elements.read(self._storage, self._dtype, self._positions())

    def _write(self, values):
        """Store ``values`` (as for ``_from_values``) in this tensor's memory."""
        positions = self._positions()
        values = list(values) if isinstance(values, (list, tuple)) else [values] * len(positions)
        _elements.write(self._storage, self._dtype, positions, values)

    @property
    def shape(self):
        return Size(self._size)

    def size(self, dim=None):
        return Size(self._size) if dim is None else self._size[_strides.dim_of("size", dim, self._size)]

    def stride(self, dim=None):
        return self._stride if dim is None else self._stride[_strides.dim_of("stride", dim, self._size)]

    def storage_offset(self):
        return self._storage_offset

    def dim(self):
        return len(self._size)

    def numel(self):
        return _strides.numel(self._size)

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._storage.device

    def is_floating_point(self):
        return self._dtype.is_floating_point

    def element_size(self):
        return self._dtype.itemsize

    def untyped_storage(self):
        return self._storage

    def _typed_storage(self):
        """The storage read as this dtype, a new ``TypedStorage`` per call: what a pickled tensor names."""
        return TypedStorage(self._storage, self._dtype)

    def data_ptr(self):
        """Storage address plus offset in bytes (0 with no elements; a meta storage's address is 0)."""
        if self.numel() == 0:
            return 0
        return self._storage.data_ptr() + self._storage_offset * self._dtype.itemsize

    @property
    def _version(self):
        """How many in-place writes this memory has seen (an inference tensor has no counter)."""
        if self._version_counter is None:
            raise RuntimeError(_core_messages.INFERENCE_NO_VERSION)
        return self._version_counter.version

    @property
    def _base(self):
        """For a view, the tensor that owns the memory it looks into; otherwise None."""
        return self._base_tensor

    def _is_view(self):
        return self._base_tensor is not None

    def _set_grad_fn(self, node):
        if self._retains_grad and None not in (self._grad_fn, node):  # retain_grad() moves along, as in torch
            self._grad_fn._retained[:] = [t for t in self._grad_fn._retained if t is not self]
            node._retained.append(self)
        self._grad_fn = node
        self._view_version = None if self._version_counter is None else self._version  # an inference tensor has none
        if node is not None:
            node._output_metadata[self._output_nr] = (self._size, self._dtype)

    __hash__ = object.__hash__
