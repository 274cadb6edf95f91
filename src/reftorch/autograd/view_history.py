"""A view's history: how the view was made (its creation meta) decides whether it may be written
in place (``check_view_write``); after a write through its base or another view, its ``grad_fn``
is renewed when next needed, as in torch. Only the graph changes.
"""

import re

from .. import _core_messages, _strides
from .._tensor import Tensor
from .graph import Node

# A view's creation meta (``autograd/creation_meta`` says which one a new view gets; a custom
# Function marks a view it returns, ``autograd/function``).
DEFAULT = "DEFAULT"
NO_GRAD_MODE = "NO_GRAD_MODE"
INFERENCE_MODE = "INFERENCE_MODE"
MULTI_OUTPUT_NODE = "MULTI_OUTPUT_NODE"
IN_CUSTOM_FUNCTION = "IN_CUSTOM_FUNCTION"


class AsStridedBackward0(Node):
    """A renewed view's node, straight to its base, as torch's ``as_strided_backward``: the gradient is
    summed into a zeroed buffer from the lower offset (one write), divided where the base may read a slot
    twice (another); the base's gradient is a view of the buffer in the base's layout."""

    def __init__(self, base, view_geometry):
        super().__init__(base)
        self.base_geometry, self.view_geometry = base._geometry(), view_geometry

    def apply(self, grad):
        (size, stride, offset), (view_size, view_stride, view_offset) = self.base_geometry, self.view_geometry
        if 0 in size + view_size:  # no buffer: torch's zeros, written once
            zeros = Tensor._from_values(0, size, grad._dtype, grad.device)
            zeros._version_counter.bump()
            return (zeros,)
        shared = min(offset, view_offset)
        reads = _strides.element_positions(size, stride, offset - shared)
        writes = _strides.element_positions(view_size, view_stride, view_offset - shared)
        sums = [0] * (1 + max(reads + writes))
        for slot, value in zip(writes, grad._read()):
            sums[slot] += value
        buffer = Tensor._from_values(sums, (len(sums),), grad._dtype, grad.device)
        buffer._version_counter.bump()
        reach, may_overlap = 0, False  # torch's _maybe_overlapping_memory: each stride must pass the smaller dims' reach
        for step, n in sorted((s, n) for n, s in zip(size, stride) if n != 1):
            may_overlap, reach = may_overlap or step <= reach, reach + step * (n - 1)
        if may_overlap:
            buffer._write([v / reads.count(i) if i in reads else v for i, v in enumerate(buffer._read())])
            buffer._version_counter.bump()
        base_grad = Tensor._make(buffer._storage, offset - shared, size, stride, grad._dtype, buffer._version_counter)
        base_grad._base_tensor = buffer  # a view of the buffer, as torch's as_strided of it
        return (base_grad,)


def rebuild_view_grad_fn(view):
    """Give ``view`` a fresh node (or torch's error) if its memory was written since it last saw it."""
    base = view._base_tensor
    if base is None or (view._grad_fn is None and not base.requires_grad):
        return
    if view._view_version != view._version:
        check_view_write(view, indirect=True)
        view._set_grad_fn(AsStridedBackward0(base, view._geometry()) if base.requires_grad else None)


def forward_op_name(node):
    """``SliceBackward0`` -> ``Slice``: the operation a node came from, as messages name it."""
    return re.sub(r"Backward\d*$", "", node.name())


def check_view_write(view, indirect):
    """Raise torch's error if ``view`` may not be written in place (``indirect``: it was, through
    another alias, noticed now)."""
    meta = view._creation_meta
    if meta == DEFAULT:
        return
    node = view._grad_fn
    modified = _core_messages.VIEW_MODIFIED_INDIRECTLY if indirect else _core_messages.VIEW_MODIFIED
    if meta in (NO_GRAD_MODE, INFERENCE_MODE) or node is None:
        if node is None:
            who = "A view was created in"
        else:
            who = (f"Output {view._output_nr} of {forward_op_name(node)} is a view of a view "
                   "which was created in")
        template = (_core_messages.VIEW_CREATED_IN_INFERENCE if meta == INFERENCE_MODE
                    else _core_messages.VIEW_CREATED_IN_NO_GRAD)
        message = template.format(who=who, modified=modified)
    else:
        message = _core_messages.VIEW_OF_MULTI_OUTPUT.format(
            output_nr=view._output_nr, op=forward_op_name(node), modified=modified)
    if meta == MULTI_OUTPUT_NODE:
        message += _core_messages.MULTI_OUTPUT_HINT
    elif meta == NO_GRAD_MODE:
        message += _core_messages.MOVE_BOTH.format(block="no_grad")
    elif meta == IN_CUSTOM_FUNCTION:
        message += _core_messages.CUSTOM_FUNCTION_HINT
    else:
        message += _core_messages.MOVE_BOTH.format(block="inference_mode")
    raise RuntimeError(message)
