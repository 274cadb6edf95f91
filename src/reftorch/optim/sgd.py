"""SGD: ``param -= lr * grad``, with momentum, dampening, Nesterov and weight decay.

For each parameter with a gradient, in torch's order (its single-tensor
implementation, the one that runs on a CPU):

1. ``grad = -grad`` if ``maximize``;
2. ``grad = grad + weight_decay * param`` (a new tensor: ``.grad`` is untouched);
3. with momentum, the *momentum buffer* ``buf``: at the first step a clone of
   ``grad`` (new memory); afterwards ``buf.mul_(momentum).add_(grad, alpha=1 - dampening)``,
   in place (same tensor, version + 2). Then ``grad = grad + momentum * buf``
   with Nesterov, otherwise ``grad = buf``;
4. ``param.add_(grad, alpha=-lr)``: in place, under ``no_grad``, version + 1.

The buffer lives in ``optimizer.state[param]["momentum_buffer"]``, and
``state_dict()`` hands out that very tensor, not a copy.

``add_(x, alpha=a)`` rounds ``a * x`` and then the sum, as torch documents it;
torch's vectorised CPU kernels may round the two once (``_math.binary_values``),
so the last bit of a parameter can differ from torch's unless ``a * x`` is exact.
"""

from .._tensor import Tensor
from .optimizer import Optimizer, check_supported


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
            "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
            "differentiable": differentiable, "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        check_supported("SGD", differentiable=differentiable, fused=fused)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def _update_group(self, group):
        """As torch: every momentum buffer is read before the first update and stored after the
        last, so a parameter listed twice gets both updates from the state it had before the step."""
        params = [p for p in group["params"] if p.grad is not None]
        states = [dict(self.state[p]) if group["momentum"] != 0 else None for p in params]
        for param, state in zip(params, states):
            _sgd_update(param, state, group)
        for param, state in zip(params, states):
            if state is not None:
                self.state[param]["momentum_buffer"] = state["momentum_buffer"]


def _sgd_update(param, state, group):
    """One parameter's update, line by line as torch's ``_single_tensor_sgd``."""
    lr, momentum, weight_decay = float(group["lr"]), group["momentum"], group["weight_decay"]
    grad = param.grad if not group["maximize"] else -param.grad
    if weight_decay != 0:
        grad = grad.add(param, alpha=weight_decay)
    if momentum != 0:
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = grad.detach().clone()
            state["momentum_buffer"] = buf
        else:
            buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
        grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
    param.add_(grad, alpha=-lr)
