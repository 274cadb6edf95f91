"""``set_default_device``: where factories (``zeros``, ``tensor`` ...) put a tensor when their
call names no device. Functions that start from a tensor keep its device."""

from ._device import as_device, cpu, device as device_

_default = None  # the device as given


def set_default_device(device):
    """Remember ``device`` as given (``"meta:0"`` keeps its index, as in torch)."""
    global _default
    if device is None:
        _default = None
    else:
        as_device(device)  # refused now rather than later
        _default = device_(device)


def get_default_device():
    """The default as given if it names an index, else the device a new tensor gets."""
    if _default is None:
        return cpu
    return _default if _default.index is not None else as_device(_default)


def is_default_device_set():
    """Has ``set_default_device`` named a device (even ``"cpu"``)?"""
    return _default is not None


def factory_device(device, fallback=cpu):
    """The device a factory call uses: the one it names, else the default, else ``fallback``."""
    return as_device(device) or as_device(_default) or fallback
