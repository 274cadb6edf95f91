"""torch.save and torch.load: how a tensor becomes bytes on disk.

Saving is Python's pickle with one twist. The pickle holds the structure: the
dict or list, and for each tensor "rebuild me on storage ``0`` with this
offset, size, stride and requires_grad". The numbers are not in the pickle:
when pickle meets a storage, ``persistent_id`` answers with a short reference,
``("storage", FloatStorage, "0", "cpu", 6)``, and the storage's raw bytes
become a record of their own, ``data/0``, next to the pickle in one zip file
(``_archive``).

* Memory: one record per *storage*, not per tensor. Tensors saved together
  that share a storage (views of one base, a tensor and its ``detach()``, a
  state_dict's entries) refer to the same key, and after loading they share
  one new storage again. A slice refers to its base's storage, so saving
  ``big[:2]`` writes every byte of ``big``; the loaded slice keeps its storage
  offset and strides into that whole storage. ``big[:2].clone()`` is compact
  and writes two elements.
* Python objects and metadata: all new. Loading rebuilds each tensor with
  ``_rebuild_tensor_v2`` on the loaded storage, and each Parameter with
  ``_rebuild_parameter``. Two tensors that shared a storage do not share a
  version counter any more; each counter starts at 1 (torch rebuilds with
  ``set_``, an in-place op).
* Device: each storage is tagged with its location (``"cpu"``, ``"cuda:0"``)
  and loaded back there; ``map_location="cpu"`` moves it, ``map_location="meta"``
  keeps the metadata and the sharing and drops the numbers.
* Graph: none is saved. A tensor comes back as a leaf with its
  ``requires_grad`` flag: ``a * 2`` of a leaf that requires grad is loaded as
  a leaf that requires grad, with no ``grad_fn``. ``.grad`` is not saved.
* A meta tensor has no bytes: only its dtype, size, stride and
  ``requires_grad`` are saved, and it comes back on a storage of its own.
* A bare ``UntypedStorage`` is saved as a reference to its bytes, as a
  tensor's storage is (torch names it ``torch.storage.UntypedStorage``), and
  comes back as a ``TypedStorage`` of ``uint8`` (``_typed_storage``), as torch's does.

The file is torch's own format: the pickle names torch's functions and
classes (``torch._utils._rebuild_tensor_v2``, ``torch.FloatStorage``), so
torch loads reftorch's files and reftorch loads torch's. reftorch's objects
live under reftorch's names, so the pickle is renamed on the way out and read
back through the same table, ``_rebuild.TORCH_NAMES``.

``load(f, weights_only=True)``, the default: the pickle may only name tensors,
Parameters, dtypes, sizes, devices, ``OrderedDict`` and the few other globals
torch allows; any other name (a whole model, a numpy array, a ``slice``) is
refused with torch's ``UnpicklingError`` before anything is built.
``weights_only=False`` builds whatever the pickle names: only for files you
trust.
"""

import _compat_pickle
import io
import os
import pickle
import re
import sys
import warnings
from collections import OrderedDict

from . import _archive, _messages, _typed_storage, _weights_only
from ._default_device import as_device
from ._device import device
from ._dtype import uint8
from ._rebuild import (
    FROM_TORCH, TO_TORCH, UNTYPED, StorageType, _rebuild_from_type_v2, _rebuild_meta_tensor_no_storage,
    _rebuild_parameter, _rebuild_parameter_with_state, _rebuild_tensor_v2, renamed,
)
from ._size import Size
from ._storage import TypedStorage, UntypedStorage
from ._tensor import Tensor
from ._python_copy import warn_if_has_hooks
from ._weights_only import add_safe_globals, clear_safe_globals, get_safe_globals, safe_globals
from .nn.parameter import Parameter

__all__ = ["save", "load", "add_safe_globals", "clear_safe_globals", "get_safe_globals", "safe_globals"]


# --- saving ----------------------------------------------------------------------

def _location(storage):
    return "cpu" if storage.device.type == "cpu" else f"{storage.device.type}:{storage.device.index}"


