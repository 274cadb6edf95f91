"""nn.Linear: ``y = x @ weight.T + bias``, with weights drawn like torch's.

The weights are uniform in ``[-1/sqrt(in_features), 1/sqrt(in_features)]``
(reftorch's random numbers, not torch's).
"""

import math

from .. import _messages, _random
from .._factories import empty
from .._elements import cast
from .._math import sum_to_shape, values_of
from .._matmul import _mm, _products, column_major, product_grad
from .._tensor import Tensor
from ..autograd.graph import Node, any_requires_grad
from .module import Module
from .parameter import Parameter


class AddmmBackward0(Node):
    """``bias + x @ w``: the node torch records for a Linear layer on a batch."""

    def __init__(self, bias, x, w):
        super().__init__(bias, x, w)
        self.bias, self.x, self.w = bias, x, w
        self.layouts = (column_major(x), column_major(w))
        self.saved_x = self.save(x) if self.needs_input_grad(2) else None
        self.saved_w = self.save(w) if self.needs_input_grad(1) else None

    def apply(self, grad):
        bias = self.bias
        return (
            Tensor._from_values(sum_to_shape(grad._read(), grad._size, bias._size), bias._size, bias._dtype,
                                bias.device)
            if self.needs_input_grad(0) else None,
            product_grad(_mm(grad, self.saved_w.unpack().t()), self.x, self.layouts[0]) if self.saved_w else None,
            product_grad(_mm(self.saved_x.unpack().t(), grad), self.w, self.layouts[1]) if self.saved_x else None,
        )


def _check_linear(x, weight, bias):
    """torch's refusals, in its order: not a tensor, 0-d, dtypes, then sizes."""
    if not isinstance(x, Tensor):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='linear', name='input', position=1, expected='Tensor', got=type(x).__name__
        ))
    if x.dim() == 0:
        raise RuntimeError(_messages.LINEAR_0D.format(weight.dim()))
    if x.dtype is not weight.dtype:
        if bias is None and x.dim() >= 2:
            raise RuntimeError(
                "expected m1 and m2 to have the same dtype, but got: "
                f"{_messages.CPP_TYPE_NAMES[x.dtype._name]} != {_messages.CPP_TYPE_NAMES[weight.dtype._name]}"
            )
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {x.dtype._short_name} and {weight.dtype._short_name}"
        )
    if x.shape[-1] != weight.shape[1]:
        rows = x.numel() // x.shape[-1] if x.shape[-1] else math.prod(x.shape[:-1])
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{x.shape[-1]} and {weight.shape[1]}x{weight.shape[0]})"
        )


def linear(x, weight, bias=None):
    _check_linear(x, weight, bias)
    if bias is None:
        return x @ weight.t()
    if x.dim() != 2:  # torch flattens the batch dimensions to one, and views the result back
        flat = linear(x.reshape(-1, x.shape[-1]), weight, bias)
        return flat.view(*x.shape[:-1], weight.shape[0])
    w = weight.t()
    (rows, inner), columns = x._size, w._size[1]
    products = cast(_products(x._read(), w._read(), rows, inner, columns), x._dtype)  # rounded, then + bias
    values = [p + b for p, b in zip(products, values_of(bias, x._dtype, (rows, columns)))]
    out = Tensor._from_values(values, (rows, columns), x._dtype, x.device)
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
