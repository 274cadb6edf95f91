"""The battery of inputs every check runs: the same tensors built in torch and in reftorch.

A case is a *recipe*: a function ``recipe(T, device)`` that takes a torch-like
module (``torch`` or ``reftorch``) and a device, and returns ``(tensor, leaf)``,
where ``leaf`` is the leaf that requires grad behind ``tensor`` (or None).
Because reftorch speaks torch's language, one recipe builds twin inputs: same
values, same size, stride and offset, same autograd state. Each case also says
whether it runs in grad mode or inside ``no_grad``, and on which device.

The device: a case ``on="cuda"`` is built on reftorch's simulated GPU
(``cuda:0``). The torch installed here is a CPU build, so torch's twin lives on
the CPU; the check then expects the device a GPU machine would give (see
``_observe.expect_same``'s ``device_of``).

The battery covers what copy operations get wrong: leaves and non-leaves,
``requires_grad`` on and off, ``.grad`` and Python attributes set on the
source, views, non-contiguous, stepped, offset, expanded and empty tensors,
several dtypes, the simulated GPU, inside and outside ``no_grad``. The named
batteries ``"basic"`` (the visible tests: every fixed case), ``"drawn"`` (the
hidden tests: a few inputs drawn for each student by ``_variants``) and ``"full"``
(both) are resolved by ``_observe.battery``.
"""

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Case:
    name: str
    recipe: Callable
    grad_mode: bool = True
    on: str = "cpu"

    def device_for(self, module):
        """The device argument the recipe gets: the simulated GPU only exists in reftorch."""
        return "cuda" if self.on == "cuda" and module.__name__ == "reftorch" else None

    def build(self, module):
        """Fresh input for ``module``: (tensor, leaves whose gradients matter, extra op arguments)."""
        tensor, leaf = self.recipe(module, self.device_for(module))
        return tensor, (() if leaf is None else (leaf,)), ()

    def devices(self):
        """The simulated device of each input, by role."""
        return {"source": "cuda:0" if self.on == "cuda" else "cpu"}

    def label(self):
        text = self.name
        if self.on == "cuda" and "GPU" not in text:
            text += ", on the GPU (cuda:0)"
        return text if self.grad_mode else text + ", inside no_grad"


def _leaf(T, device, n=6, shape=(2, 3), dtype=None):
    x = T.arange(1.0, n + 1.0, dtype=dtype, device=device).reshape(shape)
    return x.requires_grad_()


def _grad_leaf(T, device):
    x = _leaf(T, device)
    return x, x


def _plain(T, device):
    return T.arange(1.0, 7.0, device=device).reshape(2, 3), None


def _non_leaf(T, device):
    x = _leaf(T, device)
    return x * 2, x


def _transposed_view(T, device):
    x = _leaf(T, device)
    return x.t(), x


def _stepped_slice(T, device):
    x = _leaf(T, device, 12, (3, 4))
    return x[:, ::2], x


def _offset_slice(T, device):
    return T.arange(1.0, 13.0, device=device).reshape(3, 4)[1:], None


def _offset_slice_of_leaf(T, device):
    x = _leaf(T, device, 12, (3, 4))
    return x[1:], x


def _expanded(T, device):
    return T.arange(1.0, 4.0, device=device).expand(2, 3), None


def _permuted(T, device):
    x = _leaf(T, device, 24, (2, 3, 4))
    return x.permute(2, 0, 1), x


def _float64_leaf(T, device):
    x = _leaf(T, device, 4, (4,), dtype=T.float64)
    return x, x


def _int64_transposed(T, device):
    return T.arange(6, device=device).reshape(2, 3).t(), None


def _bool(T, device):
    return T.tensor([True, False, True], device=device), None


def _scalar_leaf(T, device):
    x = T.tensor(3.5, requires_grad=True, device=device)
    return x, x


def _transposed_stepped(T, device):
    return T.arange(1.0, 13.0, device=device).reshape(3, 4)[::2].t(), None


def _written_once(T, device):
    t = T.arange(1.0, 7.0, device=device).reshape(2, 3)
    t.add_(1)
    return t, None


def _empty(T, device):
    return T.zeros(0, 3, device=device), None


def _annotated_leaf_with_grad(T, device):
    """A leaf with a gradient, written once, and two Python attributes (one mutable)."""
    x = _leaf(T, device)
    (x * 2).sum().backward()
    x.note = "a note"
    x.tags = ["a", "list"]
    return x, x


def _stepped_plain(T, device):
    return T.arange(1.0, 13.0, device=device).reshape(3, 4)[:, ::2], None


def _column(T, device):
    return T.arange(1.0, 4.0, device=device).reshape(3, 1), None


def _row(T, device):
    return T.arange(1.0, 7.0, device=device).reshape(2, 3)[1:], None


