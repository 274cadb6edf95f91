"""copy.copy and copy.deepcopy: Python's own copy protocol applied to tensors.

``copy.copy(t)``: Tensor defines no ``__copy__``, so Python's ``copy`` module
falls back to the pickle protocol, ``__reduce_ex__``: "rebuild a tensor from
this storage, offset, size and stride". Nothing is deep-copied, so the result
is a new tensor object on the *same* storage, with a new version counter
(torch rebuilds it with ``set_()``, so the counter already reads 1), the same
``requires_grad``, no history (it is a leaf), no ``.grad``, the same
Python attributes and no hooks (a warning names each hook left behind).
Like ``.data`` it is an alias autograd cannot see through.

``copy.deepcopy(t)`` follows torch's ``Tensor.__deepcopy__`` step by step:

1. refuse a non-leaf (its history cannot be copied);
2. return the copy already made, if this tensor was met before (the memo);
3. deep-copy the storage through the memo, so views copied in one call
   keep sharing one new storage;
4. rebuild the tensor on it with the same offset, size and stride;
5. restore ``requires_grad``;
6. deep-copy ``.grad``;
7. deep-copy the Python attributes;
8. record the result in the memo.

Hooks are not among the steps: the deep copy has none, and no warning says so.
"""

import copy
import warnings
from collections import OrderedDict

from . import _core_messages, _overrides
from ._tensor import Tensor
from ._version_counter import bump
from .autograd.grad_mode import no_grad

def _rebuild_tensor(storage, storage_offset, size, stride, dtype, requires_grad, backward_hooks=None):
    """The inverse of ``__reduce_ex__``: a fresh tensor object on ``storage``."""
    t = Tensor._make(storage, storage_offset, size, stride, dtype)
    bump(t)  # torch rebuilds with set_(), an in-place op
    t._requires_grad = requires_grad
    t._backward_hooks = backward_hooks
    return t


def __reduce_ex__(self, protocol):
    warn_if_has_hooks(self)
    # Hooks are never copied: the copy gets an empty dict of its own (autograd/hooks.py).
    args = (self._storage, self._storage_offset, self._size, self._stride, self._dtype, self.requires_grad,
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
        new_storage = copy.deepcopy(self._storage, memo)              # 3
        new = _rebuild_tensor(new_storage, self._storage_offset,      # 4
                              self._size, self._stride, self._dtype, False)
        new._requires_grad = self.requires_grad                       # 5
        if self._grad is not None:
            new._grad = copy.deepcopy(self._grad, memo)               # 6
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))       # 7
    memo[id(self)] = new                                              # 8
    return new
__deepcopy__ = _overrides.overridable(__deepcopy__)


def warn_if_has_hooks(tensor):
    """``copy.copy`` (and saving) cannot keep hooks: torch warns once per hook."""
    hooks = tensor._backward_hooks
    for hook in (hooks or {}).values():
        if not hasattr(hook, "__torch_unserializable__"):
            # torch warns from its own Python code (Tensor.__reduce_ex__), so the
            # warning names a line in torch's _tensor.py; this one names its line here.
            warnings.warn(_core_messages.HOOK_NOT_SERIALIZED.format(hook=repr(hook)), UserWarning, stacklevel=1)
