"""Element types: what one number in a storage is, and how many bytes it takes.

A tensor's bytes mean nothing until a dtype says how to read them. reftorch
knows these dtypes (with torch's other names for some of them):

    float16 = half  (2 bytes)     float32 = float (4 bytes, the default)
    float64 = double (8 bytes)    bool (1 byte)
    uint8 (1 byte)   int8 (1 byte)   int16 = short (2 bytes)
    int32 = int (4 bytes)   int64 = long (8 bytes)

Each dtype is backed by the numpy type that reads the same bytes, so a storage
can be a plain numpy byte buffer and a tensor a typed window onto it.

This module also answers "what dtype does ``a + b`` have?" with torch's type
promotion rules (``promote_types``; ``result_type``, which looks at tensors, is in ``_math``).
"""

import builtins

import numpy as np

from . import _messages


class dtype:
    """One element type. Compared by identity, like torch's dtypes."""

    def __init__(self, name, numpy_type, is_floating_point, is_signed, short_name):
        self._name = name
        self._numpy_type = np.dtype(numpy_type)
        self.is_floating_point = is_floating_point
        self.is_signed = is_signed
        # The name torch uses in messages such as "torch.FloatTensor".
        self._short_name = short_name

    @property
    def itemsize(self):
        """Bytes per element, as in torch: float32 is 4, float64 8, int64 8, bool 1."""
        return self._numpy_type.itemsize

    @property
    def is_complex(self):
        return False

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        # dtypes are singletons: copying or pickling one gives the same object.
        return self._name


float16 = dtype("float16", np.float16, True, True, "Half")
float32 = dtype("float32", np.float32, True, True, "Float")
float64 = dtype("float64", np.float64, True, True, "Double")
uint8 = dtype("uint8", np.uint8, False, False, "Byte")
int8 = dtype("int8", np.int8, False, True, "Char")
int16 = dtype("int16", np.int16, False, True, "Short")
int32 = dtype("int32", np.int32, False, True, "Int")
int64 = dtype("int64", np.int64, False, True, "Long")
bool = dtype("bool", np.bool_, False, False, "Bool")  # noqa: A001 - torch's name

# The aliases torch also accepts. From here on, ``int``, ``float`` and
# ``bool`` in this module are dtypes; Python's types are ``builtins.int`` ...
half = float16
float = float32  # noqa: A001
double = float64
short = int16
int = int32  # noqa: A001
long = int64

_ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool)
_default_dtype = float32


def get_default_dtype():
    """The dtype of ``tensor(1.5)`` and of ``zeros(3)``: float32 unless changed."""
    return _default_dtype


def set_default_dtype(d):
    """Change the default floating dtype (float32 or float64), as torch does."""
    global _default_dtype
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError(
            "only floating-point types are supported as the default type"
        )
    _default_dtype = d


def from_numpy_dtype(np_dtype):
    """The reftorch dtype that reads the same bytes as a numpy dtype."""
    native = np.dtype(np_dtype).newbyteorder("=")  # the kind of number, whatever the byte order
    for d in _ALL:
        if d._numpy_type == native:
            return d
    name = np.dtype(np_dtype).type.__name__
    if name in _TORCH_ONLY:
        raise TypeError(_messages.NUMPY_DTYPE_NOT_IN_REFTORCH.format(name))
    raise TypeError(_messages.NUMPY_DTYPE_UNSUPPORTED.format(name))


def overflows(value, d):
    """torch's rule for storing one Python number in dtype ``d``: does it overflow?

    Only integer dtypes can overflow (a float too big for float16 becomes
    inf). A float must lie in the integer type's range (it is then cut toward
    zero); an integer too, except that uint8 also takes -255 ... -1, which
    wrap around (-1 is 255).
    """
    if d.is_floating_point or d is bool or isinstance(value, (builtins.bool, np.bool_)):
        return False
    if not isinstance(value, (builtins.int, builtins.float, np.number)):
        return False  # not a number: the caller's own checks refuse it
    limits = np.iinfo(d._numpy_type)
    if isinstance(value, (builtins.int, np.integer)):
        lowest = -limits.max if not d.is_signed else limits.min
        return not lowest <= value <= limits.max
    return not limits.min <= value <= limits.max  # False for nan, as it should be


# The C++ type each integer dtype is stored as, as torch's fill errors name it.
_C_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}


def check_scalar(value, d):
    """torch's error when a Python number cannot be stored in ``d`` (``full``, ``fill_``, ``t[i] = x``)."""
    if overflows(value, d):
        raise RuntimeError(_messages.SCALAR_OVERFLOW.format(_C_TYPES[d._name]))


# numpy types torch converts but reftorch has no dtype for.
_TORCH_ONLY = ("complex64", "complex128", "uint16", "uint32", "uint64")


# ---------------------------------------------------------------------------
# Type promotion
# ---------------------------------------------------------------------------
# torch orders the dtypes by category:
#   bool  <  integers  <  floating point
# A dtype of a higher category wins (int64 + float16 is float16). Inside a
# category the result holds every value of both: the wider float, or the
# integer type that fits both (uint8 + int8 is int16). For those numpy's
# table is the same as torch's.

def promote_types(a, b):
    """The smallest dtype both ``a`` and ``b`` can be cast to safely."""
    if _category(a) != _category(b):
        return a if _category(a) > _category(b) else b
    return from_numpy_dtype(np.promote_types(a._numpy_type, b._numpy_type))


def _category(d):
    if d is None:
        return -1
    if d.is_floating_point:
        return 2
    if d is bool:
        return 0
    return 1


def _combine_categories(higher, lower):
    """Let a lower-priority participant win only if it is of a higher category."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if _category(lower) > _category(higher):
        return promote_types(higher, lower)
    return higher


def compute_dtype(d):
    """The dtype torch's CPU kernels compute ``d`` in: float16 arithmetic is
    done in float32 and rounded to float16 once, at the end of each operation."""
    return float32 if d is float16 else d


def scalar_dtype(value):
    """The dtype torch gives a Python number: bool, int64 or the default float."""
    # This module names its dtypes bool and float, as torch does, so the
    # Python types are reached through the builtins module.
    if isinstance(value, builtins.bool):
        return bool
    if isinstance(value, builtins.int):
        return int64
    return get_default_dtype()