class _Pickler(pickle.Pickler):
    """Python's pickler, told what torch writes for tensors and storages."""

    def __init__(self, file, protocol=2):
        super().__init__(file, protocol=protocol)
        self.storages = {}  # key -> storage, in the order they were met
        self._keys, self._dtypes = {}, {}

    def reducer_override(self, obj):
        if isinstance(obj, Parameter):  # as torch's Parameter.__reduce_ex__ (no warning about hooks)
            if obj.__dict__:
                return (_rebuild_parameter_with_state, (obj.data, obj.requires_grad, OrderedDict(), obj.__dict__))
            return (_rebuild_parameter, (obj.data, obj.requires_grad, OrderedDict()))
        if isinstance(obj, Tensor):  # as torch's Tensor.__reduce_ex__
            warn_if_has_hooks(obj)  # the file cannot hold functions: torch warns per hook
            # torch's size() and stride() make new tuples; pickle writes each one out.
            if obj.device.type == "meta":  # no bytes to write: the metadata alone, no storage entry
                rebuild, args = _rebuild_meta_tensor_no_storage, (
                    obj.dtype, tuple(obj.size()), obj.stride(), obj.requires_grad)
            else:
                rebuild, args = _rebuild_tensor_v2, (
                    TypedStorage(obj._storage, obj._dtype), obj.storage_offset(), tuple(obj.size()),
                    tuple(list(obj.stride())), obj.requires_grad, OrderedDict())
            if type(obj) is Tensor and not obj.__dict__:
                return (rebuild, args)
            return (_rebuild_from_type_v2, (rebuild, type(obj), args, obj.__dict__ or None))
        if isinstance(obj, device):  # as torch.device and torch.Size pickle themselves
            kind = obj.type.encode().decode()  # a new str, as torch's device.type gives
            return (device, (kind,) if obj.index is None else (kind, obj.index))
        if isinstance(obj, Size):
            return (Size, (tuple(obj),))
        return NotImplemented

    def persistent_id(self, obj):
        """A storage goes into the file as a reference; its bytes become ``data/<key>``. A bare
        ``UntypedStorage`` is saved as torch saves one: its bytes, as ``uint8``."""
        if isinstance(obj, UntypedStorage):
            (storage, dtype), storage_type = (obj, uint8), UNTYPED
        elif isinstance(obj, TypedStorage):
            (storage, dtype), storage_type = obj, StorageType.by_dtype[obj.dtype]
        elif isinstance(obj, _typed_storage.TypedStorage):  # one loaded from a file
            (storage, dtype), storage_type = (obj._untyped_storage, obj.dtype), StorageType.by_dtype[obj.dtype]
        else:
            return None
        # One memory read as two dtypes is refused; torch tells memories apart by address, so
        # storages with no bytes (address 0) are never compared.
        if storage.data_ptr() != 0 and self._dtypes.setdefault(storage.data_ptr(), dtype) is not dtype:
            raise RuntimeError(_messages.SAVE_MIXED_DTYPES)
        key = self._keys.setdefault(id(storage), str(len(self._keys)))
        self.storages[key] = storage
        numel = storage.nbytes() // dtype.itemsize
        return ("storage", storage_type, key, _location(storage), numel)


def save(obj, f, pickle_protocol=2):
    """Write ``obj`` to ``f`` (a path, or a file object opened for binary writing), pickled
    with protocol 2, torch's default, or 3 (reftorch writes no other: see ``_messages.PICKLE_PROTOCOL``).

    The file holds the pickle and one record with the raw bytes of every
    storage reached from ``obj``: a whole storage, even for a small view of it.
    """
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError(_messages.SAVE_BAD_FILE)
    if pickle_protocol not in (2, 3):
        raise NotImplementedError(_messages.PICKLE_PROTOCOL.format(pickle_protocol))
    if not isinstance(f, (str, os.PathLike)):
        _save(obj, f, "archive", pickle_protocol)
        f.flush()
        return
    path = os.fspath(f)
    folder = _archive.archive_name(path)
    if not folder:
        raise RuntimeError(f"invalid file name: {path}")
    _archive.check_parent_directory(path)
    with open(path, "wb") as file:
        _save(obj, file, folder, pickle_protocol)


def _save(obj, file, folder, protocol=2):
    records = []
    try:
        buffer = io.BytesIO()
        pickler = _Pickler(buffer, protocol)
        pickler.dump(obj)
        records += [
            ("data.pkl", renamed(buffer.getvalue(), TO_TORCH)),
            (".format_version", b"1"),
            (".storage_alignment", str(_archive.ALIGNMENT).encode()),
            ("byteorder", sys.byteorder.encode()),
        ]
        records += [(f"data/{key}", s._bytes.tobytes()) for key, s in pickler.storages.items()]
    finally:  # like torch's writer, end the archive even when pickling failed
        _archive.write_archive(file, folder, records)


# --- loading ---------------------------------------------------------------------

def _unsupported(name):
    return RuntimeError(
        _messages.LOAD_UNSUPPORTED_TYPE.format(
            name=name, dtypes=', '.join(str(d) for d in StorageType.by_dtype)
        )
    )


