"""In-place metadata ops: change what a tensor looks at, not the numbers.

``t_()``, ``transpose_``, ``unsqueeze_``, ``squeeze_``, ``as_strided_``,
``resize_``, ``resize_as_`` and ``set_`` give an *existing* tensor object new
metadata. For each:

* Python object: the same (they return ``self``).
* Metadata: new size and stride (and, for ``set_``, offset and storage).
  Only this tensor changes: its views, its base, its ``detach()`` keep their
  own metadata, even though they share its memory.
* Memory: no number is written. ``resize_`` may *grow* the storage: that
  reallocates it (new ``data_ptr()``), and every tensor on that storage,
  ``detach()`` and ``.data`` aliases included, now looks into the new block.
  ``set_`` points the tensor at another storage (or at a new, empty one).
* Version counter: bumped once, like any in-place op, although no memory is
  written. ``resize_`` bumps only when the size really changes.
* Graph: like other in-place ops they refuse a leaf that requires grad (and
  any view made under ``no_grad``, in ``inference_mode`` or by ``split``)
  while autograd records. ``t_`` & co. give the tensor itself a new node
  (``TBackward1`` ...), even for a view; ``set_`` records ``NotImplemented``,
  whose backward raises. ``resize_`` refuses any tensor that requires grad,
  even under ``no_grad``.

In torch 2.13 all of these work on a tensor made by ``detach()`` or ``.data``
(older versions refused), and the original tensor keeps its own metadata.
"""

from . import _layout_checks, _messages, _strides
from ._arguments import _int_arg, _int_list_arg, _type_name, check_keywords
from ._layout import memory_format as memory_format_type, preserve_format
from ._inplace_write import check_inplace, rebase_history
from ._storage import UntypedStorage
from ._tensor import Tensor
from ._version_counter import bump
from ._view_backward import TransposeBackward0, _ReshapingNode
from .autograd.view_history import AsStridedBackward0
from ._views import as_strided_geometry, transpose_geometry
from .autograd.graph import Node, any_requires_grad


class TBackward1(TransposeBackward0):
    """``t_()``: transpose the gradient back."""


class TransposeBackward1(TransposeBackward0):
    """``transpose_(d0, d1)``."""


class UnsqueezeBackward1(_ReshapingNode):
    """``unsqueeze_(d)``: reshape the gradient back to the old size."""


class SqueezeBackward3(_ReshapingNode):
    """``squeeze_()``."""


class SqueezeBackward4(_ReshapingNode):
    """``squeeze_(dim)``."""


class SqueezeBackward5(_ReshapingNode):
    """``squeeze_((dims...))``."""


class AsStridedBackward1(AsStridedBackward0):
    """``as_strided_``: from storage positions, like ``as_strided``."""


class NotImplemented(Node):  # noqa: A001 - torch's name for this node
    """What ``set_`` (or ``floor_divide_``) records: torch has no derivative for it, so backward
    raises, with the op's ``message``."""

    def __init__(self, *inputs, message="derivative for set_ is not implemented"):
        super().__init__(*inputs)
        self.message = message

    def name(self):
        return "torch::autograd::NotImplemented"

    def apply(self, grad):
        raise RuntimeError(self.message)


def set_geometry(self, storage, offset, size, stride):
    """The one place where an existing tensor gets new metadata.

    The new geometry is checked as a caller's metadata is (``_layout_checks``),
    built by ``Tensor._make`` exactly as a new tensor would be, and then moved
    into ``self``.
    """
    _layout_checks.check_fits(size, stride, offset, self._dtype.itemsize, storage.nbytes())
    new = Tensor._make(storage, offset, size, stride, self._dtype, self._version_counter)
    self._storage, self._storage_offset = new._storage, new._storage_offset
    self._size, self._stride = new._size, new._stride


def _view_op_(self, size, stride, offset, make_node):
    """Steps of ``t_`` & co.: check, new metadata, bump, new node on ``self`` itself."""
    recording = self._dtype.is_floating_point and any_requires_grad(self)
    check_inplace(self, recording)
    node = make_node() if recording else None  # made from the old metadata
    set_geometry(self, self._storage, offset, size, stride)
    bump(self)
    if node is not None:
        self._set_grad_fn(node)
    return self


def t_(self):
    if self.dim() > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
    dims = (0, 1) if self.dim() == 2 else (0, 0)
    return _view_op_(self, self._size[::-1], self._stride[::-1], self._storage_offset,
                     lambda: TBackward1(self, *dims))


