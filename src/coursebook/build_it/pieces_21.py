"""Chapter 21's piece, for myth 3 ("indexing never copies"): ``is_basic_index``.

Whether ``t[index]`` is a view or a copy depends only on the *kind* of
index, not on which elements it picks.  torch makes this decision inside
``__getitem__`` and exposes no function for it, so the reference lives here,
in the course; the answer of every case comes from real torch: does
``m[index]`` share ``m``'s storage?
"""

import numbers

import numpy as np
from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch

from coursebook.build_it.registry import Case, Piece, Wrong, register


def is_basic_index(index):
    """True when ``t[index]`` is a view of ``t`` (basic indexing), False when it copies.

    A tuple in the brackets is several parts, one per dimension; anything
    else is one part.  The index is basic when every part is an int (a numpy
    integer is one: ``numbers.Integral``), a slice, None, ``...`` or a 0-d
    integer tensor other than uint8 (read as an int).  A list of ints, a tensor with dimensions, a mask (a uint8 tensor is one, as
    a bool tensor is) or a Python bool (a mask of one element) make it
    advanced: a copy.  A numpy array is read as the index tensor torch makes
    of it: its own dtype, floats cut to int64 (so ``np.array(1)`` and
    ``np.array(1.0)`` are basic).  A part torch refuses is refused with
    torch's IndexError: a float (``1.0``, ``np.float64``), numpy's bool
    (``np.True_``) or a float tensor.  (torch still reads a short list that holds
    a slice, None, ..., a tensor or another list as a tuple, and warns that
    this is deprecated; such lists are left out here.)
    """
    parts = [reftorch.tensor(p if p.dtype.kind in "biu" else p.astype("int64")) if type(p).__name__ == "ndarray"
             else p for p in (index if isinstance(index, tuple) else (index,))]  # a numpy array: as a tensor
    for part in parts:  # what torch refuses, in whichever part
        if isinstance(part, reftorch.Tensor) and part.dtype.is_floating_point:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if (isinstance(part, numbers.Number) or hasattr(part, "dtype")) and not isinstance(
                part, (numbers.Integral, reftorch.Tensor)):  # 1.0, 1j, a numpy float or bool
            kind = type(part)
            name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             f"Variables are valid indices (got {name})")
    for part in parts:
        if isinstance(part, bool):
            return False
        if isinstance(part, (numbers.Integral, slice)) or part is None or part is Ellipsis:
            continue
        if not (isinstance(part, reftorch.Tensor) and part.dim() == 0
                and part.dtype not in (reftorch.bool, reftorch.uint8)):
            return False
    return True


def _torch_shares(make_index):
    m = torch.arange(24.0).reshape(2, 3, 4)
    return m[make_index(torch)].untyped_storage().data_ptr() == m.untyped_storage().data_ptr()


def _case(label, make_index, misconception):
    return Case(f": {label}", lambda: (make_index(reftorch),), misconception,  # shown after the name
                expected=lambda: _torch_shares(make_index))


def _never_copies(index):
    return True


def _only_ints_and_slices(index):
    return isinstance(index, (int, slice)) and not isinstance(index, bool)


def _tensors_always_copy(index):
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, reftorch.Tensor) for p in parts):
        return False
    return is_basic_index(index)


def _uint8_is_an_int(index):
    parts = index if isinstance(index, tuple) else (index,)
    return all(is_basic_index(p) or (isinstance(p, reftorch.Tensor) and p.dim() == 0 and p.dtype is reftorch.uint8)
               for p in parts)


def _bool_is_an_int(index):
    parts = index if isinstance(index, tuple) else (index,)
    return all(is_basic_index(p) or isinstance(p, bool) for p in parts)


_ADVANCED = ("a list, a tensor of indices or a mask in the brackets is advanced indexing: it "
             "copies, whichever elements it picks")
_TUPLE = "a tuple in the brackets is one index per dimension, not a list: m[0, 1] is basic, a view"

register(Piece(
    name="is_basic_index",
    chapter="21",
    reference=is_basic_index,
    summary="does t[index] give a view (basic indexing) or a copy (advanced)?",
    cases=[
        _case("m[0]", lambda mod: 0, "an integer picks one row: a view"),
        _case("m[1:]", lambda mod: slice(1, None), "a slice is a view"),
        _case("m[0, 1]", lambda mod: (0, 1), _TUPLE),
        _case("m[..., 1]", lambda mod: (Ellipsis, 1), _TUPLE + "; ... and None are basic too"),
        _case("m[None]", lambda mod: None, "None adds a dimension of size 1: a view"),
        _case("m[[0, 1]]", lambda mod: [0, 1], _ADVANCED + " (even both rows, in order)"),
        _case("m[:, [0, 2]]", lambda mod: (slice(None), [0, 2]), _ADVANCED + "; one advanced part "
                                                                             "makes the whole index advanced"),
        _case("m[m > 2]", lambda mod: mod.arange(24.0).reshape(2, 3, 4) > 2, _ADVANCED),
        _case("m[torch.tensor([1])]", lambda mod: mod.tensor([1]), _ADVANCED),
        _case("m[torch.tensor(1)]", lambda mod: mod.tensor(1), "a 0-d integer tensor is read as an "
                                                              "integer: a view"),
        _case("m[torch.tensor(1, dtype=torch.uint8)]", lambda mod: mod.tensor(1, dtype=mod.uint8),
              "a 0-d uint8 tensor is not read as an integer: torch takes it for a mask, advanced, a copy"),
        _case("m[torch.tensor(True)]", lambda mod: mod.tensor(True),
              "a 0-d bool tensor is a mask, as a Python bool is, not an integer: advanced, a copy"),
        _case("m[0, np.int64(1)]", lambda mod: (0, np.int64(1)),
              "a numpy integer is an integer too (numbers.Integral), as from argmax: a view"),
        _case("m[True]", lambda mod: True, "a Python bool is not an integer here: it is a mask with "
                                           "one element, advanced, a copy"),
    ],
    wrong=[Wrong(_never_copies, "advanced indexing"),
           Wrong(_only_ints_and_slices, "a tuple in the brackets"),
           Wrong(_tensors_always_copy, "0-d integer tensor"),
           Wrong(_uint8_is_an_int, "uint8 tensor"),
           Wrong(_bool_is_an_int, "Python bool")],
))
