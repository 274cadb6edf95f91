"""Wrong build-it pieces a learner plausibly writes, one belief each, for every piece of chapters 02-23.

``BANK`` lists ``(piece, function, told)``: ``check(piece, function)`` must fail,
and where ``told`` is set, one failing case's message must contain it (the case
added for that belief).  Each function's docstring says the belief.  The wrong
answers that the chapters' own ``piece.wrong`` lists hold are not repeated here.
"""

from __future__ import annotations

import builtins
import copy
import functools
import math
import numbers
from collections import OrderedDict, defaultdict

import reftorch
import reftorch._convert
import reftorch._detach
import reftorch._indexing
import reftorch._nested_data
import reftorch._python_copy
import reftorch._shapes
import reftorch._strides
import reftorch._version_counter
import reftorch._views
import reftorch.autograd.engine
import reftorch.autograd.graph
import reftorch.nn.state_dict
from reftorch import _core_messages, _messages, _strides
from reftorch._binding import from_data
from reftorch._dtype import from_numpy_dtype, get_default_dtype, promote_types
from reftorch._numpy_objects import is_array, is_scalar
from reftorch._python_copy import _rebuild_tensor
from reftorch._to import to
from reftorch.autograd.creation_meta import DEFAULT, INFERENCE_MODE, MULTI_OUTPUT_NODE, NO_GRAD_MODE
from reftorch.autograd.grad_mode import is_grad_enabled
from reftorch.autograd.inference_mode import is_inference_mode_enabled
from reftorch.nn.parameter import Parameter

from coursebook.build_it.pieces_17 import update_ema
from coursebook.build_it.pieces_21 import is_basic_index
from coursebook.build_it.pieces_22 import four_answers

BANK: list[tuple[str, object, str | None]] = []


def wrong(piece: str, told: str | None = None):
    """Put the decorated function in the bank as a wrong ``piece``."""
    def put(fn):
        BANK.append((piece, fn, told))
        return fn
    return put


# --- 02 __iadd__ -----------------------------------------------------------------------------


@wrong("__iadd__")
def rebinds_data(self, other):
    """`self.data = self + other` is adding in place."""
    self.data = self + other
    return self


@wrong("__iadd__")
def writes_every_slot(self, other):
    """`self[...] = self + other` is add_: an int tensor plus 0.5 is cast back silently."""
    self[...] = self + other
    return self


@wrong("__iadd__")
def copies_the_sum_in(self, other):
    """self.copy_(self + other) is add_: an int tensor plus 0.5 is cast back silently."""
    return self.copy_(self + other)


@wrong("__iadd__")
def adds_and_returns_a_copy(self, other):
    """After adding in place, += hands back a copy of the result."""
    self.add_(other)
    return self.clone()


# --- 03 strides and views ----------------------------------------------------------------------


@wrong("contiguous_strides")
def size_one_strides_zero(shape):
    """A dimension of size 1 gets stride 0."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step if n != 1 else 0)
        step *= max(n, 1)
    return tuple(reversed(strides))


@wrong("contiguous_strides", told="a list is never equal to a tuple")
def strides_as_a_list(shape):
    """The strides may come back as a list."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.insert(0, step)
        step *= max(n, 1)
    return strides


@wrong("contiguous_strides")
def a_zero_d_tensor_steps_by_one(shape):
    """A 0-d tensor has the stride (1,) of a single element."""
    return reftorch._strides.contiguous_strides(shape) or (1,)


@wrong("contiguous_strides")
def product_including_itself(shape):
    """A dimension's stride is the product of its own size and the ones after it."""
    return tuple(math.prod(max(n, 1) for n in shape[i:]) for i in range(len(shape)))


@wrong("element_positions")
def offset_per_dimension(shape, strides, offset):
    """The offset is added once per dimension."""
    positions = [0]
    for n, s in zip(shape, strides):
        positions = [p + offset + i * s for p in positions for i in range(n)]
    return positions if shape else [offset]


@wrong("element_positions")
def zero_d_has_no_position(shape, strides, offset):
    """A 0-d tensor has no element to place."""
    return reftorch._strides.element_positions(shape, strides, offset) if shape else []


@wrong("element_positions")
def positions_sorted(shape, strides, offset):
    """The positions come out in memory order."""
    return sorted(reftorch._strides.element_positions(shape, strides, offset))


@wrong("element_positions")
def last_dimension_slowest(shape, strides, offset):
    """The elements are listed with the last dimension slowest."""
    positions = [offset]
    for n, s in reversed(list(zip(shape, strides))):
        positions = [p + i * s for p in positions for i in range(n)]
    return positions


@wrong("is_contiguous", told="cut to 3 columns leaves a gap")
def decreasing_with_last_stride_one(shape, strides):
    """Strides that decrease and end in 1 are contiguous (a gap after each row goes unseen)."""
    if 0 in shape:
        return True
    kept = [s for n, s in zip(shape, strides) if n != 1]
    return not kept or (kept[-1] == 1 and all(a >= b for a, b in zip(kept, kept[1:])))


@wrong("is_contiguous")
def size_one_strides_count(shape, strides):
    """Only exactly the row-major strides are contiguous, those of size-1 dimensions too."""
    return 0 in shape or tuple(strides) == reftorch._strides.contiguous_strides(shape)


@wrong("is_contiguous")
def empty_is_not_special(shape, strides):
    """A tensor with no elements is contiguous only with a fresh tensor's strides."""
    if 0 in shape:
        return tuple(strides) == reftorch._strides.contiguous_strides(shape)
    return reftorch._strides.is_contiguous(shape, strides)


@wrong("is_contiguous")
def last_stride_one(shape, strides):
    """A tensor whose last stride is 1 is contiguous."""
    return 0 in shape or not shape or strides[-1] == 1


