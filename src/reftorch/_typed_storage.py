"""What ``torch.load`` gives for a storage: a ``TypedStorage``, bytes read as one dtype.

A file names each storage it holds with a dtype (``torch.FloatStorage``; a bare
``UntypedStorage`` is saved as ``uint8``), and loading hands back that pairing:
the loaded bytes and the dtype they are read as. Its size counts elements of
that dtype, not bytes, and indexing it reads one element as a Python number.

* Python object: one per storage in the file; two references in one file to one
  storage load as one object, and tensors saved with it are rebuilt on its bytes.
* Memory: the loaded bytes, ``untyped()``; nothing is copied when it is read,
  and ``s[i] = x`` writes into them, where tensors on them see it.
* Metadata: a dtype and a device, no shape or strides.
* Version counter and graph: none; a storage has neither (a write through it
  bumps no tensor's counter).

torch has deprecated the class: the first use of one of its methods in a
process warns so, once.

(The tensor's own recipe, ``_storage.TypedStorage``, is a bare pair that a file
names; this is the object a reader of the file gets.)
"""

import copy

from . import _messages
from ._tensor import Tensor
from ._warn import warn

CLASS_NAME = "torch.storage.TypedStorage"
_warned = []  # torch's deprecation warning is a once-per-process one


def _deprecated():
    if not _warned:
        _warned.append(True)
        warn(_messages.TYPED_STORAGE_DEPRECATED)


class TypedStorage:
    """Bytes and the dtype they are read as."""

    def __init__(self, untyped, dtype):
        self._untyped_storage, self.dtype = untyped, dtype

    @property
    def device(self):
        _deprecated()
        return self._untyped_storage.device

    def untyped(self):
        """The bytes themselves, the same object each time."""
        _deprecated()
        return self._untyped_storage

    def size(self):
        """How many elements of ``dtype`` the bytes hold."""
        _deprecated()
        return self._untyped_storage.nbytes() // self.dtype.itemsize

    __len__ = size

    def nbytes(self):
        _deprecated()
        return self._untyped_storage.nbytes()

    def element_size(self):
        _deprecated()
        return self.dtype.itemsize

    def data_ptr(self):
        _deprecated()
        return self._untyped_storage.data_ptr()

    def is_shared(self):
        _deprecated()
        return False

    def _elements(self):
        """A 1-d tensor over all the bytes, to read and write elements through."""
        return Tensor._make(self._untyped_storage, 0, (self.size(),), (1,), self.dtype)

    def tolist(self):
        _deprecated()
        return self._elements().tolist()

    def __iter__(self):
        _deprecated()
        return iter(self.tolist())

    def __getitem__(self, index):
        """One element, as a Python number; torch's storages take no slices here."""
        _deprecated()
        if isinstance(index, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        return self._elements()[self._checked(index)].item()

    def __setitem__(self, index, value):
        """Write ``value`` into element ``index`` (or a slice of them), as ``t[index] = value`` writes."""
        _deprecated()
        if not isinstance(index, (int, slice)):
            raise RuntimeError(_messages.TYPED_STORAGE_INDEX.format(type(index)))
        self._elements()[index] = value

    def fill_(self, value):
        _deprecated()
        self[0:len(self)] = value
        return self

    def _checked(self, index):
        """``index`` as torch reads one: an int (a bool is refused here, not before), in range."""
        if not isinstance(index, int):
            raise RuntimeError(_messages.TYPED_STORAGE_INDEX.format(type(index)))
        if type(index) is not int:
            raise TypeError(_messages.TYPED_STORAGE_INDEX.format(type(index)))
        if not -len(self) <= index < len(self):
            raise IndexError(f"index {index} out of range for storage of size {len(self)}")
        return index

    def __str__(self):
        _deprecated()
        info = f"[{CLASS_NAME}(dtype={self.dtype}, device={self.device}) of size {len(self)}]"
        if self.device.type == "meta":
            return "...\n" + info
        return " " + "\n ".join(str(x) for x in self.tolist()) + "\n" + info

    __repr__ = __str__

    def __reduce__(self):
        """Pickled: a copy of the bytes, as torch's is."""
        return (TypedStorage, (copy.copy(self._untyped_storage), self.dtype))

    def __copy__(self):
        """A copy of the bytes (a storage shares nothing with its copy)."""
        _deprecated()
        return TypedStorage(copy.copy(self._untyped_storage), self.dtype)

    def __deepcopy__(self, memo):
        """A copy of the bytes, shared with the tensors on them copied in the same call."""
        _deprecated()
        return TypedStorage(copy.deepcopy(self._untyped_storage, memo), self.dtype)
