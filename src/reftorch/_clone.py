"""clone(): new memory, same numbers, still in the graph.

``b = a.clone()``: a new object; new metadata (same size, dtype, device; strides
as ``memory_format`` says); a new storage holding copies of the numbers; a new
version counter at 0; and, if ``a`` requires grad, ``CloneBackward0`` as
``b.grad_fn``, passing the gradient to ``a`` unchanged.
"""

from . import _overrides, _strides
from ._layout import contiguous_format, preserve_format
from ._copy_ import CopyBackwards
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad


class CloneBackward0(Node):
    """The gradient of a copy is the gradient of the original: pass it through."""

    def apply(self, grad):
        return (grad,)


def clone(self, *, memory_format=preserve_format):
    if memory_format in (None, preserve_format):  # None: torch's default
        strides = _strides.preserve_format_strides(self._size, self._stride)
    else:
        strides = _strides.strides_for(self._size, memory_format)
    copy = plain_kernel_writes(Tensor._from_values(self._read(), self._size, self._dtype, self.device, strides), (self,))
    if any_requires_grad(self):
        copy._set_grad_fn(CloneBackward0(self))
    elif any_requires_grad(copy, self):  # an inference ``self``: torch's kernel wrote ``copy`` with copy_, recorded
        copy._set_grad_fn(CopyBackwards(copy, self))
    return copy
clone = _overrides.overridable(clone)


def contiguous(self, memory_format=contiguous_format):
    """``self`` if already laid out in ``memory_format``, otherwise a ``clone`` in it."""
    return self if self.is_contiguous(memory_format=memory_format) else clone(self, memory_format=memory_format)
contiguous = _overrides.overridable(contiguous)
