"""More methods, attached as ``_tensor_methods`` attaches the rest: ``a.narrow(0, 1, 2)`` runs
``_views.narrow(a, 0, 1, 2)``, a plain class attribute with nothing in between.

``_tensor_methods`` is the way in that a reader of the core passes through, and it is counted
with the core. The methods here have their lessons beyond the core (views, in-place operators,
a storage's bytes), so no reader of the core passes them.
"""

from . import _bitwise, _clamp, _dtype, _floor_divide, _inplace, _remainder, _repeat, _shared_memory, _signs
from . import _storage_items, _views
from ._storage import UntypedStorage
from ._tensor import Tensor

_METHODS = {
    "narrow": _views.narrow, "expand_as": _views.expand_as,
    "floor_divide_": _inplace.floor_divide_, "bitwise_or_": _inplace.bitwise_or_,
    "__ifloordiv__": _inplace.__ifloordiv__, "__ior__": _inplace.__ior__,
    "pow_": _inplace.pow_, "__ipow__": _inplace.__ipow__,
    "floor_divide": _floor_divide.floor_divide, "__floordiv__": _floor_divide.__floordiv__,
    "__rfloordiv__": _floor_divide.__rfloordiv__,
    "bitwise_or": _bitwise.bitwise_or, "bitwise_and": _bitwise.bitwise_and, "bitwise_xor": _bitwise.bitwise_xor,
    "bitwise_not": _bitwise.bitwise_not, "__invert__": _bitwise.__invert__,
    "__or__": _bitwise.__or__, "__and__": _bitwise.__and__, "__xor__": _bitwise.__xor__,
    "__ror__": _bitwise.__ror__, "__rand__": _bitwise.__rand__, "__rxor__": _bitwise.__rxor__,
    "bitwise_and_": _inplace.bitwise_and_, "bitwise_xor_": _inplace.bitwise_xor_,
    "__iand__": _inplace.__iand__, "__ixor__": _inplace.__ixor__,
    "is_complex": _dtype.is_complex, "is_conj": _dtype.is_conj, "conj": _dtype.conj,
    "resolve_conj": _dtype.resolve_conj,
    "repeat": _repeat.repeat,
    "clamp": _clamp.clamp, "clip": _clamp.clip, "clamp_": _clamp.clamp_, "clip_": _clamp.clamp_,
    "clamp_min": _clamp.clamp_min, "clamp_max": _clamp.clamp_max,
    "abs": _signs.abs, "__abs__": _signs.abs, "absolute": _signs.abs, "abs_": _signs.abs_, "neg_": _signs.neg_,
    "positive": _signs.positive, "__pos__": _signs.positive, "negative": _signs.neg,
    "remainder": _remainder.remainder, "remainder_": _remainder.remainder_, "fmod": _remainder.fmod,
    "fmod_": _remainder.fmod_, "__mod__": _remainder.__mod__, "__rmod__": _remainder.__rmod__,
    "__imod__": _remainder.__imod__,
    "share_memory_": _shared_memory.share_memory_, "is_shared": _shared_memory.is_shared,
    # the bytes of the elements, counted as if laid out one after the other (an expanded tensor's too)
    "nbytes": property(lambda self: self.numel() * self.element_size()),
    "itemsize": property(lambda self: self.element_size()),
}

for _name, _function in _METHODS.items():
    setattr(Tensor, _name, _function)
UntypedStorage.__getitem__ = _storage_items.__getitem__
UntypedStorage.share_memory_ = _shared_memory.storage_share_memory_
UntypedStorage.is_shared = _shared_memory.storage_is_shared
