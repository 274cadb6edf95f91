"""nn.Linear: ``y = x @ weight.T + bias``, with weights drawn like torch's.

The weights are uniform in ``[-1/sqrt(in_features), 1/sqrt(in_features)]``
(reftorch's random numbers, not torch's).
"""

import math

from .. import _random
from .._creation import empty
from .._tensor import Tensor
from ..autograd.graph import Node, any_requires_grad
from .module import Module
from .parameter import Parameter


class AddmmBackward0(Node):
    """``bias + x @ w``: the node torch records for a Linear layer on a batch."""

    def __init__(self, bias, x, w):
        super().__init__(bias, x, w)
        self.bias, self.x, self.w = bias, x, w
        self.saved_x = self.save(x) if self.needs_input_grad(2) else None
        self.saved_w = self.save(w) if self.needs_input_grad(1) else None

    def apply(self, grad):
        from .._math import sum_to_shape

        g = grad._values()
        wrap = lambda like, v: Tensor._from_values(v, like._dtype, like.device)  # noqa: E731
        return (
            wrap(self.bias, sum_to_shape(g, self.bias._size)) if self.needs_input_grad(0) else None,
            wrap(self.x, g @ self.saved_w.unpack()._values().T) if self.saved_w else None,
            wrap(self.w, self.saved_x.unpack()._values().T @ g) if self.saved_x else None,
        )


def linear(x, weight, bias=None):
    if bias is None:
        return x @ weight.t()
    if x.dim() == 1:
        return linear(x.unsqueeze(0), weight, bias).view(weight.shape[0])
    w = weight.t()
    values = bias._values() + x._values() @ w._values()
    out = Tensor._from_values(values, x._dtype, x.device)
    if any_requires_grad(bias, x, w):
        out._set_grad_fn(AddmmBackward0(bias, x, w))
    return out


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1 / math.sqrt(in_features) if in_features else 0
        self.weight = Parameter(_random.uniform_(empty(out_features, in_features, dtype=dtype, device=device), -bound, bound))
        if bias:
            self.bias = Parameter(_random.uniform_(empty(out_features, dtype=dtype, device=device), -bound, bound))
        else:
            self.register_parameter("bias", None)

    def forward(self, x):
        return linear(x, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
