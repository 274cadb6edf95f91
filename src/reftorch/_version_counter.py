"""The version counter: how autograd notices that memory was overwritten.

Every in-place operation (``add_``, ``copy_``, ``t[0] = 1``, ``+=``...) adds one
to the counter of the tensor it writes to. The counter object is *shared* by a
tensor, its views and its ``detach()``: they see the same memory, so a write
through any of them must be visible to all. ``clone()``, ``.data`` and
``copy.copy`` start a new counter.

When autograd saves a tensor for backward it also writes down the counter's
value. If the value has changed by the time backward needs the tensor, the
saved numbers are stale and backward raises instead of computing a wrong
gradient. That is the whole safety net: an alias with its own counter
(``.data``) bypasses it.

A tensor made inside ``inference_mode`` has no counter at all (``None``):
see ``autograd.inference_mode``.
"""

from ._messages import INFERENCE_INPLACE
from ._inference_state import is_inference_mode_enabled


class VersionCounter:
    """A shared, mutable integer. Tensors hold a reference to one."""

    def __init__(self, version=0):
        self.version = version

    def bump(self):
        self.version += 1


def bump(tensor):
    """Count one in-place write into ``tensor``'s memory.

    Inside ``inference_mode`` writes into inference tensors are not counted.
    Outside it, an inference tensor made in the mode has no counter, and
    torch refuses the write right here, where the counter would be bumped:
    the numbers have already been written.
    """
    if tensor._inference and is_inference_mode_enabled():
        return
    if tensor._version_counter is None:
        raise RuntimeError(INFERENCE_INPLACE)
    tensor._version_counter.bump()
