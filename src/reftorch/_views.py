"""Views: new metadata on the same storage.

``a[0]``, ``a[::2]``, ``a.t()``, ``a.view(3, 2)``, ``a.expand(4, 3)`` copy no
numbers. Each returns a new tensor object whose (size, stride, offset) picks
elements out of ``a``'s storage. A view

* shares the storage, so writes through one are seen by the other;
* shares the version counter, so autograd sees those writes too;
* remembers ``_base``, the tensor that owns the memory;
* records a node (``SelectBackward0``, ``TBackward0`` ...) when ``a`` requires
  grad, whose backward puts the gradient back where the view's elements came
  from.
"""


from . import _dtype, _layout_checks, _messages, _shapes, _strides, _view_dtype
from ._arguments import (
    MISSING, _check_given, check_no_arguments, _int_arg, _int_list_arg, _is_int, _is_later_int, _listed_type_name, _type_name,
    _view_shape_arg, parse_overloads,
)
from ._clone import contiguous_format
from ._tensor import Tensor
from ._view_backward import (
    AliasBackward0, ExpandBackward0, PermuteBackward0, SelectBackward0,
    SliceBackward0, SqueezeBackward0, SqueezeBackward1, SqueezeBackward2, TBackward0, TransposeBackward0,
    UnsafeViewBackward0, UnsqueezeBackward0, ViewBackward0,
)
from .autograd import creation_meta
from .autograd.graph import any_requires_grad
from .autograd.view_history import AsStridedBackward0
from ._overrides import overridable


def _as_view(source, size, stride, offset, make_node, multi_output=False, output_nr=0):
    """A tensor on ``source``'s storage and version counter with new geometry.

    ``multi_output``: one of several views made by one call (``split``); they
    share one node, ``make_node()``'s, as its output number ``output_nr``.
    """
    if source._inference:
        # An inference tensor's views are inference tensors: metadata on the same
        # storage, with no version counter and no base (torch does not track them).
        view = Tensor._make(source._storage, offset, size, stride, source._dtype, inference=True)
        view._version_counter = None
        return view
    view = Tensor._make(source._storage, offset, size, stride, source._dtype, source._version_counter,
                        inference=False)
    view._base_tensor = source._base_tensor if source._base_tensor is not None else source
    view._creation_meta = creation_meta.for_new_view(source, multi_output)
    view._view_version = view._version
    if any_requires_grad(source):
        view._output_nr = output_nr  # which output of that node it is
        view._set_grad_fn(make_node())
    return view
_as_view = overridable(_as_view)


# --- the view operations ------------------------------------------------------

def _one_list_arg(op, name, args, keyword):
    """A list of ints given as ``f(1, 0)``, ``f((1, 0))`` or ``f(name=(1, 0))``, with torch's errors:
    by position and by keyword both, or neither."""
    if args and keyword is not MISSING:
        raise TypeError(f"{op}() got multiple values for argument '{name}'")
    if keyword is not MISSING:
        args = (keyword,)
    _check_given(op, **{name: args or MISSING})
    return _int_list_arg(op, name, args)


def view(self, *shape, size=MISSING, dtype=MISSING):
    """Same elements, new shape; only possible when no element has to move. Given a dtype, the
    same bytes as other elements (``_view_dtype``)."""
    if dtype is not MISSING and not shape and size is MISSING:  # view(dtype=torch.int32)
        shape = (dtype,)
    if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
        return _view_dtype.view_dtype(self, shape[0])
    if size is not MISSING:  # by keyword: view(size=(3, 2))
        shape = shape + (size,)
    shape = _view_shape_arg(shape)
    shape = _shapes.infer_size(shape, self.numel())
    stride = _shapes.view_strides(self._size, self._stride, shape)
    if stride is None:
        raise RuntimeError(
            _messages.VIEW_NOT_COMPATIBLE
        )
    return _as_view(self, shape, stride, self._storage_offset, lambda: ViewBackward0(self))


def reshape(self, *args, shape=MISSING):
    """A view when the layout allows it, otherwise a contiguous copy."""
    shape = _shapes.infer_size(_one_list_arg("reshape", "shape", args, shape), self.numel())
    if _shapes.view_strides(self._size, self._stride, shape) is not None:
        return view(self, *shape)
    copy = self.clone(memory_format=contiguous_format)
    out = Tensor._make(copy._storage, 0, shape, _strides.contiguous_strides(shape), copy._dtype)
    if any_requires_grad(copy):
        out._set_grad_fn(UnsafeViewBackward0(copy))
    return out


