"""Chapter 02's piece: ``__iadd__``, the method behind ``a += b``.

Python runs ``a = a.__iadd__(b)``: whatever ``__iadd__`` returns gets the
name ``a``.  A tensor's returns itself after adding into its own memory, so
every other name of the tensor sees the change.  Each case runs the same
statement on real torch (``Tensor.__iadd__``) and compares the object
returned, the numbers, and what another name of the tensor sees.
reftorch has no complex dtypes, so ``a += 1j`` is not modelled (torch raises
RuntimeError for a real tensor, and adds into a complex one).
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._inplace

from coursebook.build_it.registry import Case, Piece, Wrong, register
from coursebook.language import N_

# what is compared, by name: what __iadd__ returned, and the numbers the tensor holds afterwards
RETURNS, HOLDS = N_("returns"), N_("self holds")
SELF, NEW_OBJECT = N_("self"), N_("a new object")

_NEW_TENSOR = N_("self + other builds a new tensor: self, and every other name of it, keep the old numbers. "
                 "+= on a tensor adds into its own memory (add_) and returns that same object")
_RETURNS_OTHER = N_("you added into self, but returned another object: Python gives what __iadd__ returns "
                    "the name on the left of +=, so `a` would no longer be the tensor its other names see. "
                    "__iadd__ must return the tensor itself")
_RETURNS_NONE = N_("you added into self, but returned None: Python gives what __iadd__ returns the name on the "
                   "left of +=, so `a` would label None. __iadd__ must return the tensor itself")
_WRONG_NUMBERS = N_("self is returned, but it does not hold self + other: add other into self's own memory (add_)")
_VIEW = N_("a view's memory is its base's: adding in place through the view must change those slots, "
           "and the view must hold the sums")
_RAISED = N_("torch adds here without an error: the line of your code named above raised instead")
_DTYPE = N_("in place, the result must fit the tensor's own dtype: an integer tensor cannot hold "
            "1.5, so torch raises (RuntimeError) instead of making a float tensor")


def _observe(result, args):
    tensor = args[0]
    returned = SELF if result is tensor else ("None" if result is None else NEW_OBJECT)
    return {RETURNS: returned, HOLDS: tensor.tolist()}


def _explainer(wrong_numbers=_WRONG_NUMBERS):
    def explain(expected, got):
        """The mistake this answer made, from what it returned and what self holds afterwards."""
        if expected.raised:
            return None  # the case's own message (the dtype rule)
        if got.raised:
            return _RAISED
        if got.value[RETURNS] == SELF:
            return wrong_numbers
        if got.value[HOLDS] != expected.value[HOLDS]:
            return _NEW_TENSOR  # self kept its numbers: the sum went into a new tensor
        return _RETURNS_NONE if got.value[RETURNS] == "None" else _RETURNS_OTHER
    return explain


def _on_torch(make, other):
    def run():
        tensor = make(torch)
        result = tensor.__iadd__(other(torch) if callable(other) else other)
        return _observe(result, (tensor,))
    return run


def _case(label, make, other, misconception, wrong_numbers=_WRONG_NUMBERS):
    def args():
        return (make(reftorch), other(reftorch) if callable(other) else other)
    return Case(label, args, misconception, expected=_on_torch(make, other), observe=_observe,
                explain=_explainer(wrong_numbers))


def _view_of(module):
    return module.tensor([1.0, 2.0, 3.0, 4.0])[1:3]


def _new_tensor(self, other):
    return self + other


def _forgets_to_return(self, other):
    self.add_(other)


register(Piece(
    name="__iadd__",
    stub="my_iadd",
    chapter="02",
    reference=reftorch._inplace.__iadd__,
    summary="a += b: add in place, return the same tensor",
    cases=[
        _case("(tensor([1., 2., 3.]), 1.0)", lambda m: m.tensor([1.0, 2.0, 3.0]), 1.0, _NEW_TENSOR),
        _case("(tensor([1., 2.]), tensor([10., 20.]))", lambda m: m.tensor([1.0, 2.0]),
              lambda m: m.tensor([10.0, 20.0]), _NEW_TENSOR),
        _case("(a view tensor([1., 2., 3., 4.])[1:3], 1.0)", _view_of, 1.0, _VIEW, _VIEW),
        _case("(tensor([1, 2]), 1)", lambda m: m.tensor([1, 2]), 1, _RETURNS_OTHER),
        _case("(tensor([1, 2]), 0.5)", lambda m: m.tensor([1, 2]), 0.5, _DTYPE),
    ],
    wrong=[Wrong(_new_tensor, "builds a new tensor", breaks="stdout"),
           Wrong(_forgets_to_return, "returned None")],
))
