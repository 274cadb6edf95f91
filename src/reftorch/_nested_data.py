"""Reading ``tensor(data)``'s data: Python numbers and nested lists to flat numbers and a shape.

``torch.tensor([[1, 2], [3, 4.5]])`` has to decide two things before any
memory is allocated, and this module decides them as torch does:

* **the dtype**, when none is given: a bool, an int or a float gives bool,
  int64 or the default float dtype; a numpy number or a tensor keeps its own;
  a list promotes its elements' dtypes (float beats int, int beats bool).
* **the numbers**: the shape is read along the first element of each level,
  every list is checked against it, and each element is converted with
  torch's checks (a string is refused, an int too big for the dtype raises).

Nothing here touches a tensor's memory: the result is the numbers in
row-major order, with their shape, which ``_creation`` copies into a new
storage.
"""

import builtins
import functools

from . import _messages
from ._dtype import bool as bool_, dtype as dtype_type, float64, from_numpy_dtype, get_default_dtype, int64
from ._dtype import overflows, promote_types
from ._numpy_objects import is_array, is_number, is_scalar
from ._tensor import Tensor
from ._overrides import overridable

# What torch reads as a sequence of elements (it reads any Python sequence; these are the usual ones).
SEQUENCES = (list, tuple, range)
# torch also accepts the Python types as dtypes.
_PYTHON_TYPES = {builtins.float: float64, int: int64, builtins.bool: bool_}


def check_dtype(dtype, fn):
    """The dtype argument as a reftorch dtype (or None), with torch's TypeError otherwise."""
    if dtype in _PYTHON_TYPES:
        return _PYTHON_TYPES[dtype]
    if dtype is not None and not isinstance(dtype, dtype_type):
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    return dtype


def infer_dtype(data):
    """The dtype ``tensor(data)`` picks. A Python bool, int or float gives
    bool, int64 or the default float dtype; a numpy number or array, or a
    tensor, keeps its own dtype; a list promotes its elements' dtypes (float
    beats int, int beats bool). An empty list is the default float dtype.
    Lists, tuples and ranges are read as sequences.
    reftorch has no complex dtypes, so a complex number raises (torch gives
    complex64)."""
    found, pending = [], [data]
    while pending:
        item = pending.pop(0)
        if isinstance(item, SEQUENCES):
            pending[:0] = item  # its elements come next, in order
            if not item:
                found.append(get_default_dtype())  # also inside a list: [[], [1]] is a float
        elif isinstance(item, Tensor):
            found.append(item.dtype)
        elif is_scalar(item) or is_array(item):  # before float: numpy's float64 is a Python float too
            found.append(from_numpy_dtype(item.dtype))
        elif isinstance(item, builtins.bool):
            found.append(bool_)
        elif isinstance(item, int):
            found.append(int64)
        elif isinstance(item, builtins.float):
            found.append(get_default_dtype())
        elif isinstance(item, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(item).__name__}")
    return functools.reduce(promote_types, found) if found else get_default_dtype()
infer_dtype = overridable(infer_dtype)


def _infer_shape(data):
    """The shape, read (as torch reads it) along the first element of each level."""
    shape = []
    while isinstance(data, SEQUENCES):
        shape.append(len(data))
        if not data:
            break
        data = data[0]
    return tuple(shape)


def _number(x, dtype):
    """One element, checked the way torch converts it to ``dtype``."""
    if isinstance(x, Tensor):
        if x.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        x = x.item()
    if dtype.is_floating_point and not is_number(x):
        raise TypeError(f"must be real number, not {type(x).__name__}")
    if not dtype.is_floating_point and not is_number(x):
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
    if isinstance(x, int) and not dtype.is_floating_point and not -2 ** 63 <= x < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    if overflows(x, dtype):
        raise RuntimeError(_messages.SCALAR_OVERFLOW.format(str(dtype)[6:]))
    return x


def _flat_numbers(data, shape, dtype, dim=0):
    """All elements in row-major order, checking every list against ``shape``."""
    if dim == len(shape):
        return [_number(data, dtype)]
    if not isinstance(data, SEQUENCES):
        raise TypeError("not a sequence")
    if len(data) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(data)})")
    return [x for item in data for x in _flat_numbers(item, shape, dtype, dim + 1)]


def values_of_data(data, dtype):
    """``data`` (a number or nested lists of them) as ``(numbers in row-major order, shape)``.

    The numbers are checked (see ``_number``), not yet rounded: storing them
    in ``dtype`` does that (``_elements.cast``: an integer dtype cuts floats
    toward zero, and a uint8 takes -255 ... -1 around, -1 is 255; a float too
    big for the dtype becomes inf).
    """
    shape = _infer_shape(data)
    return (_flat_numbers(data, shape, dtype) if 0 not in shape else []), shape
