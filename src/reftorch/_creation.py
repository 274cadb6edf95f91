"""Creating tensors: every function here allocates a new storage.

``tensor(data)`` copies ``data`` into fresh memory, always. Given a tensor it
still copies (and warns that ``t.detach().clone()`` says the same thing more
clearly); it keeps that tensor's dtype and device and never keeps its history.
``new_tensor``, ``new_zeros`` ... take their default dtype and device from
``self``, and nothing else. ``from_numpy`` is the exception to the rule: it
wraps the array's memory instead of copying it.
"""

import builtins
import functools
import math
import warnings

import numpy as np

from . import _messages, _strides
from ._device import as_device, cpu
from ._dtype import (
    bool as bool_, check_scalar, dtype as dtype_type, float64, from_numpy_dtype, get_default_dtype, int64,
    overflows, promote_types,
)
from ._storage import UntypedStorage
from ._tensor import Tensor
from .autograd.inference_mode import plain_kernel_writes

_COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than {}(sourceTensor)."
)


# torch also accepts the Python types as dtypes.
_PYTHON_TYPES = {builtins.float: float64, int: int64, builtins.bool: bool_}


def _check_dtype(dtype, fn):
    """The dtype argument as a reftorch dtype (or None), with torch's TypeError otherwise."""
    if dtype in _PYTHON_TYPES:
        return _PYTHON_TYPES[dtype]
    if dtype is not None and not isinstance(dtype, dtype_type):
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    return dtype


def _finish(t, requires_grad):
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _infer_dtype(data):
    """The dtype ``tensor(data)`` picks. A Python bool, int or float gives
    bool, int64 or the default float dtype; a numpy number or a tensor keeps
    its own dtype; a list promotes its elements' dtypes (float beats int, int
    beats bool). An empty list is the default float dtype."""
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, np.generic):  # before float: numpy's float64 is a Python float too
        return from_numpy_dtype(data.dtype)
    if isinstance(data, builtins.bool):
        return bool_
    if isinstance(data, int):
        return int64
    if isinstance(data, builtins.float):
        return get_default_dtype()
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(data, (list, tuple)):
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    dtypes = [_infer_dtype(item) for item in data]
    return functools.reduce(promote_types, dtypes) if dtypes else get_default_dtype()


def _infer_shape(data):
    """The shape, read (as torch reads it) along the first element of each level."""
    shape = []
    while isinstance(data, (list, tuple)):
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
    if dtype.is_floating_point and not isinstance(x, (int, builtins.float, np.number, np.bool_)):
        raise TypeError(f"must be real number, not {type(x).__name__}")
    if not dtype.is_floating_point and not isinstance(x, (int, builtins.float, np.number, np.bool_)):
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
    if isinstance(x, int) and not dtype.is_floating_point and not -2 ** 63 <= x < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    if overflows(x, dtype):
        raise RuntimeError(_messages.SCALAR_OVERFLOW.format(str(dtype)[6:]))
    return x


def _elements(data, shape, dtype, dim=0):
    """All elements in row-major order, checking every list against ``shape``."""
    if dim == len(shape):
        return [_number(data, dtype)]
    if not isinstance(data, (list, tuple)):
        raise TypeError("not a sequence")
    if len(data) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(data)})")
    return [x for item in data for x in _elements(item, shape, dtype, dim + 1)]


def _array_of(numbers, dtype):
    """Checked numbers (see ``_number``) as a numpy array of ``dtype``.

    An integer dtype cuts floats toward zero, and a uint8 takes -255 ... -1
    around (-1 is 255), as torch's conversion does; a float too big for the
    dtype becomes inf.
    """
    with np.errstate(all="ignore"):
        if dtype.is_floating_point:
            return np.array(numbers, dtype=np.float64).astype(dtype._numpy_type)
        if dtype is bool_:
            return np.array(numbers).astype(np.bool_)
        return np.array([int(x) for x in numbers], dtype=np.int64).astype(dtype._numpy_type)


