"""The inference-mode switch: one flag that tensors read when they are made.

``Tensor._make`` asks whether inference mode is on: a tensor made inside it is
an inference tensor, with no version counter. The flag lives below the tensor,
as torch keeps it in c10 (``c10::InferenceMode``), so ``_tensor`` reads it
without importing autograd; ``autograd/inference_mode`` switches it.

Nothing here touches tensors, memory or the graph.
"""

_enabled = False


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (and not inside ``inference_mode(False)``)."""
    return _enabled


def _set_enabled(mode):
    global _enabled
    _enabled = bool(mode)
