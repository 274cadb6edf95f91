"""Checks for the learner's strides and views: where each element lives, and the layout of a view.

The learner writes, on reftorch's building blocks (``tensor_on``,
``version_counter_of``):

* ``my_contiguous_strides(size)``: row-major strides, in elements;
* ``my_storage_positions(t)``: the storage slot of every element, in row-major order;
* ``my_slice(t, dim, start, stop, step)``, ``my_transpose(t, dim0, dim1)`` and
  ``my_expand(t, *sizes)``: views, i.e. new size, stride and offset on the same
  storage, sharing the source's version counter.

torch's answers: ``torch.empty(size).stride()``; the slots read off
``torch.arange(n).as_strided(size, stride, offset)``; torch's own slicing,
``transpose`` and ``expand``, observed like every copy operation (values,
metadata, storage identity, version counter, device, graph).
"""

import re

import reftorch
import torch

from ..judge.calls import call_on_input, with_arguments
from ..witness import battery as _battery, variants as _variants
from ..witness.views import detached
from ._facts import LearnerRaised, call
from ..judge.language import N_, _
from ._observe import M, case_label, expect_same, failure, input_of, is_stub, not_written, where, yours_raised
from ._readers import ReftorchReader as R

TOPIC = "strides_and_views"


def _tag(name, text):
    return M(f"{TOPIC}/{name}", text)


# --- contiguous strides -------------------------------------------------------------

SIZES = ((2, 3), (4,), (), (2, 3, 4), (3, 1), (2, 0, 3))
MORE_SIZES = ((1,), (5, 1, 2), (0,), (1, 1), (3, 2, 1, 2))


def _row_major(size, zero_as_one=True):
    out, step = [], 1
    for n in reversed(size):
        out.insert(0, step)
        step *= max(n, 1) if zero_as_one else n
    return tuple(out)


def _diagnose_strides(size, theirs, yours):
    if yours == tuple(reversed(_row_major(tuple(reversed(size))))) and yours != theirs:
        return _tag("column-major", "your strides are column-major (the first dimension moves fastest): "
                    "torch lays tensors out row-major, the last dimension has stride 1 and each stride is "
                    "the product of the sizes after it")
    if yours == tuple(size):
        return _tag("strides-are-sizes", "your strides are the sizes: a stride counts how many slots to "
                    "skip to move one step along a dimension, the product of the sizes after it")
    if yours == _row_major(size, zero_as_one=False):
        return _tag("zero-size-dims", "your strides become 0 after a dimension of size 0: torch counts a "
                    "size-0 dimension as 1 when it multiplies the sizes, so the strides stay those of a "
                    "tensor with one slot there")
    if size and yours == tuple(s * max(n, 1) for s, n in zip(theirs, size)):
        return _tag("counts-own-dim", "your stride of each dimension includes its own size: a stride is "
                    "the product of the sizes *after* that dimension, so the last stride is 1")
    return _tag("wrong-strides", "your row-major strides differ from torch's: the last dimension has stride "
                "1 and each stride is the product of the sizes after it (a size 0 counts as 1)")


def check_contiguous_strides(my_contiguous_strides, battery="basic"):
    """Row-major strides for every size, including 0-d, size-1 and size-0 dimensions."""
    sizes = SIZES + MORE_SIZES   # visible and hidden: every kind of size; hidden adds drawn ones
    if battery != "basic":
        r = _variants.generator(TOPIC + "/contiguous")
        drawn = tuple(tuple(r.randint(0, 4) for _ in range(r.randint(0, 4))) for _ in range(6))
        sizes = drawn if battery == "drawn" else sizes + drawn
    for size in sizes:
        theirs = tuple(torch.empty(size).stride())
        try:
            yours = call("my_contiguous_strides", my_contiguous_strides, size)
        except LearnerRaised as raised:
            _raised(raised, _(N_("input: {0}")).format(f"size {size}"))
        label = _(N_("input: {0}")).format(f"size {size}")
        if not isinstance(yours, (tuple, list)) or not all(type(s) is int for s in yours):
            raise failure(_tag("not-a-tuple", "your my_contiguous_strides must return a tuple of ints, one "
                               "per dimension"), [label, _(N_("yours returned {0}")).format(repr(yours))])
        if tuple(yours) != theirs:
            raise failure(_diagnose_strides(size, theirs, tuple(yours)),
                          [label, _(N_("{0}: torch gives {1}, yours gives {2}")).format("strides", theirs,
                                                                                         tuple(yours))])


