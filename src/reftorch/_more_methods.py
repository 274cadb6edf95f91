"""More methods, attached as ``_tensor_methods`` attaches the rest: ``a.narrow(0, 1, 2)`` runs
``_views.narrow(a, 0, 1, 2)``, a plain class attribute with nothing in between.

``_tensor_methods`` is the way in that a reader of the core passes through, and it is counted
with the core. The methods here have their lessons beyond the core (views, in-place operators,
a storage's bytes), so no reader of the core passes them.
"""

from . import _inplace, _storage_items, _views
from ._storage import UntypedStorage
from ._tensor import Tensor

_METHODS = {
    "narrow": _views.narrow, "expand_as": _views.expand_as,
    "floor_divide_": _inplace.floor_divide_, "bitwise_or_": _inplace.bitwise_or_,
    "__ifloordiv__": _inplace.__ifloordiv__, "__ior__": _inplace.__ior__,
    "pow_": _inplace.pow_, "__ipow__": _inplace.__ipow__,
}

for _name, _function in _METHODS.items():
    setattr(Tensor, _name, _function)
UntypedStorage.__getitem__ = _storage_items.__getitem__
