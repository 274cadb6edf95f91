"""The backward of each view: put the gradient back where the elements came from.

A view picks some elements of its input, so the input's gradient is zero
everywhere except at those elements, which get the view's gradient. Views that
only reshape (``view``, ``unsqueeze``, ``squeeze``) just reshape the gradient
back (``view`` and ``reshape`` as ``grad.reshape``, a view of it where one exists, as
torch does); ``t``/``transpose``/``permute`` hand on a transposed *view* of it, as torch
does (so a leaf's ``.grad`` is then a copy in the leaf's layout); ``expand`` used one
element many times, so its gradient is the sum. ``as_strided`` and a view whose
node is rebuilt after a write use ``AsStridedBackward0`` (``autograd/view_history``).
"""

from . import _strides
from ._math import sum_to_shape
from ._tensor import Tensor
from .autograd.graph import Node


def place_along(out, shape, dim, places, values):
    """Write ``values`` into ``out`` (the row-major numbers of ``shape``) at
    positions ``places`` along ``dim``: ``out[..., places, ...] = values``, with
    ``values`` row-major for ``shape`` with ``len(places)`` along ``dim``."""
    n, inner, k = shape[dim], _strides.numel(shape[dim + 1:]), len(places)
    for o in range(_strides.numel(shape[:dim])):
        for j, p in enumerate(places):
            out[(o * n + p) * inner:(o * n + p + 1) * inner] = values[(o * k + j) * inner:(o * k + j + 1) * inner]


def _placed(node, grad, places):
    """Zeros shaped like the view's input, with ``grad`` at ``places`` along the view's dim."""
    out = [0] * _strides.numel(node.input_shape)
    place_along(out, node.input_shape, node.dim, places, grad._read())
    return Tensor._from_values(out, node.input_shape, grad._dtype, grad.device)


class _ViewNode(Node):
    def __init__(self, source):
        super().__init__(source)
        self.input_shape = source._size


class _ReshapingNode(_ViewNode):
    """Views that keep every element in order: the gradient just changes shape."""

    def apply(self, grad):
        return (Tensor._from_values(grad._read(), self.input_shape, grad._dtype, grad.device),)


class _ReshapeBack(_ReshapingNode):
    """``view`` and ``reshape``: torch hands on ``grad.reshape(input size)``, a view of the gradient
    where one exists (of a sum's expanded gradient too: a leaf's ``.grad`` is then a copy)."""

    def apply(self, grad):
        return (grad.reshape(self.input_shape),)


class ViewBackward0(_ReshapeBack):
    pass


class UnsafeViewBackward0(_ReshapeBack):
    pass


class AliasBackward0(_ReshapingNode):
    pass


class UnsqueezeBackward0(_ReshapingNode):
    pass


class SqueezeBackward0(_ReshapingNode):
    pass


class SqueezeBackward1(_ReshapingNode):
    pass


class SqueezeBackward2(_ReshapingNode):
    """``squeeze((dims...))``."""


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
        return (grad.permute(*sorted(range(len(self.dims)), key=self.dims.__getitem__)),)


class ExpandBackward0(_ViewNode):
    """An expanded element was used many times: its gradient is the sum."""

    def apply(self, grad):
        values = sum_to_shape(grad._read(), grad._size, self.input_shape)
        return (Tensor._from_values(values, self.input_shape, grad._dtype, grad.device),)


class SelectBackward0(_ViewNode):
    def __init__(self, source, dim, index):
        super().__init__(source)
        self.dim, self.index = dim, index

    def apply(self, grad):
        return (_placed(self, grad, [self.index % self.input_shape[self.dim]]),)


class SliceBackward0(_ViewNode):
    def __init__(self, source, dim, start, stop, step):
        super().__init__(source)
        self.dim, self.where = dim, slice(start, stop, step)

    def apply(self, grad):
        return (_placed(self, grad, range(*self.where.indices(self.input_shape[self.dim]))),)
