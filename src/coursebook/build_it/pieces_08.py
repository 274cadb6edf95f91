"""Chapter 08's piece: which layouts a copy keeps, ``is_non_overlapping_and_dense``.

A warm-up for the clone exercise (which builds the whole op): ``clone()``
keeps a layout exactly when it is *dense*, when its elements fill a block of
memory exactly once, in any order.  The answer comes from real torch, asked
the way the chapter asks it: a tensor with that size and stride, cloned,
keeps its strides if and only if it is dense.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch._strides

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _clone_keeps(shape, strides):
    return torch.empty_strided(shape, strides).clone().stride() == tuple(strides)


def _case(shape, strides, misconception):
    return Case(f"({shape!r}, {strides!r})", (shape, strides), misconception,
                expected=lambda: _clone_keeps(shape, strides))


def _dense_means_contiguous(shape, strides):
    return reftorch._strides.is_contiguous(shape, strides)


def _no_zero_stride(shape, strides):
    return 0 not in strides


def _strides_sorted(shape, strides):
    ordered = sorted(zip(strides, shape))
    expected = 1
    for s, n in ordered:
        if s != expected:
            return False
        expected *= n
    return True


_NOT_CONTIGUOUS = ("dense is not the same as contiguous: a transposed matrix fills its block "
                   "exactly once, only in another order, so the clone keeps its strides")

register(Piece(
    name="is_non_overlapping_and_dense",
    chapter="08",
    reference=reftorch._strides.is_non_overlapping_and_dense,
    summary="does a layout fill a block of memory exactly once (then clone keeps it)?",
    cases=[
        _case((2, 3), (3, 1), "a row-major layout is dense"),
        _case((3, 2), (1, 3), _NOT_CONTIGUOUS),
        _case((2, 3, 4), (12, 1, 3), _NOT_CONTIGUOUS + " (any order of the dimensions will do)"),
        _case((3,), (2,), "a stepped slice leaves a gap after every element: not dense, "
                          "so the clone packs it"),
        _case((2, 2), (4, 1), "every other row of a 4-wide matrix leaves gaps between the rows: not dense"),
        _case((3, 2), (0, 1), "an expanded tensor (stride 0) uses one slot for several elements: "
                              "overlapping is not dense"),
        _case((2, 2), (1, 1), "neighbouring elements that share slots overlap: not dense, "
                              "even with no stride of 0"),
        _case((2, 1, 3), (3, 100, 1), "a dimension of size 1 is never stepped along, so its stride "
                                      "does not matter: still dense"),
        _case((1, 3), (0, 1), "a stride of 0 on a dimension of size 1 repeats nothing: still dense"),
        _case((1,), (5,), "a single element fills its one slot whatever its stride: dense (a size of 1 "
                          "is never stepped along, in 1-D too)"),
        _case((2, 3), (5, 0), "overlaps and gaps can balance: the first column of a 2x5 matrix expanded to "
                              "3 columns spans 6 slots for 6 elements, yet shares slots and skips others: "
                              "not dense"),
        _case((0, 3), (1, 1), "a tensor with no elements is dense (it has nothing to lay out)"),
    ],
    wrong=[Wrong(_dense_means_contiguous, "dense is not the same as contiguous"),
           Wrong(_no_zero_stride, "leaves a gap"),
           Wrong(_strides_sorted, "size 1 is never stepped along")],
))
