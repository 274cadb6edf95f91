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
square root is exact). A float16 input is computed in float32, as torch's
kernel does: the batch statistics are rounded to the parameters' dtype for
the normalisation (float16, or float32 in a "mixed" call), go unrounded into
float32 running statistics, and the output is rounded to float16 once.
"""

import math

from .. import _messages
from .._binding import tensor
from .._elements import cast
from .._factories import empty, ones, zeros
from .._dtype import compute_dtype, float16, float32, int64, no_kernel
from .._math import true_divide
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node, any_requires_grad
from .module import Module
from .parameter import Parameter


class NativeBatchNormBackward0(Node):
    """Gradients of the normalisation for input, weight and bias, computed in float64."""

    def __init__(self, x, weight, bias, mean, invstd, training):
        super().__init__(x, weight, bias)
        self.x, self.weight, self.bias = x, weight, bias
        self.saved_x = self.save(x)
        self.saved_weight = self.save(weight) if weight is not None else None
        self.mean, self.invstd, self.training = mean, invstd, training  # one number per channel

    def apply(self, grad):
        channel = _channels(self.x)
        g, x = grad._read(), self.saved_x.unpack()._read()
        w = self.saved_weight.unpack()._read() if self.saved_weight else [1.0] * len(self.mean)
        xhat = [(v - self.mean[c]) * self.invstd[c] for v, c in zip(x, channel)]
        g_sum, gx_sum = _per_channel(g, channel, len(self.mean)), _per_channel(
            [a * b for a, b in zip(g, xhat)], channel, len(self.mean))
        n = len(g) // len(self.mean) if self.mean else 0
        if self.training:  # the batch statistics depend on x too
            grad_x = [(a - g_sum[c] / n - h * gx_sum[c] / n) * self.invstd[c] * w[c]
                      for a, h, c in zip(g, xhat, channel)]
        else:
            grad_x = [a * self.invstd[c] * w[c] for a, c in zip(g, channel)]
        wrap = lambda like, v: Tensor._from_values(v, like._size, like._dtype, like.device)  # noqa: E731
        return (
            wrap(self.x, grad_x) if self.needs_input_grad(0) else None,
            wrap(self.weight, gx_sum) if self.needs_input_grad(1) else None,
            wrap(self.bias, g_sum) if self.needs_input_grad(2) else None,
        )


def _channels(x):
    """The channel of each element of ``x`` (N, C) or (N, C, L), in row-major order."""
    inner = x.shape[2] if x.dim() == 3 else 1
    return [(k // inner) % x.shape[1] for k in range(x.numel())]


def _per_channel(values, channel, count):
    """The sum of ``values`` over each channel (in float64)."""
    sums = [0.0] * count
    for v, c in zip(values, channel):
        sums[c] += v
    return sums


def _write(buffer, values):
    """The kernel writes a running statistic in place: same tensor, no version bump (as torch)."""
    buffer._write(values)


def _check_dtypes(x, *parameters):
    """torch's CPU kernel casts nothing: the weight, bias and running statistics have the input's
    dtype, or (a "mixed" call, told by the first of them) are all float32 for a float16 input."""
    if not x.is_floating_point():  # the kernel has no integer or bool version, checked first
        raise no_kernel("batch_norm", x._dtype)
    given = [p._dtype for p in parameters if p is not None]
    if given and given[0] is not x._dtype:
        if any(d is not float32 for d in given):
            raise RuntimeError(_messages.BATCH_NORM_MIXED_NOT_FLOAT)
        if x._dtype is not float16:
            raise RuntimeError(_messages.BATCH_NORM_MIXED_NOT_HALF)
        return
    for d in given:
        if d is not x._dtype:
            raise RuntimeError(f"expected scalar type {x._dtype._short_name} but found {d._short_name}")


def batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):
    """Normalise ``x`` per channel; in training, update the running statistics in place."""
    if x.numel() == 0:  # as torch's kernel: no statistics, nothing written, an output on the graph
        out = x.clone()  # its C++ weight[0] is select(0, 0), with select's IndexError for no channel
        out = out * weight.select(0, 0) if weight is not None else out
        return out + bias.select(0, 0) if bias is not None else out
    if running_mean is not None and running_mean.numel() != x.shape[1]:
        raise RuntimeError(f"running_mean should contain {x.shape[1]} elements not {running_mean.numel()}")
    _check_dtypes(x, weight, bias, running_mean, running_var)
    opmath, channels = compute_dtype(x._dtype), x.shape[1]  # torch's name: float32 for float16
    held = next((p._dtype for p in (weight, bias, running_mean, running_var) if p is not None), x._dtype)
    channel = _channels(x)
    n = x.numel() // channels
    values = x._read()
    if training:  # the statistics in float64, rounded once to opmath, and to the parameters' dtype
        mean64 = [s / n for s in _per_channel(values, channel, channels)]
        var_sum = _per_channel([(v - mean64[c]) ** 2 for v, c in zip(values, channel)], channel, channels)
        batch_mean = cast(mean64, opmath)
        mean = cast(batch_mean, held)
        invstd = cast(cast([true_divide(1, math.sqrt(s / n + eps)) for s in var_sum], opmath), held)
        if running_mean is not None:  # torch accumulates the unbiased variance in float64
            m = cast([momentum], opmath)[0]
            keep = cast([1 - m], opmath)[0]
            moved = cast([a + b for a, b in zip(cast([m * v for v in batch_mean], opmath),
                                                cast([keep * r for r in running_mean._read()], opmath))], opmath)
            _write(running_mean, cast(moved, running_mean._dtype))
            unbiased = cast([true_divide(s, n - 1) for s in cast(var_sum, opmath)], opmath)
            moved = cast([m * u + r for u, r in zip(unbiased, cast([keep * r for r in running_var._read()], opmath))],
                         opmath)
            _write(running_var, cast(moved, running_var._dtype))
    else:
        mean = running_mean._read()
        roots = cast([math.sqrt(v) if v >= 0 else math.nan
                      for v in cast([r + cast([eps], opmath)[0] for r in running_var._read()], opmath)], opmath)
        invstd = cast([true_divide(1, r) for r in roots], opmath)
    alpha = cast([i * w for i, w in zip(invstd, weight._read() if weight is not None else [1] * channels)], opmath)
    shifts = cast([m * a for m, a in zip(mean, alpha)], opmath)
    beta = cast([b - s for b, s in zip(bias._read() if bias is not None else [0] * channels, shifts)], opmath)
    scaled = cast([v * alpha[c] for v, c in zip(values, channel)], opmath)
    out = Tensor._from_values(cast(cast([v + beta[c] for v, c in zip(scaled, channel)], opmath), x._dtype),
                              x._size, x._dtype, x.device)
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
        if use_batch_stats and x.shape[0] * (x.shape[2] if x.dim() == 3 else 1) == 1:
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
