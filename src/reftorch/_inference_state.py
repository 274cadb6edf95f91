"""The inference-mode switch: one flag that tensors read when they are made.

``Tensor._make`` asks whether inference mode is on: a tensor made inside it is
an inference tensor, with no version counter. The flag lives here, below the
tensor, as torch keeps it in c10 (``c10::InferenceMode``) under ``TensorImpl``;
``autograd/inference_mode`` is the context manager that switches it. Keeping
it here lets ``_tensor`` and ``_version_counter`` read it without importing
autograd, which is built on top of them.

Nothing here touches tensors, memory or the graph.
"""

_enabled = False


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (and not inside ``inference_mode(False)``)."""
    return _enabled


def _set_enabled(mode):
    global _enabled
    _enabled = bool(mode)