@wrong("is_contiguous")
def dense_is_contiguous(shape, strides):
    """Contiguous means dense: the elements fill their block once, in any order."""
    return reftorch._strides.is_non_overlapping_and_dense(shape, strides)


@wrong("transpose_geometry")
def always_the_first_two(size, stride, dim0, dim1):
    """A transpose swaps dimensions 0 and 1, whichever it is asked for."""
    size, stride = list(size), list(stride)
    if len(size) >= 2:
        size[:2], stride[:2] = size[1::-1], stride[1::-1]
    return tuple(size), tuple(stride)


@wrong("transpose_geometry")
def reverses_every_dimension(size, stride, dim0, dim1):
    """A transpose reverses all the dimensions."""
    return tuple(reversed(size)), tuple(reversed(stride))


@wrong("transpose_geometry", told="a list is never equal to a tuple")
def lists_swapped(size, stride, dim0, dim1):
    """A transpose swaps two entries of the size and stride lists, and gives the lists back."""
    size, stride = list(size), list(stride)
    if size:
        size[dim0], size[dim1] = size[dim1], size[dim0]
        stride[dim0], stride[dim1] = stride[dim1], stride[dim0]
    return size, stride


@wrong("transpose_geometry")
def strides_only(size, stride, dim0, dim1):
    """A transpose swaps the strides; the sizes stay."""
    stride = list(stride)
    if stride:
        stride[dim0], stride[dim1] = stride[dim1], stride[dim0]
    return tuple(size), tuple(stride)


@wrong("transpose_geometry")
def a_zero_d_tensor_has_no_dimension_0(size, stride, dim0, dim1):
    """A 0-d tensor cannot be transposed at all."""
    if not size:
        raise IndexError("Dimension out of range")
    return reftorch._views.transpose_geometry(size, stride, dim0, dim1)


