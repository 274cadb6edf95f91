"""Reading ``tensor(data)``'s data: Python numbers and nested lists to flat numbers and a shape.

``torch.tensor([[1, 2], [3, 4.5]])`` has to decide two things before any
memory is allocated, and this module decides them as torch does:

* **the dtype**, when none is given: a bool, an int or a float gives bool,
  int64 or the default float dtype; a numpy number or a tensor keeps its own;
  a list promotes its elements' dtypes (float beats int, int beats bool).
* **the numbers**: the shape is read along the first element of each level
  (a numpy array is a level too, as a list is), every level is checked
  against it, and each element is converted as torch converts it for the
  dtype (an integer dtype takes only what has ``__index__``, or a Python
  float; an int too big for the dtype raises).

Nothing here touches a tensor's memory: the result is the numbers in
row-major order, with their shape, which ``_creation`` copies into a new
storage.
"""

import builtins
import functools
import operator

from . import _messages
from ._dtype import bool as bool_, dtype as dtype_type, float64, from_numpy_dtype, get_default_dtype, int64
from ._dtype import overflows, promote_types
from ._core_messages import type_name
from ._device import cpu
from ._numpy_objects import check_array_layout, is_array, is_bool, is_scalar
from ._strides import preserve_format_strides
from ._tensor import Tensor
from ._overrides import overridable
from ._warn import warn

# torch also accepts the Python types as dtypes.
_PYTHON_TYPES = {builtins.float: float64, int: int64, builtins.bool: bool_}


def check_dtype(dtype, fn):
    """The dtype argument as a reftorch dtype (or None), with torch's TypeError otherwise
    (reftorch's for Python's ``complex``, which torch reads as complex128)."""
    if dtype is complex:
        raise TypeError(_messages.PYTHON_COMPLEX_DTYPE)
    if dtype in _PYTHON_TYPES:
        return _PYTHON_TYPES[dtype]
    if dtype is not None and not isinstance(dtype, dtype_type):
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {type_name(dtype)}")
    return dtype


def check_factory_arguments(dtype, requires_grad, fn, optional=False):
    """``check_dtype``, then torch's TypeError for a ``requires_grad`` that is not a bool (1 is
    refused too). ``optional``: the factories (``ones``, ``zeros_like`` ...) also take None, as False;
    ``tensor()`` and ``new_tensor()`` do not."""
    dtype = check_dtype(dtype, fn)
    if not isinstance(requires_grad, builtins.bool) and not (optional and requires_grad is None):
        # numpy's bool is named in full, or "must be bool, not bool" would puzzle
        raise TypeError(f"{fn}(): argument 'requires_grad' must be bool, not {type_name(requires_grad)}")
    return dtype


def infer_dtype(data):
    """The dtype ``tensor(data)`` picks. A Python bool, int or float gives
    bool, int64 or the default float dtype; a numpy number or array, or a
    tensor, keeps its own dtype; a list promotes its elements' dtypes (float
    beats int, int beats bool). An empty list is the default float dtype.
    Lists, tuples, ranges and arrays are read as sequences. reftorch has no
    complex dtypes, so a Python complex number raises (torch gives complex64)."""
    found, pending = [], [data]
    while pending:
        item = pending.pop(0)
        if is_scalar(item) or is_array(item):  # before float: numpy's float64 is a Python float too
            found.append(from_numpy_dtype(item.dtype))
        elif isinstance(item, (list, tuple, range)):
            pending[:0] = item  # its elements come next, in order
            if not item:
                found.append(get_default_dtype())  # also inside a list: [[], [1]] is a float
        elif isinstance(item, Tensor):
            found.append(item.dtype)
        elif isinstance(item, builtins.bool):
            found.append(bool_)
        elif isinstance(item, int):
            found.append(int64)
        elif isinstance(item, builtins.float):
            found.append(get_default_dtype())
        elif isinstance(item, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        elif isinstance(item, complex):  # torch: complex64
            raise NotImplementedError(f"reftorch has no complex dtypes, so it cannot store {item!r}")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(item).__name__}")
    return functools.reduce(promote_types, found) if found else get_default_dtype()
