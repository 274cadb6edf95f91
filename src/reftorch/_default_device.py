"""The device a call names, as a device reftorch simulates (``as_device``), and
``set_default_device``: where factories (``zeros``, ``tensor`` ...) put a tensor when their
call names no device. Functions that start from a tensor keep its device."""

from . import _messages, _warn
from ._device import cpu, device as device_

_SUPPORTED = ("cpu", "cuda", "meta")

_default = None  # the device as given


def as_device(value):
    """``None``, a string or a device as a device reftorch has (``"cuda"`` is ``cuda:0``)."""
    if value is None:
        return None
    d = value if isinstance(value, device_) else device_(value)
    if d.type not in _SUPPORTED:
        raise RuntimeError(_messages.DEVICE_NOT_SIMULATED.format(d.type))
    if d.type == "cuda" and d.index is None:
        return device_("cuda", 0)
    if d.type == "cuda" and d.index != 0:
        raise RuntimeError(_messages.CUDA_INVALID_ORDINAL)
    if d.type in ("cpu", "meta"):
        return device_(d.type)
    return d


def set_default_device(device):
    """Remember ``device`` as given (``"meta:0"`` keeps its index, as in torch)."""
    global _default
    if device is None:
        _default = None
    else:
        as_device(device)  # refused now rather than later
        _default = device_(device)
    _warn.default_device_set = _default is not None


def get_default_device():
    """The default as given if it names an index, else the device a new tensor gets."""
    if _default is None:
        return cpu
    return _default if _default.index is not None else as_device(_default)


def named_default():
    """The default device as ``set_default_device`` was given it (``"cpu:0"`` keeps its index), or None."""
    return _default


def names_an_index(device=None):
    """Whether ``device`` (None: the default device, as given) is ``cpu`` or ``meta`` named with an
    index, ``"cpu:0"``. A tensor there has no index, and torch compares a device as named, so
    asking ``to()`` or ``as_tensor()`` for it is a change: a copy, never the tensor itself."""
    named = _default if device is None else device_(device)
    return named is not None and named.type in ("cpu", "meta") and named.index is not None


def factory_device(device, fallback=cpu):
    """The device a factory call uses: the one it names, else the default, else ``fallback``."""
    return as_device(device) or as_device(_default) or fallback
