"""Creating a tensor from data: ``tensor(data)`` and ``t.new_tensor(data)`` copy, always.

``tensor(data)`` copies ``data`` into fresh memory, always. Given a tensor it
still copies (and warns that ``t.detach().clone()`` says the same thing more
clearly); it keeps that tensor's dtype and, unless a default device is set
(``_default_device``), its device, and never keeps its history.
``new_tensor`` takes its default dtype and device from ``self``, and nothing
else. Reading nested lists and picking a dtype is ``_nested_data``'s job;
tensors filled with one number (``zeros``, ``ones``, ``full``, ``arange``,
``*_like``, ``new_zeros`` ...) are in ``_factories``, and ``from_numpy``,
which shares memory instead of copying, in ``_convert``.
"""

import numpy as np

from . import _messages, _strides
from ._arguments import MISSING, _check_given
from ._default_device import factory_device
from ._dtype import from_numpy_dtype
from ._nested_data import array_of_data, check_dtype, infer_dtype
from ._tensor import Tensor
from .autograd.inference_mode import plain_kernel_writes
from ._warn import warn


def with_requires_grad(t, requires_grad):
    """A new leaf ``t``, asking for gradients if ``requires_grad`` (floating point only)."""
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(_messages.NOT_FLOAT_REQUIRES_GRAD)
        t._requires_grad = True
    return t


def _from_data(data, dtype, device, requires_grad, caller):
    """``data`` copied into new memory: the one path behind ``tensor`` and ``new_tensor``."""
    dtype = check_dtype(dtype, caller.split(".")[-1])
    if isinstance(data, Tensor):
        warn(_messages.COPY_CONSTRUCT.format(caller))
        # Like data.to(..., copy=True): a new storage laid out as the source is
        # (preserve_format), so a transposed tensor stays transposed.
        source = data.detach()
        strides = _strides.preserve_format_strides(source._size, source._stride)
        t = Tensor._from_values(source._elements(), dtype or data.dtype, factory_device(device, fallback=data.device), strides)
        return with_requires_grad(plain_kernel_writes(t, (data,)), requires_grad)
    if isinstance(data, np.ndarray):
        t = Tensor._from_values(data, dtype or from_numpy_dtype(data.dtype), factory_device(device))
        return with_requires_grad(t, requires_grad)
    dtype = dtype or infer_dtype(data)
    values = array_of_data(data, dtype)
    return with_requires_grad(Tensor._from_values(values, dtype, factory_device(device)), requires_grad)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data``."""
    return _from_data(data, dtype, device, requires_grad, "torch.tensor")


def new_tensor(self, *args, data=MISSING, dtype=None, device=None, requires_grad=False):
    """A new leaf holding a copy of ``data``, with ``self``'s dtype and device by default.

    ``data`` is the only argument that may be positional, as in torch.
    """
    if len(args) > 1:
        raise TypeError(f"new_tensor() takes 1 positional argument but {len(args)} were given")
    if args and data is not MISSING:
        raise TypeError("new_tensor() got multiple values for argument 'data'")
    data = args[0] if args else data
    _check_given("new_tensor", data=data)
    return _from_data(data, dtype or self.dtype, device or self.device, requires_grad, "tensor.new_tensor")
