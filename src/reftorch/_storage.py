"""Storage: the flat block of bytes that holds a tensor's numbers.

A storage knows nothing about shape. It is one allocation: ``nbytes()`` bytes
at address ``data_ptr()`` on one device. Many tensors can look at the same
storage (views, ``detach()``, ``.data``, ``copy.copy``); a copy that "owns its
memory" (``clone()``, ``copy.deepcopy``, ``torch.tensor(t)``) is a tensor whose
storage is a new allocation.

Here the bytes are a ``bytearray`` (or memory borrowed from numpy), seen
through a ``memoryview``; ``data_ptr()`` is its real address, so two storages
never overlap. No tensor can reach past the end of its storage: ``_bounds``
checks every layout against ``nbytes()``.
"""

import ctypes

from . import _core_messages
from ._device import cpu


class UntypedStorage:
    """One allocation of raw bytes on a device."""

    _resizable = True  # False for borrowed memory (see _wrap); resize_ grows the others (_metadata_inplace)

    def __init__(self, nbytes, device=cpu):
        if not isinstance(nbytes, int):
            raise RuntimeError(f"torch.UntypedStorage(): Expected a sequence type, but got {type(nbytes).__name__}")
        if nbytes < 0:
            raise RuntimeError(_core_messages.NEGATIVE_ALLOCATION.format(nbytes % (1 << 64)))
        self._bytes, self._address = memoryview(bytearray(nbytes)), None  # zero-filled; address looked up later
        self.device = device

    @classmethod
    def _wrap(cls, buffer, device=cpu, resizable=True, address=None):
        """A storage over existing bytes (a ``bytearray``, or a numpy array's memory).

        ``resizable=False`` for memory the storage borrows (``from_numpy``):
        it cannot be reallocated, since the lender still points at it, and
        the lender tells its ``address`` (ctypes finds only writable ones).
        """
        storage = cls.__new__(cls)
        storage._bytes, storage._address = memoryview(buffer).cast("B"), address
        storage.device, storage._resizable = device, resizable
        return storage

    def nbytes(self):
        """Size of the allocation in bytes."""
        return self._bytes.nbytes

    def size(self):
        """For an untyped storage, the size is counted in bytes too."""
        return self._bytes.nbytes

    def data_ptr(self):
        """The address of the first byte. Equal addresses mean shared memory.

        An allocation of 0 bytes, or one on the meta device (which holds no
        numbers), has no address: 0, as in torch.
        """
        if not self._bytes.nbytes or self.device.type == "meta":
            return 0
        if self._address is None:
            self._address = ctypes.addressof(ctypes.c_char.from_buffer(self._bytes))
        return self._address

    def __deepcopy__(self, memo):
        # A storage reached twice in one deepcopy call is copied once, so views
        # that are deep-copied together still share one (new) storage. Like
        # torch, keep that table inside the memo, under the key "torch".
        copies = memo.setdefault("torch", {})
        if id(self) not in copies:
            copies[id(self)] = UntypedStorage._wrap(bytearray(self._bytes), self.device)
        return copies[id(self)]

    def __len__(self):
        return self.nbytes()

    def __repr__(self):
        return f"<reftorch UntypedStorage of {self.nbytes()} bytes on {self.device}>"
