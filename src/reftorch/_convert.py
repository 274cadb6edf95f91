"""Converting: numpy arrays, Python data and tensors, and when memory is shared.

``torch.tensor(data)`` always copies. The functions here copy only when they
must, and that is the whole lesson:

* ``torch.from_numpy(array)`` is a tensor on the array's own memory, always:
  writes show on both sides.
* ``torch.as_tensor(data, dtype, device)`` is ``data.to(device, dtype)`` for
  a tensor: the *same object* (history, ``requires_grad`` and all) when
  nothing changes, a copy that stays in the graph otherwise. A numpy array
  becomes a tensor on the array's own memory (``from_numpy``), copied only if
  ``dtype`` or ``device`` (or ``set_default_device``) asks for something else. Lists are copied.
* ``torch.asarray(obj, dtype, device, copy, requires_grad)`` does the same,
  and ``copy=`` decides: ``True`` always copies (``clone()``, or ``to()`` when
  the dtype or device changes), ``False`` refuses to copy (a ValueError
  instead), ``None`` copies only when needed. Careful: it *sets*
  ``requires_grad`` on the object it returns, which may be ``obj`` itself.
* ``t.numpy()`` is an array on ``t``'s memory (no copy). It refuses a cuda
  tensor and, in grad mode, a tensor that requires grad: the array would let
  you change numbers behind autograd's back. ``force=True`` does it anyway
  (``t.detach().cpu()``: a copy only for a cuda tensor).

numpy is optional: it is imported here, when one of these meets an array or
makes one, and never by ``import reftorch``.
"""

import builtins

from . import _bounds, _layout_checks, _math, _messages
from ._clone import clone
from ._binding import from_data as _from_data
from ._detach import detach
from ._default_device import factory_device, named_default, names_an_index
from ._device import cpu, device as device_type
from ._dtype import from_numpy_dtype
from ._nested_data import check_dtype
from ._numpy_objects import check_array_layout, is_array, is_scalar
from ._storage import UntypedStorage
from ._tensor import Tensor
from ._to import to
from .autograd.grad_mode import is_grad_enabled
from ._warn import warn
from ._overrides import overridable

_warned = set()


def warn_once(message):
    """A UserWarning that torch gives once per process (its ``TORCH_WARN_ONCE``)."""
    if message not in _warned:
        _warned.add(message)
        warn(message)


