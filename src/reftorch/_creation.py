"""Creating a tensor from data: ``tensor(data)`` and ``t.new_tensor(data)`` copy, always.

A new object, metadata, storage and version counter, and no history. Given a
tensor they still copy (torch warns, at the call, that ``t.detach().clone()`` says
so more clearly: ``_binding``).
"""

from . import _core_messages, _overrides, _strides
from ._copy_ import check_copy_source
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes


def with_requires_grad(t, requires_grad):
    """A new leaf ``t``, asking for gradients if ``requires_grad`` (floating point only)."""
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(_core_messages.NOT_FLOAT_REQUIRES_GRAD)
        t._requires_grad = True
    return t


def _from_data(data, dtype, device, requires_grad):
    """``data`` (a tensor, or ``(numbers, shape)``) copied into new memory on ``device``."""
    if isinstance(data, Tensor):
        return copy_construct(data, dtype, device, requires_grad)
    return with_requires_grad(Tensor._from_values(*data, dtype, device), requires_grad)


def copy_construct(data, dtype, device, requires_grad):
    """``tensor(t)``: as ``t.detach().clone()``, on ``device``."""
    source = data.detach()
    check_copy_source(device, source)  # a meta tensor has no numbers to copy
    strides = _strides.preserve_format_strides(source._size, source._stride)
    t = Tensor._from_values(source._read(), source._size, dtype or data.dtype, device, strides)
    return with_requires_grad(plain_kernel_writes(t, (data,)), requires_grad)
copy_construct = _overrides.overridable(copy_construct)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    """A new leaf holding a copy of ``data``, with ``self``'s dtype and device by default."""
    return _from_data(data, dtype or self.dtype, device or self.device, requires_grad)
new_tensor = _overrides.overridable(new_tensor)