def _raised(raised, label):
    if is_stub(raised.error):
        raise failure(not_written(TOPIC, raised.step), [label]) from None
    raise failure(_tag("raises", f"your {raised.step} raised an error where torch does not"),
                  [label, yours_raised(type(raised.error).__name__, f"{raised.error}{where(raised.error)}")]) \
        from None


# --- storage positions ----------------------------------------------------------------

POSITIONS = tuple(detached(c) for c in (_battery.PLAIN, _battery.TRANSPOSED, _battery.STEPPED, _battery.OFFSET,
                                        _battery.EXPANDED, _battery.PERMUTED, _battery.SCALAR))
MORE_POSITIONS = tuple(detached(c) for c in (_battery.TRANSPOSED_STEPPED, _battery.INT64, _battery.EMPTY,
                                             _battery.OFFSET_OF_LEAF, _battery.PLAIN_ON_GPU))


def _drawn(salt):
    return tuple(detached(c) for c in _variants.tensor_cases(salt, grad_mode=True))


def _cases(battery, basic, more, salt):
    if battery == "basic":
        return basic + more
    if battery == "drawn":
        return _drawn(salt)
    return basic + more + _drawn(salt)


def _torch_positions(t):
    slots = t.untyped_storage().nbytes() // t.element_size()
    return torch.arange(slots).as_strided(t.size(), t.stride(), t.storage_offset()).flatten().tolist()


def _column_order(positions, size):
    """``positions`` (row-major) listed with the first index moving fastest."""
    if len(size) < 2:
        return positions
    index = [[]]
    for n in size:
        index = [i + [k] for i in index for k in range(n)]
    rank = {tuple(i): p for i, p in zip(index, positions)}
    ordered = sorted(rank, key=lambda i: tuple(reversed(i)))
    return [rank[i] for i in ordered]


def _diagnose_positions(t_size, t_offset, theirs, yours):
    if yours == [p - t_offset for p in theirs] and t_offset:
        return _tag("ignores-offset", "your positions ignore the storage offset: element [0, ..., 0] sits "
                    "at slot storage_offset(), not at slot 0 (a slice like x[1:] starts inside its storage)")
    if yours == list(range(t_offset, t_offset + len(theirs))) or yours == list(range(len(theirs))):
        return _tag("assumes-contiguous", "your positions assume the elements sit one after another: each "
                    "element's slot is offset + sum(index * stride) over the dimensions, so a transposed, "
                    "stepped or expanded tensor reads other slots (an expanded one reads some twice)")
    if yours == _column_order(theirs, t_size) and yours != theirs:
        return _tag("column-major-order", "your positions are listed in the wrong element order: list them "
                    "row-major (the last index moves fastest), as t.flatten() would")
    return _tag("wrong-positions", "your storage positions differ from torch's: element [i, j, ...] sits at "
                "slot storage_offset + i*stride[0] + j*stride[1] + ...")


def check_storage_positions(my_storage_positions, battery="basic"):
    """The slot of every element, for contiguous, transposed, stepped, offset, expanded and 0-d tensors."""
    for case in _cases(battery, POSITIONS, MORE_POSITIONS, TOPIC + "/positions"):
        source = case.build(torch)[0]
        theirs = _torch_positions(source)
        mine = case.build(reftorch)[0]
        label = _(N_("input: {0}")).format(case_label(case) + f" (size {R.size(mine)}, stride {R.stride(mine)}, "
                                                              f"offset {R.storage_offset(mine)})")
        try:
            yours = call("my_storage_positions", call_on_input, my_storage_positions, case)
        except LearnerRaised as raised:
            _raised(raised, label)
        yours = list(yours) if isinstance(yours, (list, tuple)) else yours
        if not isinstance(yours, list) or not all(type(p) is int for p in yours):
            raise failure(_tag("not-a-list", "your my_storage_positions must return a list of ints, one per "
                               "element"), [label, _(N_("yours returned {0}")).format(repr(yours))])
        if yours != theirs:
            raise failure(_diagnose_positions(R.size(mine), R.storage_offset(mine), theirs, yours),
                          [label, _(N_("{0}: torch gives {1}, yours gives {2}")).format("positions", theirs, yours)])


