"""detach() and .data: same memory, no history.

``d = a.detach()``:

* Python object: new. Metadata: new (same size, stride, offset, dtype,
  device), with ``requires_grad=False`` and no ``grad_fn``: ``d`` is a leaf.
* Memory: *shared*. Writing to ``d`` changes ``a``.
* Version counter: *shared*. So if ``a``'s values were saved for backward and
  you overwrite them through ``d``, backward raises instead of silently
  computing a wrong gradient.
* ``d`` is not an autograd view: ``d._base`` is None.

``a.data`` is the same, except for the last safety net: it gets a *new*
version counter. Autograd does not see writes made through it, and a
gradient computed afterwards can be silently wrong. Assigning ``a.data = t``
makes ``a`` look at ``t``'s memory and metadata, keeping ``a``'s own version
counter and autograd state.
"""

from . import _core_messages, _overrides
from ._tensor import Tensor

def detach(self):
    """New metadata on the same storage and the same version counter, off the graph.

    An inference tensor has no counter to share: its ``detach()`` is an
    inference tensor with a counter of its own (outside ``inference_mode``).
    """
    counter = None if self._inference else self._version_counter
    return Tensor._make(self._storage, self._storage_offset, self._size, self._stride,
                        self._dtype, counter, inference=self._inference)
detach = _overrides.overridable(detach)


def detach_(self):
    """Cut ``self`` itself out of the graph: it becomes a leaf without grad."""
    if self._base_tensor is not None:
        raise RuntimeError(_core_messages.DETACH_VIEW_INPLACE)
    self._grad_fn = None
    self._requires_grad = False
    return self


def _get_data(self):
    """Like ``detach()``, but with a new version counter: in-place writes go unseen."""
    return Tensor._make(self._storage, self._storage_offset, self._size, self._stride, self._dtype,
                        inference=self._inference)
_get_data = _overrides.overridable(_get_data)


def _set_data(self, new):
    """Point ``self`` at ``new``'s memory and metadata; keep identity, version and graph."""
    if not isinstance(new, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(new).__name__}")
    if (new._dtype, new.device) != (self._dtype, self.device):
        self._grad_acc = None  # torch drops a gradient accumulator made for the old dtype or device
    self._storage = new._storage
    self._storage_offset = new._storage_offset
    self._size = new._size
    self._stride = new._stride
    self._dtype = new._dtype
_set_data = _overrides.overridable(_set_data)


data = property(_get_data, _set_data)
