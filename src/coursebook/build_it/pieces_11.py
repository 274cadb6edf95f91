"""Chapter 11's piece: the destinations ``copy_`` refuses, ``check_no_internal_overlap``.

A warm-up for the copy_into exercise (which builds the whole op): before
writing, torch refuses a destination in which several elements share one
memory slot.  The answer comes from real torch: ``dst.copy_(src)`` on a
destination with that size and stride either goes through (None) or raises.
"""

import torch

import reftorch
import reftorch._inplace

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _torch_refuses(shape, strides):
    dst = torch.empty_strided(shape, strides)
    dst.copy_(torch.arange(float(dst.numel())).reshape(shape))


def _destination(shape, strides):
    span = sum((n - 1) * s for n, s in zip(shape, strides)) + 1 if 0 not in shape else 0
    return (reftorch.as_strided(reftorch.zeros(max(span, 1)), shape, strides),)


def _case(shape, strides, misconception):
    return Case(f"(a destination of size {shape!r}, stride {strides!r})",
                lambda: _destination(shape, strides), misconception,
                expected=lambda: _torch_refuses(shape, strides))


def _any_zero_stride(self):
    if 0 in self.stride():
        raise RuntimeError("more than one element refers to a single memory location")


def _any_not_dense(self):
    if not reftorch._strides.is_non_overlapping_and_dense(tuple(self.shape), self.stride()):
        raise RuntimeError("more than one element refers to a single memory location")


def _never(self):
    return None


register(Piece(
    name="check_no_internal_overlap",
    chapter="11",
    reference=reftorch._inplace.check_no_internal_overlap,
    summary="refuse to write into a tensor whose elements share memory (expand)",
    cases=[
        _case((2, 3), (3, 1), "a plain tensor has a slot for every element: the write goes through"),
        _case((3, 2), (1, 3), "a transposed tensor still has one slot per element: the write goes through"),
        _case((3,), (2,), "gaps are harmless: a stepped slice has one slot per element, so the write "
                          "goes through (only shared slots are refused)"),
        _case((2, 3), (0, 1), "an expanded tensor (stride 0) has several elements in one slot: which "
                              "number should the slot keep? torch refuses (RuntimeError)"),
        _case((3,), (0,), "a stride of 0 over several elements shares one slot: torch refuses (RuntimeError)"),
        _case((1, 3), (0, 1), "a stride of 0 on a dimension of size 1 repeats nothing: the write goes through"),
        _case((2, 2), (1, 1), "torch only refuses the case it can see cheaply (a stride of 0); other "
                              "overlapping layouts are 'too hard' to detect and the write goes through"),
    ],
    wrong=[Wrong(_never, "torch refuses"),
           Wrong(_any_zero_stride, "dimension of size 1 repeats nothing"),
           Wrong(_any_not_dense, "gaps are harmless")],
))
