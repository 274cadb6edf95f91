"""The inputs and the stories of the ``copy.copy``/``copy.deepcopy`` exercise, as the witness plays them.

* :class:`Annotated`: a drawn input that also gets a gradient and Python
  attributes, drawn too; the judge describes it as
  ``{"annotated": {"base": <the drawn case>, "extra": [note, tags, with_grad]}}``.
* :func:`deepcopy_with`: ``copy.deepcopy(t)`` with the learner's ``my_deepcopy``
  as reftorch's ``Tensor.__deepcopy__`` for the length of the call.
* :func:`memo_facts`: one ``copy.deepcopy`` call of several related tensors (a
  list holding a tensor twice and a view of it, a leaf and its gradient, a tensor
  whose attribute is another), and what comes back, fact by fact: identities as
  booleans, strides and offsets as numbers. The same function plays the story in
  the judge on torch and here on reftorch.

``copy.deepcopy`` is the one the standard library had when this module was
imported: a notebook that replaces ``copy.deepcopy`` changes what its own code
calls, not what the witness calls.
"""

from contextlib import contextmanager
from copy import deepcopy as _deepcopy
from dataclasses import dataclass

import reftorch

from .battery import Case
from .readers import ReftorchReader
from .wire import decode, encode


@dataclass(frozen=True)
class Annotated(Case):
    """A drawn input that also gets a gradient (if it is a leaf that requires grad) and Python
    attributes, drawn too: ``extra = (note or None, tags or None, with_grad)``."""

    extra: tuple = (None, None, False)

    def build(self, module):
        tensor, leaves, args = super().build(module)
        note, tags, with_grad = self.extra
        if with_grad and leaves and tensor is leaves[0]:
            (tensor * 2).sum().backward()
        if note is not None:
            tensor.note = note
        if tags is not None:
            tensor.tags = list(tags)
        return tensor, leaves, args

    def describe(self, describe_case):
        """This input as data (``describe_case``: the judge's description of the drawn case)."""
        base = Case(self.name, self.recipe, self.grad_mode, self.on)
        return {"annotated": {"base": describe_case(base), "extra": encode(self.extra)}}


def _extra(value):
    note, tags, with_grad = value if isinstance(value, tuple) and len(value) == 3 else (0, 0, 0)
    if not ((note is None or isinstance(note, str)) and type(with_grad) is bool
            and (tags is None or (isinstance(tags, tuple) and all(type(t) is int for t in tags)))):
        raise ValueError("an input's extras are a note, tags and whether it has a gradient")
    return note, tags, with_grad


def case_of(description, base_of):
    """The input ``{"base": ..., "extra": ...}`` describes; ``base_of`` rebuilds the drawn case."""
    base = base_of(description["base"])
    return Annotated(base.name, base.recipe, base.grad_mode, base.on, _extra(decode(description["extra"])))


@contextmanager
def installed(my_deepcopy):
    """Use ``my_deepcopy`` as reftorch's ``Tensor.__deepcopy__`` for the length of a call."""
    previous = vars(reftorch.Tensor)["__deepcopy__"]  # as the class holds it (a per-layout method), put back as it was
    reftorch.Tensor.__deepcopy__ = lambda self, memo: my_deepcopy(self, memo)
    try:
        yield
    finally:
        reftorch.Tensor.__deepcopy__ = previous


def deepcopy_with(my_deepcopy):
    """``op(t)``: ``copy.deepcopy(t)``, with ``my_deepcopy`` as the tensor's ``__deepcopy__``."""
    def op(source, *args):
        with installed(my_deepcopy):
            return _deepcopy(source)
    return op


def memo_inputs(T):
    """Containers deep-copied in one call; each names the objects whose copies are compared."""
    x = T.arange(1.0, 7.0).reshape(2, 3)
    leaf = T.arange(1.0, 4.0).requires_grad_()
    (leaf * 2).sum().backward()
    z, w = T.ones(2), T.zeros(2)
    z.other = w
    return {
        "a list holding x, a view x[:, 1:] and x again": (lambda: [x, x[:, 1:], x], x),
        "a dict holding x, x.t() and x again": (lambda: {"w": x, "wt": x.t(), "again": x}, x),
        "a list holding a leaf t and its gradient t.grad": (lambda: [leaf, leaf.grad], leaf),
        "a list holding z (with z.other = w) and w": (lambda: [z, w], z),
    }


def memo_facts(module, R):
    """What one deepcopy call of several related tensors gives back, fact by fact (``R``: the
    reader of ``module``'s tensors)."""
    facts = {}
    for name, (make, original) in memo_inputs(module).items():
        out = _deepcopy(make())
        first, second, *rest = out if isinstance(out, list) else (out["w"], out["wt"], out["again"])
        if rest:
            facts[name] = {
                "the tensor met twice comes back as one object": first is rest[0],
                "the copied view shares the copied base's storage": R.memory(second) == R.memory(first),
                "the copies share memory with the originals": R.memory(first) == R.memory(original),
                "the copied view's storage offset": R.storage_offset(second),
                "the copied view's strides": R.stride(second),
            }
        elif "gradient" in name:
            facts[name] = {"the copy's .grad is the copied gradient (one memo)": R.grad(first) is second,
                           "the copied gradient shares memory with the original": R.memory(second)
                           == R.memory(R.grad(original))}
        else:
            other = R.attributes(first).get("other")
            facts[name] = {"the copy's .other is the copied w (one memo)": other is second,
                           "the copy's .other is the original w": other is R.attributes(original).get("other")}
    return facts


def memo_facts_with(my_deepcopy, R):
    """:func:`memo_facts` on reftorch, with ``my_deepcopy`` as the tensor's ``__deepcopy__``."""
    with installed(my_deepcopy):
        return memo_facts(reftorch, R)


# What the learner's function is used through, by name (a call's ``"through"``): ``op(source, *args)``.
THROUGH = {
    "copy.deepcopy": deepcopy_with,
    "the memo story": lambda my_deepcopy: lambda source, *args: memo_facts_with(my_deepcopy, ReftorchReader),
}
