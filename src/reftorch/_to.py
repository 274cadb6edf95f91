"""to(): a copy only when something changes.

``a.to(dtype, device)`` is ``a`` itself when nothing changes (and ``copy`` is False; a
``memory_format`` other than ``preserve_format`` counts as a change unless torch reads that
format off ``a``'s strides already).
Otherwise it is a copy as ``clone()`` makes one, with a ``ToCopyBackward0`` that
casts the gradient back. ``_binding`` parses its signatures and short forms.
"""

from . import _strides
from ._layout import preserve_format
from ._copy_ import CopyBackwards, check_copy_source
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad


class ToCopyBackward0(Node):
    def __init__(self, source):
        super().__init__(source)
        self.source = source

    def apply(self, grad):
        check_copy_source(self.source.device, grad)
        return (Tensor._from_values(grad._read(), grad._size, self.source._dtype, self.source.device),)


def to(self, device=None, dtype=None, copy=False, memory_format=preserve_format):
    """``self`` itself if ``device``, ``dtype`` and ``memory_format`` (as torch suggests one for
    ``self``) are already its own; otherwise a copy, laid out as ``memory_format`` says."""
    device = device or self.device
    dtype = dtype or self.dtype
    same_format = memory_format in (preserve_format, _strides.suggest_memory_format(self._size, self._stride))
    if device == self.device and dtype is self.dtype and not copy and same_format:
        return self
    check_copy_source(device, self)
    strides = (_strides.preserve_format_strides(self._size, self._stride) if memory_format is preserve_format
               else _strides.strides_for(self._size, memory_format))
    out = plain_kernel_writes(Tensor._from_values(self._read(), self._size, dtype, device, strides), (self,))
    if dtype.is_floating_point and any_requires_grad(self):
        out._set_grad_fn(ToCopyBackward0(self))
    elif dtype.is_floating_point and any_requires_grad(out, self):  # an inference ``self``: as in ``clone``
        out._set_grad_fn(CopyBackwards(out, self))
    return out
