"""The building blocks of every copy operation, for the exercises.

Each copy operation of the course is a short recipe made of a few steps:
get memory, lay metadata over it, move numbers, and tell autograd (and the
version counter) what happened. This module hands you exactly those steps,
one function each, so that you can write ``clone``, ``detach``, ``copy_`` and
the others yourself and compare them with torch.

Memory
    ``allocate(numel, dtype)``          a new storage, big enough for ``numel`` elements
    ``copy_storage(storage)``           a new storage holding the same bytes
    ``storage_from_bytes(data)``        a new storage holding a copy of ``data`` (what a file's record holds)
Metadata
    ``tensor_on(storage, size, stride, storage_offset, dtype=..., version_counter=...)``
                                        a new tensor object looking into ``storage``
    ``contiguous_strides``, ``preserve_format_strides``   strides for a new layout
Numbers
    ``copy_elements(dst, src)``         write ``src``'s numbers into ``dst``'s elements
Numpy
    ``array_memory(array)``, ``dtype_of_numpy(np_dtype)``, ``elements_of(t)``
Version counter
    ``version_counter_of(t)``, ``bump_version(t)``
Autograd
    ``should_record(*inputs)``, ``record(result, node)``, ``record_inplace(dst, node)``, ``CloneBackward0``,
    ``CopyBackwards``, ``check_inplace_allowed(dst, *sources)``

None of these functions does more than its docstring says: ``copy_elements``
does not bump a version, ``tensor_on`` records no history, and so on. Putting
the steps together in the right order is your part.
"""

import numbers
import operator

from . import _layout_checks, _messages
from ._clone import CloneBackward0
from ._copy_ import CopyBackwards
from ._default_device import as_device
from ._device import cpu
from ._convert import array_on, array_storage
from ._dtype import dtype as dtype_type, from_numpy_dtype
from ._inplace_write import check_inplace, check_inplace_shape, check_no_partial_overlap, rebase_history
from ._math import values_of
from ._numpy_objects import is_array
from ._storage import UntypedStorage
from ._strides import contiguous_strides, preserve_format_strides
from ._tensor import Tensor
from ._version_counter import VersionCounter, bump
from .autograd.graph import any_requires_grad

__all__ = [
    "allocate", "copy_storage", "storage_from_bytes", "tensor_on", "contiguous_strides", "preserve_format_strides",
    "copy_elements", "version_counter_of", "bump_version", "should_record", "record", "record_inplace",
    "CloneBackward0", "CopyBackwards", "check_inplace_allowed", "array_memory", "dtype_of_numpy", "elements_of",
]


# --- checking the arguments --------------------------------------------------
# A wrong answer to an exercise must end in a clear Python exception, never in
# a traceback from deep inside numpy (or a crash): every primitive checks what
# it is given first.

def _refuse(fn, name, expected, value):
    raise TypeError(_messages.PRIMITIVE_ARGUMENT.format(
        fn=fn, name=name, expected=expected, got=_messages.type_name(value)))


def _check_type(fn, name, value, kind, expected):
    if not isinstance(value, kind):
        _refuse(fn, name, expected, value)


def _check_int(fn, name, value):
    try:
        if not isinstance(value, bool):
            return operator.index(value)
    except TypeError:
        pass
    _refuse(fn, name, "an int", value)


def _check_ints(fn, name, values):
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        _refuse(fn, name, "a sequence of ints such as t.shape", values)
    return tuple(_check_int(fn, f"{name}[{i}]", v) for i, v in enumerate(values))


# --- memory -----------------------------------------------------------------

def allocate(numel, dtype, device=None):
    """A new, zero-filled storage with room for ``numel`` elements of ``dtype``.

    Memory only: no tensor looks into it yet. Its ``data_ptr()`` differs from
    every other storage's, which is what "new memory" means.
    """
    numel = _check_int("allocate", "numel", numel)
    if numel < 0:
        raise ValueError(f"allocate(): argument 'numel' must not be negative, got {numel}")
    _check_type("allocate", "dtype", dtype, dtype_type, "a dtype such as torch.float32")
    return UntypedStorage(numel * dtype.itemsize, as_device(device) or cpu)


def copy_storage(storage):
    """A new storage with a copy of every byte of ``storage`` (same size, same device).

    Nothing is shared afterwards: writing into one never shows in the other.
    """
    _check_type("copy_storage", "storage", storage, UntypedStorage, "a storage such as t.untyped_storage()")
    return UntypedStorage._wrap(bytearray(storage._bytes), storage.device)


def storage_from_bytes(data, device=None):
    """A new storage holding a copy of ``data`` (``bytes``, such as a record of a saved file).

    Memory only, as ``allocate``: its length in elements is ``len(data)`` over
    the item size of whatever dtype a tensor on it reads it as. Two calls give
    two storages, even for the same bytes.
    """
    _check_type("storage_from_bytes", "data", data, (bytes, bytearray), "bytes")
    return UntypedStorage._wrap(bytearray(data), as_device(device) or cpu)


# --- metadata ---------------------------------------------------------------

