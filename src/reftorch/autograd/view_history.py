"""A view's history: after a write through its base or another view, the view's
``grad_fn`` is renewed when next needed, as in torch. Only the graph changes.
"""

from .. import _strides
from .._tensor import Tensor
from . import creation_meta
from .graph import Node


class AsStridedBackward0(Node):
    """A renewed view's node, straight to its base: each element's gradient goes to its storage
    slot, and the base reads the slots it covers."""

    def __init__(self, base, view_geometry):
        super().__init__(base)
        self.base_geometry = (base._size, base._stride, base._storage_offset)
        self.view_geometry = view_geometry
        self.slots = base._storage.nbytes() // base._dtype.itemsize

    def apply(self, grad):
        storage = [0] * self.slots
        for slot, value in zip(_strides.element_positions(*self.view_geometry), grad._read()):
            storage[slot] += value
        base_values = [storage[slot] for slot in _strides.element_positions(*self.base_geometry)]
        return (Tensor._from_values(base_values, self.base_geometry[0], grad._dtype, grad.device),)


def rebuild_view_grad_fn(view):
    """Give ``view`` a fresh node (or torch's error) if its memory was written since it last saw it."""
    base = view._base_tensor
    if base is None or (view._grad_fn is None and not base.requires_grad):
        return
    if view._view_version != view._version:
        creation_meta.check_view_write(view, indirect=True)
        view._set_grad_fn(AsStridedBackward0(base, view._geometry()) if base.requires_grad else None)
