"""Creation meta: how a view was made decides whether it may be written in place.

A tracked write into a view rewrites its base's history (``CopySlices``), which
only a view made by a single-output op in grad mode (``DEFAULT``) allows. A view
made under ``no_grad`` or ``inference_mode`` has no node to its base, and the
outputs of ``split`` share one node: writing them is forbidden, with torch's error.
"""

import re

from .. import _core_messages, _overrides
from .grad_mode import is_grad_enabled
from .._torch_bookkeeping import is_inference_mode_enabled

DEFAULT = "DEFAULT"
NO_GRAD_MODE = "NO_GRAD_MODE"
INFERENCE_MODE = "INFERENCE_MODE"
MULTI_OUTPUT_NODE = "MULTI_OUTPUT_NODE"


def for_new_view(source, multi_output=False):
    """The creation meta of a view of ``source`` made now (``INFERENCE_MODE`` sticks)."""
    if is_inference_mode_enabled():
        new = INFERENCE_MODE
    elif not is_grad_enabled():
        new = NO_GRAD_MODE
    elif multi_output:
        new = MULTI_OUTPUT_NODE
    else:
        new = DEFAULT
    previous = source._creation_meta if source._base_tensor is not None else DEFAULT
    if new == DEFAULT or previous == INFERENCE_MODE:
        return previous
    return new
for_new_view = _overrides.overridable(for_new_view)


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
    else:
        message += _core_messages.MOVE_BOTH.format(block="inference_mode")
    raise RuntimeError(message)
