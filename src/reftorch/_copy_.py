"""copy_(): write another tensor's numbers into this tensor's memory.

``dst.copy_(src)`` keeps ``dst``'s object, metadata and memory: ``src`` is
broadcast, cast and moved into them. ``dst``'s version counter goes up by one, and
if ``src`` requires grad ``dst`` gets a ``CopyBackwards`` node (``_inplace_write``).
"""

from . import _core_messages, _elements, _overrides, _strides
from ._inplace_write import check_inplace_shape, check_no_internal_overlap, check_no_partial_overlap, write_inplace
from ._broadcast import expanded_strides
from ._tensor import Tensor
from .autograd.graph import Node


class CopyBackwards(Node):
    """Gradient of ``dst.copy_(src)``: zero for the old ``dst``, all of it for ``src``."""

    def __init__(self, dst, src):
        super().__init__(dst, src)
        self.dst, self.src = dst, src

    def name(self):
        return "torch::autograd::CopyBackwards"

    def apply(self, grad):
        old = Tensor._from_values(0, self.dst._size, self.dst._dtype, self.dst.device)
        to_src = None
        if self.needs_input_grad(1):
            check_copy_source(self.src.device, grad)
            same = (grad._dtype, grad.device) == (self.src._dtype, self.src.device)  # torch's grad.to(src): itself
            to_src = grad if same else Tensor._from_values(grad._read(), grad._size, self.src._dtype, self.src.device)
        return (old, to_src)


def values_of(x, dtype, shape=None):
    """The numbers of ``x`` (a tensor or a number) read as ``x.expand(shape)``, cast to ``dtype``."""
    if not isinstance(x, Tensor):
        return _elements.cast([x] * _strides.numel(shape or ()), dtype)
    shape = x._size if shape is None else shape
    x._positions()  # the bounds check, on x's own layout
    positions = _strides.element_positions(shape, expanded_strides(x._size, x._stride, shape), x._storage_offset)
    return _elements.cast(_elements.read(x._storage, x._dtype, positions), dtype)


def is_same_data(self, src):
    """``src`` reads ``self``'s very elements: the same storage, offset, size, stride and dtype."""
    return (isinstance(src, Tensor) and src._storage is self._storage and src._dtype is self._dtype
            and src._geometry() == self._geometry())


def check_copy_source(destination_device, source):
    """A meta tensor's numbers move only into another meta tensor (a Python number goes anywhere)."""
    if isinstance(source, Tensor) and source.device.type == "meta" and destination_device.type != "meta":
        raise NotImplementedError(_core_messages.META_NO_DATA)


def copy_(self, src, non_blocking=False):
    """Write ``src``'s numbers (a tensor or a Python number) into ``self``'s memory. torch moves none
    into a meta tensor, nor from ``self``'s very elements (``is_same_data``): no overlap to refuse."""
    def new_values():
        check_copy_source(self.device, src)
        if not (self.device.type == "meta" or is_same_data(self, src)):
            check_no_internal_overlap(self)
            check_no_partial_overlap(self, src)
        check_inplace_shape(self, src)
        return values_of(src, self.dtype, self._size)

    return write_inplace(self, new_values, lambda: CopyBackwards(self, src), src, any_dtype_checked=False)
copy_ = _overrides.overridable(copy_)