def flatten(self, start_dim=0, end_dim=-1):
    if self.dim() == 0:
        return reshape(self, 1)
    start = _strides.normalize_dim(start_dim, self.dim())
    end = _strides.normalize_dim(end_dim, self.dim())
    if start > end:
        raise RuntimeError(_messages.FLATTEN_DIMS)
    if start == end:
        return self
    merged = _strides.numel(self._size[start:end + 1])
    return reshape(self, *self._size[:start], merged, *self._size[end + 1:])


def transpose_geometry(size, stride, dim0, dim1):
    """The size and stride of a transpose: dimensions ``dim0`` and ``dim1`` swap both their
    size and their stride. The storage and the offset stay: no element moves. ``dim0`` and
    ``dim1`` are in range (``transpose`` raises torch's IndexError first); a 0-d tensor, whose
    only dims are 0 and -1, has nothing to swap."""
    size, stride = list(size), list(stride)
    if size:
        size[dim0], size[dim1] = size[dim1], size[dim0]
        stride[dim0], stride[dim1] = stride[dim1], stride[dim0]
    return tuple(size), tuple(stride)
transpose_geometry = overridable(transpose_geometry)


def transpose(self, dim0, dim1):
    """A view with dimensions ``dim0`` and ``dim1`` swapped (both ints, as torch's parser checks first)."""
    _int_arg("transpose", "dim0", 1, dim0)
    _int_arg("transpose", "dim1", 2, dim1)
    d0 = _strides.normalize_dim(dim0, self.dim())
    d1 = _strides.normalize_dim(dim1, self.dim())
    size, stride = transpose_geometry(self._size, self._stride, d0, d1)
    return _as_view(self, size, stride, self._storage_offset, lambda: TransposeBackward0(self, d0, d1))


def t(self, *args, **keywords):
    check_no_arguments("t", args, keywords)
    if self.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
    if self.dim() < 2:
        return _as_view(self, self._size, self._stride, self._storage_offset, lambda: TBackward0(self, 0, 0))
    size, stride = transpose_geometry(self._size, self._stride, 0, 1)
    return _as_view(self, size, stride, self._storage_offset, lambda: TBackward0(self, 0, 1))


def permute(self, *args, dims=MISSING):
    """The dimensions in another order, ``permute(1, 0)`` or ``permute(dims=(1, 0))``: a view."""
    dims = _one_list_arg("permute", "dims", args, dims)
    if len(dims) != self.dim():
        raise RuntimeError(
            _messages.PERMUTE_DIMS.format(self.dim(), len(dims))
        )
    dims = tuple(_strides.normalize_dim(d, self.dim()) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    size = tuple(self._size[d] for d in dims)
    stride = tuple(self._stride[d] for d in dims)
    return _as_view(self, size, stride, self._storage_offset, lambda: PermuteBackward0(self, dims))


def expand(self, *sizes, size=MISSING, implicit=False):
    """Repeat size-1 dimensions without copying: the new stride is 0. The sizes come as ``expand(2, 3)``,
    ``expand((2, 3))`` or ``expand(size=(2, 3))``; ``implicit`` changes nothing (torch's flag for the
    expands broadcasting makes). Then torch counts the elements, and refuses a count that overflows."""
    if size is not MISSING:
        if sizes:
            raise TypeError("expand() got multiple values for argument 'size'")
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"expand(): argument 'size' must be tuple of ints, not {_type_name(size)}")
        sizes = (size,)
    _check_given("expand", size=sizes or MISSING)
    if not isinstance(implicit, bool):
        raise TypeError(f"expand(): argument 'implicit' must be bool, not {_type_name(implicit)}")
    sizes = _int_list_arg("expand", "size", sizes)
    if len(sizes) < self.dim():
        raise RuntimeError(
            _messages.EXPAND_TOO_FEW_SIZES.format(
                type=self.type(), size=', '.join(map(str, self._size)), sizes=', '.join(map(str, sizes))
            )
            % (len(sizes), self.dim())
        )
    size, stride = infer_expand_geometry(self._size, self._stride, sizes)
    _layout_checks.check_numel(size)  # a negative size is a huge unsigned one: (-1,) overflows, (-1, 0) does not
    return _as_view(self, size, stride, self._storage_offset, lambda: ExpandBackward0(self))


def expand_as(self, other):
    """``self.expand(other.size())``: only ``other``'s size is read (not its dtype, device or memory)."""
    if not isinstance(other, Tensor):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn="expand_as", name="other", position=1, expected="Tensor", got=_type_name(other)))
    return expand(self, other._size)


