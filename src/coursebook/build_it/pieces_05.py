"""Chapter 05's piece: ``accumulate_grad``, what ``AccumulateGrad`` does to ``.grad``.

The first gradient becomes ``.grad`` (laid out like the leaf when the leaf
is dense); every later one is *added* into it, in place, which bumps the
version of ``.grad``.  Each case runs backward through ``x * 1`` on real
torch and compares the numbers, the strides and the version of ``x.grad``.
"""

import torch

import reftorch
import reftorch.autograd.graph

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _grad_of(result, args):
    grad = args[0].grad
    return None if grad is None else (grad.tolist(), grad.stride(), grad._version)


def _leaf(module, shape, transposed):
    x = module.zeros(*shape)
    return (x.t() if transposed else x).requires_grad_()


def _layout_only(result, args):
    """Numbers and strides: torch's first .grad of a transposed leaf is a copy whose
    version depends on how the engine made it, which this piece does not decide."""
    return _grad_of(result, args)[:2]


def _on_torch(shape, transposed, gradients, observe):
    def run():
        x = _leaf(torch, shape, transposed)
        for g in gradients:
            (x * 1).backward(torch.tensor(g))
        return observe(None, (x,))
    return run


def _case(label, shape, transposed, gradients, misconception, observe=_grad_of):
    def args():
        x = _leaf(reftorch, shape, transposed)
        if len(gradients) > 1:  # .grad as the earlier gradients left it
            x.grad = reftorch.tensor(gradients[0])
        return (x, reftorch.tensor(gradients[-1]))
    return Case(label, args, misconception, expected=_on_torch(shape, transposed, gradients, observe),
                observe=observe)


def _replaces(variable, grad, steal=False):
    variable._grad = reftorch.tensor(grad.tolist())


def _adds_out_of_place(variable, grad, steal=False):
    if variable._grad is None:
        variable._grad = reftorch.tensor(grad.tolist())
    else:
        variable._grad = variable._grad + grad


def _always_row_major(variable, grad, steal=False):
    if variable._grad is None:
        variable._grad = reftorch.tensor(grad.tolist())
    else:
        variable._grad.add_(grad)


_ACCUMULATES = ("gradients accumulate: a later backward adds into .grad, it does not replace it "
                "(that is why training loops zero the gradients)")

register(Piece(
    name="accumulate_grad",
    chapter="05",
    reference=reftorch.autograd.graph.accumulate_grad,
    summary="AccumulateGrad: the first gradient becomes .grad, later ones add in place",
    cases=[
        _case("(a leaf with no .grad yet, [1., 2., 3.])", (3,), False, [[1.0, 2.0, 3.0]],
              "the first gradient becomes .grad: same numbers, a tensor of its own"),
        _case("(a leaf whose .grad is [1., 2., 3.], [10., 10., 10.])", (3,), False,
              [[1.0, 2.0, 3.0], [10.0, 10.0, 10.0]], _ACCUMULATES),
        _case("(a leaf whose .grad is [1., 1.], [2., 3.]): the version of .grad", (2,), False,
              [[1.0, 1.0], [2.0, 3.0]], "the sum goes into the existing .grad tensor, in place, so its "
                                        "version counter goes up by one; a new tensor would start at 0"),
        _case("(a transposed leaf with no .grad yet, a contiguous gradient)", (2, 3), True,
              [[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]],
              "the first .grad is laid out like the leaf when the leaf is dense: a transposed leaf "
              "gets a transposed .grad, strides (1, 3)", observe=_layout_only),
    ],
    wrong=[Wrong(_replaces, "gradients accumulate", breaks="stdout"),
           Wrong(_adds_out_of_place, "in place, so its version counter goes up"),
           Wrong(_always_row_major, "laid out like the leaf")],
))
