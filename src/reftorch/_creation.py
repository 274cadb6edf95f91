"""Creating a tensor from data: ``tensor(data)`` and ``t.new_tensor(data)`` copy, always.

``tensor(data)`` copies ``data`` into fresh memory, always. Given a tensor it
still copies (and warns that ``t.detach().clone()`` says the same thing more
clearly); it keeps that tensor's dtype and, unless a default device is set
(``_default_device``), its device, and never keeps its history.
``new_tensor`` takes its default dtype and device from ``self``, and nothing
else. ``torch.tensor`` and ``Tensor.new_tensor`` take torch's arguments in
``_binding``, which reads nested lists and picks a dtype (``_nested_data``)
before ``_from_data`` makes the copy;
tensors filled with one number (``zeros``, ``ones``, ``full``, ``arange``,
``*_like``, ``new_zeros`` ...) are in ``_factories``, and ``from_numpy``,
which shares memory instead of copying, in ``_convert``.
"""

from . import _core_messages, _overrides, _strides
from ._default_device import factory_device
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from ._warn import warn


def with_requires_grad(t, requires_grad):
    """A new leaf ``t``, asking for gradients if ``requires_grad`` (floating point only)."""
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(_core_messages.NOT_FLOAT_REQUIRES_GRAD)
        t._requires_grad = True
    return t


def _from_data(data, dtype, device, requires_grad, caller):
    """``data`` (a tensor, or ``(numbers, shape)`` read by ``_binding.read_data`` with the dtype
    torch picks) copied into new memory: the one path behind ``tensor`` and ``new_tensor``."""
    if isinstance(data, Tensor):
        return copy_construct(data, dtype, device, requires_grad, caller)
    return with_requires_grad(Tensor._from_values(*data, dtype, factory_device(device)), requires_grad)


def copy_construct(data, dtype, device, requires_grad, caller):
    """``tensor(t)``, ``new_tensor(t)``: as ``t.detach().clone()`` (a new leaf, counter and storage,
    laid out as ``t``), with a warning that ``detach().clone()`` says so more clearly."""
    warn(_core_messages.COPY_CONSTRUCT.format(caller))
    source = data.detach()
    strides = _strides.preserve_format_strides(source._size, source._stride)
    t = Tensor._from_values(source._read(), source._size, dtype or data.dtype,
                            factory_device(device, fallback=data.device), strides)
    return with_requires_grad(plain_kernel_writes(t, (data,)), requires_grad)
copy_construct = _overrides.overridable(copy_construct)


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    """A new leaf holding a copy of ``data``, with ``self``'s dtype and device by default."""
    return _from_data(data, dtype or self.dtype, device or self.device, requires_grad, "tensor.new_tensor")
new_tensor = _overrides.overridable(new_tensor)