def _slice(size, stride, storage_offset, dim, start, stop, step, length=None, offset=None):
    start, stop, _ = slice(start, stop, step).indices(size[dim])
    n = max(0, (stop - start + step - 1) // step) if length is None else length(start, stop)
    new_offset = storage_offset + start * stride[dim] if offset is None else offset(start)
    return (tuple(size[:dim]) + (n,) + tuple(size[dim + 1:]),
            tuple(stride[:dim]) + (stride[dim] * step,) + tuple(stride[dim + 1:]), new_offset)


@wrong("slice_geometry", told="a list is never equal to a tuple")
def size_and_stride_as_lists(size, stride, storage_offset, dim, start, stop, step):
    """The size and stride may come back as lists."""
    new_size, new_stride, offset = _slice(size, stride, storage_offset, dim, start, stop, step)
    return list(new_size), list(new_stride), offset


@wrong("slice_geometry")
def offset_moves_by_start(size, stride, storage_offset, dim, start, stop, step):
    """The offset moves on by `start` elements, whatever the stride of `dim`."""
    return _slice(size, stride, storage_offset, dim, start, stop, step, offset=lambda s: storage_offset + s)


@wrong("slice_geometry")
def length_ignores_step(size, stride, storage_offset, dim, start, stop, step):
    """The length is stop - start, whatever the step."""
    return _slice(size, stride, storage_offset, dim, start, stop, step, length=lambda a, b: max(0, b - a))


@wrong("slice_geometry")
def offset_from_zero(size, stride, storage_offset, dim, start, stop, step):
    """The old offset is forgotten: a slice starts counting from slot 0."""
    return _slice(size, stride, storage_offset, dim, start, stop, step, offset=lambda s: s * stride[dim])


def _expand(size, stride, sizes, refuse):
    if not size:
        return tuple(sizes), (0,) * len(sizes)
    lead = len(sizes) - len(size)
    new_size, new_stride = [1] * len(sizes), [0] * len(sizes)
    for i in reversed(range(len(sizes))):
        old_n, old_s = (size[i - lead], stride[i - lead]) if i >= lead else (1, new_size[i + 1] * new_stride[i + 1])
        n = old_n if sizes[i] == -1 else sizes[i]
        if old_n != n:
            if old_n != 1 and refuse:
                raise RuntimeError(_messages.EXPAND_MISMATCH)
            old_s = 0
        new_size[i], new_stride[i] = n, old_s
    return tuple(new_size), tuple(new_stride)


@wrong("infer_expand_geometry", told="a list is never equal to a tuple")
def lists_built_from_the_back(size, stride, sizes):
    """The size and stride lists built from the last dimension back are the answer."""
    return tuple(map(list, reftorch._views.infer_expand_geometry(size, stride, sizes)))


@wrong("infer_expand_geometry")
def minus_one_on_a_new_dimension(size, stride, sizes):
    """-1 on a new leading dimension keeps its size 1."""
    return _expand(size, stride, sizes, refuse=True)


@wrong("infer_expand_geometry")
def any_size_stretches(size, stride, sizes):
    """Any size stretches to any other, with stride 0."""
    return _expand(size, stride, sizes, refuse=False)


def _bounds(size, stride, storage_offset, itemsize, nbytes, refuse):
    if 0 in size:
        return
    last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
    if refuse((last + 1) * itemsize, nbytes):
        raise RuntimeError(_core_messages.OUT_OF_BOUNDS)


@wrong("check_in_bounds_for_storage")
def an_exact_fit_is_too_big(size, stride, storage_offset, itemsize, nbytes):
    """A layout that ends at the last byte is out of bounds (>= for >)."""
    _bounds(size, stride, storage_offset, itemsize, nbytes, refuse=lambda needed, have: needed >= have)


@wrong("check_in_bounds_for_storage")
def numel_from_the_offset(size, stride, storage_offset, itemsize, nbytes):
    """The elements take numel slots after the offset, whatever the strides."""
    if (storage_offset + math.prod(size)) * itemsize > nbytes:
        raise RuntimeError(_core_messages.OUT_OF_BOUNDS)


@wrong("check_in_bounds_for_storage")
def zero_d_has_no_element(size, stride, storage_offset, itemsize, nbytes):
    """A 0-d tensor has no element, so it always fits."""
    if size:
        _bounds(size, stride, storage_offset, itemsize, nbytes, refuse=lambda needed, have: needed > have)


# --- 04 indexing -------------------------------------------------------------------------------


@wrong("check_no_internal_overlap")
def any_shared_slot(self):
    """Every layout where two elements share a slot is refused, not only a stride of 0."""
    if not _strides.is_non_overlapping_and_dense(self._size, self._stride):
        positions = reftorch._strides.element_positions(self._size, self._stride, 0)
        if len(set(positions)) != len(positions):
            raise RuntimeError(_core_messages.INTERNAL_OVERLAP)


@wrong("check_no_internal_overlap", told="shares nothing in a stepped tensor")
def zero_stride_unless_contiguous(self):
    """A stride of 0 is refused unless the tensor is contiguous (whatever the size under it)."""
    if 0 in self._stride and not _strides.is_contiguous(self._size, self._stride):
        raise RuntimeError(_core_messages.INTERNAL_OVERLAP)


@wrong("check_no_internal_overlap")
def not_dense(self):
    """Every layout that is not dense overlaps."""
    if not _strides.is_non_overlapping_and_dense(self._size, self._stride):
        raise RuntimeError(_core_messages.INTERNAL_OVERLAP)


@wrong("check_no_internal_overlap")
def the_first_dimension_only(self):
    """An expanded tensor has its stride of 0 on the first dimension."""
    if self._size and self._stride[0] == 0 and self._size[0] > 1:
        raise RuntimeError(_core_messages.INTERNAL_OVERLAP)


@wrong("is_advanced", told="a numpy array with a dimension")
def arrays_are_integers(part):
    """A numpy array is a number, as np.int64 is."""
    return False if is_array(part) else reftorch._indexing.is_advanced(part)


@wrong("is_advanced", told="a numpy array with a dimension")
def lists_by_their_type(part):
    """Only a bool, a list and a tensor with a dimension (or a mask) are advanced."""
    if isinstance(part, reftorch.Tensor):
        return part.dim() > 0 or part.dtype in (reftorch.bool, reftorch.uint8)
    return isinstance(part, (bool, list))


@wrong("is_advanced")
def every_zero_d_tensor_is_an_integer(part):
    """Any 0-d tensor but a bool one is read as an integer."""
    if isinstance(part, reftorch.Tensor) and part.dim() == 0:
        return part.dtype == reftorch.bool
    return reftorch._indexing.is_advanced(part)


# --- 05 autograd -------------------------------------------------------------------------------


@wrong("accumulate_grad")
def always_keeps_the_gradient(variable, grad, steal=False):
    """The first gradient always becomes .grad as it is, the caller's own too."""
    if variable._grad is None:
        variable._grad = grad
    else:
        variable._grad.add_(grad)


@wrong("accumulate_grad")
def never_keeps_the_gradient(variable, grad, steal=False):
    """The first gradient is always copied."""
    reftorch.autograd.graph.accumulate_grad(variable, grad, False)


@wrong("accumulate_grad")
def clones_the_callers_gradient(variable, grad, steal=False):
    """A gradient autograd may not keep is cloned (version 0), not copied in."""
    if variable._grad is None:
        variable._grad = grad if steal else grad.clone()
    else:
        variable._grad.add_(grad)


@wrong("accumulate_grad", told="x.grad stays the tensor it was")
def adds_into_the_new_gradient(variable, grad, steal=False):
    """The sum may go into the new gradient, which then becomes .grad."""
    if variable._grad is None:
        reftorch.autograd.graph.accumulate_grad(variable, grad, steal)
    else:
        variable._grad = grad.add_(variable._grad)


@wrong("execution_order")
def each_node_when_first_met(roots):
    """Depth first, each node the first time it is reached."""
    order, stack = [], list(roots)
    while stack:
        node = stack.pop()
        if node not in order:
            order.append(node)
            stack += [n for n, _ in node.next_functions if n is not None]
    return order


@wrong("execution_order")
def leaves_first(roots):
    """Backward runs from the leaves up (post-order)."""
    order = []

    def visit(node):
        if node not in order:
            for next_node, _ in node.next_functions:
                if next_node is not None:
                    visit(next_node)
            order.append(node)
    for root in roots:
        visit(root)
    return order


@wrong("execution_order")
def the_right_order_reversed(roots):
    """The order that puts every node after its senders, read backwards."""
    return list(reversed(reftorch.autograd.engine.execution_order(roots)))


# --- 06 the version counter --------------------------------------------------------------------


@wrong("bump")
def bumps_twice(tensor):
    """An in-place write counts two (one for the read, one for the write)."""
    tensor._version_counter.bump()
    tensor._version_counter.bump()


@wrong("bump")
def bumps_the_base_as_well(tensor):
    """A view's write bumps the view's counter and, separately, its base's."""
    tensor._version_counter.bump()
    if tensor._base is not None:
        tensor._base._version_counter.bump()


@wrong("bump")
def a_new_counter_for_the_base(tensor):
    """A write gives the base a new counter, one ahead."""
    owner = tensor if tensor._base is None else tensor._base
    owner._version_counter = reftorch._version_counter.VersionCounter(owner._version + 1)


@wrong("bump")
def bases_only(tensor):
    """Only a tensor that is not a view has a counter to bump."""
    if tensor._base is None:
        tensor._version_counter.bump()


def _unpack(self, modified=RuntimeError, released=RuntimeError, hand=lambda t: t, behind=0):
    if self._released:
        if released is None:
            return None
        raise released(_core_messages.BACKWARD_TWICE)
    if self._tensor._version > self._version + behind:
        raise modified("modified")
    return hand(self._tensor)


@wrong("unpack")
def hands_over_a_clone(self):
    """Backward gets a clone of the saved tensor."""
    return _unpack(self, hand=lambda t: t.clone())


@wrong("unpack")
def hands_over_itself(self):
    """The SavedTensor is what backward reads."""
    return _unpack(self, hand=lambda t: self)


@wrong("unpack")
def a_value_error(self):
    """A tensor written since it was saved raises ValueError."""
    return _unpack(self, modified=ValueError)


@wrong("unpack")
def none_once_freed(self):
    """A freed saved tensor gives None."""
    return _unpack(self, released=None)


@wrong("unpack")
def one_write_is_allowed(self):
    """One write since saving is harmless; two are not."""
    return _unpack(self, behind=1)


# --- 07 creation meta --------------------------------------------------------------------------


def _meta(source, multi_output, order, inherit=(NO_GRAD_MODE, INFERENCE_MODE, MULTI_OUTPUT_NODE)):
    modes = {"inference": is_inference_mode_enabled() and INFERENCE_MODE,
             "no_grad": not is_grad_enabled() and NO_GRAD_MODE, "multi": multi_output and MULTI_OUTPUT_NODE}
    new = next((modes[name] for name in order if modes[name]), DEFAULT)
    previous = source._creation_meta if source._base_tensor is not None else DEFAULT
    if previous == INFERENCE_MODE or (new == DEFAULT and previous in inherit):
        return previous
    return new


@wrong("for_new_view", told="ask about the mode before multi_output")
def multi_output_first(source, multi_output=False):
    """multi_output decides first: a split made under no_grad is MULTI_OUTPUT_NODE."""
    return _meta(source, multi_output, ("multi", "inference", "no_grad"))


@wrong("for_new_view", told="ask about the mode before multi_output")
def multi_output_before_no_grad(source, multi_output=False):
    """Inference mode first, then multi_output, then no_grad."""
    return _meta(source, multi_output, ("inference", "multi", "no_grad"))


@wrong("for_new_view", told="inherits MULTI_OUTPUT_NODE")
def inherits_the_mode_metas_only(source, multi_output=False):
    """A view inherits NO_GRAD_MODE and INFERENCE_MODE from its source, not MULTI_OUTPUT_NODE."""
    return _meta(source, multi_output, ("inference", "no_grad", "multi"), inherit=(NO_GRAD_MODE,))


@wrong("for_new_view")
def inference_is_not_sticky(source, multi_output=False):
    """A mode now always beats the source's meta, INFERENCE_MODE included."""
    previous = source._creation_meta if source._base_tensor is not None else DEFAULT
    new = _meta(source.detach(), multi_output, ("inference", "no_grad", "multi"))
    return previous if new == DEFAULT else new


@wrong("for_new_view")
def the_source_wins(source, multi_output=False):
    """A source's meta always beats the mode now."""
    previous = source._creation_meta if source._base_tensor is not None else DEFAULT
    return previous if previous != DEFAULT else _meta(source, multi_output, ("inference", "no_grad", "multi"))


# --- 08 dense layouts --------------------------------------------------------------------------


@wrong("is_non_overlapping_and_dense")
def contiguous_either_way_round(shape, strides):
    """Dense means contiguous, or contiguous once the dimensions are reversed."""
    contiguous = reftorch._strides.is_contiguous
    return contiguous(shape, strides) or contiguous(tuple(reversed(shape)), tuple(reversed(strides)))


@wrong("is_non_overlapping_and_dense")
def a_size_of_zero_is_a_size(shape, strides):
    """Only size-1 dimensions are skipped; a size of 0 is sorted in with the others."""
    expected = 1
    for d in sorted(range(len(shape)), key=lambda d: (shape[d] == 1, strides[d])):
        if shape[d] == 1:
            return True
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


@wrong("is_non_overlapping_and_dense", told="in 1-D too")
def one_d_needs_stride_one(shape, strides):
    """A 1-D tensor is dense when its stride is 1, whatever its size."""
    if len(shape) == 1:
        return strides[0] == 1
    return reftorch._strides.is_non_overlapping_and_dense(shape, strides)


@wrong("is_non_overlapping_and_dense")
def no_two_elements_share_a_slot(shape, strides):
    """Dense means no slot is shared (gaps allowed)."""
    positions = reftorch._strides.element_positions(shape, strides, 0)
    return len(set(positions)) == len(positions)


@wrong("is_non_overlapping_and_dense", told="overlaps and gaps can balance")
def span_equals_numel(shape, strides):
    """Dense means the elements span exactly numel slots."""
    n = math.prod(shape)
    return n == 0 or 1 + sum((k - 1) * s for k, s in zip(shape, strides)) == n


# --- 09 x.data = new ---------------------------------------------------------------------------


def _point_at(self, new, *names):
    for name in names:
        setattr(self, name, getattr(new, name))


@wrong("set_data")
def forgets_the_offset(self, new):
    """x takes new's memory, size, stride and dtype; its offset stays."""
    _point_at(self, new, "_storage", "_size", "_stride", "_dtype")


@wrong("set_data")
def forgets_the_stride(self, new):
    """x takes new's memory, offset, size and dtype; its stride stays."""
    _point_at(self, new, "_storage", "_storage_offset", "_size", "_dtype")


@wrong("set_data")
def refuses_when_new_requires_grad(self, new):
    """Integer data is refused when new requires grad (not x)."""
    if new.requires_grad and not new._dtype.is_floating_point:
        raise RuntimeError(_core_messages.SET_DATA_NOT_FLOAT)
    _point_at(self, new, "_storage", "_storage_offset", "_size", "_stride", "_dtype")


@wrong("set_data", told="the inference flag too")
def five_fields_only(self, new):
    """x takes new's memory, offset, size, stride and dtype, and stays a normal tensor."""
    if self.requires_grad and not new._dtype.is_floating_point:
        raise RuntimeError(_core_messages.SET_DATA_NOT_FLOAT)
    _point_at(self, new, "_storage", "_storage_offset", "_size", "_stride", "_dtype")


@wrong("set_data")
def stops_requiring_grad(self, new):
    """x takes new's data and, like new, stops requiring grad."""
    reftorch._detach._set_data(self, new)
    self.requires_grad_(False)


# --- 10 the dtype torch.tensor picks -----------------------------------------------------------


def _infer(data, sequences=(list, tuple), tensors_inside=True, numpy_inside=True, bool_first=True):
    found, pending, top = [], [data], True
    while pending:
        item = pending.pop(0)
        if (numpy_inside or top) and (is_scalar(item) or is_array(item)):
            found.append(from_numpy_dtype(item.dtype))
        elif isinstance(item, sequences):
            pending[:0] = item
        elif (tensors_inside or top) and isinstance(item, reftorch.Tensor):
            found.append(item.dtype)
        elif bool_first and isinstance(item, builtins.bool):
            found.append(reftorch.bool)
        elif isinstance(item, int):
            found.append(reftorch.int64)
        elif isinstance(item, builtins.float):
            found.append(get_default_dtype())
        else:
            raise RuntimeError(f"Could not infer dtype of {type(item).__name__}")
        top = False
    return functools.reduce(promote_types, found) if found else get_default_dtype()


@wrong("infer_dtype", told="a tuple is read as a list is")
def lists_only(data):
    """Only a list is a sequence of elements."""
    return _infer(data, sequences=(list,))


@wrong("infer_dtype", told="0-d tensors in a list")
def a_tensor_only_as_the_whole_data(data):
    """A tensor keeps its dtype as the whole data; inside a list it is a number."""
    return _infer(data, tensors_inside=False) if not isinstance(data, list) else _infer(
        [t.item() if isinstance(t, reftorch.Tensor) else t for t in data])


@wrong("infer_dtype", told="a numpy number keeps its own dtype inside a list too")
def numpy_only_as_the_whole_data(data):
    """A numpy number keeps its dtype as the whole data; inside a list it is a Python float."""
    return _infer(data, numpy_inside=False)


@wrong("infer_dtype")
def int_before_bool(data):
    """A bool is an int (isinstance(True, int))."""
    return _infer(data, bool_first=False)


# --- 11 copy_ and overlap ----------------------------------------------------------------------


def _overlap(self, other, dense=lambda s, o: (s, o), touching=False, bytes_per_element=True, same=None):
    if other._storage is not self._storage:
        return
    if not all(_strides.is_non_overlapping_and_dense(t._size, t._stride) for t in dense(self, other)):
        return
    size = (lambda t: t.numel() * t.element_size()) if bytes_per_element else (lambda t: t.numel())
    a, b = (self.data_ptr(), self.data_ptr() + size(self)), (other.data_ptr(), other.data_ptr() + size(other))
    meet = a[0] <= b[1] and b[0] <= a[1] if touching else a[0] < b[1] and b[0] < a[1]
    if meet and (a != b or (same or (lambda s, o: s._stride == o._stride))(self, other) is False):
        raise RuntimeError(_messages.INPLACE_OVERLAP)


@wrong("check_no_partial_overlap", told="even into a dense destination")
def only_the_destination_dense(self, other):
    """torch compares when the destination is dense."""
    _overlap(self, other, dense=lambda s, o: (s,))


@wrong("check_no_partial_overlap")
def touching_ranges_overlap(self, other):
    """Two ranges that meet end to start overlap."""
    _overlap(self, other, touching=True)


@wrong("check_no_partial_overlap")
def counts_elements_not_bytes(self, other):
    """data_ptr() + numel() is where a tensor ends."""
    _overlap(self, other, bytes_per_element=False)


@wrong("check_no_partial_overlap")
def views_of_one_base_clash(self, other):
    """Two views of one base at different places overlap."""
    if other is not self and self._base is not None and self._base is other._base \
            and self.data_ptr() != other.data_ptr():
        raise RuntimeError(_messages.INPLACE_OVERLAP)


@wrong("check_no_partial_overlap")
def same_shape_is_whole(self, other):
    """The same bytes with the same shape are a whole overlap (strides unread)."""
    _overlap(self, other, same=lambda s, o: s._size == o._size)


@wrong("check_no_partial_overlap")
def same_start_is_whole(self, other):
    """Dense tensors that start at the same address overlap in whole, others in part."""
    if other._storage is self._storage and self.data_ptr() != other.data_ptr() and all(
            _strides.is_non_overlapping_and_dense(t._size, t._stride) for t in (self, other)):
        raise RuntimeError(_messages.INPLACE_OVERLAP)


# --- 12 as_tensor ------------------------------------------------------------------------------


@wrong("as_tensor", told="a device with an index")
def ignores_the_device(data, dtype=None, device=None):
    """The device is CPU anyway: only the dtype decides."""
    return reftorch._convert.as_tensor(data, dtype)


@wrong("as_tensor", told="the dtype the tensor already has")
def a_dtype_asked_for_copies(data, dtype=None, device=None):
    """A tensor asked for any dtype is copied."""
    if isinstance(data, reftorch.Tensor) and dtype is not None:
        return to(data, dtype=dtype, copy=True)
    return reftorch._convert.as_tensor(data, dtype, device)


@wrong("as_tensor")
def converts_a_detached_tensor(data, dtype=None, device=None):
    """A converted tensor leaves the graph."""
    if isinstance(data, reftorch.Tensor) and dtype not in (None, data.dtype):
        return to(data.detach(), dtype=dtype)
    return reftorch._convert.as_tensor(data, dtype, device)


@wrong("as_tensor")
def a_list_through_numpy(data, dtype=None, device=None):
    """A list is made a numpy array first, then shared."""
    import numpy as np  # noqa: PLC0415 (chapter 12 has numpy)

    return reftorch._convert.as_tensor(np.array(data) if isinstance(data, list) else data, dtype, device)


@wrong("as_tensor")
def an_array_with_a_dtype_copies(data, dtype=None, device=None):
    """An array with any dtype asked for is copied."""
    if is_array(data) and dtype is not None:
        return from_data(data, dtype, device, False, "torch.as_tensor")
    return reftorch._convert.as_tensor(data, dtype, device)


# --- 13 copy.copy's recipe ---------------------------------------------------------------------


def _recipe(self, **change):
    args = dict(storage=self._typed_storage(), offset=self._storage_offset, size=self._size, stride=self._stride,
                dtype=self._dtype, requires_grad=self.requires_grad, hooks=OrderedDict())
    args.update(change)
    return _rebuild_tensor, tuple(args.values()), self.__dict__ or None


@wrong("reduce_ex")
def offset_zero(self, protocol):
    """The copy starts at the storage's first element."""
    return _recipe(self, offset=0)


@wrong("reduce_ex")
def fresh_strides(self, protocol):
    """The copy gets a fresh tensor's strides."""
    return _recipe(self, stride=_strides.contiguous_strides(self._size))


@wrong("reduce_ex")
def requires_grad_of_leaves_only(self, protocol):
    """Only a leaf's copy requires grad."""
    return _recipe(self, requires_grad=self.is_leaf and self.requires_grad)


@wrong("reduce_ex")
def no_attributes(self, protocol):
    """The attributes stay behind."""
    return _recipe(self)[:2] + (None,)


@wrong("reduce_ex")
def attributes_copied_one_level(self, protocol):
    """Each attribute is copied (copy.copy) into the new tensor."""
    return _recipe(self)[:2] + ({k: copy.copy(v) for k, v in self.__dict__.items()} or None,)


@wrong("reduce_ex")
def the_whole_storage(self, protocol):
    """The copy is the whole storage, as a 1-D tensor."""
    return _recipe(self, size=(self.untyped_storage().nbytes() // self.element_size(),), stride=(1,), offset=0)


# --- 14 torch.save ----------------------------------------------------------------------------


def _entries(tensors, key=lambda t: id(t.untyped_storage())):
    written = {}
    for t in tensors:
        if t.device.type != "meta":
            written.setdefault(key(t), t.untyped_storage().nbytes())
    return list(written.values())


@wrong("storages_written")
def storages_by_address(tensors):
    """Storages are told apart by data_ptr()."""
    return _entries(tensors, key=lambda t: t.untyped_storage().data_ptr())


@wrong("storages_written", told="tell storages apart, not bases")
def one_entry_per_base(tensors):
    """Tensors share an entry when they are views of one base."""
    return _entries(tensors, key=lambda t: id(t if t._base is None else t._base))


@wrong("storages_written", told="(not sorted)")
def entries_sorted(tensors):
    """The entries come smallest first."""
    return sorted(_entries(tensors))


@wrong("storages_written")
def a_meta_tensor_is_written(tensors):
    """A meta tensor's storage is an entry like any other."""
    written = {}
    for t in tensors:
        written.setdefault(id(t.untyped_storage()), t.untyped_storage().nbytes())
    return list(written.values())


# --- 15 state_dict -----------------------------------------------------------------------------


@wrong("state_dict", told="not every parameter of the model first")
def parameters_then_buffers(self, *args, destination=None, prefix="", keep_vars=False):
    """named_parameters(), then named_buffers()."""
    named = list(self.named_parameters()) + list(self.named_buffers())
    return OrderedDict((prefix + n, t if keep_vars else t.detach()) for n, t in named)


@wrong("state_dict", told="keep_vars=True keeps the variables")
def ignores_keep_vars(self, *args, destination=None, prefix="", keep_vars=False):
    """Every entry is a detach()."""
    return reftorch.nn.state_dict.state_dict(self, destination=destination, prefix=prefix)


@wrong("state_dict", told="persistent=False")
def every_buffer(self, *args, destination=None, prefix="", keep_vars=False):
    """Every buffer has an entry, module by module."""
    found = OrderedDict()
    for name, module in self.named_modules():
        for key, t in list(module._parameters.items()) + list(module._buffers.items()):
            if t is not None:
                found[prefix + (name + "." if name else "") + key] = t if keep_vars else t.detach()
    return found


@wrong("state_dict", told="not .data")
def through_data(self, *args, destination=None, prefix="", keep_vars=False):
    """Each entry is param.data."""
    kept = reftorch.nn.state_dict.state_dict(self, destination=destination, prefix=prefix, keep_vars=True)
    return OrderedDict((k, v if keep_vars else v.data) for k, v in kept.items())


@wrong("state_dict")
def views_that_keep_the_graph(self, *args, destination=None, prefix="", keep_vars=False):
    """Each entry is a view of its parameter (view_as)."""
    kept = reftorch.nn.state_dict.state_dict(self, destination=destination, prefix=prefix, keep_vars=True)
    return OrderedDict((k, v if keep_vars else v.view_as(v)) for k, v in kept.items())


# --- 16 load_state_dict(assign=True) -----------------------------------------------------------


@wrong("assign", told="a buffer is not a Parameter")
def wraps_every_tensor(module, name, param, input_param):
    """Whatever it replaces, a plain tensor is wrapped in a Parameter."""
    if not isinstance(input_param, Parameter):
        input_param = Parameter(input_param, requires_grad=param.requires_grad)
    setattr(module, name, input_param)


@wrong("assign", told="is given the old parameter's requires_grad too")
def a_parameter_keeps_its_flag(module, name, param, input_param):
    """A Parameter from the checkpoint keeps its own requires_grad."""
    if isinstance(param, Parameter) and not isinstance(input_param, Parameter):
        input_param = Parameter(input_param, requires_grad=param.requires_grad)
    setattr(module, name, input_param)


@wrong("assign")
def wraps_a_parameter_again(module, name, param, input_param):
    """Every checkpoint tensor is wrapped in a new Parameter."""
    setattr(module, name, Parameter(input_param, requires_grad=param.requires_grad))


@wrong("assign")
def casts_to_the_old_dtype(module, name, param, input_param):
    """The checkpoint's tensor is cast to the parameter's dtype."""
    if not isinstance(input_param, Parameter):
        input_param = Parameter(input_param.to(param.dtype), requires_grad=param.requires_grad)
    setattr(module, name, input_param)


@wrong("assign")
def through_data_assignment(module, name, param, input_param):
    """param.data = input_param is assigning."""
    param.data = input_param


# --- 17 EMA ------------------------------------------------------------------------------------


def _lerp_parameters(ema, model, weight):
    with reftorch.no_grad():
        for averaged, current in zip(ema.parameters(), model.parameters()):
            averaged.lerp_(current, weight)


@wrong("update_ema", told="the average's buffers need their own memory too")
def buffers_aliased(ema, model, weight):
    """The average's buffers may point at the model's (.data =)."""
    _lerp_parameters(ema, model, weight)
    for averaged, current in zip(ema.buffers(), model.buffers()):
        averaged.data = current.data


@wrong("update_ema", told="the average's buffers need their own memory too")
def buffers_put_in_place(ema, model, weight):
    """The model's buffer objects may be put in the average's place."""
    _lerp_parameters(ema, model, weight)
    for (_, mine), (_, theirs) in zip(ema.named_modules(), model.named_modules()):
        for key in list(mine._buffers):
            mine._buffers[key] = theirs._buffers[key]


@wrong("update_ema")
def buffers_averaged_too(ema, model, weight):
    """Floating-point buffers are averaged like the parameters."""
    _lerp_parameters(ema, model, weight)
    with reftorch.no_grad():
        for averaged, current in zip(ema.buffers(), model.buffers()):
            (averaged.lerp_ if averaged.dtype.is_floating_point else averaged.copy_)(
                *((current, weight) if averaged.dtype.is_floating_point else (current,)))


@wrong("update_ema")
def rebinds_the_loop_names(ema, model, weight):
    """averaged = averaged.lerp(...) updates the average."""
    with reftorch.no_grad():
        for averaged, current in zip(ema.parameters(), model.parameters()):
            averaged = averaged.lerp(current, weight)  # noqa: PLW2901 (the belief itself)
        for averaged, current in zip(ema.buffers(), model.buffers()):
            averaged.copy_(current)


@wrong("update_ema")
def moves_the_model(ema, model, weight):
    """The model moves towards the average."""
    with reftorch.no_grad():
        for averaged, current in zip(ema.parameters(), model.parameters()):
            current.lerp_(averaged, 1 - weight)
        for averaged, current in zip(ema.buffers(), model.buffers()):
            averaged.copy_(current)


@wrong("update_ema")
def loads_the_model(ema, model, weight):
    """An EMA step is ema.load_state_dict(model.state_dict())."""
    ema.load_state_dict(model.state_dict())


# --- 18 zero_grad ------------------------------------------------------------------------------


def _each_grad(self, act):
    for group in self.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                act(p)


@wrong("zero_grad")
def zeros_through_data(self, set_to_none=True):
    """p.grad.data.zero_() zeroes the gradient in place."""
    _each_grad(self, lambda p: setattr(p, "grad", None) if set_to_none else p.grad.data.zero_())


@wrong("zero_grad", told="is cut out of the graph")
def zeros_in_the_graph(self, set_to_none=True):
    """p.grad.zero_() is all of set_to_none=False."""
    _each_grad(self, lambda p: setattr(p, "grad", None) if set_to_none else p.grad.zero_())


@wrong("zero_grad", told="is cut out of the graph")
def multiplies_by_zero_under_no_grad(self, set_to_none=True):
    """Multiplying by 0 under no_grad zeroes a gradient that has history."""
    def zero(p):
        with reftorch.no_grad():
            p.grad.mul_(0)
    _each_grad(self, lambda p: setattr(p, "grad", None) if set_to_none else zero(p))


@wrong("zero_grad", told="every parameter of every group")
def the_first_group_only(self, set_to_none=True):
    """self.param_groups[0]["params"] are the optimizer's parameters."""
    for p in self.param_groups[0]["params"]:
        if p.grad is not None:
            p.grad = None if set_to_none else p.grad.detach_().zero_()


@wrong("zero_grad", told="every parameter of every group")
def one_parameter_per_group(self, set_to_none=True):
    """Each group holds one parameter."""
    for group in self.param_groups:
        p = group["params"][0]
        if p.grad is not None:
            p.grad = None if set_to_none else p.grad.detach_().zero_()


@wrong("zero_grad")
def always_none(self, set_to_none=True):
    """Every .grad becomes None, whatever set_to_none says."""
    _each_grad(self, lambda p: setattr(p, "grad", None))


@wrong("zero_grad")
def a_detached_zeroed_grad(self, set_to_none=True):
    """.grad becomes a detached, zeroed alias of itself."""
    _each_grad(self, lambda p: setattr(p, "grad", None if set_to_none else p.grad.detach().zero_()))


# --- 19 shared storages ------------------------------------------------------------------------


def _groups(state_dict, key):
    groups = defaultdict(list)
    for name, tensor in state_dict.items():
        groups[key(tensor)].append(name)
    return [names for names in groups.values() if len(names) > 1]


@wrong("shared_storages")
def by_storage_address(state_dict):
    """Storages are told apart by their data_ptr()."""
    return _groups(state_dict, lambda t: t.untyped_storage().data_ptr())


@wrong("shared_storages")
def groups_sorted(state_dict):
    """Names and groups come sorted."""
    return sorted(sorted(g) for g in _groups(state_dict, lambda t: id(t.untyped_storage())))


@wrong("shared_storages")
def by_base(state_dict):
    """Entries share when they are views of one base."""
    return _groups(state_dict, lambda t: id(t if t._base is None else t._base))


@wrong("shared_storages")
def pairs_not_groups(state_dict):
    """Each pair of sharing names is a group."""
    items = list(state_dict.items())
    return [[a, b] for i, (a, ta) in enumerate(items) for b, tb in items[i + 1:]
            if ta.untyped_storage() is tb.untyped_storage()]


# --- 20 ctx.saved_tensors ----------------------------------------------------------------------


@wrong("saved_tensors")
def drops_the_nones(self):
    """A saved None is left out."""
    return tuple(s.unpack() for s in self._saved_for_backward or () if s is not None)


@wrong("saved_tensors", told="always a tuple")
def a_list(self):
    """saved_tensors is a list."""
    return [None if s is None else s.unpack() for s in self._saved_for_backward or ()]


@wrong("saved_tensors")
def detached(self):
    """Backward reads detached tensors."""
    return tuple(None if s is None else s.unpack().detach() for s in self._saved_for_backward or ())


@wrong("saved_tensors")
def the_saved_objects(self):
    """saved_tensors hands over the SavedTensor objects."""
    return tuple(self._saved_for_backward or ())


# --- 21 basic or advanced ----------------------------------------------------------------------


def _basic(index, integer=numbers.Integral, masks=(reftorch.bool, reftorch.uint8)):
    for part in index if isinstance(index, tuple) else (index,):
        if isinstance(part, bool):
            return False
        if isinstance(part, (integer, slice)) or part is None or part is Ellipsis:
            continue
        if not (isinstance(part, reftorch.Tensor) and part.dim() == 0 and part.dtype not in masks):
            return False
    return True


@wrong("is_basic_index", told="a 0-d bool tensor is a mask")
def a_zero_d_bool_tensor_is_an_int(index):
    """Any 0-d tensor but a uint8 one is read as an integer."""
    return _basic(index, masks=(reftorch.uint8,))


@wrong("is_basic_index")
def ints_by_their_type(index):
    """An int is isinstance(part, int) (a numpy integer is not one)."""
    return _basic(index, integer=int)


@wrong("is_basic_index")
def the_first_part_decides(index):
    """The first part of a tuple decides."""
    return is_basic_index(index[0] if isinstance(index, tuple) else index)


@wrong("is_basic_index")
def a_tuple_is_a_list(index):
    """A tuple in the brackets is a list of indices."""
    return False if isinstance(index, (tuple, list)) else is_basic_index(index)


# --- 22 the four answers -----------------------------------------------------------------------


@wrong("four_answers")
def memory_by_storage_address(a, r):
    """New memory: the storages' data_ptr() differ."""
    found = four_answers(a, r)
    return (found[0], r.untyped_storage().data_ptr() != a.untyped_storage().data_ptr()) + found[2:]


@wrong("four_answers")
def history_is_a_grad_fn(a, r):
    """History kept: r has a grad_fn (a itself has none)."""
    found = four_answers(a, r)
    return found[:2] + (r.grad_fn is not None,) + found[3:]


@wrong("four_answers")
def counter_measured_with_add(a, r):
    """A write of add_(1) through r shows a shared counter."""
    found = four_answers(a, r)
    before = a._version
    r.detach().add_(1)
    return found[:3] + (a._version != before,)


@wrong("four_answers")
def new_object_by_value(a, r):
    """r is a new object when its shape or numbers differ."""
    found = four_answers(a, r)
    return (r.shape != a.shape or r.tolist() != a.tolist(),) + found[1:]


# --- 23 broadcasting ---------------------------------------------------------------------------


@wrong("broadcast_shapes", told="any number of shapes")
def two_shapes(a, b):
    """broadcast_shapes takes two shapes."""
    return reftorch._shapes.broadcast_shapes(a, b)


@wrong("broadcast_shapes", told="any number of shapes")
def the_first_two_shapes(*shapes):
    """The first two shapes decide."""
    return reftorch._shapes.broadcast_shapes(*shapes[:2])


@wrong("broadcast_shapes", told="only a size of 1 stretches")
def zero_wins(*shapes):
    """A size of 0 takes over any other, as a size of 1 gives way to any other."""
    ndim = max(len(s) for s in shapes)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    return tuple(0 if 0 in sizes else reftorch._shapes.broadcast_shapes(*((n,) for n in sizes))[0]
                 for sizes in zip(*padded))


@wrong("broadcast_shapes", told="a list is never equal to a tuple")
def a_list_of_sizes(*shapes):
    """The broadcast shape may come back as a list of sizes."""
    return list(reftorch._shapes.broadcast_shapes(*shapes))


@wrong("broadcast_shapes")
def a_value_error(*shapes):
    """Shapes that cannot broadcast raise ValueError."""
    try:
        return reftorch._shapes.broadcast_shapes(*shapes)
    except RuntimeError as error:
        raise ValueError(str(error)) from None