def tensor_on(storage, size, stride, storage_offset=0, *, dtype, version_counter=None):
    """A new tensor object: new metadata looking into an existing ``storage``.

    Element ``[i, j, ...]`` is read from slot ``storage_offset + i*stride[0] +
    j*stride[1] + ...`` of the storage (counted in elements of ``dtype``).

    * Python object: new. Memory: ``storage`` itself, not copied.
    * Version counter: the one you pass (share it to make the new tensor and
      its source see each other's in-place writes), or a new one at 0.
    * Autograd: none. The result is a leaf with ``requires_grad=False`` and no
      ``grad_fn``; use ``record`` or ``t.requires_grad_()`` afterwards.

    Every element must lie inside ``storage``: a layout that reaches past its
    end (strides too large for the storage, say) raises torch's RuntimeError
    ``setStorage: sizes [...] ... are out of bounds for storage of size ...``.
    """
    _check_type("tensor_on", "storage", storage, UntypedStorage, "a storage such as t.untyped_storage()")
    size = _check_ints("tensor_on", "size", size)
    stride = _check_ints("tensor_on", "stride", stride)
    storage_offset = _check_int("tensor_on", "storage_offset", storage_offset)
    _check_type("tensor_on", "dtype", dtype, dtype_type, "a dtype such as torch.float32")
    if version_counter is not None:
        _check_type("tensor_on", "version_counter", version_counter, VersionCounter,
                    "a version counter (from version_counter_of) or None")
    _layout_checks.check_fits(size, stride, storage_offset, dtype.itemsize, storage.nbytes())
    return Tensor._make(storage, storage_offset, size, stride, dtype, version_counter)


# --- numbers ----------------------------------------------------------------

def copy_elements(dst, src):
    """Write the numbers of ``src`` (a tensor or a Python number) into ``dst``'s elements.

    ``src`` is broadcast to ``dst``'s shape (torch's error if it cannot be) and
    cast to ``dst``'s dtype (a float written into an int tensor is truncated).
    Both tensors may have any strides: each element goes to the storage slot
    ``dst``'s metadata says.

    This moves numbers and nothing else: no version bump, no autograd check,
    no graph node.
    """
    _check_type("copy_elements", "dst", dst, Tensor, "a Tensor")
    if not isinstance(src, Tensor) and (isinstance(src, (str, bytes)) or not isinstance(src, numbers.Number)):
        _refuse("copy_elements", "src", "a Tensor or a number", src)
    check_no_partial_overlap(dst, src)
    check_inplace_shape(dst, src)
    dst._write(values_of(src, dst.dtype, dst._size))


# --- numpy ------------------------------------------------------------------

def array_memory(array):
    """A storage on a numpy ``array``'s own bytes, from its first element to its last.

    Nothing is copied: writing into the array shows in every tensor on this
    storage, and the other way round. Slot 0 holds the array's first element;
    the strides of the array are not applied (that is the tensor's metadata).
    """
    if not is_array(array):
        _refuse("array_memory", "array", "a numpy array", array)
    from_numpy_dtype(array.dtype)   # refuses a dtype no tensor has, as from_numpy does
    return array_storage(array)


def dtype_of_numpy(np_dtype):
    """The torch dtype that holds numpy's ``np_dtype`` exactly (``float64`` -> ``torch.float64``)."""
    return from_numpy_dtype(np_dtype)


def elements_of(t):
    """A numpy array on ``t``'s elements: ``t``'s memory, read with its size, stride and offset.

    Nothing is copied and nothing is checked: no device, no autograd rule, no
    version bump.
    """
    _check_type("elements_of", "t", t, Tensor, "a Tensor")
    return array_on(t)


# --- version counter --------------------------------------------------------

def version_counter_of(t):
    """The version counter object of ``t`` (pass it to ``tensor_on`` to share it)."""
    _check_type("version_counter_of", "t", t, Tensor, "a Tensor")
    return t._version_counter


def bump_version(t):
    """Add one to ``t``'s version counter, as every in-place write must.

    Every tensor sharing that counter (views, ``detach()``) sees the new value.
    """
    _check_type("bump_version", "t", t, Tensor, "a Tensor")
    bump(t)


# --- autograd ---------------------------------------------------------------

def should_record(*inputs):
    """True when an operation on ``inputs`` must record a graph node: grad mode
    is on (not inside ``no_grad``) and at least one input requires grad (and,
    for an inference tensor used outside ``inference_mode``, one input is a
    normal tensor or a number: autograd sees no operation on those alone)."""
    return any_requires_grad(*inputs)


def record(result, node):
    """Make ``node`` the ``grad_fn`` of ``result``.

    ``result`` stops being a leaf and now requires grad. A node is built from
    the op's inputs, e.g. ``CloneBackward0(source)`` or ``CopyBackwards(dst,
    src)``: its ``next_functions`` then lead to the inputs' own history (or to
    the ``AccumulateGrad`` of a leaf), so backward reaches them.
    """
    result._set_grad_fn(node)
    return result


def record_inplace(dst, node):
    """Make ``node`` the new history of ``dst`` after an in-place write into it.

    Like ``record``, except when ``dst`` is a view: then the base it looks
    into gets the new history (a ``CopySlices`` node: "the old base, except
    that these elements now come from ``node``"), and the view's own
    ``grad_fn`` is derived from its base's.
    """
    rebase_history(dst, node)
    return dst


def check_inplace_allowed(dst, *sources):
    """Raise torch's error if autograd forbids writing into ``dst`` now.

    The rule: outside ``no_grad``, a leaf that requires grad (or a view of one)
    may not be overwritten, because its ``.grad`` would no longer describe its
    values. Integer tensors carry no gradient, so nothing is checked for them.
    Call it before writing anything.
    """
    recording = dst.dtype.is_floating_point and any_requires_grad(dst, *sources)
    check_inplace(dst, recording)
