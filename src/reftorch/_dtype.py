"""Element types: what one number in a storage is, and how many bytes it takes.

A tensor's bytes mean nothing until a dtype says how to read them. reftorch
knows these dtypes (with torch's other names for some of them):

    float16 = half  (2 bytes)     float32 = float (4 bytes, the default)
    float64 = double (8 bytes)    bool (1 byte)
    uint8 (1 byte)   int8 (1 byte)   int16 = short (2 bytes)
    int32 = int (4 bytes)   int64 = long (8 bytes)

Each dtype names the ``struct`` format code that reads one element from the
bytes (``"f"`` for float32), so a storage can be a plain byte buffer and a
tensor a typed window onto it.

This module also answers "what dtype does ``a + b`` have?" with torch's type
promotion rules (``promote_types``; ``result_type``, which looks at tensors, is in ``_math``).
"""

import builtins
import math
import numbers
import struct

from . import _messages


class dtype:
    """One element type. Compared by identity, like torch's dtypes."""

    def __init__(self, name, format, is_floating_point, is_signed, short_name):
        self._name = name
        self._format = format  # the struct code of one element, in the machine's byte order
        self.is_floating_point = is_floating_point
        self.is_signed = is_signed
        # The name torch uses in messages such as "torch.FloatTensor".
        self._short_name = short_name

    @property
    def itemsize(self):
        """Bytes per element, as in torch: float32 is 4, float64 8, int64 8, bool 1."""
        return struct.calcsize(self._format)

    @property
    def _numpy_type(self):
        """numpy's dtype for the same bytes (numpy is imported when first asked for)."""
        import numpy

        return numpy.dtype(self._format)

    @property
    def is_complex(self):
        return False

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        # dtypes are singletons: copying or pickling one gives the same object.
        return self._name


float16 = dtype("float16", "e", True, True, "Half")
float32 = dtype("float32", "f", True, True, "Float")
float64 = dtype("float64", "d", True, True, "Double")
uint8 = dtype("uint8", "B", False, False, "Byte")
int8 = dtype("int8", "b", False, True, "Char")
int16 = dtype("int16", "h", False, True, "Short")
int32 = dtype("int32", "i", False, True, "Int")
int64 = dtype("int64", "q", False, True, "Long")
bool = dtype("bool", "?", False, False, "Bool")  # noqa: A001 - torch's name

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
    """The reftorch dtype that reads the same bytes as a numpy dtype (the numpy bridge)."""
    import numpy as np

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

    Integer dtypes only (a floating one is ``check_float_scalar``'s). A
    float must lie in the integer type's range (it is then cut toward
    zero); an integer too, except that uint8 also takes -255 ... -1, which
    wrap around (-1 is 255).
    """
    if d.is_floating_point or d is bool or isinstance(value, builtins.bool):
        return False
    if not isinstance(value, numbers.Real):  # numpy's numbers are Reals too
        return False  # not a number: the caller's own checks refuse it
    lowest, highest = integer_range(d)
    if isinstance(value, numbers.Integral):
        return not (-highest if not d.is_signed else lowest) <= value <= highest
    return not lowest <= value <= highest  # False for nan, as it should be


def integer_range(d):
    """(lowest, highest) value of an integer dtype: int8 is (-128, 127), uint8 (0, 255)."""
    bits = 8 * d.itemsize
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if d.is_signed else (0, (1 << bits) - 1)


# The C++ type each integer dtype is stored as, as torch's fill errors name it.
_C_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}


def check_scalar_int(value):
    """torch's OverflowError for a Python int no C integer holds. A number operand (``t + n``,
    ``fill_(n)``, ``alpha=n``) is read as an int64, or as a uint64 when it is larger: ``2**63``
    passes (and wraps in an int64 tensor), ``2**64`` and ``-2**63 - 1`` do not."""
    if isinstance(value, builtins.int) and not -(1 << 63) <= value < (1 << 64):
        raise OverflowError(_messages.NEGATIVE_INT_UNSIGNED if value < 0 else _messages.INT_TOO_BIG)


def check_scalar(value, d):
    """torch's error when a Python number cannot be stored in ``d`` (``full``, ``fill_``, ``t[i] = x``)."""
    refuse_complex(value)
    check_scalar_int(value)
    if overflows(value, d):
        raise RuntimeError(_messages.SCALAR_OVERFLOW.format(_C_TYPES[d._name]))


