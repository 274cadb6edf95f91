"""What the pickle in a saved file calls, and under which names.

A saved file's pickle says, for each tensor, "call
``torch._utils._rebuild_tensor_v2`` with storage ``0`` (a ``torch.FloatStorage``),
this offset, size and stride". This module holds reftorch's versions of
those functions and storage classes, and the table ``TORCH_NAMES`` that says
which torch name each of them goes by in a file. ``serialization`` renames the
pickle it writes through that table, and reads torch's names back through it.

Rebuilding makes new Python objects and new metadata on the loaded storage;
it never copies the storage, so tensors that referred to one storage in the
file share one storage again.
"""

import pickletools

from . import _bounds, _dtype, _layout_checks, _messages, _typed_storage
from ._device import device
from ._size import Size
from ._storage import UntypedStorage
from ._tensor import Tensor
from ._version_counter import bump
from .nn.parameter import Parameter


# --- which dtype a storage's bytes hold ----------------------------------------

class StorageType:
    """A storage class name of torch's (``torch.FloatStorage`` ...): in a file, it
    says which dtype a storage's bytes are read as."""

    by_dtype = {}

    def __init__(self, name, dtype, by_dtype=True):
        self.name, self.dtype = name, dtype
        if by_dtype:
            StorageType.by_dtype[dtype] = self

    def __reduce__(self):
        return self.name  # pickled by name: the global reftorch._rebuild.FloatStorage

    def __repr__(self):
        return f"torch.{self.name}"


# One line per dtype reftorch has: torch's legacy storage class names, which
# its files still use to say how a storage's bytes are read.
HalfStorage = StorageType("HalfStorage", _dtype.float16)
FloatStorage = StorageType("FloatStorage", _dtype.float32)
DoubleStorage = StorageType("DoubleStorage", _dtype.float64)
ByteStorage = StorageType("ByteStorage", _dtype.uint8)
CharStorage = StorageType("CharStorage", _dtype.int8)
ShortStorage = StorageType("ShortStorage", _dtype.int16)
IntStorage = StorageType("IntStorage", _dtype.int32)
LongStorage = StorageType("LongStorage", _dtype.int64)
BoolStorage = StorageType("BoolStorage", _dtype.bool)
# A bare UntypedStorage saved on its own: its bytes, read back as uint8 (torch.storage.UntypedStorage).
UNTYPED = StorageType("UNTYPED", _dtype.uint8, by_dtype=False)


# --- rebuilding: what the pickle calls when it is loaded -----------------------

def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    """A new tensor object on a loaded storage: the saved size, stride and offset,
    a new version counter at 1 (none inside ``inference_mode``: an inference tensor), no
    history, the saved ``requires_grad``, and the hooks the file holds (always none: an
    empty dict, as torch gives)."""
    _check_fits(storage, storage_offset, size, stride)
    untyped = storage._untyped_storage  # not untyped(): torch warns when a user calls that
    _layout_checks.check_fits(size, stride, storage_offset, storage.dtype.itemsize, untyped.nbytes())
    t = Tensor._make(untyped, storage_offset, size, stride, storage.dtype)
    bump(t)  # torch rebuilds with set_(), an in-place op
    t.requires_grad = requires_grad
    t._backward_hooks = backward_hooks
    return t


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad):
    """A meta tensor from its metadata alone (a meta tensor has no bytes to save): a new
    storage of its own at offset 0, a version counter at 0, no sharing with anything saved with it."""
    storage = UntypedStorage(_bounds.storage_nbytes(size, stride, dtype.itemsize), device("meta"))
    t = Tensor._make(storage, 0, tuple(size), tuple(stride), dtype)
    t.requires_grad = requires_grad
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks):
    """A Parameter on the rebuilt tensor ``data`` (same storage, same version counter)."""
    param = Parameter(data, requires_grad)
    param._backward_hooks = backward_hooks
    return param


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    """A Parameter that had Python attributes: rebuild it, then restore them."""
    param = _rebuild_parameter(data, requires_grad, backward_hooks)
    param.__dict__.update(state)
    return param


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor that had Python attributes (``t.note = "hi"``): rebuild it, then restore them."""
    t = func(*args)
    if type(t) is not new_type:
        raise RuntimeError(f"reftorch.load cannot rebuild a tensor as {new_type.__qualname__}")
    if state:
        t.__dict__.update(state)
    return t


def _check_fits(storage, offset, size, stride):
    """Refuse a layout that reaches outside the loaded storage (a damaged or hand-made file)."""
    if not isinstance(storage, _typed_storage.TypedStorage):
        raise RuntimeError(_messages.LOAD_NOT_A_STORAGE.format(type(storage).__name__))
    if len(size) != len(stride):
        raise RuntimeError(f"unequal size length ({len(size)}) and stride length ({len(stride)})")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if min(size, default=0) < 0 or min(stride, default=0) < 0:
        raise RuntimeError(f"reftorch.load: negative size or stride in the file: {list(size)}, {list(stride)}")
    last = offset + sum((n - 1) * s for n, s in zip(size, stride)) if 0 not in size else -1
    nbytes = storage._untyped_storage.nbytes()
    if (last + 1) * storage.dtype.itemsize > nbytes:
        raise RuntimeError(
            _messages.LOAD_PAST_STORAGE.format(
                size=list(size), stride=list(stride), offset=offset, nbytes=nbytes
            )
        )


# --- the names in the file: reftorch's objects under torch's names -------------

TORCH_NAMES = {
    _rebuild_tensor_v2: "torch._utils._rebuild_tensor_v2",
    _rebuild_parameter: "torch._utils._rebuild_parameter",
    _rebuild_meta_tensor_no_storage: "torch._utils._rebuild_meta_tensor_no_storage",
    _rebuild_parameter_with_state: "torch._utils._rebuild_parameter_with_state",
    _rebuild_from_type_v2: "torch._tensor._rebuild_from_type_v2",
    Tensor: "torch.Tensor",
    Parameter: "torch.nn.parameter.Parameter",
    Size: "torch.Size",
    device: "torch.device",
    **{d: f"torch.{d._name}" for d in _dtype._ALL},
    **{s: f"torch.{s.name}" for s in StorageType.by_dtype.values()},
    UNTYPED: "torch.storage.UntypedStorage",
}


def _pickled_name(obj):
    """The global name pickle writes for ``obj``: its module, a dot, its name there."""
    name = obj.__reduce__() if isinstance(obj, (_dtype.dtype, StorageType)) else obj.__qualname__
    return f"{obj.__module__}.{name}"


TO_TORCH = {_pickled_name(obj): name for obj, name in TORCH_NAMES.items()}
FROM_TORCH = {name: obj for obj, name in TORCH_NAMES.items()}


def renamed(data, names):
    """The pickle ``data`` with each GLOBAL that ``names`` lists renamed.

    A protocol-2 pickle writes a global as ``c<module>\\n<name>\\n`` and refers
    to everything else by memo numbers, never by position, so a name may
    change length.
    """
    pieces, copied = [], 0
    for opcode, arg, position in pickletools.genops(data):
        new = names.get(arg.replace(" ", ".")) if opcode.name == "GLOBAL" else None
        if new:
            module, name = new.rsplit(".", 1)
            pieces += [data[copied:position], f"c{module}\n{name}\n".encode()]
            copied = position + len(arg) + 2  # "c", module, "\n", name, "\n"
    return b"".join(pieces) + data[copied:]