# --- views --------------------------------------------------------------------------

_view = detached   # a case's tensor, detached, with the view's arguments (dim, start, stop, step ...)


def _negative_bounds(context):
    """A slice case with a negative start or stop (counted from the end)."""
    args = getattr(context.get("case"), "args", ())
    return len(args) == 4 and any(a is not None and a < 0 for a in args[1:3])


def _empty_slice(context):
    """A slice case whose start is at or past its stop: torch gives 0 elements."""
    args = getattr(context.get("case"), "args", ())
    size = context["theirs"].get("size")
    return len(args) == 4 and size is not None and size[args[0]] == 0


def _slice_blind_spot(context):
    if _negative_bounds(context):
        return _tag("slice-negative-bounds", "your slice reads a negative start or stop as a position before "
                    "the first element: like Python's, a negative bound counts from the end (-1 is the last "
                    "element, -2 the one before), so x[-2:] keeps the last two")
    if _empty_slice(context):
        return _tag("slice-empty", "your slice goes wrong when start is at or past stop: such a slice is empty "
                    "(size 0 along that dimension), never a negative size, as range(n)[start:stop:step] is")
    return None


def _expand_stride(theirs, yours, context):
    """Three stride beliefs an expand can show, told apart dimension by dimension."""
    source = input_of(context["yours"])
    new = len(theirs) - (len(R.size(source)) if source is not None else 0)
    size = context["theirs"].get("size") or ()
    differs = [i for i, (t, y) in enumerate(zip(theirs, yours)) if t != y]
    grown_new = [i for i in differs if i < new and theirs[i] == 0 and yours[i] != 0]
    grown_old = [i for i in differs if i >= new and theirs[i] == 0 and yours[i] != 0]
    zeroed = [i for i in differs if theirs[i] != 0 and yours[i] == 0]
    if grown_new:
        return _tag("expand-keeps-stride", "your expand gives a new leading dimension a non-zero stride: "
                    "expanding never copies, so every index along a dimension expand adds reads the same "
                    "slots: its stride is 0")
    if grown_old:
        return _tag("expand-size-one-stride", "your expand keeps the stride of a size-1 dimension it grows: a "
                    f"dimension of size 1 that expand stretches (to {size[grown_old[0]]} here) reads its one "
                    "element again and again, so its stride becomes 0, like a new dimension's")
    if zeroed:
        return _tag("expand-zeroes-kept-dims", "your expand gives stride 0 to a dimension it does not grow: "
                    "a dimension that keeps its size (a size-1 one included) keeps the source's stride; only "
                    "dimensions that expand stretches get stride 0")
    return _tag("expand-wrong-stride", "your expand gives other strides than torch: a dimension expand "
                "stretches (new, or of size 1) gets stride 0, every other keeps the source's stride")


