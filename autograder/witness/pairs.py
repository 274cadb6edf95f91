"""copy_'s inputs: a destination and a source, two tensors built in the same module.

A :class:`CopyCase` builds ``dst`` as its source and ``src`` as its one extra
argument, each on its own device, each from a recipe ``recipe(T, device)`` that
returns ``(tensor, leaf)`` as the battery's do: a fixed one of :data:`RECIPES`
(named), or a drawn ``variants.TensorSpec`` (its numbers).

The case describes itself as plain data (``description``), and :func:`case_of`
rebuilds it from that data in the student's kernel (the witness).
"""

from .battery import fixed
from .variants import TensorSpec
from .wire import decode, encode


def plain(T, d):
    return T.zeros(2, 3, device=d), None


def grad_leaf(T, d):
    x = T.zeros(2, 3, requires_grad=True, device=d)
    return x, x


def src_leaf(T, d):
    x = T.tensor([[1.5, -2.5, 3.5], [4.5, 5.5, -6.5]], requires_grad=True, device=d)
    return x, x


def src_row(T, d):
    x = T.tensor([7.25, 8.5, -9.75], requires_grad=True, device=d)
    return x, x


def row_plain(T, d):
    return T.tensor([7.25, 8.5, -9.75], device=d), None


def src_plain(T, d):
    return T.tensor([[1.5, -2.5, 3.5], [4.5, 5.5, -6.5]], device=d), None


def int64(T, d):
    return T.zeros(2, 3, dtype=T.int64, device=d), None


def float64(T, d):
    return T.zeros(2, 3, dtype=T.float64, device=d), None


def non_leaf(T, d):
    x = T.ones(2, 3, requires_grad=True, device=d)
    return x * 2, x


def view_of_non_leaf(T, d):
    x = T.ones(2, 3, requires_grad=True, device=d)
    return (x * 2)[0], x


def view_of_grad_leaf(T, d):
    x = T.zeros(2, 3, requires_grad=True, device=d)
    return x[0], x


def transposed(T, d):
    return T.zeros(3, 2, device=d).t(), None


def stepped(T, d):
    return T.zeros(2, 6, device=d)[:, ::2], None


def wrong_shape(T, d):
    x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True, device=d)
    return x, x


def wrong_shape_plain(T, d):
    return T.tensor([1.0, 2.0, 3.0, 4.0], device=d), None


RECIPES = {f.__name__: f for f in (plain, grad_leaf, src_leaf, src_row, row_plain, src_plain, int64, float64,
                                   non_leaf, view_of_non_leaf, view_of_grad_leaf, transposed, stepped,
                                   wrong_shape, wrong_shape_plain)}


class CopyCase:
    """A destination and a source, built in the same module (each on its own device)."""

    roles = ("self (dst)", "src")

    def __init__(self, name, dst, src, grad_mode=True, dst_on="cpu", src_on="cpu"):
        self.name, self.dst, self.src, self.grad_mode = name, dst, src, grad_mode
        self.dst_on, self.src_on = dst_on, src_on

    def build(self, module):
        gpu = "cuda" if module.__name__ == "reftorch" else None
        dst, dst_leaf = self.dst(module, gpu if self.dst_on == "cuda" else None)
        src, src_leaf = self.src(module, gpu if self.src_on == "cuda" else None)
        leaves = tuple(leaf for leaf in (dst_leaf, src_leaf) if leaf is not None)
        return dst, leaves, (src,)

    def devices(self):
        return {"source": "cuda:0" if self.dst_on == "cuda" else "cpu",
                "src": "cuda:0" if self.src_on == "cuda" else "cpu"}

    def label(self):
        return self.name + ("" if self.grad_mode else ", inside no_grad")

    def description(self, describe_case=None):
        return {"copy": {"name": self.name, "dst": _recipe_description(self.dst),
                         "src": _recipe_description(self.src), "grad_mode": self.grad_mode,
                         "dst_on": self.dst_on, "src_on": self.src_on}}


def _recipe_description(recipe):
    spec = getattr(recipe, "__self__", None)
    if isinstance(spec, TensorSpec):
        return {"spec": encode(spec.fields())}
    if RECIPES.get(getattr(recipe, "__name__", None)) is recipe:
        return {"named": recipe.__name__}
    raise ValueError("the input %r cannot be described to the witness" % (recipe,))


class BadPair(ValueError):
    """A description of copy_'s inputs the witness cannot rebuild."""


def _recipe_of(description):
    if "named" in description:
        return fixed(RECIPES, description["named"], BadPair, "input")
    return TensorSpec.from_fields(decode(description["spec"])).build


def _device(on):
    if on not in ("cpu", "cuda"):
        raise BadPair("no device is called %r" % (on,))
    return on


def case_of(description):
    """The CopyCase a ``{"copy": ...}`` description describes."""
    inner = description["copy"]
    return CopyCase(str(inner["name"]), _recipe_of(inner["dst"]), _recipe_of(inner["src"]),
                    bool(inner["grad_mode"]), _device(inner["dst_on"]), _device(inner["src_on"]))
