"""to(), cpu(), cuda(), float(), double(): a copy only when something changes.

``a.to(dtype=..., device=...)`` returns ``a`` itself (the same Python object)
when ``a`` already has that dtype and device. Otherwise it is a copy: a new
storage, with strides preserved as ``clone()`` preserves them, and a
``ToCopyBackward0`` node when ``a`` requires grad, so the gradient is cast
back to ``a``'s dtype and device.
"""

import builtins

from . import _strides
from ._device import as_device, device as device_type
from ._dtype import bool as bool_, dtype as dtype_type, float32, float64, int64
from ._tensor import Tensor
from .autograd.graph import Node, any_requires_grad


class ToCopyBackward0(Node):
    def __init__(self, source):
        super().__init__(source)
        self.source = source

    def apply(self, grad):
        return (Tensor._from_values(grad._values(), self.source._dtype, self.source.device),)


def _parse_to_args(self, args, kwargs):
    """Sort ``to``'s flexible arguments into (device, dtype, copy)."""
    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got unexpected {sorted(kwargs)}")
    for arg in args:
        if isinstance(arg, Tensor):
            device, dtype = arg.device, arg.dtype
        elif isinstance(arg, dtype_type):
            dtype = arg
        elif isinstance(arg, (str, device_type)):
            device = arg
        elif isinstance(arg, builtins.bool):  # non_blocking, given by position
            continue
        else:
            raise TypeError(
                f"to() received an invalid combination of arguments - got ({type(arg).__name__})"
            )
    return as_device(device), dtype, copy


def to(self, *args, **kwargs):
    device, dtype, copy = _parse_to_args(self, args, kwargs)
    device = device or self.device
    dtype = dtype or self.dtype
    if device == self.device and dtype is self.dtype and not copy:
        return self
    strides = _strides.preserve_format_strides(self._size, self._stride)
    out = Tensor._from_values(self._values(), dtype, device, strides)
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