def _view_misconceptions(op):
    def blind_spots_first(diagnose):
        """A slice's blind spot (negative bounds, an empty slice) names the misconception first."""
        def first(theirs, yours, context):
            return (op == "slice" and _slice_blind_spot(context)) or diagnose(theirs, yours, context)
        return first

    @blind_spots_first
    def offset(theirs, yours, context):
        return _tag(f"{op}-offset", {
            "slice": "your slice starts at the wrong slot: it begins start*stride[dim] slots after the "
                     "source's own storage_offset (forgetting either part moves every element)",
            "transpose": "your transpose changes the storage offset: a transposed view starts where its "
                         "source starts, only the size and stride entries of the two dimensions swap",
            "expand": "your expand changes the storage offset: an expanded view starts where its source "
                      "starts"}[op])

    @blind_spots_first
    def stride(theirs, yours, context):
        size = context["yours"].get("size") or ()
        if op == "slice":
            return _tag("slice-ignores-step", "your slice has the wrong strides: a step k multiplies the "
                        "stride of that dimension by k (x[:, ::2] skips every other slot); the other "
                        "strides stay the source's")
        if op == "transpose":
            if yours == _row_major(size):
                return _tag("transpose-copies-layout", "your transpose gives row-major strides: a transposed "
                            "view does not move any element, it swaps the two strides (and sizes)")
            return _tag("transpose-keeps-strides", "your transpose swaps the sizes but not the strides: "
                        "both must swap, or element [i, j] would read the slot of another element")
        return _expand_stride(theirs, yours, context)

    @blind_spots_first
    def size(theirs, yours, context):
        if op == "slice":
            return _tag("slice-size", "your slice has the wrong size: a slice start:stop:step keeps "
                        "ceil((stop - start) / step) elements, with stop clipped to the size (as "
                        "range(n)[start:stop:step] has)")
        return _tag(f"{op}-size", f"your {op} gives the wrong size")

    @blind_spots_first
    def raised(theirs, yours, context):
        text = (yours or ("", ""))[1]
        refused = re.search(r"strides \[([\d, ]*)\]", text)
        if op == "expand" and "out of bounds" in text and refused and context["theirs"].get("stride"):
            strides = tuple(int(s) for s in refused.group(1).split(",") if s.strip())
            if len(strides) == len(context["theirs"]["stride"]):
                found = _expand_stride(context["theirs"]["stride"], strides, context)
                return _tag(found.tag.split("/")[-1], "your expand builds a layout that reaches past the end "
                            "of the storage (tensor_on refuses it). " + found.text[0].upper() + found.text[1:])
        if "out of bounds" in text:
            tag, cause = {
                "transpose": ("transpose-keeps-strides", "swapping the sizes without the strides does that"),
                "expand": ("expand-keeps-stride", "a dimension that grows must have stride 0, or it reads "
                           "past its source's elements"),
                "slice": ("out-of-bounds", "check the size, stride and offset you computed")}[op]
            return _tag(tag, f"your {op} builds a layout that reaches past the end of the storage "
                        f"(tensor_on refuses it): {cause}")
        return _tag("raises", f"your {op} raised where torch's does not")

    return {
        "same_object": _tag("returns-source", f"your {op} returns the source itself: a view is a new tensor "
                            "object with its own size, stride and offset"),
        "shares_memory": _tag("copies", f"your {op} copies: a view looks into its source's storage, no "
                              "element is moved (writing into the view changes the source)"),
        "storage_offset": offset, "stride": stride, "size": size,
        "values": _tag("wrong-values", f"your {op} reads other elements than torch's"),
        "dtype": _tag("changes-dtype", f"your {op} changes the dtype: a view keeps it"),
        "device": _tag("changes-device", f"your {op} changes the device: a view lives where its storage "
                       "lives"),
        "shares_version_counter": _tag("own-version-counter", f"your {op} gets a version counter of its own: "
                                       "a view shares its source's counter (pass version_counter_of(t) to "
                                       "tensor_on), so in-place writes through either show in both"),
        "version": _tag("version", f"your {op} does not read the source's version: a view shares its counter"),
        "source_version": _tag("bumps-source", f"your {op} bumped the source's version: making a view writes "
                               "nothing"),
        "requires_grad": _tag("requires-grad", f"your {op} changes requires_grad"),
        "grad_fn": _tag("graph", f"your {op} records a node where torch's records none (the inputs here "
                        "do not require grad)"),
        "raised_unexpectedly": raised,
    }


FIELDS = ("same_object", "shares_memory", "size", "stride", "storage_offset", "values", "dtype", "device",
          "shares_version_counter", "version", "source_version", "requires_grad", "grad_fn")


def _slice(t, dim, start, stop, step):
    return t[(slice(None),) * dim + (slice(start, stop, step),)]


B = _battery
SLICES = (_view(B.PLAIN, 1, 0, 3, 2), _view(B.OFFSET, 0, 1, 3, 1), _view(B.TRANSPOSED, 0, 1, 3, 1),
          _view(B.STEPPED, 1, 0, 2, 1), _view(B.PLAIN, 0, 1, 5, 1), _view(B.PLAIN_ON_GPU, 1, 1, 4, 2))
