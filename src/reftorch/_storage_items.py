"""``s[i]`` and ``s[i:j]``: a storage read byte by byte, or a window on its bytes.

A storage has no dtype and no shape, so an index names one byte: ``s[i]`` is
that byte as a Python int (0 to 255), a copy of the number, not a view.
``s[i:j]`` is a new storage object on the same bytes, starting at byte ``i``:
no copy, so a write through either shows in the other. Nothing here touches a
tensor's metadata, version counter or graph.
"""

import numbers

from . import _messages
from ._storage import UntypedStorage


def __getitem__(self, index):
    if self.device.type == "meta":
        raise NotImplementedError("Not available for 'meta' device type")
    n = self.nbytes()
    if isinstance(index, slice):
        start, stop, step = index.indices(n)
        if step != 1:
            raise RuntimeError(_messages.STORAGE_SLICE_STEP.format(step))
        return UntypedStorage._wrap(self._bytes[start:max(start, stop)], self.device)
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise TypeError(f"can't index a torch.UntypedStorage with {_messages.type_name(index)}")
    position = index + n if index < 0 else index
    if not 0 <= position < n:
        raise IndexError(f"index {position} out of range for storage of size {n}")
    return self._bytes[position]
