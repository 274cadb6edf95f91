"""Attach each operation to Tensor as a method, as torch does: ``a.clone()`` runs ``_clone.clone(a)``,
a plain class attribute, with nothing in between. Where torch's signature needs parsing first, the
table names ``_binding``'s function (``_arguments.no_arguments``'s for a C method that takes none); where
torch refuses an argument (or a meta tensor) first, the module that does (``_memory_formats``, ``_meta``,
``reftorch.autograd``, ``autograd/grad_setter``). ``reftorch.sparse`` installs the sparse layouts' tables."""

from . import _clone, _detach, _indexing, _inplace, _math
from . import _binding, _memory_formats, _meta, _tensor_str
from . import _arguments, _copy_binding, _unary, autograd
from . import _powers, _python_copy, _reduce, _scalars, _views
from ._tensor import Tensor
from .autograd import grad_setter, variable


_METHODS = {
    # copies
    "clone": _clone.clone, "contiguous": _memory_formats.contiguous,
    "detach": _arguments.no_arguments(_detach.detach), "detach_": _arguments.no_arguments(_detach.detach_),
    "data": _detach.data, "copy_": _copy_binding.copy_, "new_tensor": _binding.new_tensor,
    "to": _binding.to, "cpu": _binding.cpu, "cuda": _binding.cuda,
    "float": _binding.float, "double": _binding.double, "long": _binding.long, "bool": _binding.bool,
    "__reduce_ex__": _meta.__reduce_ex__, "__setstate__": _python_copy.__setstate__,
    "__deepcopy__": _python_copy.__deepcopy__, "is_contiguous": _memory_formats.is_contiguous,
    # Python numbers
    "tolist": _scalars.tolist, "item": _scalars.item, "__bool__": _scalars.__bool__, "__float__": _scalars.__float__,
    # views and indexing
    "view": _views.view, "reshape": _views.reshape, "t": _views.t, "expand": _views.expand,
    "as_strided": _views.as_strided, "__getitem__": _indexing.__getitem__, "__setitem__": _indexing.__setitem__,
    # math
    "exp": _unary.exp, "sum": _reduce.sum, "mean": _reduce.mean, "__neg__": _unary.neg,
    "__add__": _math.__add__, "__radd__": _math.__radd__, "__sub__": _math.__sub__, "__rsub__": _math.__rsub__,
    "__mul__": _math.__mul__, "__rmul__": _math.__rmul__, "__truediv__": _math.__truediv__, "__pow__": _powers.__pow__,
    # in place
    "add_": _inplace.add_, "sub_": _inplace.sub_, "mul_": _inplace.mul_, "zero_": _inplace.zero_,
    "fill_": _inplace.fill_, "__iadd__": _inplace.__iadd__, "__isub__": _inplace.__isub__, "__imul__": _inplace.__imul__,
    # autograd
    "requires_grad": property(variable.requires_grad, variable.set_requires_grad),
    "grad": property(variable.grad, grad_setter.set_grad), "grad_fn": property(variable.grad_fn), "is_leaf": property(variable.is_leaf),
    "retain_grad": variable.retain_grad, "requires_grad_": autograd.requires_grad_, "backward": autograd.tensor_backward,
}

for _name, _function in _METHODS.items():
    setattr(Tensor, _name, _function)
Tensor.__repr__ = _tensor_str._str
