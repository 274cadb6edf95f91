"""Chapter 02's piece: ``__iadd__``, the method behind ``a += b``.

Python runs ``a = a.__iadd__(b)``: whatever ``__iadd__`` returns gets the
name ``a``.  A tensor's returns itself after adding into its own memory, so
every other name of the tensor sees the change.  Each case runs the same
statement on real torch (``Tensor.__iadd__``) and compares the object
returned, the numbers, and what another name of the tensor sees.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._inplace

from coursebook.build_it.registry import Case, Piece, Wrong, register

_SAME_OBJECT = ("+= on a tensor adds into the tensor's own memory and returns that same object; "
                "`self + other` builds a new tensor, and every other name keeps the old numbers")
_RETURN_SELF = ("__iadd__ must return the tensor: Python gives its result the name on the left of +=, "
                "so returning None (what add_ would not do) leaves `a` labelling None")


def _observe(result, args):
    tensor = args[0]
    return (result is tensor, tensor.tolist())


def _on_torch(make, other):
    def run():
        tensor = make(torch)
        result = tensor.__iadd__(other(torch) if callable(other) else other)
        return (result is tensor, tensor.tolist())
    return run


def _case(label, make, other, misconception):
    def args():
        return (make(reftorch), other(reftorch) if callable(other) else other)
    return Case(label, args, misconception, expected=_on_torch(make, other), observe=_observe)


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
        _case("(tensor([1., 2., 3.]), 1.0)", lambda m: m.tensor([1.0, 2.0, 3.0]), 1.0, _SAME_OBJECT),
        _case("(tensor([1., 2.]), tensor([10., 20.]))", lambda m: m.tensor([1.0, 2.0]),
              lambda m: m.tensor([10.0, 20.0]), _SAME_OBJECT + "; adding a tensor works the same way"),
        _case("(a view tensor([1., 2., 3., 4.])[1:3], 1.0)", _view_of, 1.0,
              "a view's memory is its base's: adding in place through the view must change those slots"),
        _case("(tensor([1, 2]), 1)", lambda m: m.tensor([1, 2]), 1, _RETURN_SELF),
        _case("(tensor([1, 2]), 0.5)", lambda m: m.tensor([1, 2]), 0.5,
              "in place, the result must fit the tensor's own dtype: an integer tensor cannot hold "
              "1.5, so torch raises (RuntimeError) instead of making a float tensor"),
    ],
    wrong=[Wrong(_new_tensor, "returns that same object", breaks="stdout"),
           Wrong(_forgets_to_return, "must return the tensor")],
))
