"""Elements: slot ``k`` of a storage is bytes ``k * itemsize`` on, one number in ``dtype._format``.
Storing rounds as torch converts: floats to nearest, integers cut toward zero and wrapped."""

import math
import struct
from array import array


def read(storage, dtype, positions):
    """The numbers in slots ``positions`` of ``storage``, in that order (bool, int or float)."""
    one, itemsize = struct.Struct(dtype._format).unpack_from, dtype.itemsize
    return [one(storage._bytes, p * itemsize)[0] for p in positions]


def write(storage, dtype, positions, values):
    """Store ``values``, rounded to ``dtype``, into slots ``positions`` of ``storage``, in that order."""
    put, itemsize = struct.Struct(dtype._format).pack_into, dtype.itemsize
    for p, v in zip(positions, cast(values, dtype)):
        put(storage._bytes, p * itemsize, v)


def cast(values, dtype):
    """``values`` (Python numbers) as ``dtype`` holds them."""
    code = dtype._format
    if code in "?d":  # bool, float64
        return [bool(v) if code == "?" else float(v) for v in values]
    if code in "fe":  # C's cast to float32 rounds (inf if too large); float16 goes on from there
        single = array("f", [float(v) for v in values]).tolist()
        return single if code == "f" else [_half(v) for v in single]
    span = 1 << (8 * dtype.itemsize)  # an integer dtype: as many numbers as its bits can say
    lowest = -span // 2 if dtype.is_signed else 0
    return [(_cut(v, 64 if dtype.itemsize == 8 else 32) - lowest) % span + lowest for v in values]


def _half(x):  # float16's largest number is 65504; from 65520 on, it rounds to inf
    return math.copysign(math.inf, x) if abs(x) >= 65520.0 else struct.unpack("e", struct.pack("e", x))[0]


def _cut(x, bits):  # toward zero; nan, inf and floats beyond int32 (int64) give its lowest int, as x86 does
    return int(x) if not isinstance(x, float) or -(2.0 ** (bits - 1)) <= x < 2.0 ** (bits - 1) else -(1 << (bits - 1))
