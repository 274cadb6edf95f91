"""reftorch.autograd: grad mode, the graph, and the backward pass.

Read ``graph`` (nodes, edges, saved tensors, ``AccumulateGrad``), then
``variable`` (``requires_grad``, ``grad_fn``, ``is_leaf`` on a tensor),
``engine`` (the backward pass) and ``functional_api`` (``backward``,
``grad``). ``grad_mode``, ``inference_mode`` and ``creation_meta`` are the
modes; ``hooks`` is ``register_hook``; ``function`` is ``torch.autograd.Function``,
an operation whose backward you write yourself.
"""

from . import graph
from .function import Function
from .functional_api import backward, grad
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .inference_mode import inference_mode

__all__ = ["Function", "backward", "grad", "graph", "enable_grad", "is_grad_enabled", "no_grad", "set_grad_enabled",
           "inference_mode"]
