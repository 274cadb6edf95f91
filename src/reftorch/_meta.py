"""The meta device: tensors that have metadata and no numbers.

A tensor on ``device="meta"`` has a size, strides, a dtype, ``requires_grad``
and a graph, like any tensor, so every rule about *metadata* can be tried on
it; torch uses it to plan a model without allocating it, and the course uses
it as a stand-in for a second device on a machine without a GPU. What it does
not have is numbers: its ``data_ptr()`` (and its storage's) is 0, it prints
as ``tensor(..., device='meta', size=(2,))``, and anything that would read
its numbers into cpu memory (``tolist()``, ``item()``, ``.cpu()``,
``copy_`` into a cpu tensor) raises. Operations between meta tensors give
meta tensors; mixing a meta tensor with a cpu one is an error.

reftorch keeps a meta tensor's elements in ordinary memory like any other
(they are never read out), so the rules live at the points where numbers
would leave the device: here, and in ``copy_``, which moves numbers out of a
meta tensor only into another (``_copy_.check_copy_source``, as torch's
``copy_`` kernel checks; ``to()`` copies through the same check).

Nor does torch check a meta tensor's writes for overlapping memory (``check_overlaps``).

A meta tensor has no memory to share or copy, so torch copies one from its
metadata alone: ``copy.copy`` (and pickling) rebuilds it here on new memory
at offset 0 with the same strides and a counter at 0, and ``copy.deepcopy``
clones it (``_python_copy.__deepcopy__``).
"""

from . import _messages, _python_copy
from ._dtype import bool as bool_, int8, int32, int64
from ._inplace_write import check_no_internal_overlap, check_no_partial_overlap
from ._tensor import Tensor

META_MASKS = (bool_, int8)  # torch's meta kernel checks int8 where its cpu one checks uint8


def is_meta(tensor):
    return tensor.device.type == "meta"


def check_overlaps(self, *others):
    """An in-place write's overlap checks (``_inplace_write``): none for a meta tensor, whose
    elements share no memory to overlap in torch (an expanded one may be written)."""
    if is_meta(self):
        return
    check_no_internal_overlap(self)
    for other in others:
        check_no_partial_overlap(self, other)


def check_readable(tensor):
    """Reading numbers out of a meta tensor raises torch's error."""
    if is_meta(tensor):
        raise NotImplementedError(_messages.META_NO_DATA)


def check_item(tensor):
    if is_meta(tensor):
        raise RuntimeError(_messages.META_ITEM)


def check_same_device(first, other):
    """torch's message when a meta tensor meets a tensor on another device."""
    if "meta" in (first.type, other.type) and first != other:
        raise RuntimeError(_messages.META_DEVICE_MIX.format(got=other, expected=first))


def check_indices(tensor, indices):
    """What torch's meta kernel for ``tensor[indices]`` checks, in its words: each index's dtype
    (a RuntimeError, not the IndexError of a cpu tensor) and each mask's shape (sizes shown
    as ``torch.Size``, the mask counted among the indices). It reads no index values, so nothing
    is out of bounds; and ``tensor[indices] = values`` checks nothing at all (``write``).

    Its masks are bool and int8 tensors, where a cpu tensor's are bool and uint8: it refuses
    uint8 and reads int8 as a mask (``as_masks``). A mask on meta is refused before its shape is
    looked at: torch asks for its nonzero elements first."""
    dim = 0  # the tensor's dimension the next index starts at
    for i, index in enumerate(indices):
        if index is not None and index.dtype not in (int64, int32, int8, bool_):
            raise RuntimeError(_messages.INDEX_DTYPE)
        if index is None or index.dtype not in META_MASKS:
            dim += 1
            continue
        if index.device.type == "meta":  # how many elements a mask picks is data, and it has none
            raise NotImplementedError(_messages.META_MASK_READ)
        for j, n in enumerate(index.shape):
            if dim + j >= tensor.dim():
                raise IndexError(_messages.TOO_MANY_INDICES.format(tensor.dim()))
            if n != tensor.shape[dim + j]:
                raise IndexError(_messages.MASK_SHAPE.format(mask=index.shape, mask_dim=i, shape=tensor.shape,
                                                             dim=dim + j))
        dim += index.dim()


def as_masks(indices):
    """The indices as the meta kernel reads them: an int8 index as the bool mask ``index != 0``."""
    return [index.ne(0) if index is not None and index.dtype is int8 else index for index in indices]


def meta_suffixes(tensor, default_dtype_name):
    """What ``repr`` says instead of the numbers: the size, and any dtype but the default."""
    suffixes = ["size=" + str(tuple(tensor.shape))]
    if str(tensor.dtype) != default_dtype_name:
        suffixes.append("dtype=" + str(tensor.dtype))
    return suffixes


def __reduce_ex__(self, protocol):
    """``copy.copy`` and pickling: a meta tensor is rebuilt from its metadata alone (hooks warned
    about first, as for any tensor); any other goes through ``_python_copy.__reduce_ex__``."""
    if not is_meta(self):
        return _python_copy.__reduce_ex__(self, protocol)
    _python_copy.warn_if_has_hooks(self)
    args = (self._size, self._stride, self._dtype, self.device, self.requires_grad)
    return (_rebuild_meta_tensor, args, self.__dict__ or None)


def _rebuild_meta_tensor(size, stride, dtype, device, requires_grad):
    """A new meta tensor of this size and these strides, at offset 0: new memory, a counter at 0."""
    t = Tensor._from_values(0, size, dtype, device, stride)
    t._requires_grad = requires_grad
    return t
