"""``t.grad = value``: what torch accepts as a tensor's ``.grad``, checked before it is stored.

None, or another tensor of ``t``'s dtype, device type and size, checked in torch's order. The
value is then simply stored: no copy, no version bump, no node (reading it is
``autograd/variable``'s ``grad``).
"""

from .. import _messages
from .._strides import _fmt
from .._tensor import Tensor


def set_grad(self, value):
    """``t.grad = value``, refused with torch's error unless ``value`` fits ``t``."""
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(_messages.GRAD_NOT_A_TENSOR.format(_messages.type_name(value)))
    if value is self:
        raise RuntimeError("can't assign Variable as its own grad")
    if value is not None and value.dtype != self.dtype:
        raise RuntimeError(_messages.GRAD_DTYPE.format(_messages.CPP_TYPE_NAMES[value.dtype._name], self.dtype._short_name))
    if value is not None and value.device.type != self.device.type:
        raise RuntimeError(_messages.GRAD_DEVICE.format(value.device.type, self.device.type))
    if value is not None and value.shape != self.shape:
        raise RuntimeError(_messages.GRAD_SIZE.format(_fmt(value.shape), _fmt(self.shape)))
    self._grad = value
