"""The version counter: how autograd notices that memory was overwritten.

Every in-place write adds one to the counter, which a tensor shares with its views
and ``detach()``; ``clone()``, ``.data`` and ``copy.copy`` start a new one. Autograd
notes the value when it saves a tensor, and backward raises if it changed.
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
    """Count one in-place write into ``tensor``'s memory (unless torch does not)."""
    if write_is_counted(tensor):
        tensor._version_counter.bump()
bump = overridable(bump)
