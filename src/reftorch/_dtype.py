"""Element types: what one number in a storage is, and how many bytes it takes.

A tensor's bytes mean nothing until a dtype says how to read them. reftorch
knows four dtypes, the ones the course needs:

    float32 (4 bytes, the default)   float64 (8 bytes)
    int64   (8 bytes)                bool    (1 byte)

Each dtype is backed by the numpy type that reads the same bytes, so a storage
can be a plain numpy byte buffer and a tensor a typed window onto it.

This module also answers "what dtype does ``a + b`` have?" with torch's type
promotion rules (``result_type``).
"""

import builtins

import numpy as np


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


float32 = dtype("float32", np.float32, True, True, "Float")
float64 = dtype("float64", np.float64, True, True, "Double")
int64 = dtype("int64", np.int64, False, True, "Long")
bool = dtype("bool", np.bool_, False, False, "Bool")  # noqa: A001 - torch's name

# The aliases torch also accepts.
float = float32  # noqa: A001
double = float64
long = int64

_ALL = (float32, float64, int64, bool)
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
    for d in _ALL:
        if d._numpy_type == np_dtype:
            return d
    raise TypeError(
        f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. "
        "The only supported types are: float64, float32, int64, and bool."
    )


# ---------------------------------------------------------------------------
# Type promotion
# ---------------------------------------------------------------------------
# torch orders the dtypes from "narrowest" to "widest" category:
#   bool  <  integers  <  floating point
# and inside a category picks the wider type.

def _rank(d):
    return {bool: 0, int64: 1, float32: 2, float64: 3}[d]


def promote_types(a, b):
    """The smallest dtype both ``a`` and ``b`` can be cast to safely."""
    return a if _rank(a) >= _rank(b) else b


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


def scalar_dtype(value):
    """The dtype torch gives a Python number: bool, int64 or the default float."""
    # This module names its dtypes bool and float, as torch does, so the
    # Python types are reached through the builtins module.
    if isinstance(value, builtins.bool):
        return bool
    if isinstance(value, int):
        return int64
    return get_default_dtype()


def result_type(*operands):
    """The dtype of an elementwise result, following torch's three tiers.

    Tensors with one or more dimensions decide first. Zero-dimensional tensors
    and then Python numbers only matter when they belong to a higher category
    (``int_tensor + 2.5`` is float, ``float32_tensor + float64_scalar_tensor``
    stays float32).
    """
    from ._tensor import Tensor

    dim_result = zero_dim_result = scalar_result = None
    for x in operands:
        if isinstance(x, Tensor):
            if x.dim() > 0:
                dim_result = x.dtype if dim_result is None else promote_types(dim_result, x.dtype)
            else:
                zero_dim_result = x.dtype if zero_dim_result is None else promote_types(zero_dim_result, x.dtype)
        else:
            d = scalar_dtype(x)
            scalar_result = d if scalar_result is None else promote_types(scalar_result, d)
    return _combine_categories(dim_result, _combine_categories(zero_dim_result, scalar_result))
