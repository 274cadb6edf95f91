"""Creation meta: how a view was made decides whether it may be written in place.

Writing a view in place while autograd records rewrites its base's history
(``CopySlices``). Torch can only do that for a view it has recorded properly,
so every view remembers how it was made:

* ``DEFAULT``: in grad mode, by a single-output view op (``a[0]``, ``t()``).
* ``NO_GRAD_MODE``: under ``no_grad``. The view has no node leading to its
  base, so a tracked write is ambiguous: forbidden.
* ``INFERENCE_MODE``: inside ``inference_mode`` (a view of a normal tensor).
  Forbidden for the same reason.
* ``MULTI_OUTPUT_NODE``: one output of ``split``, ``chunk`` or ``unbind``. The
  outputs share one node, which cannot be rewritten for one of them: forbidden.

A view of a view inherits its source's meta, unless it is made under
``no_grad``/``inference_mode`` itself (``INFERENCE_MODE`` always sticks).
Torch checks directly, when the view itself is written while autograd
records (``check_inplace``), and indirectly, when the view's ``grad_fn`` (or
``is_leaf``, or its printing) is read after a write through another alias
and its base requires grad.
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
    """The creation meta of a view of ``source`` made now."""
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
    """Raise torch's error if ``view`` may not be (or have been) written in place.

    ``indirect``: the write went through the base or another view, and is
    only noticed now, when the view's ``grad_fn`` is needed.
    """
    meta = view._creation_meta
    if meta == DEFAULT:
        return
    node = view._grad_fn  # the node recorded when the view was made, if any
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