def transpose_(self, dim0, dim1):
    _int_arg("transpose_", "dim0", 1, dim0)
    _int_arg("transpose_", "dim1", 2, dim1)
    d0, d1 = _strides.normalize_dim(dim0, self.dim()), _strides.normalize_dim(dim1, self.dim())
    size, stride = transpose_geometry(self._size, self._stride, d0, d1)
    return _view_op_(self, size, stride, self._storage_offset, lambda: TransposeBackward1(self, d0, d1))


def unsqueeze_(self, dim):
    _int_arg("unsqueeze_", "dim", 1, dim)
    d = _strides.normalize_dim(dim, self.dim() + 1)
    size, stride = list(self._size), list(self._stride)
    stride.insert(d, size[d] * stride[d] if d < self.dim() else 1)
    size.insert(d, 1)
    return _view_op_(self, size, stride, self._storage_offset, lambda: UnsqueezeBackward1(self))


_ALL_DIMS = object()


def squeeze_(self, dim=_ALL_DIMS):
    """Drop dimensions of size 1: all of them, one (``dim``) or some (a tuple)."""
    if dim is _ALL_DIMS:
        dims, node_class = range(self.dim()), SqueezeBackward3
    elif isinstance(dim, int) and not isinstance(dim, bool):
        dims, node_class = [_strides.normalize_dim(dim, self.dim())], SqueezeBackward4
    elif isinstance(dim, (tuple, list)) and all(isinstance(d, int) for d in dim):
        dims, node_class = [_strides.normalize_dim(d, self.dim()) for d in dim], SqueezeBackward5
    else:
        got = _type_name(dim)
        why = _messages.DID_NOT_MATCH.format(got=got)
        raise TypeError(_messages.INVALID_ARGUMENTS.format(op="squeeze_", got=got)
                        + "".join(signature + why for signature in _messages.SQUEEZE_SIGNATURES))
    keep = [i for i in range(self.dim()) if i not in dims or self._size[i] != 1]
    size = [self._size[i] for i in keep]
    stride = [self._stride[i] for i in keep]
    return _view_op_(self, size, stride, self._storage_offset, lambda: node_class(self))


def as_strided_(self, size, stride, storage_offset=None):
    """Any geometry on the same storage, given to ``self`` itself."""
    size, stride, offset = as_strided_geometry(self, size, stride, storage_offset, "as_strided_")
    return _view_op_(self, size, stride, offset,
                     lambda: AsStridedBackward1(self, (size, stride, offset)))


# --- resize_ -------------------------------------------------------------------

def _grow(storage, nbytes):
    """Make ``storage`` at least ``nbytes`` long (``resize_`` and ``set_`` need room).

    Growing reallocates: a new block at a new ``data_ptr()``, the old bytes
    copied to its start, the rest zero (torch leaves them uninitialised).
    Every tensor on this storage now looks into the new block. A storage
    never shrinks here, so no tensor on it can end up past its end.
    """
    if nbytes <= storage.nbytes():
        return
    if not storage._resizable:
        raise RuntimeError("Trying to resize storage that is not resizable")
    grown = bytearray(nbytes)
    grown[:storage.nbytes()] = storage._bytes
    storage._bytes, storage._address = memoryview(grown), None  # a new block, at a new address


def resize_(self, *size, memory_format=None, **keywords):
    """New size, contiguous strides, same offset; grow the storage if it is too small. Then, when
    ``memory_format`` is given, the strides of that format, even for the same size.

    The same size keeps the strides unless a format is asked for; the version moves only when the
    size changes. The numbers already in the storage stay where they are; new room holds no chosen
    values. A format torch refuses (``preserve_format``, ``channels_last`` for a size that is not
    4-d) raises after the new size is set, as in torch.
    """
    if "size" in keywords and not size:  # resize_(size=(2, 3))
        size = (keywords.pop("size"),)
    if not size:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    check_keywords("resize_", keywords)
    size = _int_list_arg("resize_", "size", size)
    _check_memory_format("resize_", memory_format)
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if any(n < 0 for n in size):
        raise RuntimeError("numel: integer multiplication overflow")
    resized = size != self._size
    if resized:
        numel = _strides.numel(size)
        if numel > 0:
            # reftorch grows the storage before touching the metadata, so a storage
            # that cannot grow (from_numpy) leaves the tensor as it was; torch
            # changes the size first and leaves a tensor that reads past its memory.
            _grow(self._storage, (self._storage_offset + numel) * self._dtype.itemsize)
        set_geometry(self, self._storage, self._storage_offset, size, _strides.contiguous_strides(size))
    if memory_format is not None:
        if memory_format is preserve_format:
            raise RuntimeError("Unsupported memory formatPreserve")
        set_geometry(self, self._storage, self._storage_offset, size, _strides.strides_for(size, memory_format))
    if resized:
        bump(self)
    return self


