"""``set_default_device``: where factory functions put a tensor when no device is given.

Factories (``zeros``, ``ones``, ``full``, ``empty``, ``arange``, ``rand``,
``randn`` and ``tensor``, even ``tensor(t)`` of a cpu ``t``) use it when their
call names no device. Functions that start from a tensor (``*_like``,
``new_*``, ``clone``, ``copy.deepcopy``, ``from_numpy``) keep its device.
``set_default_device(None)`` goes back to cpu. Nothing already made moves.
"""

from ._device import as_device, cpu, device as device_

_default = None  # the device as given; None: no default (factories use cpu, tensor(t) keeps t's)


def set_default_device(device):
    """Remember ``device`` as given (``"meta:0"`` keeps its index, as in torch)."""
    global _default
    if device is None:
        _default = None
    else:
        as_device(device)  # refuse a device reftorch cannot make, now rather than later
        _default = device_(device)


def get_default_device():
    """The default as given if it names an index, else the device a new tensor gets."""
    if _default is None:
        return cpu
    return _default if _default.index is not None else as_device(_default)


def is_default_device_set():
    """Has ``set_default_device`` named a device (even ``"cpu"``)? torch then runs
    every call through a Python function of its own, which its warnings name
    (see ``_warn``)."""
    return _default is not None


def factory_device(device, fallback=cpu):
    """The device a factory call uses: the one it names, else the default, else ``fallback``."""
    return as_device(device) or as_device(_default) or fallback
