"""Chapter 03's pieces: from an index to a storage slot.

``contiguous_strides`` (the strides of a fresh tensor), ``element_positions``
(the slot of every element, for any size, stride and offset) and
``is_contiguous`` (row-major with no gaps).  Every answer comes from real
torch: ``torch.empty(shape).stride()``, ``as_strided`` over ``arange`` (whose
values are their own slots), ``empty_strided(...).is_contiguous()``.
"""

import torch

import reftorch._strides

from coursebook.build_it.registry import Case, Piece, Wrong, register

# --- contiguous_strides ----------------------------------------------------------

_ROW_MAJOR = ("strides are computed from the right: the last dimension has stride 1 and "
              "each stride is the product of the sizes after it")


def _strides_case(shape, misconception):
    return Case(f"({shape!r})", (shape,), misconception,
                expected=lambda: torch.empty(shape).stride())


def _column_major(shape):
    strides, step = [], 1
    for n in shape:
        strides.append(step)
        step *= max(n, 1)
    return tuple(strides)


def _zero_sizes_multiply(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


register(Piece(
    name="contiguous_strides",
    chapter="03",
    reference=reftorch._strides.contiguous_strides,
    summary="the strides of a fresh, row-major tensor",
    cases=[
        _strides_case((2, 3), _ROW_MAJOR),
        _strides_case((2, 3, 4), _ROW_MAJOR + " (so (2, 3, 4) gives (12, 4, 1), not (1, 2, 6))"),
        _strides_case((5,), "a 1-d tensor steps one element at a time: stride (1,)"),
        _strides_case((), "a 0-d tensor has no dimensions, so no strides: the empty tuple"),
        _strides_case((3, 1, 2), _ROW_MAJOR + "; a dimension of size 1 counts like any other"),
        _strides_case((2, 0, 3), "a dimension of size 0 counts as 1 when the strides before it "
                                 "are multiplied (torch uses max(size, 1)), so no stride becomes 0"),
    ],
    wrong=[Wrong(_column_major, "computed from the right", breaks="m.stride"),
           Wrong(_zero_sizes_multiply, "size 0 counts as 1")],
))

# --- element_positions -----------------------------------------------------------


def _positions_on_torch(shape, strides, offset):
    span = offset + sum((n - 1) * s for n, s in zip(shape, strides) if n > 0) + 1
    return torch.arange(span).as_strided(shape, strides, offset).tolist()


def _positions_case(shape, strides, offset, misconception):
    return Case(f"({shape!r}, {strides!r}, {offset})", (shape, strides, offset), misconception,
                expected=lambda: _positions_on_torch(shape, strides, offset))


def _no_offset(shape, strides, offset):
    return reftorch._strides.element_positions(shape, strides, 0)


def _row_major_always(shape, strides, offset):
    return reftorch._strides.element_positions(shape, reftorch._strides.contiguous_strides(shape), offset)


_OFFSET = "every position starts at the storage offset: slot = offset + sum(index_k * stride_k)"
_STRIDES = "use the strides you are given, not the row-major ones: a view's strides are its own"

register(Piece(
    name="element_positions",
    chapter="03",
    reference=reftorch._strides.element_positions,
    summary="the storage slot of every element, for a size, stride and offset",
    cases=[
        _positions_case((2, 3), (3, 1), 0, "a row-major 2x3 reads slots 0 to 5 in order"),
        _positions_case((3, 2), (1, 3), 0, _STRIDES + " (a transpose swaps them)"),
        _positions_case((2,), (3,), 1, _OFFSET + " (a column of a 2x3 starts at slot 1)"),
        _positions_case((2, 2), (6, 2), 1, _OFFSET + "; a stepped slice multiplies the stride"),
        _positions_case((3, 2), (0, 1), 0, "a stride of 0 reads the same slots again "
                                           "(expand): every row is the same row"),
        _positions_case((), (), 4, "a 0-d tensor has one element, at the offset itself"),
        _positions_case((0, 3), (3, 1), 0, "a tensor with no elements has no positions: an empty grid"),
    ],
    wrong=[Wrong(_no_offset, "starts at the storage offset"),
           Wrong(_row_major_always, "use the strides you are given")],
))

# --- is_contiguous ---------------------------------------------------------------


def _contiguous_case(shape, strides, misconception):
    return Case(f"({shape!r}, {strides!r})", (shape, strides), misconception,
                expected=lambda: torch.empty_strided(shape, strides).is_contiguous())


def _equals_row_major(shape, strides):
    return tuple(strides) == reftorch._strides.contiguous_strides(shape)


def _any_increasing(shape, strides):
    return list(strides) == sorted(strides, reverse=True)


register(Piece(
    name="is_contiguous",
    chapter="03",
    reference=reftorch._strides.is_contiguous,
    summary="row-major order with no gaps",
    cases=[
        _contiguous_case((2, 3), (3, 1), "row-major strides are contiguous"),
        _contiguous_case((3, 2), (1, 3), "a transpose is not contiguous: reading it row by row "
                                         "jumps around the storage"),
        _contiguous_case((2, 3), (6, 2), "a stepped slice leaves gaps: not contiguous, even though "
                                         "its strides decrease from left to right"),
        _contiguous_case((3, 2), (0, 1), "an expanded tensor (stride 0) reads slots twice: not contiguous"),
        _contiguous_case((2, 1, 3), (3, 99, 1), "a dimension of size 1 is never stepped along, so its "
                                                "stride does not matter"),
        _contiguous_case((0, 3), (1, 1), "a tensor with no elements is always contiguous"),
    ],
    wrong=[Wrong(_equals_row_major, "size 1 is never stepped along"),
           Wrong(_any_increasing, "a stepped slice leaves gaps")],
))
