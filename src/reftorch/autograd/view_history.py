"""A view's history: bringing a view's ``grad_fn`` up to date after a write.

A view's history runs through its base. Once the shared memory is written in
place through the base or another view, the view's node is out of date, and
the write cannot tell it. As in torch, the view finds out when its ``grad_fn``
is next needed (``t.grad_fn``, ``t.is_leaf``, an operation taking the view as
input, ``rebase_history`` after the view itself was written): each calls
``rebuild_view_grad_fn``, which, if the version counter moved since the view
last looked, gives it a fresh ``AsStridedBackward0`` leading to its base's
history now, or raises torch's error for a view that may not be written
(``creation_meta``). Object, metadata, memory and counter are unchanged.
"""

from .. import _strides
from .._tensor import Tensor
from . import creation_meta
from .graph import Node


class AsStridedBackward0(Node):
    """The most general view backward, computed from storage positions.

    Autograd makes one of these when a view's history has to be rebuilt after
    an in-place write: it leads from the view straight to its base. Each view
    element adds its gradient to the storage slot it lives in; the base then
    reads its gradient from the slots it covers.
    """

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
    """Give ``view`` a fresh node if its memory was written since it last saw it.

    Does nothing for a tensor that is not a view, or for a view with no
    history whose base does not require grad.
    """
    base = view._base_tensor
    if base is None or (view._grad_fn is None and not base.requires_grad):
        return
    if view._view_version != view._version:
        creation_meta.check_view_write(view, indirect=True)
        view._grad_fn = AsStridedBackward0(base, view._geometry()) if base.requires_grad else None
        view._view_version = view._version
