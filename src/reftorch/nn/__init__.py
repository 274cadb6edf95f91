"""reftorch.nn: enough of torch.nn to build, copy, save and convert a small model.

Read ``module`` first (where parameters, buffers and children live), then
``state_dict`` (saving and loading by name) and ``conversion`` (``to``,
``double``, ``cuda``: new memory, same Parameter objects).
"""

from .batchnorm import BatchNorm1d
from .container import Sequential
from .linear import Linear
from .module import Module
from .parameter import Parameter

__all__ = ["BatchNorm1d", "Linear", "Module", "Parameter", "Sequential"]