def infer_expand_geometry(size, stride, sizes):
    """The size and stride of ``expand(*sizes)`` (torch's ``inferExpandGeometry``).

    Walk from the last dimension back, matching ``sizes`` with the tensor's
    own dimensions; ``sizes`` may have more, which are new leading ones.
    A dimension keeps its size and stride, or goes from size 1 to any other (0 too)
    with stride 0 (every position reads the same elements); -1 means "keep the size".
    A new leading dimension strides over the dimensions after it
    (size * stride, as a fresh tensor would), or 0 when its size is not 1.
    ``expand`` has checked first that ``sizes`` names every dimension of the
    tensor (fewer raise torch's RuntimeError there). A 0-d tensor takes ``sizes`` as they are, -1
    and other negative sizes too, all with stride 0: torch matches no dimension for it.
    """
    if not size:
        return tuple(sizes), (0,) * len(sizes)
    lead = len(sizes) - len(size)
    new_size, new_stride = [1] * len(sizes), [0] * len(sizes)
    for i in reversed(range(len(sizes))):
        if i >= lead:
            old_n, old_s = size[i - lead], stride[i - lead]
        elif i + 1 < len(sizes):  # a new leading dimension steps over the one after it
            old_n, old_s = 1, new_size[i + 1] * new_stride[i + 1]
        else:  # a 0-d tensor has no dimension after it: stride 0
            old_n, old_s = 1, 0
        n = sizes[i]
        if n == -1:
            if i < lead:
                raise RuntimeError(_messages.EXPAND_LEADING.format(n, i))
            n = old_n
        if old_n != n:
            if old_n != 1:
                raise RuntimeError(_messages.EXPAND_MISMATCH.format(
                    size=n, existing=old_n, dim=i, target=", ".join(map(str, sizes)),
                    actual=", ".join(map(str, size))))
            old_s = 0
        new_size[i], new_stride[i] = n, old_s
    return tuple(new_size), tuple(new_stride)
infer_expand_geometry = overridable(infer_expand_geometry)


def unsqueeze(self, dim):
    _int_arg("unsqueeze", "dim", 1, dim)
    d = _strides.normalize_dim(dim, self.dim() + 1)
    size, stride = list(self._size), list(self._stride)
    new_stride = size[d] * stride[d] if d < self.dim() else 1
    size.insert(d, 1)
    stride.insert(d, new_stride)
    return _as_view(self, size, stride, self._storage_offset, lambda: UnsqueezeBackward0(self))


_ALL_DIMS = object()  # squeeze() with no argument; squeeze(None) is an error in torch


def _squeeze_arguments_error(dim):
    """torch's parser: squeeze takes (), (int dim) or (tuple of ints dim), and ``dim`` fits none."""
    why = _messages.DID_NOT_MATCH.format(got=_listed_type_name(dim))
    return TypeError(_messages.INVALID_ARGUMENTS.format(op="squeeze", got=_type_name(dim))
                     + "".join(signature + why for signature in _messages.SQUEEZE_SIGNATURES))


def squeeze(self, dim=_ALL_DIMS):
    if dim is None:
        raise _squeeze_arguments_error(dim)
    if dim is _ALL_DIMS:
        keep = [i for i, n in enumerate(self._size) if n != 1]
        node = SqueezeBackward0
    elif _is_int(dim):
        d = _strides.normalize_dim(dim, self.dim())
        keep = [i for i in range(self.dim()) if i != d or self._size[i] != 1]
        node = SqueezeBackward1
    elif isinstance(dim, (tuple, list)) and (not dim or (_is_int(dim[0]) and all(_is_later_int(d) for d in dim))):
        dims = [_strides.normalize_dim(int(d), self.dim()) for d in dim]
        for d in dims:
            if dims.count(d) > 1:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        keep = [i for i in range(self.dim()) if i not in dims or self._size[i] != 1]
        node = SqueezeBackward2
    else:
        raise _squeeze_arguments_error(dim)
    size = [self._size[i] for i in keep]
    stride = [self._stride[i] for i in keep]
    return _as_view(self, size, stride, self._storage_offset, lambda: node(self))


def select(self, dim=MISSING, index=MISSING):
    """One position along ``dim``: that dimension disappears."""
    _check_given("select", dim=dim, index=index)
    _int_arg("select", "dim", 1, dim)
    _int_arg("select", "index", 2, index)
    if self.dim() == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim, index = int(dim), int(index)
    d = _strides.normalize_dim(dim, self.dim())
    n = self._size[d]
    if not -n <= index < n:
        raise IndexError(
            _messages.SELECT_OUT_OF_RANGE.format(index=index, size=_strides._fmt(self._size), dim=d)
        )
    index = index % n
    size = self._size[:d] + self._size[d + 1:]
    stride = self._stride[:d] + self._stride[d + 1:]
    offset = self._storage_offset + index * self._stride[d]
    return _as_view(self, size, stride, offset, lambda: SelectBackward0(self, d, index))