MORE_SLICES = (_view(B.PERMUTED, 2, 0, 3, 2), _view(B.INT64, 0, 0, 3, 2), _view(B.EXPANDED, 0, 1, 2, 1),
               _view(B.TRANSPOSED_STEPPED, 1, 1, 2, 1), _view(B.EMPTY, 1, 0, 3, 2),
               # negative bounds count from the end; a start at or past its stop gives an empty slice
               _view(B.PLAIN, 1, -2, 3, 1), _view(B.OFFSET, 0, -3, -1, 1), _view(B.STEPPED, 1, -1, 5, 2),
               _view(B.PLAIN, 1, 2, 1, 1), _view(B.TRANSPOSED, 0, 3, 0, 2))
TRANSPOSES = (_view(B.PLAIN, 0, 1), _view(B.OFFSET, 1, 0), _view(B.STEPPED, 0, 1), _view(B.PERMUTED, 0, 2),
              _view(B.PLAIN_ON_GPU, 0, 1))
MORE_TRANSPOSES = (_view(B.INT64, 0, 1), _view(B.EXPANDED, 0, 1), _view(B.EMPTY, 0, 1),
                   _view(B.PERMUTED, 1, 1))
EXPANDS = (_view(B.EXPANDED, 4, 2, 3), _view(B.SCALAR, 2, 2), _view(B.PLAIN, 2, 2, 3),
           _view(B.PLAIN_ON_GPU, 1, 2, 4))
MORE_EXPANDS = (_view(B.FLOAT64, 3, 4), _view(B.BOOL, 2, 3), _view(B.PLAIN, -1, 3),
                _view(B.TRANSPOSED, 2, 3, 2),
                # size-1 dimensions: stretched ones get stride 0, kept ones keep their stride
                _view(B.COLUMN, 3, 4), _view(B.ROW, 4, 3), _view(B.COLUMN, 2, 3, 1), _view(B.ROW, 1, 1, 3))


def _spec(case):
    return case.recipe.__self__


def _drawn_views(salt, make_args):
    r = _variants.generator(salt)
    out = []
    for case in _variants.tensor_cases(salt, grad_mode=True):
        args = make_args(r, list(_spec(case).shape))
        if args is not None:
            out.append(detached(case, *args))
    return tuple(out)


def _slice_args(r, shape):
    if not shape:
        return None
    dim = r.randrange(len(shape))
    n = shape[dim]
    return dim, r.randint(-n, n), r.randint(-n, n + 2), r.randint(1, 3)   # negative bounds count from the end


def _transpose_args(r, shape):
    return None if not shape else (r.randrange(len(shape)), r.randrange(len(shape)))


def _expand_args(r, shape):
    sizes = tuple([r.randint(1, 3)] * r.randint(0, 2)) + tuple(r.randint(1, 3) if n == 1 else n for n in shape)
    return sizes or (r.randint(1, 3),)


def _views(battery, basic, more, salt, make_args):
    if battery == "basic":
        return basic + more
    drawn = _drawn_views(salt, make_args)
    return drawn if battery == "drawn" else basic + more + drawn


def _expect_views(op, cases, torch_op, mine):
    """``expect_same`` case by case: the learner's function gets each case's own arguments."""
    misconceptions = _view_misconceptions(op)
    for case in cases:
        expect_same(op, (case,), torch_op, with_arguments(mine, len(case.args)), FIELDS, misconceptions,
                    topic=TOPIC)


def check_slice(my_slice, battery="basic"):
    """``t[..., start:stop:step]`` along ``dim``: a view with the right size, stride and offset."""
    _expect_views("slice", _views(battery, SLICES, MORE_SLICES, TOPIC + "/slice", _slice_args), _slice, my_slice)


def check_transpose(my_transpose, battery="basic"):
    """``t.transpose(dim0, dim1)``: the same storage and offset, two sizes and strides swapped."""
    _expect_views("transpose", _views(battery, TRANSPOSES, MORE_TRANSPOSES, TOPIC + "/transpose", _transpose_args),
                  lambda t, d0, d1: t.transpose(d0, d1), my_transpose)


def check_expand(my_expand, battery="basic"):
    """``t.expand(*sizes)``: stride 0 along every new or broadcast dimension, nothing copied."""
    _expect_views("expand", _views(battery, EXPANDS, MORE_EXPANDS, TOPIC + "/expand", _expand_args),
                  lambda t, *sizes: t.expand(*sizes), my_expand)