def _from_data(data, dtype, device, requires_grad, caller):
    dtype = _check_dtype(dtype, caller.split(".")[-1])
    if isinstance(data, Tensor):
        warnings.warn(_COPY_WARNING.format(caller), UserWarning, stacklevel=3)
        # Like data.to(..., copy=True): a new storage laid out as the source is
        # (preserve_format), so a transposed tensor stays transposed.
        source = data.detach()
        strides = _strides.preserve_format_strides(source._size, source._stride)
        t = Tensor._from_values(source._elements(), dtype or data.dtype, as_device(device) or data.device, strides)
        return _finish(plain_kernel_writes(t, (data,)), requires_grad)
    if isinstance(data, np.ndarray):
        t = Tensor._from_values(data, dtype or from_numpy_dtype(data.dtype), as_device(device) or cpu)
        return _finish(t, requires_grad)
    dtype = dtype or _infer_dtype(data)
    shape = _infer_shape(data)
    numbers = _elements(data, shape, dtype) if 0 not in shape else []
    values = _array_of(numbers, dtype).reshape(shape)
    return _finish(Tensor._from_values(values, dtype, as_device(device) or cpu), requires_grad)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data``."""
    return _from_data(data, dtype, device, requires_grad, "torch.tensor")


def _size_arg(size, op):
    from ._arguments import _int_list_arg

    size = _int_list_arg(op, "size", size)
    for n in size:
        if n < 0 and op == "zeros":
            raise RuntimeError(f"{op}: Dimension size must be non-negative.")
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{', '.join(map(str, size))}]")
    return tuple(size)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    dtype = _check_dtype(dtype, "full")
    if not isinstance(fill_value, (int, builtins.float, np.number)):
        raise TypeError(
            f"full(): argument 'fill_value' (position 2) must be Number, not {type(fill_value).__name__}"
        )
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    size = _size_arg((size,), "full")
    dtype = dtype or _infer_dtype(fill_value)
    check_scalar(fill_value, dtype)
    values = np.full(size, fill_value)  # cast to dtype (wrapping, as in C) by _from_values
    return _finish(Tensor._from_values(values, dtype, as_device(device) or cpu), requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    dtype = _check_dtype(dtype, "zeros")
    return full(_size_arg(size, "zeros"), 0, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    dtype = _check_dtype(dtype, "ones")
    return full(_size_arg(size, "ones"), 1, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    """New memory that is not initialised (here it happens to hold zeros)."""
    dtype = _check_dtype(dtype, "empty")
    size = _size_arg(size, "empty")
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


_ARANGE_SIGNATURES = (
    " * (Number end, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (Number start, Number end, *, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (Number start, Number end, Number step = 1, *, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n"
)


def arange(*args, dtype=None, device=None, requires_grad=False):
    """``arange(end)``, ``arange(start, end)`` or ``arange(start, end, step)``."""
    is_number = [isinstance(a, (int, builtins.float, np.number)) for a in args]
    if len(args) == 1 and not is_number[0]:
        raise TypeError(f"arange(): argument 'end' (position 1) must be Number, not {type(args[0]).__name__}")
    if not 1 <= len(args) <= 3 or not all(is_number):
        got = ", ".join(type(a).__name__ for a in args)
        raise TypeError(
            f"arange() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            + _ARANGE_SIGNATURES
        )
    start, end, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
    dtype = _check_dtype(dtype, "arange")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    kinds = {_infer_dtype(x) for x in (start, end, step)}
    inferred = get_default_dtype() if any(d.is_floating_point for d in kinds) else int64
    count = math.ceil((end - start) / step)
    values = start + np.arange(count, dtype=np.float64) * step
    dtype = dtype or inferred
    return _finish(Tensor._from_values(values, dtype, as_device(device) or cpu), requires_grad)


def _like(fill, self, dtype, device, requires_grad):
    """A new tensor shaped like ``self``, laid out like ``clone()`` would lay it out."""
    if self.is_sparse:
        raise NotImplementedError(_messages.SPARSE_UNSUPPORTED.format(name="*_like"))
    dtype = _check_dtype(dtype, "zeros_like")
    dtype = dtype or self.dtype
    strides = _strides.preserve_format_strides(self._size, self._stride)
    t = Tensor._from_values(np.full(self._size, fill, dtype=dtype._numpy_type), dtype,
                            as_device(device) or self.device, strides)
    return _finish(t, requires_grad)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _like(0, input, dtype, device, requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _like(1, input, dtype, device, requires_grad)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _like(0, input, dtype, device, requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _like(fill_value, input, dtype, device, requires_grad)


# --- Tensor.new_* : defaults come from self --------------------------------------

def new_tensor(self, *args, dtype=None, device=None, requires_grad=False):
    """A new leaf holding a copy of ``data``, with ``self``'s dtype and device by default.

    Everything but ``data`` is keyword-only, as in torch.
    """
    if len(args) != 1:
        raise TypeError(f"new_tensor() takes 1 positional argument but {len(args)} were given")
    data = args[0]
    return _from_data(data, dtype or self.dtype, device or self.device, requires_grad, "tensor.new_tensor")


def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    t = zeros(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
    return plain_kernel_writes(t, (self,))


def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    t = ones(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
    return plain_kernel_writes(t, (self,))


def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    return empty(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    t = full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
    return plain_kernel_writes(t, (self,))


# --- numpy ---------------------------------------------------------------------

_warned = set()


def warn_once(message):
    """A UserWarning that torch gives once per process (its ``TORCH_WARN_ONCE``)."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def from_numpy(array, *, warn=True):
    """A tensor on the array's own memory: no copy, writes show on both sides."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtype = from_numpy_dtype(array.dtype)
    if warn and not array.flags.writeable:
        warn_once(_messages.NUMPY_NOT_WRITABLE)
    itemsize = array.itemsize
    if any(s % itemsize for s in array.strides):
        raise ValueError(_messages.NUMPY_STRIDES_NOT_MULTIPLE)
    if any(s < 0 for s in array.strides):
        raise ValueError(_messages.NUMPY_NEGATIVE_STRIDES)
    if not array.dtype.isnative:
        raise ValueError(_messages.NUMPY_BYTE_ORDER)
    if array.size == 0:
        return Tensor._make(UntypedStorage(0), 0, array.shape, (0,) * array.ndim, dtype)
    strides = tuple(s // itemsize for s in array.strides)
    span = 1 + sum((n - 1) * s for n, s in zip(array.shape, strides))
    # All the bytes from the first element to the last, seen as one flat
    # buffer. The strides are whole elements and none is negative, so these
    # are exactly the bytes numpy says the array's elements occupy.
    flat = np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(itemsize,))
    storage = UntypedStorage._wrap(flat.view(np.uint8), cpu, resizable=False)
    return Tensor._make(storage, 0, array.shape, strides, dtype)
