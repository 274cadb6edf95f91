"""reftorch.autograd: grad mode, the graph, and the backward pass."""

from . import graph
from .functional_api import backward, grad
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .inference_mode import inference_mode

__all__ = ["backward", "grad", "graph", "enable_grad", "is_grad_enabled", "no_grad", "set_grad_enabled",
           "inference_mode"]
