"""to(), cpu(), cuda(), float(), half(), int() ...: a copy only when something changes.

``a.to(dtype=..., device=...)`` returns ``a`` itself (the same Python object)
when ``a`` already has that dtype and device. Otherwise it is a copy: a new
storage, with strides preserved as ``clone()`` preserves them, and a
``ToCopyBackward0`` node when ``a`` requires grad, so the gradient is cast
back to ``a``'s dtype and device.
"""

from . import _meta, _strides
from ._arguments import _to_arguments
from ._dtype import bool as bool_, float16, float32, float64, int8, int16, int32, int64, uint8
from ._tensor import Tensor
from .autograd.graph import Node, any_requires_grad
from .autograd.inference_mode import plain_kernel_writes


class ToCopyBackward0(Node):
    def __init__(self, source):
        super().__init__(source)
        self.source = source

    def apply(self, grad):
        return (Tensor._from_values(grad._elements(), self.source._dtype, self.source.device),)



def to(self, *args, **kwargs):
    device, dtype, copy = _to_arguments(args, kwargs)
    device = device or self.device
    dtype = dtype or self.dtype
    if device == self.device and dtype is self.dtype and not copy:
        return self
    _meta.check_copy(device, self)
    strides = _strides.preserve_format_strides(self._size, self._stride)
    out = plain_kernel_writes(Tensor._from_values(self._elements(), dtype, device, strides), (self,))
    if dtype.is_floating_point and any_requires_grad(self):
        out._set_grad_fn(ToCopyBackward0(self))
    return out


def cpu(self):
    return to(self, "cpu")


def cuda(self, device=None):
    return to(self, "cuda" if device is None else device)


def float(self):
    return to(self, float32)


def double(self):
    return to(self, float64)


def long(self):
    return to(self, int64)


def bool(self):
    return to(self, bool_)


def half(self):
    return to(self, float16)


def int(self):  # noqa: A001 - torch's name; Python's int is builtins.int here
    return to(self, int32)


def short(self):
    return to(self, int16)


def char(self):
    return to(self, int8)


def byte(self):
    return to(self, uint8)
