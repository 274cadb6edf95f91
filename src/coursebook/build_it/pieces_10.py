"""Chapter 10's piece: the dtype ``torch.tensor(data)`` picks, ``infer_dtype``.

``x.new_tensor(data)`` takes its dtype from ``x``; ``torch.tensor(data)`` has
no ``x`` to ask and reads it off the data.  The answer comes from real torch:
``torch.tensor(data).dtype``.
"""

import warnings

import numpy as np
from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch._nested_data

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _case(data, misconception):
    return Case(f"({data!r})", (data,), misconception,
                expected=lambda: str(torch.tensor(data).dtype),
                observe=lambda result, args: str(result))


def _tensor_case(misconception):
    """A tensor as the data: torch.tensor(t) copies it, and warns that t.detach().clone() says so better."""
    def on_torch():
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="To copy construct from a tensor")
            return str(torch.tensor(torch.tensor([1, 2], dtype=torch.int32)).dtype)
    return Case("(tensor([1, 2], dtype=int32))", lambda: (reftorch.tensor([1, 2], dtype=reftorch.int32),),
                misconception, expected=on_torch, observe=lambda result, args: str(result))


def _losses_case(misconception):
    """A list of 0-d tensors, as a loop collects its losses: torch.tensor reads each one's dtype."""
    def make(module):
        return [module.tensor(1, dtype=module.int32), module.tensor(2, dtype=module.int32)]
    return Case("([tensor(1, dtype=int32), tensor(2, dtype=int32)])", lambda: (make(reftorch),), misconception,
                expected=lambda: str(torch.tensor(make(torch)).dtype), observe=lambda result, args: str(result))


def _tensor_is_a_float(data):
    if isinstance(data, reftorch.Tensor):
        return reftorch.get_default_dtype()
    return reftorch._nested_data.infer_dtype(data)


def _first_element_decides(data):
    while isinstance(data, (list, tuple)) and data:
        data = data[0]
    return reftorch._nested_data.infer_dtype(data)


def _floats_are_float64(data):
    found = reftorch._nested_data.infer_dtype(data)
    return reftorch.float64 if found is reftorch.float32 else found


def _bool_is_int(data):
    found = reftorch._nested_data.infer_dtype(data)
    return reftorch.int64 if found is reftorch.bool else found


register(Piece(
    name="infer_dtype",
    chapter="10",
    reference=reftorch._nested_data.infer_dtype,
    summary="the dtype torch.tensor(data) gives when no dtype is asked for",
    cases=[
        _case([3, 4], "Python ints give int64: torch.tensor keeps whole numbers whole"),
        _case([3.0, 4.0], "Python floats give the default float dtype, float32, not Python's "
                          "own 64-bit float"),
        _case([1, 2.5], "one float among ints makes the whole tensor float: the elements' dtypes "
                        "are promoted, the first element does not decide"),
        _case([[1, 2], [3, 4.5]], "promotion looks at every element of every row, not the first one"),
        _case([True, False], "Python bools give torch.bool"),
        _case([True, 2], "an int beats a bool: the result is int64"),
        _case(7, "a single Python int gives a 0-d int64 tensor"),
        _case([], "an empty list has nothing to read: the default float dtype"),
        _case(np.float64(1.5), "a numpy number keeps its own dtype (float64 here), unlike a Python float"),
        _case(np.array([1, 2], dtype=np.int16), "a numpy array keeps its own dtype (int16 here), "
                                                "as a numpy number does"),
        _case((1, 2.5), "a tuple is read as a list is: its elements' dtypes are promoted"),
        _case([np.float64(1.5), 2.0], "a numpy number keeps its own dtype inside a list too: float64 beats "
                                      "the default float dtype"),
        _losses_case("0-d tensors in a list (losses collected in a loop) keep their own dtype (int32 here): "
                     "each is read as a tensor, not as the Python number it holds"),
        _tensor_case("a tensor keeps its own dtype (int32 here), as a numpy array does: torch.tensor(t) "
                     "copies t's numbers and its dtype"),
    ],
    wrong=[Wrong(_first_element_decides, "the first element does not decide"),
           Wrong(_floats_are_float64, "default float dtype, float32"),
           Wrong(_bool_is_int, "Python bools give torch.bool"),
           Wrong(_tensor_is_a_float, "a tensor keeps its own dtype")],
))