def from_numpy(array, *, warn=True):
    """A tensor on the array's own memory: no copy, writes show on both sides."""
    if not is_array(array):
        raise TypeError(f"expected np.ndarray (got {_messages.type_name(array)})")
    dtype = from_numpy_dtype(array.dtype)
    if warn and not array.flags.writeable:
        warn_once(_messages.NUMPY_NOT_WRITABLE)
    storage = array_storage(array)
    # numpy's strides in bytes, as whole elements. An empty array keeps them
    # too (``arange(0).reshape(0, 3)`` has (3, 1), ``zeros((0, 3))`` (0, 0)):
    # torch copies whatever numpy says.
    strides = tuple(s // array.itemsize for s in array.strides)
    _layout_checks.check_fits(array.shape, strides, 0, dtype.itemsize, storage.nbytes())
    return Tensor._make(storage, 0, array.shape, strides, dtype)
from_numpy = overridable(from_numpy)


def array_storage(array):
    """A storage on the array's own bytes, from its first element to its last (none if it is
    empty): slot 0 holds the first element. Refuses strides a tensor cannot have."""
    itemsize = array.itemsize
    check_array_layout(array)
    if array.size == 0:
        return UntypedStorage(0)
    strides = tuple(s // itemsize for s in array.strides)
    span = 1 + sum((n - 1) * s for n, s in zip(array.shape, strides))
    # All the bytes from the first element to the last, seen as one flat
    # buffer. The strides are whole elements and none is negative, so these
    # are exactly the bytes numpy says the array's elements occupy.
    import numpy as np

    flat = np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(itemsize,))
    return UntypedStorage._wrap(flat.view(np.uint8), cpu, resizable=False, address=flat.ctypes.data)


def as_tensor(data, dtype=None, device=None):
    """``data`` as a tensor, sharing its memory when ``dtype`` and ``device`` allow."""
    dtype = check_dtype(dtype, "as_tensor")
    copy = names_an_index(device)  # "cpu:0" is not a CPU tensor's device, "cpu": torch copies
    device = factory_device(device, fallback=None)  # as torch: a default device set counts as asked for
    if isinstance(data, Tensor):
        return to(data, device=device or data.device, dtype=dtype or data.dtype, copy=copy)
    if is_array(data):
        shared = from_numpy(data)  # warns if the array is read-only
        return to(shared, device=device or cpu, dtype=dtype or shared.dtype, copy=copy)
    return _from_data(data, dtype, device, False, "torch.as_tensor")
as_tensor = overridable(as_tensor)


def _check_flag(op, name, value):
    if value is not None and not isinstance(value, builtins.bool):
        raise TypeError(f"{op}(): argument '{name}' must be bool, not {_messages.type_name(value)}")


def _set_requires_grad(t, flag):
    """What torch's C++ ``set_requires_grad`` does to the object itself."""
    if flag and not t.dtype.is_floating_point:
        raise RuntimeError(_messages.NOT_FLOAT_REQUIRES_GRAD)
    if t.is_leaf:
        t._requires_grad = flag


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """``obj`` as a tensor; ``copy`` says whether its memory may, must or must not be shared."""
    dtype = check_dtype(dtype, "asarray")
    # torch compares the device as given ("cuda" is not the same as "cuda:0" here), else the default.
    requested = named_default() if device is None else device_type(device)
    device = factory_device(device, fallback=None)
    _check_flag("asarray", "copy", copy)
    _check_flag("asarray", "requires_grad", requires_grad)
    # Unless told, the result requires grad when obj does (a change torch warns about, once).
    wants_grad = requires_grad
    if wants_grad is None:
        wants_grad = isinstance(obj, Tensor) and obj.requires_grad
        if wants_grad:
            warn_once(_messages.ASARRAY_REQUIRES_GRAD)

    source, read_only = _tensor_on_obj_memory(obj, copy)
    if source is None:  # a Python number or sequence: always a new tensor
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        t = _from_data(obj, dtype, device, False, "torch.asarray")
        _set_requires_grad(t, wants_grad)
        return t

    wrong_device = requested is not None and requested != source.device
    wrong_dtype = dtype is not None and dtype is not source.dtype
    force_copy = bool(copy) and not is_scalar(obj)  # a numpy number is new memory already
    if force_copy or (copy is None and (wrong_device or wrong_dtype)):
        if wrong_device or wrong_dtype:
            renamed = names_an_index(requested)  # "cpu:0": to() copies
            source = to(source, device=device or source.device, dtype=dtype or source.dtype, copy=force_copy or renamed)
        else:
            source = clone(source)
    elif wrong_device:
        raise ValueError(f"can't alias tensor from device '{source.device}' to '{requested}'.")
    elif wrong_dtype:
        raise ValueError(f"can't alias tensor with dtype '{source.dtype._short_name}' into dtype '{dtype._short_name}'.")
    elif read_only:
        warn_once(_messages.NUMPY_NOT_WRITABLE)

    # The flag is set on the object itself (obj, if nothing was copied); a
    # non-leaf cannot drop it, so it is detached instead.
    if not source.is_leaf and not wants_grad:
        return detach(source)
    _set_requires_grad(source, wants_grad)
    return source


def _tensor_on_obj_memory(obj, copy):
    """(a tensor on obj's own memory, whether that memory is read-only), or (None, False).

    A numpy number is the exception: it has no memory to share, so it gets new memory.
    """
    if isinstance(obj, Tensor):
        return obj, False
    if is_array(obj):
        return from_numpy(obj, warn=False), not obj.flags.writeable
    if is_scalar(obj):
        if copy is False:
            raise RuntimeError(_messages.ALIAS_NUMPY_SCALAR)
        return clone(from_numpy(obj.reshape(1).reshape(()), warn=False)), False
    return None, False


def numpy(self, *args, force=False):
    """A numpy array on this tensor's memory (no copy), as torch's ``.numpy()``.

    Nothing about the tensor changes (no version bump): writes through the
    array are writes autograd never hears of, which is why a tensor that
    requires grad is refused unless ``force=True`` (or grad mode is off).
    """
    if args:
        raise TypeError(f"numpy() takes 0 positional arguments but {len(args)} was given")
    if not isinstance(force, builtins.bool):
        raise TypeError(f"numpy(): argument 'force' must be bool, not {_messages.type_name(force)}")
    if not force:
        if self.device.type != "cpu":
            raise TypeError(_messages.NUMPY_OF_CUDA.format(self.device))
        if is_grad_enabled() and self.requires_grad:
            raise RuntimeError(_messages.NUMPY_OF_REQUIRES_GRAD)
    return array_on(to(detach(self), cpu))
numpy = overridable(numpy)


def array_on(t):
    """A numpy array over ``t``'s elements: ``t``'s memory, read with its size, stride
    and offset (no copy). Writes through it go to the storage.

    This is where metadata becomes memory addresses, so ``_bounds.element_bytes``
    first works out which bytes the elements occupy, and raises if any lies
    outside the storage; the array is built on exactly those bytes.
    """
    import numpy as np

    itemsize = t._dtype.itemsize
    span = _bounds.element_bytes(t._size, t._stride, t._storage_offset, itemsize, t._storage.nbytes())
    if span is None:  # no elements, nothing to point at
        return np.empty(tuple(max(n, 0) for n in t._size), dtype=t._dtype._numpy_type)
    start, stop = span
    window = np.frombuffer(t._storage._bytes[start:stop], dtype=t._dtype._numpy_type)
    first = t._storage_offset - start // itemsize  # element [0, 0, ...]
    return np.lib.stride_tricks.as_strided(window[first:], shape=t._size,
                                           strides=tuple(s * itemsize for s in t._stride))


def __array__(self, dtype=None):
    """``np.asarray(t)``: ``t.numpy()``, cast to ``dtype`` if one is asked for."""
    array = numpy(self)
    return array if dtype is None else array.astype(dtype, copy=False)


def __array_wrap__(self, array):
    """numpy's result of an operation on ``t`` (``np.sin(t)``, or ``t + array``), made a tensor again.

    torch's operators refuse a numpy array, so for ``t + array`` Python asks the array, and numpy
    computes: it reads ``t`` through ``__array__`` (``t.numpy()``: refused if ``t`` requires grad),
    picks the dtype by numpy's rules (float32 and float64 give float64), and hands its new array
    here. The tensor is on that array's memory (``from_numpy``): new storage, version 0, no
    history. A bool result becomes uint8 (as torch does: its ``t < array`` raises instead).
    """
    return from_numpy(array.astype("uint8") if array.dtype == builtins.bool else array)


def __eq__(self, other):
    """``t == other``. Unlike the other operators, torch's ``==`` reads a numpy array itself, as
    ``from_numpy`` does (a 0-d array is a 0-d tensor), and compares like ``eq``: a bool tensor.
    An array ``from_numpy`` refuses for its dtype is NotImplemented, and Python answers False."""
    if is_array(other):
        try:
            other = from_numpy(other)
        except TypeError:
            return NotImplemented
    return _math.__eq__(self, other)
