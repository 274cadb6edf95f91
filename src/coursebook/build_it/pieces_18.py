"""Chapter 18's piece: ``Optimizer.zero_grad``, what it does to each parameter's ``.grad``.

By default (``set_to_none=True``) it drops the reference: ``p.grad`` becomes
None, and a tensor someone kept from ``p.grad`` keeps its numbers and is no
longer anybody's gradient; the next backward makes a new ``.grad``.  With
``set_to_none=False`` it writes zeros into the same tensor (one in-place
write: its version moves).  A parameter without a gradient is left alone.
Each case runs the same steps on real torch and compares the parameter's
``.grad`` and the kept tensor: their numbers, whether they are one object,
and the kept tensor's version.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch.optim.optimizer

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _state(opt, kept):
    """The first parameter's .grad and the kept tensor; with a second group, that group's .grad too."""
    p, *others = [p for group in opt.param_groups for p in group["params"]]
    grad = None if p.grad is None else (p.grad.tolist(), p.grad is kept, p.grad.grad_fn is None)
    state = (grad, None if kept is None else (kept.tolist(), kept._version))
    return state + tuple(None if q.grad is None else q.grad.tolist() for q in others)


def _setup(module, with_grad, with_history=False, two_groups=False):
    """``with_history``: a .grad that has a grad_fn, as ``backward(create_graph=True)`` makes (reftorch
    builds no graphs of gradients, so it is assigned). ``two_groups``: a second group of two parameters."""
    w, b, c = (module.tensor(v, requires_grad=True) for v in ([1.0, 2.0], [3.0], [4.0]))
    opt = module.optim.SGD([{"params": [w]}, {"params": [b, c]}] if two_groups else [w], lr=0.5)
    kept = None
    if with_grad:
        if with_history:
            w.grad = w * 2
        else:
            ((w * w).sum() + (b * b).sum() + (c * c).sum()).backward()
        kept = w.grad
    return opt, kept


def _case(label, set_to_none, misconception, with_grad=True, backward_after=False, with_history=False,
          two_groups=False):
    def on_torch():
        opt, kept = _setup(torch, with_grad, with_history, two_groups)
        opt.zero_grad(set_to_none=set_to_none)
        if backward_after:
            (opt.param_groups[0]["params"][0] * 3).sum().backward()
        return _state(opt, kept)

    made = {}

    def args():
        made["opt"], made["kept"] = _setup(reftorch, with_grad, with_history, two_groups)
        return (made["opt"], set_to_none)

    def observe(result, args):
        if backward_after:
            (made["opt"].param_groups[0]["params"][0] * 3).sum().backward()
        return _state(made["opt"], made["kept"])

    return Case(label, args, misconception, expected=on_torch, observe=observe)


def _zeros_always(self, set_to_none=True):
    for group in self.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                p.grad.zero_()


def _replaces_with_new_zeros(self, set_to_none=True):
    for group in self.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                p.grad = None if set_to_none else reftorch.zeros_like(p.grad)


def _zeros_what_it_drops(self, set_to_none=True):
    for group in self.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                p.grad.zero_()
                if set_to_none:
                    p.grad = None


_DROPS = ("zero_grad() sets .grad to None by default: it drops the reference and writes nothing, so a "
          "tensor kept from p.grad keeps its numbers")
_IN_PLACE = ("zero_grad(set_to_none=False) writes zeros into the same .grad tensor: a kept reference sees "
             "the zeros, and its version moves by one")

register(Piece(
    name="zero_grad",
    chapter="18",
    reference=reftorch.optim.optimizer.Optimizer.zero_grad,
    summary="zero_grad: drop each .grad (the default) or zero it in place",
    cases=[
        _case("(set_to_none=True)", True, _DROPS),
        _case("(set_to_none=True), then a backward", True,
              "after zero_grad() the next backward makes a new .grad: the kept tensor is not it, and "
              "keeps the old numbers", backward_after=True),
        _case("(set_to_none=False)", False, _IN_PLACE),
        _case("(set_to_none=False), then a backward", False,
              "after zero_grad(set_to_none=False) the next backward adds into the same tensor, so the "
              "kept reference is still the gradient", backward_after=True),
        _case("(set_to_none=False, a .grad with a grad_fn: w.grad = w * 2)", False,
              "a .grad with a grad_fn (as backward(create_graph=True) makes) is cut out of the graph "
              "(detach_) before it is zeroed in place, so the zeros have no history",
              with_history=True),
        _case("(set_to_none=False, SGD([{'params': [w]}, {'params': [b, c]}]))", False,
              "zero_grad goes through every parameter of every group in param_groups, not only the first",
              two_groups=True),
        _case("(set_to_none=True, a parameter with no .grad yet)", True,
              "a parameter without a gradient is skipped: nothing to drop", with_grad=False),
    ],
    wrong=[Wrong(_zeros_always, "sets .grad to None by default", breaks="stdout"),
           Wrong(_replaces_with_new_zeros, "writes zeros into the same .grad tensor"),
           Wrong(_zeros_what_it_drops, "drops the reference and writes nothing")],
))
