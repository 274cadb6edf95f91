"""Chapter 04's piece: the check that refuses to write into an expanded tensor.

``check_no_internal_overlap(self)`` raises RuntimeError when several
elements of ``self`` share one storage slot in the way torch detects: a
stride of 0 along a dimension longer than 1.  Each case builds the same
layout on real torch with ``as_strided`` and tries ``add_(1)``: torch either
writes or raises.
"""

import torch

import reftorch
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
