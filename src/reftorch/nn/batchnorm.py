"""nn.BatchNorm1d: normalise each channel, and keep running statistics in buffers.

For an input of shape ``(N, C)`` or ``(N, C, L)``, each of the ``C`` channels is
shifted and scaled: ``(x - mean) / sqrt(var + eps) * weight + bias``.

* **In training mode** (``model.train()``, the default) ``mean`` and ``var`` are
  the batch's own (``var`` divides by ``n``). The forward pass also *writes*
  into three buffers, in place: ``running_mean`` and ``running_var`` move a
  fraction ``momentum`` towards the batch's mean and *unbiased* variance
  (divided by ``n - 1``), and ``num_batches_tracked`` goes up by one
  (``add_(1)``, which bumps its version counter). The running statistics are
  written by the kernel itself, as torch's is: same tensors, same storage, new
  numbers, and *no* version bump. A forward pass under ``no_grad`` still
  writes: it is the mode, not autograd, that decides.
* **In eval mode** (``model.eval()``) the running statistics are used and
  nothing is written.

``weight`` and ``bias`` are Parameters (``affine=True``); the running
statistics are buffers, so they are in ``state_dict()`` but not in
``parameters()``, and an optimizer never touches them.

The numbers follow torch's formulas as written, each operation rounded:
``out = x * alpha + beta`` with ``alpha = invstd * weight`` and
``beta = bias - mean * alpha``. Some CPUs' kernels round a multiply and an
add once (a fused multiply-add), and torch's batch sums run in an order it
does not promise, so the last bit of a result can differ from torch's unless
the numbers are exact (small multiples of powers of two, a variance whose
square root is exact).
"""

import numpy as np

from .. import _messages
from .._binding import tensor
from .._factories import empty, ones, zeros
from .._dtype import int64
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node, any_requires_grad
from .module import Module
from .parameter import Parameter


class NativeBatchNormBackward0(Node):
    """Gradients of the normalisation for input, weight and bias."""

    def __init__(self, x, weight, bias, mean, invstd, training):
        super().__init__(x, weight, bias)
        self.x, self.weight, self.bias = x, weight, bias
        self.saved_x = self.save(x)
        self.saved_weight = self.save(weight) if weight is not None else None
        self.mean, self.invstd, self.training = mean, invstd, training

    def apply(self, grad):
        shape = _channel_shape(self.x)
        axes = _reduced_axes(self.x)
        g = grad._elements().astype(np.float64)
        x = self.saved_x.unpack()._elements().astype(np.float64)
        invstd = self.invstd.astype(np.float64).reshape(shape)
        xhat = (x - self.mean.astype(np.float64).reshape(shape)) * invstd
        w = self.saved_weight.unpack()._elements().astype(np.float64).reshape(shape) if self.saved_weight else 1.0
        if self.training:  # the batch statistics depend on x too
            grad_x = (g - g.mean(axis=axes, keepdims=True) - xhat * (g * xhat).mean(axis=axes, keepdims=True)) * invstd * w
        else:
            grad_x = g * invstd * w
        wrap = lambda like, v: Tensor._from_values(v, like._dtype, like.device)  # noqa: E731
        return (
            wrap(self.x, grad_x) if self.needs_input_grad(0) else None,
            wrap(self.weight, (g * xhat).sum(axis=axes)) if self.needs_input_grad(1) else None,
            wrap(self.bias, g.sum(axis=axes)) if self.needs_input_grad(2) else None,
        )


def _reduced_axes(x):
    return (0, 2) if x.dim() == 3 else (0,)


def _channel_shape(x):
    return (1, -1, 1) if x.dim() == 3 else (1, -1)


def _write(buffer, values):
    """The kernel writes a running statistic in place: same tensor, no version bump (as torch)."""
    buffer._elements()[...] = values


def batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):
    """Normalise ``x`` per channel; in training, update the running statistics in place."""
    if running_mean is not None and running_mean.numel() != x.shape[1]:
        raise RuntimeError(f"running_mean should contain {x.shape[1]} elements not {running_mean.numel()}")
    dtype = x._dtype._numpy_type.type
    shape, axes = _channel_shape(x), _reduced_axes(x)
    n = x.numel() // x.shape[1]
    if training:
        values = x._elements().astype(np.float64)
        mean64 = values.sum(axis=axes) / n
        var_sum = ((values - mean64.reshape(shape)) ** 2).sum(axis=axes)
        mean = mean64.astype(dtype)
        invstd = (1 / np.sqrt(var_sum / n + eps)).astype(dtype)
        if running_mean is not None:  # torch accumulates the unbiased variance in float64
            m = dtype(momentum)
            _write(running_mean, m * mean + (1 - m) * running_mean._elements())
            unbiased = var_sum.astype(dtype) / dtype(n - 1)
            _write(running_var, m * unbiased.astype(np.float64) + (1 - m) * running_var._elements())
    else:
        mean = running_mean._elements().copy()
        invstd = dtype(1) / np.sqrt(running_var._elements() + dtype(eps))
    alpha = invstd * (weight._elements() if weight is not None else dtype(1))
    beta = (bias._elements() if bias is not None else dtype(0)) - mean * alpha
    out = Tensor._from_values(x._elements() * alpha.reshape(shape) + beta.reshape(shape), x._dtype, x.device)
    if any_requires_grad(x, weight, bias):
        out._set_grad_fn(NativeBatchNormBackward0(x, weight, bias, mean, invstd, training))
    return out


class BatchNorm1d(Module):
    _version = 2  # state_dicts from version 1 had no num_batches_tracked

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(empty(num_features, dtype=dtype, device=device))
            if bias:
                self.bias = Parameter(empty(num_features, dtype=dtype, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=dtype, device=device))
            self.register_buffer("running_var", ones(num_features, dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", tensor(0, dtype=int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        """Back to mean 0, variance 1, no batches: written in place (each version + 1)."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            with no_grad():
                self.weight.fill_(1)
                if self.bias is not None:
                    self.bias.zero_()

    def forward(self, x):
        if x.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {x.dim()}D input)")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a plain average over all batches seen so far
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        if use_batch_stats and x.numel() // x.shape[1] == 1:
            raise ValueError(_messages.BATCH_NORM_ONE_VALUE.format(size=x.shape))
        if use_batch_stats and self.eps <= 0.0:
            raise ValueError(f"batch_norm eps must be positive during training, but got {self.eps}")
        if self.eps < 0.0:
            raise ValueError(f"batch_norm eps must be non-negative, but got {self.eps}")
        keep = not self.training or self.track_running_stats
        return batch_norm(x, self.running_mean if keep else None, self.running_var if keep else None,
                          self.weight, self.bias, use_batch_stats, factor, self.eps)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, *args):
        """A checkpoint without a format version may lack ``num_batches_tracked``: keep ours."""
        if local_metadata.get("version") is None and self.track_running_stats:
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = self.num_batches_tracked
        super()._load_from_state_dict(state_dict, prefix, local_metadata, *args)

    def extra_repr(self):
        return (
            _messages.BATCH_NORM_REPR.format(
                num_features=self.num_features, eps=self.eps, momentum=self.momentum, affine=self.affine,
                bias=self.bias is not None, track_running_stats=self.track_running_stats,
            )
        )
