"""More methods, attached as ``_tensor_methods`` attaches the rest: ``a.narrow(0, 1, 2)`` runs
``_views.narrow(a, 0, 1, 2)``, a plain class attribute with nothing in between.

``_tensor_methods`` is the way in that a reader of the core passes through, and it is counted
with the core. The methods here have their lessons beyond the core (views, multi-output views,
in-place operators and metadata ops, advanced indexing, optimizers' updates, comparing, numpy,
the other dtypes, new tensors, hooks, layouts, a storage's bytes), so no reader of the core
passes them. ``reftorch.sparse`` gives both tables' methods a version per layout.
"""

from . import _advanced_indexing, _argmax, _bitwise, _clamp, _compare, _convert, _dtype, _factories
from . import _floor_divide, _index_select, _inplace, _math, _metadata_inplace, _more_dtypes
from . import _multi_output_views, _remainder, _repeat, _shared_memory, _signs, _storage_items, _unary
from . import _update_ops, _views
from ._layout import strided
from ._storage import UntypedStorage
from ._tensor import Tensor
from .autograd import hooks

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
    "bitwise_left_shift": _bitwise.bitwise_left_shift, "bitwise_right_shift": _bitwise.bitwise_right_shift,
    "__lshift__": _bitwise.__lshift__, "__rshift__": _bitwise.__rshift__,
    "__rlshift__": _bitwise.__rlshift__, "__rrshift__": _bitwise.__rrshift__,
    "bitwise_left_shift_": _inplace.bitwise_left_shift_, "bitwise_right_shift_": _inplace.bitwise_right_shift_,
    "__ilshift__": _inplace.__ilshift__, "__irshift__": _inplace.__irshift__,
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
    # multi-output views, as_strided_, in-place metadata ops
    "split": _multi_output_views.split, "split_with_sizes": _multi_output_views.split_with_sizes,
    "chunk": _multi_output_views.chunk, "unbind": _multi_output_views.unbind,
    "t_": _metadata_inplace.t_, "transpose_": _metadata_inplace.transpose_,
    "unsqueeze_": _metadata_inplace.unsqueeze_, "squeeze_": _metadata_inplace.squeeze_,
    "as_strided_": _metadata_inplace.as_strided_, "resize_": _metadata_inplace.resize_,
    "resize_as_": _metadata_inplace.resize_as_, "set_": _metadata_inplace.set_,
    # advanced indexing
    "index_put_": _advanced_indexing.index_put_, "index_select": _index_select.index_select,
    # what optimizers update parameters with
    "lerp": _update_ops.lerp, "lerp_": _update_ops.lerp_,
    "addcmul_": _update_ops.addcmul_, "addcdiv_": _update_ops.addcdiv_,
    # comparing and converting
    "__eq__": _convert.__eq__, "__ne__": _math.__ne__, "__lt__": _math.__lt__, "__le__": _math.__le__,
    "__gt__": _math.__gt__, "__ge__": _math.__ge__,
    "eq": _math.eq, "ne": _math.ne, "lt": _math.lt, "le": _math.le, "gt": _math.gt, "ge": _math.ge,
    "argmax": _argmax.argmax, "argmin": _argmax.argmin,
    "new_zeros": _factories.new_zeros, "new_ones": _factories.new_ones, "new_empty": _factories.new_empty,
    "new_full": _factories.new_full,
    "equal": _compare.equal_method, "isclose": _compare.isclose_method, "allclose": _compare.allclose_method,
    "numpy": _convert.numpy, "__array__": _convert.__array__, "__array_wrap__": _convert.__array_wrap__,
    "__array_priority__": 1000,  # as torch's
    "half": _more_dtypes.half, "int": _more_dtypes.int, "short": _more_dtypes.short, "char": _more_dtypes.char,
    "byte": _more_dtypes.byte,
    # hooks, and the square root optimizers take
    "register_hook": hooks.register_hook, "sqrt": _unary.sqrt,
    "nelement": Tensor.numel,
    "is_cuda": property(lambda self: self.device.type == "cuda"),
    "_cdata": property(id),  # equal only for the very same tensor object
    # fields the core reads directly: made in inference_mode (or a view of one); which output of its
    # grad_fn a tensor is (0 except for split and friends)
    "is_inference": lambda self: self._inference, "output_nr": property(lambda self: self._output_nr),
    # layouts: every tensor is strided until reftorch.sparse is imported
    "layout": property(lambda self: strided), "is_sparse": property(lambda self: False),
    "is_sparse_csr": property(lambda self: False),
}

for _name, _function in _METHODS.items():
    setattr(Tensor, _name, _function)
UntypedStorage.__getitem__ = _storage_items.__getitem__
UntypedStorage.share_memory_ = _shared_memory.storage_share_memory_
UntypedStorage.is_shared = _shared_memory.storage_is_shared