def _check_memory_format(fn, memory_format):
    if memory_format is not None and not isinstance(memory_format, memory_format_type):
        raise TypeError(_messages.MEMORY_FORMAT_ARGUMENT.format(fn=fn, got=_type_name(memory_format)))


def resize_as_(self, the_template, memory_format=None):
    """``resize_`` to the template's size; ``preserve_format`` means the template's own format."""
    if not isinstance(the_template, Tensor):
        raise TypeError(
            _messages.ARGUMENT_TYPE.format(
                fn='resize_as_', name='the_template', position=1, expected='Tensor', got=_type_name(the_template)
            )
        )
    _check_memory_format("resize_as_", memory_format)
    if memory_format is preserve_format:
        memory_format = _strides.suggest_memory_format(the_template._size, the_template._stride)
    return resize_(self, the_template._size, memory_format=memory_format)


# --- set_ ----------------------------------------------------------------------

def _set_arguments_error(args):
    names = [("torch.storage.UntypedStorage" if isinstance(a, UntypedStorage) else _type_name(a)) for a in args]
    message = _messages.INVALID_ARGUMENTS.format(op="set_", got=", ".join(names))
    for signature, takes_one in _messages.SET_SIGNATURES:
        message += signature
        if len(args) == 1 and takes_one:
            message += _messages.DID_NOT_MATCH.format(got=names[0])
    return TypeError(message)


def _set_target(self, args, kwargs):
    """Sort ``set_``'s arguments into (storage, offset, size, stride, source tensor or None)."""
    if "source" in kwargs:
        args = (kwargs.pop("source"),) + args
    for key in ("storage_offset", "size", "stride"):
        if key in kwargs:
            args = args + (kwargs.pop(key),)
    if not args:
        return UntypedStorage(0, self.device), 0, (0,), (1,), None
    source = args[0]
    if not isinstance(source, (Tensor, UntypedStorage)) or len(args) == 2 or len(args) > 4:
        raise _set_arguments_error(args)
    if isinstance(source, Tensor) and source._dtype is not self._dtype:
        raise RuntimeError(
            f"Could not set tensor of type {_c_name(source._dtype)} to a tensor of type {_c_name(self._dtype)}"
        )
    if len(args) == 1:
        if isinstance(source, Tensor):
            return source._storage, source._storage_offset, source._size, source._stride, source
        return source, 0, (source.nbytes() // self._dtype.itemsize,), (1,), None
    offset, size, stride = args[1], args[2], args[3] if len(args) == 4 else None
    if not isinstance(offset, int) or not isinstance(size, (tuple, list)):
        raise _set_arguments_error(args)
    size = tuple(size)
    stride = _strides.contiguous_strides(size) if stride is None else tuple(stride)
    if isinstance(source, Tensor):
        return source._storage, source._storage_offset + offset, size, stride, source
    return source, offset, size, stride, None


def _check_layout(offset, size, stride):
    if len(size) != len(stride):
        raise RuntimeError(f"unequal size length ({len(size)}) and stride length ({len(stride)})")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size):
        raise RuntimeError("numel: integer multiplication overflow")
    if any(s < 0 for s in stride):
        raise RuntimeError(
            _messages.STORAGE_SIZE_OVERFLOW.format(sizes=_strides._fmt(size), strides=_strides._fmt(stride))
        )


def set_(self, *args, **kwargs):
    """Point ``self`` at another storage: ``set_()`` a new empty one, ``set_(t)``
    the storage and geometry of ``t``, ``set_(storage, offset, size, stride)``
    any geometry on a storage (growing it if it is too small).

    ``self`` keeps its own version counter (bumped) and dtype.
    """
    storage, offset, size, stride, source = _set_target(self, args, kwargs)
    _check_layout(offset, size, stride)
    recording = self._dtype.is_floating_point and any_requires_grad(self, source)
    check_inplace(self, recording)
    if recording:
        node = NotImplemented(self, source) if source is not None else NotImplemented(self)
    if _strides.numel(size) > 0:
        span = offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
        _grow(storage, span * self._dtype.itemsize)
    set_geometry(self, storage, offset, size, stride)
    bump(self)
    if recording:
        rebase_history(self, node)
    return self


def _c_name(dtype):
    """The C type name torch's set_ message uses (``float``, ``long int``)."""
    return {"Float": "float", "Double": "double", "Long": "long int", "Bool": "bool"}.get(
        dtype._short_name, dtype._short_name.lower())
