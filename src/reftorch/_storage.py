"""Storage: the flat block of bytes that holds a tensor's numbers.

A storage knows nothing about shape. It is one allocation: ``nbytes()`` bytes
at address ``data_ptr()`` on one device. Many tensors can look at the same
storage (views, ``detach()``, ``.data``, ``copy.copy``); a copy that "owns its
memory" (``clone()``, ``copy.deepcopy``, ``torch.tensor(t)``) is a tensor whose
storage is a new allocation.

Here the bytes are a numpy ``uint8`` array, so ``data_ptr()`` is a real
address and two storages never overlap. No tensor can reach past the end of
its storage: ``_bounds`` checks every layout against ``nbytes()``.
"""

import numpy as np

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
        self._bytes = np.zeros(nbytes, dtype=np.uint8)
        self.device = device

    @classmethod
    def _wrap(cls, byte_array, device=cpu, resizable=True):
        """A storage over an existing numpy byte array.

        ``resizable=False`` for memory the storage borrows (``from_numpy``):
        it cannot be reallocated, since the array's owner still points at it.
        """
        storage = cls.__new__(cls)
        storage._bytes = byte_array
        storage.device = device
        storage._resizable = resizable
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
        return self._bytes.ctypes.data if self._bytes.nbytes and self.device.type != "meta" else 0

    def typed(self, numpy_type, start=0, stop=None):
        """Bytes ``[start, stop)`` read as elements of one numpy type (no copy).

        numpy's slicing clips the range to the allocation: nothing past the
        last byte can be reached through the result.
        """
        return self._bytes[start:stop].view(numpy_type)

    def __deepcopy__(self, memo):
        # A storage reached twice in one deepcopy call is copied once, so views
        # that are deep-copied together still share one (new) storage. Like
        # torch, keep that table inside the memo, under the key "torch".
        copies = memo.setdefault("torch", {})
        if id(self) not in copies:
            copies[id(self)] = UntypedStorage._wrap(self._bytes.copy(), self.device)
        return copies[id(self)]

    def __len__(self):
        return self.nbytes()

    def __repr__(self):
        return f"<reftorch UntypedStorage of {self.nbytes()} bytes on {self.device}>"
