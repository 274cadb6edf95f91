"""Chapter 04's pieces: which index copies, and the check that refuses to write into an expanded tensor.

``is_advanced(part)`` decides, for one part of an index, whether ``m[...]``
becomes a copy (advanced) or stays a view (basic).  Each case indexes a 2x3
tensor with that part on real torch and asks whether the result shares the
tensor's memory.

``check_no_internal_overlap(self)`` raises RuntimeError when several
elements of ``self`` share one storage slot in the way torch detects: a
stride of 0 along a dimension longer than 1.  Each case builds the same
layout on real torch with ``as_strided`` and tries ``add_(1)``: torch either
writes or raises.
"""

import warnings

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import numpy as np

import reftorch
import reftorch._indexing
import reftorch._inplace

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _on_torch(size, stride):
    def run():
        torch.zeros(12).as_strided(size, stride).add_(1)  # raises where torch refuses
    return run


def _case(size, stride, misconception):
    return Case(f"(zeros(12).as_strided({size!r}, {stride!r}))",
                lambda: (reftorch.zeros(12).as_strided(size, stride),), misconception,
                expected=_on_torch(size, stride), observe=lambda result, args: None)


def _never(self):
    return None


def _any_zero_stride(self):
    if 0 in self.stride():
        raise RuntimeError("overlap")


def _not_contiguous(self):
    if not self.is_contiguous():
        raise RuntimeError("overlap")


_EXPANDED = ("an expanded dimension (stride 0, size above 1) puts several elements in one slot: "
             "an element-wise write would write one slot several times, so torch raises RuntimeError")

register(Piece(
    name="check_no_internal_overlap",
    chapter="04",
    reference=reftorch._inplace.check_no_internal_overlap,
    summary="refuse to write where elements share a slot",
    cases=[
        _case((3, 2), (2, 1), "a contiguous tensor has one slot per element: the write goes ahead"),
        _case((3, 2), (0, 1), _EXPANDED),
        _case((2, 3, 2), (2, 0, 1), _EXPANDED + " (any dimension, not only the first)"),
        _case((1, 3), (0, 1), "a dimension of size 1 is never stepped along: a stride of 0 there "
                              "shares nothing, so the write goes ahead"),
        _case((1, 3), (0, 2), "a stride of 0 on a dimension of size 1 shares nothing in a stepped tensor "
                              "either: torch refuses only a stride of 0 on a size above 1"),
        _case((3, 2), (1, 3), "a transpose has one slot per element, only in another order: "
                              "not an overlap"),
        _case((2, 2), (6, 2), "a stepped slice leaves gaps but shares no slot: not an overlap"),
        _case((3, 2), (1, 1), "torch looks only for stride 0: other overlapping layouts are "
                              "'too hard' to detect, and the write goes ahead"),
    ],
    wrong=[Wrong(_never, "several elements in one slot", breaks="add_"),
           Wrong(_any_zero_stride, "size 1 is never stepped along"),
           Wrong(_not_contiguous, "a transpose has one slot per element")],
))


# --- is_advanced -----------------------------------------------------------------


def _index_case(label, make, misconception):
    def on_torch():
        m = torch.arange(6.0).reshape(2, 3)
        with warnings.catch_warnings():  # a uint8 index: torch warns that uint8 masks are deprecated
            warnings.filterwarnings("ignore", message="indexing with dtype torch.uint8")
            result = m[make(torch)]
        return result.untyped_storage().data_ptr() != m.untyped_storage().data_ptr()
    return Case(f"({label})", lambda: (make(reftorch),), misconception, expected=on_torch)


def _tensors_always(part):
    return isinstance(part, (bool, list, tuple, reftorch.Tensor))


def _lists_in_order_are_views(part):
    if isinstance(part, list):
        return part != list(range(part[0], part[0] + len(part))) if part else True
    return reftorch._indexing.is_advanced(part)


def _uint8_is_an_integer(part):
    if isinstance(part, reftorch.Tensor) and part.dim() == 0 and part.dtype == reftorch.uint8:
        return False
    return reftorch._indexing.is_advanced(part)


def _bools_are_integers(part):
    if isinstance(part, bool):
        return False
    return reftorch._indexing.is_advanced(part)


_KIND = "the kind of index decides, not its values"

register(Piece(
    name="is_advanced",
    chapter="04",
    reference=reftorch._indexing.is_advanced,
    summary="which part of an index makes a copy",
    cases=[
        _index_case("1", lambda m: 1, "an integer picks one position, a fixed step from the start: a view"),
        _index_case("slice(0, 2)", lambda m: slice(0, 2), "a slice is regular steps: a view"),
        _index_case("None", lambda m: None, "None adds a dimension of size 1 and moves nothing: a view"),
        _index_case("...", lambda m: ..., "... stands for the dimensions left alone: a view"),
        _index_case("np.int64(1)", lambda m: np.int64(1), "a numpy integer is an integer: a view"),
        _index_case("[0, 1]", lambda m: [0, 1], _KIND + ": a list is advanced, and copies, even when it "
                                                      "picks every row in order"),
        _index_case("tensor([1])", lambda m: m.tensor([1]), "an index tensor with a dimension is advanced: a copy"),
        _index_case("tensor(1)", lambda m: m.tensor(1), "a 0-d integer tensor is read as the integer it "
                                                        "holds: basic, a view"),
        _index_case("True", lambda m: True, "True is not the integer 1 here: a bool is advanced (it adds a "
                                            "dimension indexed with [0]) and copies"),
        _index_case("tensor(True)", lambda m: m.tensor(True), "a 0-d bool tensor is a bool, not an integer: "
                                                              "advanced, a copy"),
        _index_case("tensor(1, dtype=uint8)", lambda m: m.tensor(1, dtype=m.uint8),
                    "a 0-d uint8 tensor is not read as an integer: like a bool one, it is a mask "
                    "(the old kind), advanced, a copy"),
        _index_case("tensor([True, False])", lambda m: m.tensor([True, False]), "a mask is advanced: a copy"),
        _index_case("np.array(1)", lambda m: np.array(1), "a numpy array is read as the tensor it becomes: "
                                                          "a 0-d integer one is the integer it holds, basic, a view"),
        _index_case("np.array([0, 1])", lambda m: np.array([0, 1]), "a numpy array with a dimension becomes an "
                                                                    "index tensor with a dimension: advanced, a copy"),
    ],
    wrong=[Wrong(_tensors_always, "read as the integer it holds", breaks="stdout"),
           Wrong(_lists_in_order_are_views, _KIND),
           Wrong(_bools_are_integers, "True is not the integer 1 here"),
           Wrong(_uint8_is_an_integer, "a 0-d uint8 tensor is not read as an integer")],
))
