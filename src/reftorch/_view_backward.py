"""The backward of each view: put the gradient back where the elements came from.

A view picks some elements of its input, so the input's gradient is zero
everywhere except at those elements, which get the view's gradient. Views that
only reshape (``view``, ``unsqueeze``, ``squeeze``) just reshape the gradient
back; ``t``/``transpose``/``permute`` hand on a transposed *view* of it, as torch
does (so a leaf's ``.grad`` is then a copy in the leaf's layout); ``expand`` used one
element many times, so its gradient is the sum. ``as_strided`` and a view whose
node is rebuilt after a write use ``AsStridedBackward0`` (``autograd/view_history``).
"""

import numpy as np

from ._math import sum_to_shape
from ._tensor import Tensor
from .autograd.graph import Node


def _zeros_like_input(node, grad):
    return np.zeros(node.input_shape, dtype=grad._elements().dtype)


def _wrap(values, like):
    return Tensor._from_values(values, like._dtype, like.device)


class _ViewNode(Node):
    def __init__(self, source):
        super().__init__(source)
        self.input_shape = source._size


class _ReshapingNode(_ViewNode):
    """Views that keep every element in order: the gradient just changes shape."""

    def apply(self, grad):
        return (_wrap(grad._elements().reshape(self.input_shape), grad),)


class ViewBackward0(_ReshapingNode):
    pass


class UnsafeViewBackward0(_ReshapingNode):
    pass


class AliasBackward0(_ReshapingNode):
    pass


class UnsqueezeBackward0(_ReshapingNode):
    pass


class SqueezeBackward0(_ReshapingNode):
    pass


class SqueezeBackward1(_ReshapingNode):
    pass


class SqueezeBackward4(_ReshapingNode):
    pass


class TransposeBackward0(_ViewNode):
    def __init__(self, source, dim0, dim1):
        super().__init__(source)
        self.dims = (dim0, dim1)

    def apply(self, grad):
        # a view of the gradient, as torch hands on (the leaf's AccumulateGrad then copies it
        # into the leaf's own layout)
        return (grad.transpose(*self.dims),)


class TBackward0(TransposeBackward0):
    pass


class PermuteBackward0(_ViewNode):
    def __init__(self, source, dims):
        super().__init__(source)
        self.dims = dims

    def apply(self, grad):
        return (grad.permute(*np.argsort(self.dims).tolist()),)


class ExpandBackward0(_ViewNode):
    """An expanded element was used many times: its gradient is the sum."""

    def apply(self, grad):
        return (_wrap(sum_to_shape(grad._elements(), self.input_shape), grad),)


class SelectBackward0(_ViewNode):
    def __init__(self, source, dim, index):
        super().__init__(source)
        self.dim, self.index = dim, index

    def apply(self, grad):
        result = _zeros_like_input(self, grad)
        result[(slice(None),) * self.dim + (self.index,)] = grad._elements()
        return (_wrap(result, grad),)


class SliceBackward0(_ViewNode):
    def __init__(self, source, dim, start, stop, step):
        super().__init__(source)
        self.dim, self.where = dim, slice(start, stop, step)

    def apply(self, grad):
        result = _zeros_like_input(self, grad)
        result[(slice(None),) * self.dim + (self.where,)] = grad._elements()
        return (_wrap(result, grad),)
