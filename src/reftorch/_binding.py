"""The Python binding: torch's signatures parsed, and refused with torch's TypeError, at the edge,
so that the lesson (``_to.to``, ``_creation._from_data``) receives a device
(the default device applied), a dtype and numbers. Nothing here touches memory, metadata, the version counter or the graph."""

from . import _creation, _messages, _to
from ._arguments import MISSING, _check_given, _to_arguments
from ._default_device import as_device, factory_device
from ._device import cpu as cpu_device
from ._dtype import bool as bool_, float32, float64, int64
from ._nested_data import check_factory_arguments, tensor_of_array, values_of_data
from ._numpy_objects import is_array
from ._tensor import Tensor
from ._warn import warn


def to(self, *args, **kwargs):
    """``t.to(device, dtype)``, ``t.to(dtype)`` or ``t.to(other)``: see ``_to.to``."""
    device, dtype, copy, memory_format = _to_arguments(args, kwargs)
    return _to.to(self, device, dtype, copy, memory_format)


def cpu(self, *, memory_format=None):
    return to(self, "cpu", memory_format=memory_format)


def cuda(self, device=None, *, memory_format=None):
    return to(self, "cuda" if device is None else device, memory_format=memory_format)


def float(self, *, memory_format=None):  # noqa: A001 - torch's names; Python's float, int and bool are builtins here
    return to(self, float32, memory_format=memory_format)


def double(self, *, memory_format=None):
    return to(self, float64, memory_format=memory_format)


def long(self, *, memory_format=None):
    return to(self, int64, memory_format=memory_format)


def bool(self, *, memory_format=None):  # noqa: A001
    return to(self, bool_, memory_format=memory_format)


def read_data(data, dtype, requires_grad, caller):
    """``(data, dtype)`` for ``_creation._from_data``: a tensor as it is (torch warns), an array as a tensor
    in its layout (torch reads it with from_numpy, so a copy keeps a dense one's), else ``(numbers, shape)``,
    with the dtype torch picks when none is given."""
    dtype = check_factory_arguments(dtype, requires_grad, caller.split(".")[-1])
    if isinstance(data, Tensor):
        warn(_messages.COPY_CONSTRUCT.format(caller))  # before the device is read, as in torch
        return data, dtype
    if is_array(data):
        return tensor_of_array(data), dtype
    return values_of_data(data, dtype)


def from_data(data, dtype, device, requires_grad, caller):
    """``data`` of any kind (a tensor, an array, nested lists) copied into a new tensor."""
    data, dtype = read_data(data, dtype, requires_grad, caller)
    device = factory_device(device, fallback=data.device if isinstance(data, Tensor) else cpu_device)
    return _creation._from_data(data, dtype, device, requires_grad)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data``."""
    return from_data(data, dtype, device, requires_grad, "torch.tensor")


def new_tensor(self, *args, data=MISSING, dtype=None, device=None, requires_grad=False):
    """``data`` is the only argument that may be positional, as in torch."""
    if len(args) > 1:
        raise TypeError(f"new_tensor() takes 1 positional argument but {len(args)} were given")
    if args and data is not MISSING:
        raise TypeError("new_tensor() got multiple values for argument 'data'")
    data = args[0] if args else data
    _check_given("new_tensor", data=data)
    data, read_as = read_data(data, dtype or self.dtype, requires_grad, "tensor.new_tensor")
    dtype = None if dtype is None else read_as  # torch also takes Python's float, int and bool
    return _creation.new_tensor(self, data, dtype=dtype, device=as_device(device), requires_grad=requires_grad)
