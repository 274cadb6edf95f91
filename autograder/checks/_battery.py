"""The battery of inputs every check runs: the same tensors built in torch and in reftorch.

A case is a *recipe*: a function that takes a torch-like module (``torch`` or
``reftorch``) and returns ``(tensor, leaf)``, where ``leaf`` is the leaf that
requires grad behind ``tensor`` (or None). Because reftorch speaks torch's
language, one recipe builds twin inputs: same values, same size, stride and
offset, same autograd state. Each case also says whether it runs in grad mode
or inside ``no_grad``.

The battery covers what copy operations get wrong: leaves and non-leaves,
``requires_grad`` on and off, views, non-contiguous, stepped, expanded and
empty tensors, several dtypes, inside and outside ``no_grad``.
"""

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Case:
    name: str
    recipe: Callable
    grad_mode: bool = True

    def build(self, module):
        """Fresh input for ``module``: (tensor, leaves whose gradients matter, extra op arguments)."""
        tensor, leaf = self.recipe(module)
        return tensor, (() if leaf is None else (leaf,)), ()

    def label(self):
        return self.name if self.grad_mode else self.name + ", inside no_grad"


def _leaf(T, n=6, shape=(2, 3), dtype=None):
    x = T.arange(1.0, n + 1.0, dtype=dtype).reshape(shape)
    return x.requires_grad_()


def _grad_leaf(T):
    x = _leaf(T)
    return x, x


def _plain(T):
    return T.arange(1.0, 7.0).reshape(2, 3), None


def _non_leaf(T):
    x = _leaf(T)
    return x * 2, x


def _transposed_view(T):
    x = _leaf(T)
    return x.t(), x


def _stepped_slice(T):
    x = _leaf(T, 12, (3, 4))
    return x[:, ::2], x


def _offset_slice(T):
    return T.arange(1.0, 13.0).reshape(3, 4)[1:], None


def _expanded(T):
    return T.arange(1.0, 4.0).expand(2, 3), None


def _permuted(T):
    x = _leaf(T, 24, (2, 3, 4))
    return x.permute(2, 0, 1), x


def _float64_leaf(T):
    x = _leaf(T, 4, (4,), dtype=T.float64)
    return x, x


def _int64_transposed(T):
    return T.arange(6).reshape(2, 3).t(), None


def _bool(T):
    return T.tensor([True, False, True]), None


def _scalar_leaf(T):
    x = T.tensor(3.5, requires_grad=True)
    return x, x


def _transposed_stepped(T):
    return T.arange(1.0, 13.0).reshape(3, 4)[::2].t(), None


def _written_once(T):
    t = T.arange(1.0, 7.0).reshape(2, 3)
    t.add_(1)
    return t, None


def _empty(T):
    return T.zeros(0, 3), None


GRAD_LEAF = Case("a float32 leaf that requires grad", _grad_leaf)
PLAIN = Case("a float32 tensor without grad", _plain)
NON_LEAF = Case("a non-leaf (x * 2)", _non_leaf)
TRANSPOSED = Case("a transposed view x.t() of a leaf that requires grad", _transposed_view)
STEPPED = Case("a stepped slice x[:, ::2]", _stepped_slice)
OFFSET = Case("an offset slice x[1:]", _offset_slice)
EXPANDED = Case("an expanded tensor (stride 0)", _expanded)
PERMUTED = Case("a permuted 3-d view", _permuted)
FLOAT64 = Case("a float64 leaf that requires grad", _float64_leaf)
INT64 = Case("a transposed int64 tensor", _int64_transposed)
BOOL = Case("a bool tensor", _bool)
SCALAR = Case("a 0-d leaf that requires grad", _scalar_leaf)
TRANSPOSED_STEPPED = Case("a transposed stepped slice x[::2].t()", _transposed_stepped)
EMPTY = Case("an empty tensor of size (0, 3)", _empty)
WRITTEN = Case("a tensor written in place once (version 1)", _written_once)

LEAF_NO_GRAD_MODE = Case(GRAD_LEAF.name, _grad_leaf, grad_mode=False)
NON_LEAF_NO_GRAD_MODE = Case(NON_LEAF.name, _non_leaf, grad_mode=False)
TRANSPOSED_NO_GRAD_MODE = Case(TRANSPOSED.name, _transposed_view, grad_mode=False)

# The visible tests run the basic battery; the hidden tests run all of it.
BASIC = (GRAD_LEAF, PLAIN, NON_LEAF, TRANSPOSED, WRITTEN)
LAYOUTS = (TRANSPOSED, STEPPED, OFFSET, EXPANDED, PERMUTED, INT64, TRANSPOSED_STEPPED, EMPTY)
DTYPES = (FLOAT64, INT64, BOOL, SCALAR)
NO_GRAD = (LEAF_NO_GRAD_MODE, NON_LEAF_NO_GRAD_MODE, TRANSPOSED_NO_GRAD_MODE)
FULL = (GRAD_LEAF, PLAIN, NON_LEAF, TRANSPOSED, STEPPED, OFFSET, EXPANDED, PERMUTED,
        FLOAT64, INT64, BOOL, SCALAR, TRANSPOSED_STEPPED, EMPTY, WRITTEN) + NO_GRAD
