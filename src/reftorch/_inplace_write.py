"""What every in-place write does (``write_inplace``), in this order:

1. **Check**: no write into a leaf that requires grad, or a view of one, while
   autograd records.
2. **Write** the numbers into the storage, one element at a time as torch's loop does
   where an input reads memory the write changes (``write_elements``).
3. **Bump** the version counter the tensor shares with its views and ``detach()``.
4. **Rewrite history**: the op's node becomes ``grad_fn``; a view's base gets a
   ``CopySlices`` node instead.
"""

from . import _broadcast, _core_messages, _elements, _overrides, _strides
from ._tensor import Tensor
from ._version_counter import bump
from .autograd.graph import Node, any_requires_grad, gradient_edge
from .autograd.view_history import check_view_write, rebuild_view_grad_fn


def check_inplace(self, recording):
    """Raise torch's errors before anything is written."""
    if not recording:
        return
    if self._base_tensor is not None:
        check_view_write(self, indirect=False)
        if self.requires_grad and self._base_tensor.is_leaf:
            raise RuntimeError(_core_messages.VIEW_OF_LEAF_INPLACE)
    if self.requires_grad and self.is_leaf:
        raise RuntimeError(_core_messages.LEAF_INPLACE)


def check_no_internal_overlap(self):
    """Refuse to write into an expanded tensor (many elements in one slot), as torch does."""
    if _strides.is_non_overlapping_and_dense(self._size, self._stride):
        return
    if any(stride == 0 and size > 1 for size, stride in zip(self._size, self._stride)):
        raise RuntimeError(_core_messages.INTERNAL_OVERLAP)
check_no_internal_overlap = _overrides.overridable(check_no_internal_overlap)


def check_no_partial_overlap(self, other):
    """Refuse to write into dense memory also being read, unless the same elements in the same order."""
    if not isinstance(other, Tensor) or other._storage is not self._storage:
        return
    if not all(_strides.is_non_overlapping_and_dense(t._size, t._stride) for t in (self, other)):
        return  # torch cannot tell cheaply for other layouts: it writes (``write_elements``)
    a = (self.data_ptr(), self.data_ptr() + self.numel() * self.element_size())
    b = (other.data_ptr(), other.data_ptr() + other.numel() * other.element_size())
    if a[0] < b[1] and b[0] < a[1] and (a != b or self._stride != other._stride):
        raise RuntimeError(_core_messages.INPLACE_OVERLAP)
check_no_partial_overlap = _overrides.overridable(check_no_partial_overlap)


def write_inplace(self, new_values, make_node, *inputs, any_dtype_checked=True):
    """Steps 1-4 above. ``new_values()``: the op's own checks and its numbers; ``make_node()``: its node, made
    before the write. Autograd's check runs whatever ``self``'s dtype, unless ``any_dtype_checked`` is False (copy_)."""
    asks = any_requires_grad(self, *inputs)
    check_inplace(self, asks and (any_dtype_checked or self.dtype.is_floating_point))
    values = new_values()
    node = make_node() if asks and self.dtype.is_floating_point else None
    write_elements(self, values, new_values, inputs)
    bump(self)
    if node is not None:
        rebase_history(self, node)
    return self


def write_elements(self, values, new_values, inputs):
    """Store ``values`` in ``self``. torch writes one element at a time, in TensorIterator's order: where
    an input of the dtype reads memory written earlier in the loop (views that partly overlap, not both
    dense), that element is computed again (``new_values()``) from the memory as it is then."""
    tensors = [x for x in inputs if isinstance(x, Tensor)]
    strides = [_broadcast.expanded_strides(x._size, x._stride, self._size) for x in tensors]
    reads = [_strides.element_positions(self._size, s, x._storage_offset)
             for x, s in zip(tensors, strides) if x._storage is self._storage and x._dtype is self._dtype]
    if not reads or not isinstance(values, list):
        return self._write(values)
    outer_first = _strides.iteration_order(self._size, [self._stride] + strides)[::-1]
    rows, slots, written = _strides.contiguous_strides(self._size), self._positions(), set()
    for k in _strides.element_positions([self._size[d] for d in outer_first], [rows[d] for d in outer_first], 0):
        if any(r[k] in written for r in reads):
            values = new_values()
        _elements.write(self._storage, self._dtype, [slots[k]], [values[k]])
        written.add(slots[k])


def rebase_history(self, node):
    """Make ``node`` the new history of ``self`` (via ``CopySlices`` for a view); hooks stay, retain_grad() moves."""
    self._backward_hooks = None
    base = self._base_tensor
    if base is None:
        self._set_grad_fn(node)
        return
    base._set_grad_fn(CopySlices(base, self, node))
    rebuild_view_grad_fn(self)


class CopySlices(Node):
    """The base of a view written in place: the incoming gradient, except on the view's
    elements, where the in-place op's node ``fn`` decides."""

    def __init__(self, base, view_, fn):
        Node.__init__(self)
        self._next_functions = (gradient_edge(base),) + fn._next_functions[1:]
        self.base_geometry = base._geometry()
        self.view_geometry = view_._geometry()
        self.slots = base._storage.nbytes() // base._dtype.itemsize
        self.fn = fn

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grad):
        base_slots = _strides.element_positions(*self.base_geometry)
        view_slots = _strides.element_positions(*self.view_geometry)
        storage = [0] * self.slots
        for slot, value in zip(base_slots, grad._read()):
            storage[slot] = value
        grad_slice = Tensor._from_values([storage[s] for s in view_slots], self.view_geometry[0], grad._dtype, grad.device)
        fn_grads = self.fn.apply(grad_slice)
        new = fn_grads[0]._read() if fn_grads[0] is not None else [0] * len(view_slots)
        for slot, value in zip(view_slots, new):
            storage[slot] = value
        base_grad = Tensor._from_values([storage[s] for s in base_slots], self.base_geometry[0], grad._dtype, grad.device)
        return (base_grad,) + tuple(fn_grads[1:])

    def release_saved_tensors(self):
        self.fn.release_saved_tensors()


def check_inplace_shape(self, other):
    """``other`` must broadcast to exactly ``self``'s shape: the result has nowhere else to go."""
    shape = _broadcast.broadcast_shapes(self._size, other._size if isinstance(other, Tensor) else ())
    if shape != self._size:
        raise RuntimeError(_core_messages.OUTPUT_SHAPE.format(_strides._fmt(self._size), _strides._fmt(shape)))
