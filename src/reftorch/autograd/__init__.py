"""reftorch.autograd: grad mode, the graph, and the backward pass."""

from . import graph
from .functional_api import backward, grad
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled

__all__ = ["backward", "grad", "graph", "enable_grad", "is_grad_enabled", "no_grad", "set_grad_enabled"]
