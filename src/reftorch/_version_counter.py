"""The version counter: how autograd notices that memory was overwritten.

Every in-place operation (``add_``, ``copy_``, ``t[0] = 1``, ``+=``...) adds one
to the counter of the tensor it writes to. The counter is *shared* by a
tensor, its views and its ``detach()``, which see the same memory;
``clone()``, ``.data`` and ``copy.copy`` start a new one. Autograd writes
down the value when it saves a tensor, and backward raises if it changed:
an alias with its own counter (``.data``) bypasses that safety net.

A tensor made inside ``inference_mode`` has no counter (``None``).
``plain_kernel_writes`` counts the writes torch's kernel makes while it
builds a result from inference tensors.
"""

from ._core_messages import INFERENCE_INPLACE
from ._inference_state import is_inference_mode_enabled
from ._overrides import overridable


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
bump = overridable(bump)


def plain_kernel_writes(result, inputs, writes=1):
    """Count the in-place writes torch's plain kernel made while building ``result``.

    ``clone()`` is ``empty_like`` plus ``copy_``; ``sum`` and ``mean`` fill their
    output. For a normal input those writes happen below the version-counting
    layer (version 0). Outside inference mode, when every tensor among
    ``inputs`` is an inference tensor, torch runs the plain kernel directly,
    the result is a normal tensor, and those inner writes count."""
    if is_inference_mode_enabled() or not all(getattr(t, "_inference", True) for t in inputs):
        return result
    for _ in range(writes):
        result._version_counter.bump()
    return result
