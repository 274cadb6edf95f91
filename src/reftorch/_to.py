"""to(), cpu(), cuda(), float(), half(), int() ...: a copy only when something changes.

``a.to(dtype=..., device=...)`` returns ``a`` itself (the same Python object)
when ``a`` already has that dtype and device. Otherwise it is a copy: a new
storage, with strides preserved as ``clone()`` preserves them, and a
``ToCopyBackward0`` node when ``a`` requires grad, so the gradient is cast
back to ``a``'s dtype and device.
"""

import builtins

from . import _messages, _strides
from ._arguments import _type_name
from ._device import as_device, device as device_type
from ._dtype import bool as bool_, dtype as dtype_type, float16, float32, float64, int8, int16, int32, int64, uint8
from ._tensor import Tensor
from .autograd.graph import Node, any_requires_grad
from .autograd.inference_mode import plain_kernel_writes


class ToCopyBackward0(Node):
    def __init__(self, source):
        super().__init__(source)
        self.source = source

    def apply(self, grad):
        return (Tensor._from_values(grad._elements(), self.source._dtype, self.source.device),)


def _parse_to_args(self, args, kwargs):
    """Sort ``to``'s arguments into (device, dtype, copy), following torch's three forms:

    ``to(device=None, dtype=None, non_blocking=False, copy=False)``,
    ``to(dtype, non_blocking=False, copy=False)`` and
    ``to(tensor, non_blocking=False, copy=False)``.
    """
    original = args
    args = list(args)
    device = dtype = None
    first = args[0] if args else None
    if isinstance(first, dtype_type):
        dtype = args.pop(0)
    elif isinstance(first, Tensor):
        other = args.pop(0)
        device, dtype = other.device, other.dtype
    elif args and (first is None or isinstance(first, (str, device_type))):
        device = args.pop(0)
        if args and (args[0] is None or isinstance(args[0], dtype_type)):
            dtype = args.pop(0)
    flags = args  # what is left: non_blocking, copy
    if len(flags) > 2 or not all(isinstance(f, builtins.bool) for f in flags):
        got = ", ".join(_type_name(a) for a in original)
        raise TypeError(
            _messages.INVALID_ARGUMENTS.format(op="to", got=got)
            + _messages.TO_SIGNATURES
        )
    copy = flags[1] if len(flags) > 1 else False
    device = kwargs.pop("device", device)
    dtype = kwargs.pop("dtype", dtype)
    copy = kwargs.pop("copy", copy)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return as_device(device), dtype, copy


def to(self, *args, **kwargs):
    device, dtype, copy = _parse_to_args(self, args, kwargs)
    device = device or self.device
    dtype = dtype or self.dtype
    if device == self.device and dtype is self.dtype and not copy:
        return self
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
