"""Creating tensors: every function here allocates a new storage.

``tensor(data)`` copies ``data`` into fresh memory, always. Given a tensor it
still copies (and warns that ``t.detach().clone()`` says the same thing more
clearly); it keeps that tensor's dtype and device and never keeps its history.
``new_tensor``, ``new_zeros`` ... take their default dtype and device from
``self``, and nothing else. ``from_numpy`` is the exception to the rule: it
wraps the array's memory instead of copying it.
"""

import builtins
import math
import warnings

import numpy as np

from . import _strides
from ._device import as_device, cpu
from ._dtype import bool as bool_, dtype as dtype_type, from_numpy_dtype, get_default_dtype, int64
from ._storage import UntypedStorage
from ._tensor import Tensor

_COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than {}(sourceTensor)."
)


def _check_dtype(dtype, fn):
    if dtype is not None and not isinstance(dtype, dtype_type):
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")


def _finish(t, requires_grad):
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _infer(data, depth=0):
    """Shape and dtype of nested lists of numbers, with torch's ragged-list error."""
    if isinstance(data, Tensor):
        if data.numel() != 1 and data.dim() != 0:
            return data._size, data.dtype
        return (), data.dtype
    if isinstance(data, (builtins.bool, np.bool_)):
        return (), bool_
    if isinstance(data, (int, np.integer)):
        return (), int64
    if isinstance(data, (builtins.float, np.floating)):
        return (), get_default_dtype()
    if not isinstance(data, (list, tuple)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if len(data) == 0:
        return (0,), get_default_dtype()
    shapes, dtypes = zip(*(_infer(item, depth + 1) for item in data))
    for item, shape in zip(data, shapes):
        if shape != shapes[0]:
            got = len(item) if isinstance(item, (list, tuple)) else shape[0] if shape else 1
            if not isinstance(item, (list, tuple)) and not shape:
                raise TypeError(f"expected sequence of length {shapes[0][0]} at dim {depth + 1} (got {type(item).__name__})")
            raise ValueError(f"expected sequence of length {shapes[0][0]} at dim {depth + 1} (got {got})")
    kinds = set(dtypes)
    if any(d.is_floating_point for d in kinds):
        kind = get_default_dtype()
    elif int64 in kinds:
        kind = int64
    else:
        kind = bool_
    return (len(data),) + shapes[0], kind


def _plain(data):
    """Nested lists with tensors replaced by their numbers."""
    if isinstance(data, Tensor):
        return data.tolist()
    if isinstance(data, (list, tuple)):
        return [_plain(item) for item in data]
    return data


def _from_data(data, dtype, device, requires_grad, caller):
    _check_dtype(dtype, caller.split(".")[-1])
    if isinstance(data, Tensor):
        warnings.warn(_COPY_WARNING.format(caller), UserWarning, stacklevel=3)
        source = data.detach()
        t = Tensor._from_values(source._values(), dtype or data.dtype, as_device(device) or data.device)
        return _finish(t, requires_grad)
    if isinstance(data, np.ndarray):
        t = Tensor._from_values(data, dtype or from_numpy_dtype(data.dtype), as_device(device) or cpu)
        return _finish(t, requires_grad)
    shape, inferred = _infer(data)
    values = np.array(_plain(data), dtype=(dtype or inferred)._numpy_type).reshape(shape)
    return _finish(Tensor._from_values(values, dtype or inferred, as_device(device) or cpu), requires_grad)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data``."""
    return _from_data(data, dtype, device, requires_grad, "torch.tensor")


def _size_arg(size, op):
    from ._views import _int_list_arg

    size = _int_list_arg(op, "size", size)
    for n in size:
        if n < 0 and op in ("zeros", "ones"):
            raise RuntimeError(f"{op}: Dimension size must be non-negative.")
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{', '.join(map(str, size))}]")
    return tuple(size)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    _check_dtype(dtype, "full")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    size = _size_arg((size,), "full")
    dtype = dtype or _infer(fill_value)[1]
    values = np.full(size, fill_value, dtype=dtype._numpy_type)
    return _finish(Tensor._from_values(values, dtype, as_device(device) or cpu), requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    _check_dtype(dtype, "zeros")
    return full(_size_arg(size, "zeros"), 0, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    _check_dtype(dtype, "ones")
    return full(_size_arg(size, "ones"), 1, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    """New memory that is not initialised (here it happens to hold zeros)."""
    _check_dtype(dtype, "empty")
    size = _size_arg(size, "empty")
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    kinds = {_infer(x)[1] for x in (start, end, step)}
    inferred = get_default_dtype() if any(d.is_floating_point for d in kinds) else int64
    count = math.ceil((end - start) / step)
    values = start + np.arange(count, dtype=np.float64) * step
    dtype = dtype or inferred
    return _finish(Tensor._from_values(values, dtype, as_device(device) or cpu), requires_grad)


def _like(fill, self, dtype, device, requires_grad):
    """A new tensor shaped like ``self``, laid out like ``clone()`` would lay it out."""
    _check_dtype(dtype, "zeros_like")
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
    return zeros(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    return ones(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    return empty(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


# --- numpy ---------------------------------------------------------------------

def from_numpy(array):
    """A tensor on the array's own memory: no copy, writes show on both sides."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtype = from_numpy_dtype(array.dtype)
    itemsize = array.itemsize
    if any(s < 0 for s in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making a "
            "copy of your array  with array.copy().) "
        )
    strides = tuple(s // itemsize for s in array.strides)
    span = 1 + sum((n - 1) * s for n, s in zip(array.shape, strides)) if array.size else 0
    # All the bytes from the first element to the last, seen as one flat buffer.
    flat = np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(itemsize,))
    storage = UntypedStorage._wrap(flat.view(np.uint8), cpu)
    return Tensor._make(storage, 0, array.shape, strides, dtype)
