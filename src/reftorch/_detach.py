"""detach() and .data: same memory, no history.

``d = a.detach()``: a new object and new metadata (a leaf without ``grad_fn``,
not a view) on the *shared* memory and the *shared* version counter, so backward
still sees writes through ``d``. ``a.data`` is the same with a *new* counter:
writes through it go unseen, and a gradient can be silently wrong.
"""

from . import _core_messages, _overrides
from ._tensor import Tensor

def detach(self):
    """New metadata on the same storage and version counter, off the graph (an inference
    tensor has no counter to share)."""
    counter = None if self._inference else self._version_counter
    return Tensor._make(self._storage, self._storage_offset, self._size, self._stride,
                        self._dtype, counter, inference=self._inference)
detach = _overrides.overridable(detach)


def detach_(self):
    """Cut ``self`` itself out of the graph: it becomes a leaf without grad."""
    if self._base_tensor is not None:
        raise RuntimeError(_core_messages.DETACH_VIEW_INPLACE)
    self._grad_fn, self._requires_grad = None, False
    return self


def _get_data(self):
    """Like ``detach()``, but with a new version counter: in-place writes go unseen."""
    return Tensor._make(self._storage, self._storage_offset, self._size, self._stride, self._dtype,
                        inference=self._inference)
_get_data = _overrides.overridable(_get_data)


def _set_data(self, new):
    """Point ``self`` at ``new``'s memory and metadata (inference flag too); keep identity, version, graph."""
    if not isinstance(new, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {_core_messages.type_name(new)}")
    if (new.device.type == "meta") != (self.device.type == "meta"):  # two kinds of tensor
        raise RuntimeError(_core_messages.SET_DATA_INCOMPATIBLE)
    if self.requires_grad and not new._dtype.is_floating_point:  # reftorch has no complex dtypes
        raise RuntimeError(_core_messages.SET_DATA_NOT_FLOAT)
    if (new._dtype, new.device) != (self._dtype, self.device):
        self._grad_acc = None  # torch drops a gradient accumulator made for the old dtype or device
    self._storage, self._storage_offset, self._size, self._stride, self._dtype, self._inference = (
        new._storage, new._storage_offset, new._size, new._stride, new._dtype, new._inference)
_set_data = _overrides.overridable(_set_data)


data = property(_get_data, _set_data)
