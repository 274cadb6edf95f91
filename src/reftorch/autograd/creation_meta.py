"""Creation meta: how a view was made decides whether it may be written in place.

A tracked write into a view rewrites its base's history (``CopySlices``), which
only a view made by a single-output op in grad mode (``DEFAULT``) allows. A view
made under ``no_grad`` or ``inference_mode`` has no node to its base, and the
outputs of ``split`` share one node: writing them is forbidden, with torch's error
(``view_history.check_view_write``, next to the other rules for writing into a view).
"""

from .. import _overrides
from .grad_mode import is_grad_enabled
from .view_history import DEFAULT, INFERENCE_MODE, MULTI_OUTPUT_NODE, NO_GRAD_MODE
from .view_history import check_view_write  # noqa: F401  (chapter 07 shows it by this name)
from .._torch_bookkeeping import is_inference_mode_enabled


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