# The largest finite number of each floating dtype, and its C++ type as torch's errors name it.
_FLOAT_LIMITS = {"float16": (65504.0, "c10::Half"), "float32": (3.4028234663852886e38, "float"),
                 "float64": (1.7976931348623157e308, "double")}


def check_float_scalar(value, d):
    """torch's error for a finite number beyond a floating dtype's largest one (1e39 for float32,
    65505 for float16), where torch checks it: ``fill_`` and ``alpha`` always, ``full`` and
    ``t[i] = x`` except into float16 (they round to inf there). inf and nan always pass."""
    if d.is_floating_point and isinstance(value, numbers.Real) and not isinstance(value, builtins.bool):
        largest, c_type = _FLOAT_LIMITS[d._name]
        if math.isfinite(value) and abs(value) > largest:
            raise RuntimeError(_messages.SCALAR_OVERFLOW.format(c_type))


# torch's wider unsigned dtypes: torch makes, copies and converts tensors of them, but has few
# kernels for them (``uint16_tensor + 1`` is refused); reftorch has none, and says so by name.
WIDE_UNSIGNED_DTYPE_NAMES = ("uint16", "uint32", "uint64")
# numpy types torch converts but reftorch has no dtype for.
_TORCH_ONLY = ("complex64", "complex128") + WIDE_UNSIGNED_DTYPE_NAMES


# ---------------------------------------------------------------------------
# Type promotion
# ---------------------------------------------------------------------------
# torch orders the dtypes by category:
#   bool  <  integers  <  floating point
# A dtype of a higher category wins (int64 + float16 is float16). Inside a
# category the result holds every value of both: the wider float, or the
# integer type that fits both (uint8 + int8 is int16).

def promote_types(a, b):
    """The smallest dtype both ``a`` and ``b`` can be cast to safely."""
    if _category(a) != _category(b):
        return a if _category(a) > _category(b) else b
    if a.is_signed != b.is_signed:  # uint8 and a signed integer: a signed type that holds 0 ... 255
        signed = a if a.is_signed else b
        return signed if signed.itemsize > 1 else int16
    return a if a.itemsize >= b.itemsize else b


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


def is_complex(self):
    """``t.is_complex()``, as torch's: is the tensor's dtype complex? Never, in reftorch."""
    return self.dtype.is_complex


def is_conj(self):
    """``t.is_conj()``: is ``t`` a lazily conjugated complex view? Never without complex dtypes."""
    return False


def conj(self):
    """``t.conj()``: for a tensor that is not complex, ``t`` itself (the same object), as in torch."""
    return self


resolve_conj = conj  # nothing lazy to resolve: ``t`` itself


# torch's complex dtypes, by all their names: reftorch has none, and says so when one is asked for.
COMPLEX_DTYPE_NAMES = ("complex32", "complex64", "complex128", "chalf", "cfloat", "cdouble")


def stored_complex(value, d):
    """A complex number stored into a real dtype ``d`` (``fill_``, ``t[i] = x``), as torch converts
    it: a bool takes its truth; another dtype its real part, when the imaginary part is 0 (and, for
    an integer dtype, the real part is finite); else torch's overflow error. Other values pass."""
    if not isinstance(value, numbers.Complex) or isinstance(value, numbers.Real):
        return value
    if d is bool:
        return builtins.bool(value)
    if value.imag != 0 or (not d.is_floating_point and not math.isfinite(value.real)):
        raise RuntimeError(_messages.SCALAR_OVERFLOW.format(_C_TYPES.get(d._name) or _FLOAT_LIMITS[d._name][1]))
    return builtins.float(value.real)


def no_kernel(kernel, dtype):
    """torch's error for a ``dtype`` its ``kernel`` has no version for (``"abs_cpu" not implemented for 'Bool'``)."""
    return NotImplementedError(_messages.NOT_IMPLEMENTED_FOR.format(kernel=kernel, dtype=dtype._short_name))


def refuse_complex(value):
    """A complex number (``1j``, numpy's ``complex64(1)``) has no dtype in reftorch: refuse it,
    wherever torch would compute with it, rather than let it pass as a number or as no number."""
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise NotImplementedError(_messages.NO_COMPLEX_NUMBER.format(value))


def scalar_dtype(value):
    """The dtype torch gives a Python or numpy number: bool, int64 or the default float."""
    # This module names its dtypes bool and float, as torch does, so the
    # Python types are reached through the builtins module.
    refuse_complex(value)
    if isinstance(value, builtins.bool):
        return bool
    if isinstance(value, numbers.Integral):
        check_scalar_int(value)
        return int64
    return get_default_dtype()
