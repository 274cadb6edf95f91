"""Devices: where a storage's bytes live.

reftorch has two devices. ``cpu`` is ordinary memory. ``cuda`` is simulated:
its bytes are also in ordinary memory, but every rule torch applies to a GPU
tensor is applied to it (it prints as ``device='cuda:0'``, moving to or from it
copies, mixing it with a cpu tensor in one operation is an error). That lets
the tutorials' ``device="cuda"`` examples run on a machine without a GPU.
``meta`` holds no numbers, only metadata (``_meta``).
"""

from . import _core_messages

_SUPPORTED = ("cpu", "cuda", "meta")


class device:
    """A device type and an optional index, parsed from strings like ``"cuda:0"``."""

    def __init__(self, type, index=None):
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if not isinstance(type, str):
            raise TypeError(
                _core_messages.INVALID_ARGUMENTS.format(op="device", got=_name(type))
                + _core_messages.DEVICE_SIGNATURES.format(got=_name(type))
            )
        if index is None:
            type, index = _parse(type)
        elif not isinstance(index, int):
            raise TypeError(f"device(): argument 'index' (position 2) must be int, not {_name(index)}")
        elif index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type = type
        self.index = index

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __reduce__(self):
        return (device, (self.type, self.index))


def _name(value):
    return type(value).__name__


def _parse(text):
    """Split ``"cuda:1"`` into ``("cuda", 1)`` with torch's error messages."""
    if text == "":
        raise RuntimeError("Device string must not be empty")
    name, colon, index_text = text.partition(":")
    if name not in _core_messages.DEVICE_TYPES.split(", "):
        if not name.isalpha() or colon and not index_text.isdigit():
            raise RuntimeError(f"Invalid device string: '{text}'")
        raise RuntimeError(_core_messages.DEVICE_UNKNOWN_TYPE.format(types=_core_messages.DEVICE_TYPES, text=text))
    if not colon:
        return name, None
    if not index_text.isdigit() or (len(index_text) > 1 and index_text[0] == "0"):
        raise RuntimeError(f"Invalid device string: '{text}'")
    return name, int(index_text)


def as_device(value):
    """Turn a device argument (``None``, a string or a device) into a full device.

    ``"cuda"`` means the current GPU, ``cuda:0``, as in torch. Devices other than
    cpu and the simulated cuda are refused with torch's message for a build that
    lacks them. ``meta`` has no index (``"meta:0"`` is ``meta``).
    """
    if value is None:
        return None
    d = value if isinstance(value, device) else device(value)
    if d.type not in _SUPPORTED:
        raise RuntimeError(_core_messages.DEVICE_NOT_SIMULATED.format(d.type))
    if d.type == "cuda" and d.index is None:
        return device("cuda", 0)
    if d.type == "cuda" and d.index != 0:
        raise RuntimeError(_core_messages.CUDA_INVALID_ORDINAL)
    if d.type in ("cpu", "meta"):
        return device(d.type)
    return d


cpu = device("cpu")
