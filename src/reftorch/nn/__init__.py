"""reftorch.nn: just enough of torch.nn to copy a model."""

from .linear import Linear
from .module import Module
from .parameter import Parameter

__all__ = ["Linear", "Module", "Parameter"]
