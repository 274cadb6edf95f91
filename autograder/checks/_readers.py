"""How a result is read: torch's API for torch, reftorch's own functions for reftorch.

The reftorch side lives with the witness (``autograder.witness.readers``), which
runs where the learner's objects are; the torch side is the judge's.
"""

import reftorch
import torch

from ..witness.readers import NotATensor, ReftorchReader, type_name  # noqa: F401  (re-exported to the checks)

_type = type
_isinstance = isinstance


class TorchReader:
    """Facts about a real torch tensor, through torch's API."""

    module = torch

    @staticmethod
    def is_tensor(obj):
        return _isinstance(obj, torch.Tensor)

    @staticmethod
    def require(obj, parameters=False):
        return obj

    @staticmethod
    def kind(obj):
        return _type(obj).__name__

    size = staticmethod(lambda t: tuple(t.shape))
    stride = staticmethod(lambda t: tuple(t.stride()))
    storage_offset = staticmethod(lambda t: t.storage_offset())
    dtype = staticmethod(lambda t: str(t.dtype))
    device = staticmethod(lambda t: str(t.device))
    requires_grad = staticmethod(lambda t: t.requires_grad)
    is_leaf = staticmethod(lambda t: t.is_leaf)
    is_view = staticmethod(lambda t: t._base is not None)
    values = staticmethod(lambda t: t.tolist())
    numel = staticmethod(lambda t: t.numel())
    version = staticmethod(lambda t: t._version)
    grad = staticmethod(lambda t: t._grad)        # no warning for a non-leaf
    attributes = staticmethod(lambda t: t.__dict__)
    grad_fn = staticmethod(lambda t: t.grad_fn)

    @staticmethod
    def memory(t):
        """What identifies the memory: the address of the storage's first byte."""
        return t.untyped_storage().data_ptr()

    @staticmethod
    def node_name(node):
        return node.name()

    @staticmethod
    def next_functions(node):
        return node.next_functions


def reader(module):
    return ReftorchReader if module is reftorch else TorchReader