class _Unpickler(pickle.Unpickler):
    """Python's unpickler, reading torch's names as reftorch's objects."""

    def __init__(self, data, records, restore, weights_only):
        super().__init__(io.BytesIO(data))
        self.records, self.restore, self.weights_only = records, restore, weights_only
        self.loaded = {}  # key -> _typed_storage.TypedStorage, so tensors that shared a storage share again

    def find_class(self, module, name):
        # Protocol 2 writes some globals under their Python 2 names (__builtin__.set).
        module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        full_name = f"{module}.{name}"
        if self.weights_only:
            _weights_only.check_global(module, name, known=full_name in FROM_TORCH)
        if full_name in FROM_TORCH:
            return FROM_TORCH[full_name]
        if module == "torch" or module.startswith("torch."):
            raise _unsupported(full_name)
        return _weights_only.user_allowed().get(full_name) or super().find_class(module, name)

    def persistent_load(self, saved_id):
        """A reference to a storage: read its record once, then share it."""
        typename, storage_type, key, location, numel = saved_id
        if typename != "storage":
            raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got {typename}")
        if not isinstance(storage_type, StorageType):
            raise pickle.UnpicklingError(f"reftorch.load: {storage_type!r} is not a storage class")
        if key in self.loaded:
            return self.loaded[key]
        nbytes = numel * storage_type.dtype.itemsize
        data = self.records.get(f"data/{key}")
        if data is None or len(data) != nbytes:
            raise RuntimeError(f"reftorch.load: the record data/{key} does not hold {nbytes} bytes")
        data = bytearray(data)
        if self.records.get("byteorder", b"little").decode() != sys.byteorder:
            size = storage_type.dtype.itemsize  # each number's bytes in the other order
            for start in range(0, nbytes, size):
                data[start:start + size] = data[start:start + size][::-1]
        storage = UntypedStorage._wrap(data)
        typed = _typed_storage.TypedStorage(self.restore(storage, location), storage_type.dtype)
        if nbytes:  # like torch, an empty storage is not shared
            self.loaded[key] = typed
        return typed


def _default_restore_location(storage, location):
    """Put a loaded storage on the device its tag names: ``"cpu"``, ``"cuda:0"``
    (reftorch's simulated GPU; on a real one this is a copy into GPU memory), or
    ``"meta"``: a new storage of as many bytes, with no numbers (they are dropped)."""
    if location == "cpu":
        return storage
    if location == "meta":
        return UntypedStorage(storage.nbytes(), device("meta"))
    if re.match("cuda(:|[0-9]+|$)", location):
        index = device(location).index or 0
        if index != 0:
            raise RuntimeError(_messages.LOAD_NO_SUCH_CUDA_DEVICE.format(index=index))
        return UntypedStorage._wrap(storage._bytes, as_device("cuda"))
    raise RuntimeError(_messages.LOAD_UNKNOWN_LOCATION.format(location=location))


def _restore_location(map_location):
    """A function (storage, tag) -> storage that applies ``map_location`` as torch does:
    None keeps each tag, a string or device replaces every tag, a dict replaces
    the tags it lists, a function is asked first."""
    def restore_storage(storage, location):
        if isinstance(map_location, dict):
            location = map_location.get(location, location)
        elif isinstance(map_location, (str, device)):
            location = str(map_location)
        elif map_location is not None:
            result = map_location(storage, location)
            if result is not None:
                return result
        return _default_restore_location(storage, location)
    return restore_storage


def load(f, map_location=None, *, weights_only=None):
    """Read back what ``save`` wrote (or what torch.save wrote): new tensors on new
    storages, sharing among themselves exactly as the saved ones did.

    ``map_location`` moves storages (``"cpu"``, ``{"cuda:0": "cpu"}``, ...).
    ``weights_only`` (default True) refuses a file that names anything but
    tensors, Parameters and plain containers (``_weights_only``).
    """
    if weights_only is None:
        weights_only = True
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            records = _read(file)
    else:
        records = _read(f)
    if "data.pkl" not in records:
        raise RuntimeError(_messages.ZIP_READ_FAILED.format(
            what="locating file data.pkl", why="file not found"
        ))
    unpickler = _Unpickler(records["data.pkl"], records, _restore_location(map_location), weights_only)
    if not weights_only:
        return unpickler.load()
    protocol = records["data.pkl"][1] if records["data.pkl"][:1] == pickle.PROTO else 2
    if protocol != 2:  # the weights-only loader knows protocol 2's records, and says so for others
        warnings.warn(_messages.LOAD_PROTOCOL.format(protocol), stacklevel=1)  # from inside, as torch's
    try:
        return unpickler.load()
    except pickle.UnpicklingError as error:
        raise pickle.UnpicklingError(_weights_only.load_failed_message(str(error))) from None


def _read(file):
    if not _archive.is_zip(file):
        if not file.read(1):
            raise EOFError("")
        raise pickle.UnpicklingError(
            _messages.LOAD_NOT_A_ZIP
        )
    return _archive.read_records(file)
