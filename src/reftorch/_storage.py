"""Storage: the flat block of bytes that holds a tensor's numbers.

One allocation, ``nbytes()`` bytes at address ``data_ptr()`` on one device, with no shape.
Views, ``detach()``, ``.data`` and ``copy.copy`` share one; ``clone()``,
``copy.deepcopy`` and ``torch.tensor(t)`` make a new one.
"""

import copy
import ctypes
import operator
from typing import NamedTuple

from . import _core_messages
from ._device import cpu


class UntypedStorage:
    """One allocation of raw bytes on a device."""

    _resizable = True

    def __init__(self, data=0, device=cpu):
        """``UntypedStorage(nbytes)``: that many zero bytes; ``UntypedStorage(ints)``: one byte per int."""
        self._bytes, self._address = memoryview(initial_bytes(data)), None  # address looked up later
        self.device = device

    @classmethod
    def _wrap(cls, buffer, device=cpu, resizable=True, address=None):
        """A storage over existing bytes; memory borrowed from numpy is not ``resizable``."""
        storage = cls.__new__(cls)
        storage._bytes, storage._address = memoryview(buffer).cast("B"), address
        storage.device, storage._resizable = device, resizable
        return storage

    def nbytes(self):
        """Size of the allocation in bytes."""
        return self._bytes.nbytes

    size = nbytes  # an untyped storage counts its size in bytes too

    def data_ptr(self):
        """The address of the first byte (0 for no bytes, or on meta): equal means shared memory."""
        if not self._bytes.nbytes or self.device.type == "meta":
            return 0
        if self._address is None:
            self._address = ctypes.addressof(ctypes.c_char.from_buffer(self._bytes))
        return self._address

    def __reduce__(self):
        """Pickled, or ``copy.copy``-ed, a storage is a new one holding a copy of the bytes."""
        return (UntypedStorage._wrap, (bytearray(self._bytes), self.device))

    def __deepcopy__(self, memo):
        # Copied once per deepcopy call, so views copied together share the copy (torch's memo key).
        copies = memo.setdefault("torch", {})
        if id(self) not in copies:
            copies[id(self)] = UntypedStorage._wrap(bytearray(self._bytes), self.device)
        return copies[id(self)]

    __len__ = nbytes

    def __repr__(self):
        return f"<reftorch UntypedStorage of {self.nbytes()} bytes on {self.device}>"


def initial_bytes(data):
    """A size (an index: an int, a 0-d integer tensor) gives that many zero bytes, a sequence of ints
    a byte for each, modulo 256; torch refuses anything else, and a negative size."""
    try:
        size = None if isinstance(data, bool) or getattr(data, "ndim", 0) else operator.index(data)
    except TypeError:
        size = None
    if size is not None and size < 0:
        raise RuntimeError(_core_messages.NEGATIVE_ALLOCATION.format(size % (1 << 64)))
    if size is None and (isinstance(data, dict) or hasattr(data, "_storage")  # a tensor: not a sequence to torch
                         or not (hasattr(type(data), "__getitem__") and hasattr(type(data), "__len__"))):
        raise RuntimeError(_core_messages.STORAGE_NOT_A_SEQUENCE.format(_core_messages.type_name(data)))
    odd = [value for value in (() if size is not None else data) if not isinstance(value, int)][:1]
    if odd:
        raise RuntimeError(_core_messages.STORAGE_ITEM_NOT_INT.format(*map(_core_messages.type_name, (data, *odd))))
    return bytearray(size) if size is not None else bytearray(value % 256 for value in data)


class TypedStorage(NamedTuple):
    """A storage and the dtype its bytes are read as: what a tensor's recipe (``__reduce_ex__``) and a
    saved file refer to. Each tensor makes its own, so a pickle holds a copy of the bytes per tensor."""

    untyped: UntypedStorage
    dtype: object  # a reftorch dtype

    def __reduce__(self):
        return (TypedStorage, (copy.copy(self.untyped), self.dtype))
