"""Chapter 03's pieces: from an index to a storage slot.

``contiguous_strides`` (the strides of a fresh tensor), ``element_positions``
(the slot of every element, for any size, stride and offset) and
``is_contiguous`` (row-major with no gaps).  Every answer comes from real
torch: ``torch.empty(shape).stride()``, ``as_strided`` over ``arange`` (whose
values are their own slots), ``empty_strided(...).is_contiguous()``.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch._bounds
import reftorch._strides
import reftorch._views

from coursebook.build_it.registry import Case, Piece, Wrong, register, told_tuples, tuples_only

# --- contiguous_strides ----------------------------------------------------------

_ROW_MAJOR = ("strides are computed from the right: the last dimension has stride 1 and "
              "each stride is the product of the sizes after it")


def _strides_case(shape, misconception):
    return Case(f"({shape!r})", (shape,), misconception, expected=lambda: torch.empty(shape).stride(),
                observe=tuples_only, explain=told_tuples)


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
    return torch.arange(span).as_strided(shape, strides, offset).flatten().tolist()


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
        _positions_case((0, 3), (3, 1), 0, "a tensor with no elements has no positions: an empty list"),
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
        _contiguous_case((2, 3), (4, 1), "every row of a 4-wide matrix cut to 3 columns leaves a gap after it: "
                                         "not contiguous, even though the last stride is 1 and the strides "
                                         "decrease"),
        _contiguous_case((3, 2), (0, 1), "an expanded tensor (stride 0) reads slots twice: not contiguous"),
        _contiguous_case((2, 1, 3), (3, 99, 1), "a dimension of size 1 is never stepped along, so its "
                                                "stride does not matter"),
        _contiguous_case((0, 3), (1, 1), "a tensor with no elements is always contiguous"),
    ],
    wrong=[Wrong(_equals_row_major, "size 1 is never stepped along"),
           Wrong(_any_increasing, "a stepped slice leaves gaps")],
))

# --- the geometry of views: slice, transpose, expand -------------------------------
# Each case lays a tensor over ``torch.arange(40)`` with the given size, stride and
# offset (``as_strided``), takes the view on real torch, and reads its metadata.


def _geometry(view, with_offset=True):
    return (tuple(view.shape), view.stride()) + ((view.storage_offset(),) if with_offset else ())


def _slice_case(size, stride, offset, dim, start, stop, step, misconception):
    def on_torch():
        base = torch.arange(40).as_strided(size, stride, offset)
        return _geometry(base[(slice(None),) * dim + (slice(start, stop, step),)])
    return Case(f"({size!r}, {stride!r}, {offset}, dim={dim}, {start}:{stop}:{step})",
                (size, stride, offset, dim, start, stop, step), misconception, expected=on_torch,
                observe=tuples_only, explain=told_tuples)


def _slice_no_step_in_stride(size, stride, storage_offset, dim, start, stop, step):
    new_size, _, offset = reftorch._views.slice_geometry(size, stride, storage_offset, dim, start, stop, step)
    return new_size, tuple(stride), offset


def _slice_offset_from_zero(size, stride, storage_offset, dim, start, stop, step):
    new_size, new_stride, offset = reftorch._views.slice_geometry(size, stride, 0, dim, start, stop, step)
    return new_size, new_stride, offset


def _slice_length_floor(size, stride, storage_offset, dim, start, stop, step):
    start, stop, _ = slice(start, stop, step).indices(size[dim])
    length = max(0, (stop - start) // step)
    return (tuple(size[:dim]) + (length,) + tuple(size[dim + 1:]),
            tuple(stride[:dim]) + (stride[dim] * step,) + tuple(stride[dim + 1:]),
            storage_offset + start * stride[dim])


def _slice_no_clamp(size, stride, storage_offset, dim, start, stop, step):
    n = size[dim]
    start = 0 if start is None else start + n if start < 0 else start
    stop = n if stop is None else stop + n if stop < 0 else stop
    length = max(0, (stop - start + step - 1) // step)
    return (tuple(size[:dim]) + (length,) + tuple(size[dim + 1:]),
            tuple(stride[:dim]) + (stride[dim] * step,) + tuple(stride[dim + 1:]),
            storage_offset + start * stride[dim])


_STEP = "a step of k moves k elements along the dimension each time: the stride is multiplied by k"

register(Piece(
    name="slice_geometry",
    chapter="03",
    reference=reftorch._views.slice_geometry,
    summary="the size, stride and offset of a[start:stop:step]",
    cases=[
        _slice_case((6,), (1,), 0, 0, 1, 4, 1, "a slice keeps the stride and starts later: offset 1, length 3"),
        _slice_case((6,), (1,), 0, 0, 0, 6, 2, _STEP),
        _slice_case((6,), (1,), 0, 0, 1, 6, 2, "the length counts the steps that fit, rounding up: "
                                               "1, 3, 5 is 3 elements, (6 - 1 + 2 - 1) // 2"),
        _slice_case((2, 3), (3, 1), 0, 1, 1, None, 1, "slicing the columns of a 2x3 starts at column 1: "
                                                      "the offset moves by start * stride[dim]"),
        _slice_case((3, 4), (4, 1), 2, 0, 1, 3, 1, "the offset adds to the tensor's own offset, it does "
                                                   "not start again from 0"),
        _slice_case((2, 5), (1, 2), 0, 1, 0, 5, 2, _STEP + ", whatever the stride was before (here "
                                                   "a transposed layout)"),
        _slice_case((6,), (1,), 0, 0, -2, None, 1, "negative and missing bounds are clamped as Python "
                                                   "clamps them: slice(start, stop, step).indices(n)"),
        _slice_case((6,), (1,), 0, 0, 4, 2, 1, "a slice that ends before it starts is empty: length 0"),
        _slice_case((6,), (1,), 0, 0, 2, 100, 1, "a bound past the end is clamped to the size, as Python "
                                                  "clamps it: 2:100 of 6 elements is 4 elements"),
    ],
    wrong=[Wrong(_slice_no_step_in_stride, "the stride is multiplied by k", breaks="every_other"),
           Wrong(_slice_offset_from_zero, "adds to the tensor's own offset"),
           Wrong(_slice_length_floor, "rounding up"),
           Wrong(_slice_no_clamp, "a bound past the end is clamped")],
))


def _transpose_case(size, stride, dim0, dim1, misconception):
    def on_torch():
        return _geometry(torch.empty_strided(size, stride).transpose(dim0, dim1), with_offset=False)
    return Case(f"({size!r}, {stride!r}, {dim0}, {dim1})", (size, stride, dim0, dim1), misconception,
                expected=on_torch, observe=tuples_only, explain=told_tuples)


def _transpose_size_only(size, stride, dim0, dim1):
    new_size = list(size)
    new_size[dim0], new_size[dim1] = new_size[dim1], new_size[dim0]
    return tuple(new_size), tuple(stride)


def _transpose_fresh_strides(size, stride, dim0, dim1):
    new_size = list(size)
    new_size[dim0], new_size[dim1] = new_size[dim1], new_size[dim0]
    return tuple(new_size), reftorch._strides.contiguous_strides(new_size)


_SWAP = ("a transpose moves no element: it swaps the sizes *and* the strides of the two dimensions, "
         "so reading it row by row steps through the storage column by column")

register(Piece(
    name="transpose_geometry",
    chapter="03",
    reference=reftorch._views.transpose_geometry,
    summary="the size and stride of t() and transpose(dim0, dim1)",
    cases=[
        _transpose_case((2, 3), (3, 1), 0, 1, _SWAP + " (m.t(): size (3, 2), strides (1, 3))"),
        _transpose_case((3, 2), (1, 3), 0, 1, "transposing a transpose swaps back: the row-major strides return"),
        _transpose_case((2, 3, 4), (12, 4, 1), 0, 2, _SWAP + "; the dimensions in between keep theirs"),
        _transpose_case((2, 3, 4), (12, 4, 1), 1, 1, "a dimension swapped with itself changes nothing"),
        _transpose_case((4, 2), (4, 2), 0, 1, _SWAP + ", whatever they were (here a stepped slice's)"),
        _transpose_case((), (), 0, 0, "a 0-d tensor has no dimension to swap: transpose(0, 0) gives it "
                                      "back with size () and strides ()"),
    ],
    wrong=[Wrong(_transpose_size_only, "swaps the sizes *and* the strides", breaks="mt"),
           Wrong(_transpose_fresh_strides, "a transpose moves no element")],
))


def _expand_case(size, stride, sizes, misconception):
    def on_torch():
        return _geometry(torch.empty_strided(size, stride).expand(*sizes), with_offset=False)
    return Case(f"({size!r}, {stride!r}, {sizes!r})", (size, stride, sizes), misconception, expected=on_torch,
                observe=tuples_only, explain=told_tuples)


def _expand_keeps_stride(size, stride, sizes):
    lead = len(sizes) - len(size)
    new_stride = [0] * lead + list(stride)
    new_size = [n if n != -1 else size[i - lead] for i, n in enumerate(sizes)]
    return tuple(new_size), tuple(new_stride)


def _expand_all_leading_zero(size, stride, sizes):
    lead = len(sizes) - len(size)
    new_size, new_stride = list(sizes), [0] * lead
    for n, old_n, s in zip(sizes[lead:], size, stride):
        if n not in (-1, old_n) and old_n != 1:
            raise RuntimeError("size mismatch")
        new_stride.append(s if n in (-1, old_n) else 0)
    return tuple(old if n == -1 else n for n, old in zip(new_size, (1,) * lead + tuple(size))), tuple(new_stride)


def _expand_any_size(size, stride, sizes):
    lead = len(sizes) - len(size)
    new_size, new_stride = [], []
    for i, n in enumerate(sizes):
        old_n, old_s = (size[i - lead], stride[i - lead]) if i >= lead else (1, 0)
        n = old_n if n == -1 else n
        new_size.append(n)
        new_stride.append(old_s if n == old_n else 0)
    return tuple(new_size), tuple(new_stride)


def _expand_last_stride_one(size, stride, sizes):
    if size or sizes != (1,):
        return reftorch._views.infer_expand_geometry(size, stride, sizes)
    return (1,), (1,)  # a fresh tensor's last stride, where torch gives 0


_GROWS = "a dimension of size 1 grows with stride 0: every position along it reads the same elements"

register(Piece(
    name="infer_expand_geometry",
    chapter="03",
    reference=reftorch._views.infer_expand_geometry,
    summary="the size and stride of expand(*sizes)",
    cases=[
        _expand_case((1, 3), (3, 1), (4, 3), _GROWS),
        _expand_case((3,), (1,), (2, 3), "new dimensions are added on the left; growing past 1 gives them stride 0"),
        _expand_case((3, 1), (1, 1), (3, 5), _GROWS + "; the dimensions that keep their size keep their stride"),
        _expand_case((2, 1), (1, 1), (-1, 4), "-1 keeps the dimension's size (and its stride)"),
        _expand_case((3,), (1,), (1, 3), "a new leading dimension of size 1 strides over the dimensions "
                                         "after it (size * stride), as a fresh tensor would; only a new "
                                         "size (past 1, or 0) makes a stride 0"),
        _expand_case((), (), (1,), "a new leading dimension with no dimension after it (a 0-d tensor "
                                   "expanded) has nothing to stride over: its stride is 0, not 1"),
        _expand_case((1, 3), (3, 1), (0, 3), "a dimension of size 1 may become 0 as well as grow: nothing "
                                             "is repeated, and its stride is 0"),
        _expand_case((2, 3), (3, 1), (4, 3), "only a dimension of size 1 can grow: expanding 2 rows to 4 "
                                             "raises RuntimeError"),
        _expand_case((3,), (1,), (-1, 3), "-1 is not allowed for a new leading dimension (it has no size to "
                                          "keep): RuntimeError"),
    ],
    wrong=[Wrong(_expand_keeps_stride, "grows with stride 0", breaks="repeated"),
           Wrong(_expand_all_leading_zero, "strides over the dimensions after it"),
           Wrong(_expand_any_size, "only a dimension of size 1 can grow"),
           Wrong(_expand_last_stride_one, "nothing to stride over")],
))

# --- check_in_bounds_for_storage ---------------------------------------------------

_DTYPE_OF_ITEMSIZE = {1: "uint8", 2: "float16", 4: "float32", 8: "float64"}


def _bounds_case(size, stride, offset, itemsize, nbytes, misconception):
    def on_torch():  # as_strided checks the layout against the storage (set_ would grow it)
        t = torch.empty(0, dtype=getattr(torch, _DTYPE_OF_ITEMSIZE[itemsize])).set_(torch.UntypedStorage(nbytes))
        t.as_strided(size, stride, offset)
    return Case(f"({size!r}, {stride!r}, offset {offset}, itemsize {itemsize}, {nbytes} bytes)",
                (size, stride, offset, itemsize, nbytes), misconception, expected=on_torch,
                observe=lambda result, args: None)


def _counts_elements(size, stride, storage_offset, itemsize, nbytes):
    if (storage_offset + reftorch._strides.numel(size)) * itemsize > nbytes:
        raise RuntimeError("out of bounds")


def _forgets_offset(size, stride, storage_offset, itemsize, nbytes):
    if 0 not in size and (1 + sum((n - 1) * s for n, s in zip(size, stride))) * itemsize > nbytes:
        raise RuntimeError("out of bounds")


def _slots_not_bytes(size, stride, storage_offset, itemsize, nbytes):
    if 0 not in size and storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride)) > nbytes:
        raise RuntimeError("out of bounds")


def _empty_too(size, stride, storage_offset, itemsize, nbytes):
    if (storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))) * itemsize > nbytes:
        raise RuntimeError("out of bounds")


def _never(size, stride, storage_offset, itemsize, nbytes):
    return None


_LAST = ("the last element decides, not the number of elements: it sits at slot "
         "offset + sum((n - 1) * stride), and the storage needs (slot + 1) * itemsize bytes")

register(Piece(
    name="check_in_bounds_for_storage",
    chapter="03",
    reference=reftorch._bounds.check_in_bounds_for_storage,
    summary="refuse a layout whose last element lies past the end of its storage",
    cases=[
        _bounds_case((2, 3), (3, 1), 0, 4, 24, "a 2x3 float32 needs exactly 24 bytes: it fits"),
        _bounds_case((2, 3), (3, 1), 0, 4, 20, "a layout that needs more bytes than the storage has "
                                               "is refused with RuntimeError"),
        _bounds_case((2, 3), (3, 1), 1, 4, 24, "the offset counts: starting one slot later, the last "
                                               "element is slot 6, past a 24-byte storage"),
        _bounds_case((2, 3), (3, 1), 0, 8, 24, "sizes and strides count elements, the storage counts "
                                               "bytes: multiply by the itemsize"),
        _bounds_case((4,), (0,), 2, 4, 12, _LAST + " (an expanded tensor reads few slots)"),
        _bounds_case((2,), (5,), 0, 4, 20, _LAST + " (a stride with gaps reaches far)"),
        _bounds_case((3, 2), (1, 3), 0, 4, 24, "a transpose reads the same six slots: it fits"),
        _bounds_case((0, 3), (3, 1), 7, 4, 0, "a tensor with no elements reads nothing: it fits any "
                                              "storage, whatever its offset"),
        _bounds_case((), (), 6, 4, 24, "a 0-d tensor is one element, at the offset: slot 6 needs 28 bytes"),
    ],
    wrong=[Wrong(_counts_elements, "the last element decides"),
           Wrong(_forgets_offset, "the offset counts"),
           Wrong(_slots_not_bytes, "multiply by the itemsize"),
           Wrong(_empty_too, "reads nothing"),
           Wrong(_never, "is refused with RuntimeError", breaks="RuntimeError")],
))
