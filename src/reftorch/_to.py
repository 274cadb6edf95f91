"""to(): a copy only when something changes.

``a.to(dtype, device)`` is ``a`` itself when nothing changes (and ``copy`` is False).
Otherwise it is a copy as ``clone()`` makes one, with a ``ToCopyBackward0`` that
casts the gradient back. ``_binding`` parses its signatures and short forms.
"""

from . import _strides
from ._copy_ import check_copy_source
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


def to(self, device=None, dtype=None, copy=False):
    """``self`` itself if ``device`` and ``dtype`` are already its own; otherwise a copy."""
    device = device or self.device
    dtype = dtype or self.dtype
    if device == self.device and dtype is self.dtype and not copy:
        return self
    check_copy_source(device, self)
    strides = _strides.preserve_format_strides(self._size, self._stride)
    out = plain_kernel_writes(Tensor._from_values(self._read(), self._size, dtype, device, strides), (self,))
    if dtype.is_floating_point and any_requires_grad(self):
        out._set_grad_fn(ToCopyBackward0(self))
    return out
