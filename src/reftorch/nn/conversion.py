"""Module.to, double, float, half, cuda, cpu, type: new memory, same Parameter objects.

``model.double()`` converts every tensor of the model, yet afterwards
``model.weight`` is still the very Parameter an optimizer may hold. torch does
it with the ``.data`` setter (see ``_detach``): for each parameter,

    param.data = param.double()

so the Python object, its ``requires_grad`` and its version counter stay,
while its metadata and memory are the converted tensor's: a new storage
(``data_ptr()`` changes), no version bump. A ``.grad`` is converted the same
way (``param.grad.data = ...``): same grad object, new memory.

When nothing changes (``model.float()`` on a float32 model, ``model.cpu()``
on the cpu) ``t.float()`` returns ``t`` itself and the assignment changes
nothing at all.

Buffers are different: they are *replaced* in ``_buffers`` by the converted
tensor, so a reference to ``model.running_mean`` taken before ``double()``
still points at the old float32 tensor.

Only floating point tensors change dtype: an int64 buffer such as
``num_batches_tracked`` keeps its dtype (but moves with ``cuda()``).

The ``meta`` device is the exception to "same Parameter objects". A meta
tensor has no memory, and the ``.data`` setter cannot turn a tensor with
memory into one without (nor the reverse), so a conversion that crosses the
meta boundary (``to("meta")``, or ``to_empty`` from meta) *replaces* each
such parameter by a new ``Parameter`` on the converted tensor, its ``.grad``
converted alongside: an optimizer built before holds the old objects.
``to_empty(device=...)`` converts with ``empty_like``: new memory of the right
size and dtype on ``device``, with whatever numbers were there (the model must
be initialised or loaded next).
"""

from .. import _core_messages, _messages
from .._arguments import _to_arguments
from .._factories import empty_like
from .._layout import preserve_format
from ..autograd.grad_mode import no_grad
from .parameter import Parameter
from .._overrides import overridable


def apply(self, fn, recurse=True):
    """Convert each parameter (in place via ``.data``; a new Parameter across ``meta``), its ``.grad``
    with it, and each buffer (replaced)."""
    if recurse:
        for module in self.children():
            module._apply(fn)
    for name, param in self._parameters.items():
        if param is None:
            continue
        with no_grad():
            converted = fn(param)
            if _crosses_meta(param, converted):
                new = self._parameters[name] = Parameter(converted, param.requires_grad)
                if param.grad is not None:  # the new Parameter takes the gradient along, converted
                    new.grad = fn(param.grad).requires_grad_(param.grad.requires_grad)
                continue
            param.data = converted
            if param.grad is not None:
                param.grad.data = fn(param.grad)
    for name, buf in self._buffers.items():
        if buf is not None:
            self._buffers[name] = fn(buf)
    return self
apply = overridable(apply)


def _crosses_meta(tensor, converted):
    """One of the two is on the meta device and the other is not: ``.data`` cannot bridge them."""
    return (tensor.device.type == "meta") != (converted.device.type == "meta")


def to_empty(self, *, device, recurse=True):
    """Move every parameter and buffer to ``device`` as new, uninitialised memory (``empty_like``)."""
    return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)


def to(self, *args, **kwargs):
    """``to(device)``, ``to(dtype)``, ``to(device, dtype)`` or ``to(tensor)``, for every tensor. Off
    ``meta`` there are no numbers to copy: the refusal says to use ``to_empty()`` instead."""
    device, dtype, renamed, memory_format = _to_arguments(args, dict(kwargs))  # "cpu:0": a copy of each
    if memory_format is not preserve_format:
        raise NotImplementedError(_messages.TO_MEMORY_FORMAT)
    if _to_arguments(args, kwargs, index_copies=False)[2]:
        raise RuntimeError(".to() does not accept copy argument")
    if dtype is not None and not dtype.is_floating_point:
        raise TypeError(_messages.MODULE_TO_DTYPE.format(dtype=dtype))

    def convert(t):
        try:
            return t.to(device, dtype if t.is_floating_point() else None, copy=renamed)
        except NotImplementedError as refused:  # a meta tensor has no numbers: torch names the way out
            if str(refused) != _core_messages.META_NO_DATA:
                raise
            raise NotImplementedError(_messages.MODULE_TO_FROM_META.format(refused=refused)) from None

    return self._apply(convert)


def float(self):
    return self._apply(lambda t: t.float() if t.is_floating_point() else t)


def double(self):
    return self._apply(lambda t: t.double() if t.is_floating_point() else t)


def half(self):
    return self._apply(lambda t: t.half() if t.is_floating_point() else t)


def cuda(self, device=None):
    return self._apply(lambda t: t.cuda(device))


def cpu(self):
    return self._apply(lambda t: t.cpu())


def type(self, dst_type):  # noqa: A001 - torch's name
    """``model.type(dst_type)``: every parameter and buffer through ``t.type(dst_type)``, integer
    buffers too (unlike ``double()``); an integer dtype for a parameter raises the ``.data`` error."""
    return self._apply(lambda t: t.type(dst_type))
