"""The version counter: how autograd notices that memory was overwritten.

Every in-place operation (``add_``, ``copy_``, ``t[0] = 1``, ``+=``...) adds one
to the counter of the tensor it writes to. The counter is *shared* by a
tensor, its views and its ``detach()``, which see the same memory;
``clone()``, ``.data`` and ``copy.copy`` start a new one. Autograd writes
down the value when it saves a tensor, and backward raises if it changed:
an alias with its own counter (``.data``) bypasses that safety net.

A tensor made inside ``inference_mode`` has no counter (``None``): torch's
rules for it are in ``_torch_bookkeeping``.
"""

from ._overrides import overridable
from ._torch_bookkeeping import write_is_counted


class VersionCounter:
    """A shared, mutable integer. Tensors hold a reference to one."""

    def __init__(self, version=0):
        self.version = version

    def bump(self):
        self.version += 1


def bump(tensor):
    """Count one in-place write into ``tensor``'s memory (inference tensors: ``write_is_counted``)."""
    if write_is_counted(tensor):
        tensor._version_counter.bump()
bump = overridable(bump)