infer_dtype = overridable(infer_dtype)


def _is_level(data):
    """A level of nested data, as torch's ``PySequence_Check``: a list, a tuple, a range, an array, a string."""
    return isinstance(data, (list, tuple, range, str)) or is_array(data)


def _infer_shape(data):
    """The shape, read (as torch reads it) along the first element of each level. A 0-d array
    has no length (numpy's TypeError); a string's first element is a string again, for ever."""
    if isinstance(data, str):  # the data itself: torch refuses it before reading any shape
        raise TypeError(f"new(): invalid data type '{type_name(data)}'")
    shape = []
    while _is_level(data):
        if isinstance(data, str) and data:
            raise ValueError("too many dimensions 'str'")
        shape.append(len(data))
        if not len(data):
            break
        data = data[0]
    return tuple(shape)


def _number(x, dtype):
    """One element, converted as torch's ``store_scalar`` converts it for ``dtype``.

    A float dtype takes whatever Python can make a float of (``__float__`` or ``__index__``: a
    numpy bool, a 0-d array, a one-element tensor). An integer dtype takes a Python float (cut
    toward zero when stored) and whatever has ``__index__``: not a numpy bool or float32 (Python's
    TypeError names them); bool takes numpy's bools too.
    """
    if dtype.is_floating_point:
        if not hasattr(type(x), "__float__") and not hasattr(type(x), "__index__"):
            raise TypeError(f"must be real number, not {type_name(x)}")
        x = builtins.float(x)
    elif dtype is bool_ and is_bool(x):
        return builtins.bool(x)
    elif not isinstance(x, builtins.float):  # numpy's float64 is a Python float
        x = operator.index(x)
        if dtype is not bool_ and not -2 ** 63 <= x < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
    if overflows(x, dtype):
        raise RuntimeError(_messages.SCALAR_OVERFLOW.format(str(dtype)[6:]))
    return x


_warned_list_of_arrays = False


def _items(data):
    """The items of one level, as torch's ``PySequence_Fast`` gives them: a list or tuple as it is,
    anything else Python can iterate (an array, a tensor) as the list of its items."""
    if isinstance(data, (list, tuple)):
        return data
    try:
        return list(data)
    except TypeError:
        raise TypeError("not a sequence") from None


def _flat_numbers(data, shape, dtype, dim=0):
    """All elements in row-major order, checking every level against ``shape``."""
    global _warned_list_of_arrays
    if dim == len(shape):
        return [_number(data, dtype)]
    items = _items(data)
    if len(items) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(items)})")
    if not _warned_list_of_arrays and any(is_array(item) for item in items):
        _warned_list_of_arrays = True  # once per process, as torch's TORCH_WARN_ONCE
        warn(_messages.LIST_OF_ARRAYS)
    return [x for item in items for x in _flat_numbers(item, shape, dtype, dim + 1)]


def tensor_of_array(array):
    """``array`` read as torch reads it, with ``from_numpy``'s refusals, into a tensor in the array's own
    layout (a dense one's strides, else packed in its memory order) for ``tensor(array)`` to copy."""
    check_array_layout(array)
    strides = preserve_format_strides(array.shape, [s // array.itemsize for s in array.strides])
    return Tensor._from_values(array.reshape(-1).tolist(), array.shape, from_numpy_dtype(array.dtype), cpu, strides)


def values_of_data(data, dtype=None):
    """``data`` (a number or nested lists of them) as ``((numbers in row-major order, shape), dtype)``.

    torch reads the shape first (so its errors come first), then the dtype,
    ``infer_dtype``'s unless one is given. The numbers are checked (see
    ``_number``), not yet rounded: storing them in ``dtype`` does that
    (``_elements.cast``: an integer dtype cuts floats toward zero, and a uint8
    takes -255 ... -1 around, -1 is 255; a float too big for the dtype becomes inf).
    """
    shape = _infer_shape(data)
    dtype = dtype or infer_dtype(data)
    return ((_flat_numbers(data, shape, dtype) if 0 not in shape else []), shape), dtype