GRAD_LEAF = Case("a float32 leaf that requires grad", _grad_leaf)
PLAIN = Case("a float32 tensor without grad", _plain)
NON_LEAF = Case("a non-leaf (x * 2)", _non_leaf)
TRANSPOSED = Case("a transposed view x.t() of a leaf that requires grad", _transposed_view)
STEPPED = Case("a stepped slice x[:, ::2] of a leaf that requires grad", _stepped_slice)
OFFSET = Case("an offset slice x[1:] (storage offset 4)", _offset_slice)
OFFSET_OF_LEAF = Case("an offset slice x[1:] of a leaf that requires grad", _offset_slice_of_leaf)
EXPANDED = Case("an expanded tensor (stride 0)", _expanded)
PERMUTED = Case("a permuted 3-d view", _permuted)
FLOAT64 = Case("a float64 leaf that requires grad", _float64_leaf)
INT64 = Case("a transposed int64 tensor", _int64_transposed)
BOOL = Case("a bool tensor", _bool)
SCALAR = Case("a 0-d leaf that requires grad", _scalar_leaf)
TRANSPOSED_STEPPED = Case("a transposed stepped slice x[::2].t()", _transposed_stepped)
EMPTY = Case("an empty tensor of size (0, 3)", _empty)
WRITTEN = Case("a tensor written in place once (version 1)", _written_once)
ANNOTATED = Case("a leaf with .grad and Python attributes t.note, t.tags", _annotated_leaf_with_grad)
ON_GPU = Case("a float32 leaf that requires grad, on the GPU (cuda:0)", _grad_leaf, on="cuda")
NON_LEAF_ON_GPU = Case("a transposed view of a leaf that requires grad, on the GPU (cuda:0)",
                       _transposed_view, on="cuda")
PLAIN_ON_GPU = Case("an offset slice x[1:] without grad, on the GPU (cuda:0)", _offset_slice, on="cuda")
# inputs only some exercises use: a stepped slice without grad (python_copy), size-1 dimensions
# with strides of their own (strides_and_views' expand)
STEPPED_PLAIN = Case("a stepped slice of a tensor without grad", _stepped_plain)
COLUMN = Case("a 3x1 column (stride (1, 1))", _column)
ROW = Case("a 1x3 row x[1:] of a 2x3 (stride (3, 1), offset 3)", _row)

LEAF_NO_GRAD_MODE = Case(GRAD_LEAF.name, _grad_leaf, grad_mode=False)
NON_LEAF_NO_GRAD_MODE = Case(NON_LEAF.name, _non_leaf, grad_mode=False)
TRANSPOSED_NO_GRAD_MODE = Case(TRANSPOSED.name, _transposed_view, grad_mode=False)
GPU_NO_GRAD_MODE = Case(ON_GPU.name, _grad_leaf, grad_mode=False, on="cuda")

# The visible tests run the basic battery: one input for each belief an exercise names
# (a slice with an offset, a stepped slice, a transposed view, a non-leaf, .grad and
# attributes on the source, a version that is not 0, the GPU). The hidden tests run all
# of it, plus inputs drawn for each student.
BASIC = (GRAD_LEAF, PLAIN, NON_LEAF, TRANSPOSED, STEPPED, OFFSET, WRITTEN, ANNOTATED, ON_GPU)
LAYOUTS = (TRANSPOSED, STEPPED, OFFSET, EXPANDED, PERMUTED, INT64, TRANSPOSED_STEPPED, EMPTY,
           NON_LEAF_ON_GPU, PLAIN_ON_GPU)
DTYPES = (FLOAT64, INT64, BOOL, SCALAR)
NO_GRAD = (LEAF_NO_GRAD_MODE, NON_LEAF_NO_GRAD_MODE, TRANSPOSED_NO_GRAD_MODE, GPU_NO_GRAD_MODE)
FULL = (GRAD_LEAF, PLAIN, NON_LEAF, TRANSPOSED, STEPPED, OFFSET, OFFSET_OF_LEAF, EXPANDED, PERMUTED,
        FLOAT64, INT64, BOOL, SCALAR, TRANSPOSED_STEPPED, EMPTY, WRITTEN, ANNOTATED, ON_GPU,
        NON_LEAF_ON_GPU, PLAIN_ON_GPU) + NO_GRAD


def fixed(table, name, error, what):
    """The fixed input ``name`` of ``table``, or ``error`` saying no fixed ``what`` is called so
    (``name`` comes from the judge's description: any plain data)."""
    try:
        return table[name]
    except (KeyError, TypeError):
        raise error("no fixed %s is called %r" % (what, name)) from None


def known_model(T, modules, dtype, device, seed):
    """The model checks' input: ``modules`` in a Sequential (alone if only one), in ``dtype`` on
    ``device``, every parameter set to known numbers that depend on ``seed`` (no graph recorded).

    Built the same in torch and reftorch, so the twins start from the same weights.
    """
    model = modules[0] if len(modules) == 1 else T.nn.Sequential(*modules)
    if dtype == "float64":
        model = model.double()
    if device:
        model = model.cuda()
    with T.no_grad():
        for i, p in enumerate(model.parameters()):
            numbers = T.arange(p.numel(), dtype=p.dtype, device=device).reshape(p.shape)
            p.copy_(numbers * 0.125 - 0.25 * i - 0.0625 * seed)
    return model
