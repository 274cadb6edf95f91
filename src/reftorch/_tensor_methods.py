"""Attach each operation to Tensor as a method, as torch does.

``Tensor`` (in ``_tensor``) holds data and metadata only. Every operation is a
plain function in the module that explains it, taking the tensor as ``self``;
this table is where they become methods, so ``a.clone()`` runs
``_clone.clone(a)``. Read an operation's module to see what it does.
"""

from . import _clone, _copy_, _creation, _detach, _indexing, _inplace, _math, _matmul
from . import _advanced_indexing, _index_select
from . import _powers, _python_copy, _reduce, _to, _unary, _views
from ._tensor import Tensor
from .autograd.functional_api import backward as _backward


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate d(self)/d(leaf) into the ``.grad`` of every leaf that requires grad."""
    _backward(self, gradient, retain_graph, create_graph, inputs)


def requires_grad_(self, requires_grad=True):
    """Switch gradient tracking on a leaf. Metadata only: no version bump."""
    if not self.is_leaf and not requires_grad:
        Tensor.requires_grad.fset(self, False)  # raises torch's message
    if requires_grad and not self._dtype.is_floating_point:
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    if self.is_leaf:
        self._requires_grad = bool(requires_grad)
    return self


_METHODS = {
    # copies
    "clone": _clone.clone, "contiguous": _clone.contiguous,
    "detach": _detach.detach, "detach_": _detach.detach_, "data": _detach.data,
    "copy_": _copy_.copy_,
    "to": _to.to, "cpu": _to.cpu, "cuda": _to.cuda,
    "float": _to.float, "double": _to.double, "long": _to.long, "bool": _to.bool,
    "new_tensor": _creation.new_tensor, "new_zeros": _creation.new_zeros,
    "new_ones": _creation.new_ones, "new_empty": _creation.new_empty, "new_full": _creation.new_full,
    "__reduce_ex__": _python_copy.__reduce_ex__, "__setstate__": _python_copy.__setstate__,
    "__deepcopy__": _python_copy.__deepcopy__,
    # views and indexing
    "view": _views.view, "reshape": _views.reshape, "flatten": _views.flatten,
    "t": _views.t, "transpose": _views.transpose, "permute": _views.permute,
    "expand": _views.expand, "unsqueeze": _views.unsqueeze, "squeeze": _views.squeeze,
    "select": _views.select, "as_strided": _views.as_strided,
    "__getitem__": _indexing.__getitem__, "__setitem__": _indexing.__setitem__,
    # math
    "add": _math.add, "sub": _math.sub, "mul": _math.mul, "div": _math.div, "pow": _powers.pow,
    "neg": _unary.neg, "exp": _unary.exp, "sigmoid": _unary.sigmoid, "reciprocal": _unary.reciprocal,
    "__add__": _math.add, "__radd__": _math.__radd__, "__sub__": _math.sub,
    "__rsub__": _math.__rsub__, "__mul__": _math.mul, "__rmul__": _math.__rmul__,
    "__truediv__": _math.div, "__rtruediv__": _unary.__rtruediv__,
    "__pow__": _powers.pow, "__rpow__": _powers.__rpow__, "__neg__": _unary.neg,
    "__eq__": _math.eq, "__ne__": _math.ne, "__lt__": _math.lt, "__le__": _math.le,
    "__gt__": _math.gt, "__ge__": _math.ge,
    "eq": _math.eq, "ne": _math.ne, "lt": _math.lt, "le": _math.le, "gt": _math.gt, "ge": _math.ge,
    "sum": _reduce.sum, "mean": _reduce.mean,
    "matmul": _matmul.matmul, "__matmul__": _matmul.matmul,
    # in place
    "add_": _inplace.add_, "sub_": _inplace.sub_, "mul_": _inplace.mul_, "div_": _inplace.div_,
    "zero_": _inplace.zero_, "fill_": _inplace.fill_,
    "__iadd__": _inplace.__iadd__, "__isub__": _inplace.__isub__,
    "__imul__": _inplace.__imul__, "__itruediv__": _inplace.__itruediv__,
    # autograd
    "backward": backward, "requires_grad_": requires_grad_,
    # comparing and converting
    # autograd modes
    # multi-output views, as_strided_, in-place metadata ops
    # advanced indexing
    "index_put_": _advanced_indexing.index_put_, "index_select": _index_select.index_select,
    # nn, optim and hooks
    # sparse COO
}

for _name, _function in _METHODS.items():
    setattr(Tensor, _name, _function)

# Comparisons make tensors unhashable by default in Python; torch keeps identity hashing.
Tensor.__hash__ = object.__hash__
