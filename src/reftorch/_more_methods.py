"""More methods, attached as ``_tensor_methods`` attaches the rest: ``a.narrow(0, 1, 2)`` runs
``_views.narrow(a, 0, 1, 2)``, a plain class attribute with nothing in between.

``_tensor_methods`` is the way in that a reader of the core passes through, and it is counted
with the core. The methods here have their lessons beyond the core (views, multi-output views,
in-place operators and metadata ops, advanced indexing, optimizers' updates, arithmetic called
by name (``a.mul(b)``, where the core's lessons write ``a * b``), ``matmul``, comparing, numpy,
``len``, ``iter``, ``int`` and ``type()``, the other dtypes, new tensors, hooks, layouts, a
storage's bytes), so no reader of the core passes them. ``reftorch.sparse`` gives both tables'
methods a version per layout.
"""

from . import _advanced_indexing, _argmax, _bitwise, _clamp, _compare, _convert, _dtype, _factories
from . import _floor_divide, _index_select, _inplace, _math, _metadata_inplace, _more_dtypes
from . import _multi_output_views, _remainder, _repeat, _shared_memory, _signs, _storage_items, _unary
from . import _matmul, _powers, _scalars, _typename, _update_ops, _views
from ._layout import strided
from ._storage import UntypedStorage
from ._tensor import Tensor
from .autograd import hooks

# The methods that are their module's function of the same name, by lesson.
_SAME_NAMES = (
    # views, and the in-place operators beyond the core's
    (_views, ("narrow", "expand_as", "transpose", "flatten", "permute", "unsqueeze", "squeeze", "select")),
    (_inplace, ("div_", "__itruediv__", "floor_divide_", "bitwise_or_", "__ifloordiv__", "__ior__", "pow_", "__ipow__",
                "bitwise_and_", "bitwise_xor_", "__iand__", "__ixor__", "bitwise_left_shift_",
                "bitwise_right_shift_", "__ilshift__", "__irshift__")),
    (_floor_divide, ("floor_divide", "__floordiv__", "__rfloordiv__")),
    (_bitwise, ("bitwise_or", "bitwise_and", "bitwise_xor", "bitwise_not", "__invert__", "__or__",
                "__and__", "__xor__", "__ror__", "__rand__", "__rxor__", "bitwise_left_shift",
                "bitwise_right_shift", "__lshift__", "__rshift__", "__rlshift__", "__rrshift__")),
    # dtypes, repeating, clamping, signs, remainders, shared memory
    (_dtype, ("is_complex", "is_conj", "conj", "resolve_conj")),
    (_more_dtypes, ("half", "int", "short", "char", "byte")),
    (_repeat, ("repeat",)),
    (_clamp, ("clamp", "clip", "clamp_", "clamp_min", "clamp_max")),
    (_signs, ("abs", "abs_", "neg_", "positive")),
    (_remainder, ("remainder", "remainder_", "fmod", "fmod_", "__mod__", "__rmod__", "__imod__")),
    (_shared_memory, ("share_memory_", "is_shared")),
    # multi-output views, as_strided_, in-place metadata ops, advanced indexing
    (_multi_output_views, ("split", "split_with_sizes", "chunk", "unbind")),
    (_metadata_inplace, ("t_", "transpose_", "unsqueeze_", "squeeze_", "as_strided_", "resize_",
                         "resize_as_", "set_")),
    (_advanced_indexing, ("index_put_",)),
    (_index_select, ("index_select",)),
    # what optimizers update parameters with, and the square root they take
    (_update_ops, ("lerp", "lerp_", "addcmul_", "addcdiv_")),
    (_unary, ("sqrt", "neg", "sigmoid", "reciprocal", "__rtruediv__")),
    # arithmetic by name, comparing, converting, new tensors, hooks, Python's len, iter and format
    (_convert, ("__eq__", "numpy", "__array__", "__array_wrap__")),
    (_math, ("add", "sub", "mul", "div", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "eq", "ne", "lt", "le", "gt", "ge")),
    (_argmax, ("argmax", "argmin")),
    (_powers, ("pow", "__rpow__")),
    (_matmul, ("matmul", "__matmul__")),
    (_scalars, ("__int__", "__len__", "__iter__", "__index__", "__format__")),
    (_typename, ("type",)),
    (_factories, ("new_zeros", "new_ones", "new_empty", "new_full")),
    (hooks, ("register_hook",)),
)

_METHODS = {name: getattr(module, name) for module, names in _SAME_NAMES for name in names}
_METHODS.update({
    # other names for the same functions
    "clip_": _clamp.clamp_,
    "__abs__": _signs.abs, "absolute": _signs.abs,
    "__pos__": _signs.positive, "negative": _signs.neg,
    # the bytes of the elements, counted as if laid out one after the other (an expanded tensor's too)
    "nbytes": property(lambda self: self.numel() * self.element_size()),
    "itemsize": property(lambda self: self.element_size()),
    "equal": _compare.equal_method, "isclose": _compare.isclose_method, "allclose": _compare.allclose_method,
    "__array_priority__": 1000,  # as torch's
    "nelement": Tensor.numel, "ndim": property(Tensor.dim),
    "is_cuda": property(lambda self: self.device.type == "cuda"),
    "_cdata": property(id),  # equal only for the very same tensor object
    # fields the core reads directly: made in inference_mode (or a view of one); which output of its
    # grad_fn a tensor is (0 except for split and friends)
    "is_inference": lambda self: self._inference, "output_nr": property(lambda self: self._output_nr),
    "retains_grad": property(lambda self: self._retains_grad),
    # layouts: every tensor is strided until reftorch.sparse is imported
    "layout": property(lambda self: strided), "is_sparse": property(lambda self: False),
    "is_sparse_csr": property(lambda self: False),
})

for _name, _function in _METHODS.items():
    setattr(Tensor, _name, _function)
UntypedStorage.__getitem__ = _storage_items.__getitem__
UntypedStorage.share_memory_ = _shared_memory.storage_share_memory_
UntypedStorage.is_shared = _shared_memory.storage_is_shared
