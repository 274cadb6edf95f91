"""copy.copy and copy.deepcopy: Python's own copy protocol applied to tensors.

``copy.copy(t)`` goes through ``__reduce_ex__``: a new object and metadata on the
*same* storage, with a new version counter (already 1: torch rebuilds with ``set_()``),
the same ``requires_grad``, no history, no ``.grad`` and no hooks.
``copy.deepcopy(t)`` follows torch's ``Tensor.__deepcopy__`` in eight numbered steps:
a leaf only, on a new storage shared by the views copied in the same call (a meta tensor,
which has no memory to copy, is cloned; its ``copy.copy`` is ``_meta``'s).
"""

import copy
import warnings
from collections import OrderedDict

from . import _core_messages, _overrides
from ._tensor import Tensor
from ._version_counter import bump
from .autograd.grad_mode import no_grad

def _rebuild_tensor(storage, storage_offset, size, stride, dtype, requires_grad, backward_hooks=None):
    """The inverse of ``__reduce_ex__``: a fresh tensor object on ``storage`` (or on the one a recipe's
    ``TypedStorage`` names: pickled, that is a copy of the bytes, one per tensor, as in torch)."""
    t = Tensor._make(getattr(storage, "untyped", storage), storage_offset, size, stride, dtype)
    bump(t)  # torch rebuilds with set_(), an in-place op
    t._requires_grad = requires_grad
    t._backward_hooks = backward_hooks
    return t


def __reduce_ex__(self, protocol):
    warn_if_has_hooks(self)
    args = (self._typed_storage(), self._storage_offset, self._size, self._stride, self._dtype, self.requires_grad,
            OrderedDict())
    return (_rebuild_tensor, args, self.__dict__ or None)
__reduce_ex__ = _overrides.overridable(__reduce_ex__)


def __setstate__(self, state):
    self.__dict__.update(state)


def __deepcopy__(self, memo):
    if not self.is_leaf:                                              # 1
        raise RuntimeError(_core_messages.DEEPCOPY_NON_LEAF)
    if id(self) in memo:                                              # 2
        return memo[id(self)]
    with no_grad():
        if self.device.type == "meta":                                # 3-4: no memory to copy,
            new = self.clone()                                        #      so a clone, as torch's
        else:
            new_storage = copy.deepcopy(self._storage, memo)          # 3
            new = _rebuild_tensor(new_storage, self._storage_offset,  # 4
                                  self._size, self._stride, self._dtype, False)
        new._requires_grad = self.requires_grad                       # 5
        if self._grad is not None:
            new._grad = copy.deepcopy(self._grad, memo)               # 6
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))       # 7
    memo[id(self)] = new                                              # 8
    return new
__deepcopy__ = _overrides.overridable(__deepcopy__)


def warn_if_has_hooks(tensor):
    """``copy.copy`` (and saving) keep no hooks: torch warns once per hook, from its own line."""
    hooks = tensor._backward_hooks
    for hook in (hooks or {}).values():
        if not hasattr(hook, "__torch_unserializable__"):
            warnings.warn(_core_messages.HOOK_NOT_SERIALIZED.format(hook=repr(hook)), UserWarning, stacklevel=1)
