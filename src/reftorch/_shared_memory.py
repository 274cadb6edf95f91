"""``t.share_memory_()``: the storage's bytes moved into memory that other processes can map.

* **Python object**: ``share_memory_()`` returns ``self``. Nothing else is new: the storage
  object stays the same, and every tensor on it (views, ``detach()``, ``.data``) follows.
* **Metadata**: size, stride, offset and dtype are unchanged.
* **Memory**: on CPU the bytes are copied into a new block of shared memory (an anonymous
  shared ``mmap``, which a forked process sees too): a new ``data_ptr()``, the same numbers.
  A storage already in shared memory stays where it is. ``clone()``, ``copy.deepcopy`` and
  pickling make ordinary blocks again. A meta storage has no bytes to move and is refused.
* **Graph and version counter**: untouched; moving bytes is not a write.

``t.is_shared()`` asks the storage whether its bytes live in such a block.
"""

import mmap


def storage_share_memory_(storage):
    """Move ``storage``'s bytes into shared memory; return ``storage``."""
    if storage.device.type != "cpu":
        raise RuntimeError("_share_fd_: only available on CPU")
    if not storage_is_shared(storage):
        block = mmap.mmap(-1, max(storage.nbytes(), 1))  # shared and anonymous; mmap refuses 0 bytes
        block[:storage.nbytes()] = storage._bytes
        storage._bytes, storage._address = memoryview(block).cast("B")[:storage.nbytes()], None
    return storage


def storage_is_shared(storage):
    """True when the bytes are a view of a shared mapping."""
    return isinstance(storage._bytes.obj, mmap.mmap)


def share_memory_(self):
    """Move this tensor's storage into shared memory, in place; return ``self``."""
    storage_share_memory_(self.untyped_storage())
    return self


def is_shared(self):
    return storage_is_shared(self.untyped_storage())
