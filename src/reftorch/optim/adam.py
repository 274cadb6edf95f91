"""Adam: a step scaled by running averages of the gradient and of its square.

``optimizer.state[param]`` holds, from the first step that sees a gradient:

* ``step``: a 0-d float32 tensor on the cpu counting the steps (``step += 1``, in place);
* ``exp_avg``: the first moment, ``exp_avg.lerp_(grad, 1 - beta1)``;
* ``exp_avg_sq``: the second moment, ``exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)``;
* ``max_exp_avg_sq`` with ``amsgrad``: the largest second moment so far.

Each is updated in place (same tensor, same storage, version bumps), and
``state_dict()`` hands out these very tensors. The step itself, in torch's
order (its single-tensor implementation, the one that runs on a CPU)::

    bias_correction1 = 1 - beta1 ** step          # Python floats
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    denom = (exp_avg_sq.sqrt() / bias_correction2 ** 0.5).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-step_size)

torch's CPU square root is not always correctly rounded (see ``_unary.sqrt``),
so the last bit of a parameter can differ from torch's for some gradients.
"""

from .._binding import tensor
from .._factories import zeros_like
from .._dtype import get_default_dtype
from .._tensor import Tensor
from .optimizer import Optimizer, check_supported


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not all(isinstance(b, float) for b in betas) and not all(isinstance(b, Tensor) for b in betas):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "differentiable": differentiable, "fused": fused, "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)
        check_supported("Adam", capturable=capturable, differentiable=differentiable, fused=fused)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("amsgrad", False), ("maximize", False), ("foreach", None), ("capturable", False),
                                 ("differentiable", False), ("decoupled_weight_decay", False), ("fused", None)):
                group.setdefault(key, default)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not isinstance(p_state["step"], Tensor):
                    p_state["step"] = tensor(float(p_state["step"]), dtype=get_default_dtype())

    def _update(self, param, group):
        _adam_update(param, self.state[param], group)


def _init_state(state, param, amsgrad):
    """The first step: a step counter and zero moments shaped like the parameter (new memory)."""
    state["step"] = tensor(0.0, dtype=get_default_dtype())  # float32 unless the default is float64
    state["exp_avg"] = zeros_like(param)
    state["exp_avg_sq"] = zeros_like(param)
    if amsgrad:
        state["max_exp_avg_sq"] = zeros_like(param)


def _adam_update(param, state, group):
    """One parameter's update, line by line as torch's ``_single_tensor_adam``."""
    if len(state) == 0:
        _init_state(state, param, group["amsgrad"])
    lr, (beta1, beta2), eps, weight_decay = float(group["lr"]), group["betas"], group["eps"], group["weight_decay"]
    grad = param.grad if not group["maximize"] else -param.grad
    exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
    step_t += 1
    if weight_decay != 0:
        if group["decoupled_weight_decay"]:  # AdamW: shrink the weights, not the gradient
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    step = step_t.item()
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    bias_correction2_sqrt = bias_correction2 ** 0.5
    if group["amsgrad"]:
        _maximum_into(state["max_exp_avg_sq"], exp_avg_sq)
        denom = (state["max_exp_avg_sq"].sqrt() / bias_correction2_sqrt).add_(eps)
    else:
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-step_size)


def _maximum_into(out, other):
    """``torch.maximum(out, other, out=out)``: the larger number of each pair, written into ``out`` (version + 1)."""
    out._write([b if b != b or b > a else a for a, b in zip(out._read(), other._read())])  # nan wins
    out._version_counter.bump()
