"""Devices: where a storage's bytes live. ``cuda`` is simulated in ordinary memory, under
torch's rules for a GPU; ``meta`` holds no numbers, only metadata."""

from . import _core_messages

class device:
    """A device type and an optional index, parsed from strings like ``"cuda:0"``."""

    def __init__(self, type, index=None):
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if not isinstance(type, str):
            got = _core_messages.type_name(type)
            raise TypeError(_core_messages.INVALID_ARGUMENTS.format(op="device", got=got) + _core_messages.DEVICE_SIGNATURES.format(got=got))
        if index is None:
            type, index = _parse(type)
        elif not isinstance(index, int):
            raise TypeError(f"device(): argument 'index' (position 2) must be int, not {_core_messages.type_name(index)}")
        elif index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = type, index

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


cpu = device("cpu")