def slice_geometry(size, stride, storage_offset, dim, start, stop, step):
    """The size, stride and offset of positions ``start:stop:step`` along ``dim``.

    ``start`` and ``stop`` (None, negative or too large) are clamped as Python
    clamps them (``slice(start, stop, step).indices(n)``); the length is how
    many steps fit between them; the stride along ``dim`` is multiplied by
    ``step``; the offset moves on to the first element kept.
    """
    start, stop, _ = slice(start, stop, step).indices(size[dim])
    length = max(0, (stop - start + step - 1) // step)
    new_size = tuple(size[:dim]) + (length,) + tuple(size[dim + 1:])
    new_stride = tuple(stride[:dim]) + (stride[dim] * step,) + tuple(stride[dim + 1:])
    return new_size, new_stride, storage_offset + start * stride[dim]
slice_geometry = overridable(slice_geometry)


def _slice(self, dim, start, stop, step):
    """Positions ``start:stop:step`` along ``dim``, clamped as Python clamps."""
    if step <= 0:
        raise ValueError("step must be greater than zero")
    geometry = slice_geometry(self._size, self._stride, self._storage_offset, dim, start, stop, step)
    start, stop, _ = slice(start, stop, step).indices(self._size[dim])
    return _as_view(self, *geometry, lambda: SliceBackward0(self, dim, start, max(stop, start), step))


# torch's two overloads of narrow (the function's have ``Tensor input`` first).
NARROW_OVERLOADS = [("int dim, Tensor start, int length", (_is_int, lambda start: isinstance(start, Tensor), _is_int)),
                    ("int dim, int start, int length", (_is_int, _is_int, _is_int))]


def narrow(self, *args, **kwargs):
    """``narrow(dim, start, length)``: ``length`` positions along ``dim`` from ``start`` (counted
    from the end if negative): the view ``slice`` makes, with ``SliceBackward0``, even when it
    keeps the whole dimension."""
    dim, start, length = parse_overloads("narrow", NARROW_OVERLOADS, args, kwargs)
    if self.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    start, length = int(start), int(length)
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    dim = _strides.normalize_dim(dim, self.dim())
    n = self._size[dim]
    if not -n <= start <= n:
        raise IndexError(_messages.NARROW_START_RANGE.format(low=-n, high=n, start=start))
    start = start + n if start < 0 else start
    if start > n - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return _slice(self, dim, start, start + length, 1)


def alias(self):
    return _as_view(self, self._size, self._stride, self._storage_offset, lambda: AliasBackward0(self))


def _int_tuple_arg(op, name, position, value):
    if not isinstance(value, (tuple, list)):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn=op, name=name, position=position, expected="tuple of ints", got=_type_name(value)
        ))
    for pos, n in enumerate(value):
        if not _is_int(n):
            raise TypeError(
                _messages.ARGUMENT_ELEMENT_TYPE.format(
                    fn=op, name=name, position=position, got=_type_name(n), pos=pos
                )
            )
    return tuple(int(n) for n in value)


def as_strided_geometry(self, size, stride, storage_offset, op="as_strided"):
    """Read and check ``as_strided``'s arguments, in torch's order; returns (size, stride, offset).

    The offset defaults to ``self``'s own. Whether the layout fits in the
    storage (negative offsets and sizes included) is checked next, in
    ``_layout_checks``.
    """
    size = _int_tuple_arg(op, "size", 1, size)
    stride = _int_tuple_arg(op, "stride", 2, stride)
    if storage_offset is not None:
        _int_arg(op, "storage_offset", 3, storage_offset)
    offset = self._storage_offset if storage_offset is None else int(storage_offset)
    if len(size) != len(stride):
        raise RuntimeError(_messages.AS_STRIDED_LENGTHS)
    if any(s < 0 for s in stride):
        raise RuntimeError(_messages.AS_STRIDED_NEGATIVE_STRIDES.format(_strides._fmt(stride)))
    return size, stride, offset


def as_strided(self, size, stride, storage_offset=None):
    """Any geometry on the same storage; the most general view.

    torch refuses backward strides here, and then (``_layout_checks``) any
    geometry that reaches outside the storage.
    """
    geometry = as_strided_geometry(self, size, stride, storage_offset)
    _layout_checks.check_fits(*geometry, self._dtype.itemsize, self._storage.nbytes())
    return _as_view(self, *geometry, lambda: AsStridedBackward0(self, geometry))
