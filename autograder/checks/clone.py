"""Checks for the learner's ``clone``: ``my_clone(t, *, memory_format=preserve_format)``.

torch's answer, for comparison: a new object, new metadata with the same size,
dtype and device, strides chosen by ``memory_format``, new memory holding the
same numbers (and nothing else: no ``.grad``, no Python attributes), a
``CloneBackward0`` node when the source requires grad (in grad mode), and a
new version counter at 0.
"""

import torch

from ..judge.learner import Reftorch, with_keywords
from ..witness import battery as _battery, variants as _variants
from ..judge.language import N_, _
from ._observe import (M, battery as resolve_battery, by_torch, choose, expect_same, failure, input_of, is_stub,
                       not_written, where, yours_raised)

OP = "clone"


def _shares_memory(theirs, yours, context):
    mine = context["yours"]
    if mine.get("same_object"):
        return M("clone/returns-source", "your clone returns the source itself: `b = a` is not a copy; "
                 "clone must build a new tensor object")
    if mine.get("stride") == context["theirs"].get("stride") and not mine.get("is_view"):
        return M("clone/shares-memory", "your clone shares memory with its source: it is an alias (what "
                 "detach() gives), so writing to the clone would change the original")
    return M("clone/shares-memory", "your clone shares memory with its source: writing to the clone "
             "would change the original")


def is_dense(size, stride):
    """Does the layout use each slot of one block exactly once (a permutation of row-major)?"""
    if any(n == 0 for n in size):
        return True
    step = 1
    for s, n in sorted((s, n) for n, s in zip(size, stride) if n != 1):
        if s != step:
            return False
        step *= n
    return True


PACKS_ROW_MAJOR = ("your copy packs this layout row-major, but the source is not dense (it leaves gaps or "
                   "reuses slots, like a stepped or expanded view) and its dimensions do not sit in row-major "
                   "order in memory: preserve_format packs such a layout densely, its dimensions ordered by "
                   "stride (the smallest innermost; a stride-0 dimension keeps its row-major place, and of two "
                   "equal strides the bigger size goes outside), so a transposed stepped view stays transposed")


def _strides(theirs, yours, context):
    size = context["yours"].get("size") or ()
    row_major, step = [], 1
    for n in reversed(size):
        row_major.insert(0, step)
        step *= max(n, 1)
    source = input_of(context["yours"])
    if tuple(row_major) == yours and source is not None and not is_dense(tuple(source.shape), tuple(source.stride())):
        return M("clone/packs-row-major", PACKS_ROW_MAJOR)
    if tuple(row_major) == yours:
        return M("clone/always-contiguous", "your clone does not preserve the layout: \"a clone is always "
                 "contiguous\" is a myth; with preserve_format a dense tensor keeps its strides exactly "
                 "(a transposed matrix stays transposed) and only other layouts are packed densely")
    return M("clone/wrong-strides", "your clone lays the copy out with other strides than torch: with "
             "preserve_format a dense layout is kept and any other one (stepped, expanded) is packed "
             "densely in the same memory order, and contiguous_format always gives row-major strides")


_requires_grad = by_torch(
    M("clone/drops-history", "your clone drops requires_grad: a clone stays in the graph, it is not a detach"),
    M("clone/records-without-grad", "your clone requires grad where torch's does not: nothing is recorded inside "
      "no_grad or for a source that does not require grad"))


def _is_leaf(theirs, yours, context):
    if not theirs:
        if context["yours"].get("requires_grad"):
            return M("clone/new-leaf", "your clone is a leaf that requires grad where torch's is not a "
                     "leaf: copying requires_grad is not recording history; a clone of a tensor that "
                     "requires grad is an intermediate result with a grad_fn")
        return M("clone/drops-history", "your clone is a leaf where torch's is not: a clone of a tensor "
                 "that requires grad is an intermediate result with a grad_fn, not a new leaf")
    return M("clone/records-without-grad", "your clone is not a leaf where torch's is: inside no_grad, or "
             "for a source without grad, clone records no history")


def _grad_fn(theirs, yours, context):
    if theirs is None:
        return M("clone/records-without-grad", "your clone records a node where torch records none: "
                 "inside no_grad, or for a source that does not require grad, nothing is recorded")
    if yours is None:
        return M("clone/drops-history", f"your clone is cut off from the graph: torch records a {theirs} "
                 "node whenever the source requires grad in grad mode")
    return M("clone/wrong-node", f"your clone records a {yours} node where torch records {theirs}: the node "
             "says which operation made the result, and a clone is its own operation (a view's node, for "
             "example, makes the result an alias of the source)")


MISCONCEPTIONS = {
    "same_object": M("clone/returns-source", "your clone returns the source itself: `b = a` is not a "
                     "copy; clone must build a new tensor object"),
    "shares_memory": _shares_memory,
    "values": M("clone/wrong-values", "your clone does not hold the source's numbers: each element must be "
                "read from where the source's size, stride and offset say it is (reading the storage from "
                "its start, or ignoring the strides, gives other numbers)"),
    "grad": M("clone/copies-grad", "your clone copies .grad: a clone copies the numbers of the tensor, "
              "not its gradient; torch's clone starts with .grad = None"),
    "attributes": M("clone/copies-attributes", "your clone carries the source's Python attributes "
                    "(t.note = ...): clone copies the tensor's numbers, not its __dict__ (that is what "
                    "copy.copy and copy.deepcopy do)"),
    "size": M("clone/wrong-size", "your clone has another size than its source"),
    "dtype": M("clone/changes-dtype", "your clone changes the dtype: clone keeps the source's dtype"),
    "device": M("clone/changes-device", "your clone changes the device: clone allocates its new memory "
                "on the source's device (a clone of a GPU tensor stays on the GPU)"),
    "storage_offset": M("clone/keeps-offset", "your clone does not start at offset 0: a clone owns a "
                        "fresh storage that holds only its own elements, so keeping the source's offset "
                        "(or copying its whole storage) is wrong"),
    "stride": _strides,
    "requires_grad": _requires_grad,
    "is_leaf": _is_leaf,
    "grad_fn": _grad_fn,
    "next_functions": M("clone/node-to-nowhere", "your CloneBackward0 does not lead back to the source: "
                        "its next_functions must point to the source's grad_fn, or to the AccumulateGrad "
                        "node of a leaf source"),
    "gradient": M("clone/wrong-gradient", "gradients through your clone do not reach the source unchanged: "
                  "the gradient of a copy is the gradient of the original"),
    "input_grads": M("clone/touches-source-grad", "your clone changes the source's .grad: making a copy "
                     "leaves the source alone"),
    "warnings": M("clone/warns", "your clone warns where torch's clone is silent (or the other way round)"),
    "version": M("clone/version-not-zero", "your clone does not start at version 0: making a copy is not "
                 "an in-place write into it (copy_elements fills new memory; do not bump its version)"),
    "shares_version_counter": M("clone/shares-version-counter", "your clone shares the source's version "
                                "counter: a clone has its own memory, so it gets its own counter and "
                                "in-place writes to the source must not show in it"),
    "source_version": M("clone/bumps-source-version", "your clone bumped the source's version: reading a "
                        "tensor is not writing into it"),
}


def _torch_clone(t):
    return t.clone()


def _check(battery, your_op, fields, cases=None, op=OP, torch_op=_torch_clone, misconceptions=MISCONCEPTIONS):
    expect_same(op, cases or battery, torch_op, your_op, fields, misconceptions, topic="clone")


CONTIGUOUS_FORMAT = dict(MISCONCEPTIONS, stride=M(
    "clone/ignores-memory-format", "your clone ignores memory_format=torch.contiguous_format: asked for "
    "it, clone lays the copy out row-major whatever the source's layout"))


def check_clone_memory(my_clone, battery="basic"):
    """New object, new memory, same numbers; not the .grad or the attributes."""
    _check(battery, my_clone, ("same_object", "shares_memory", "values", "grad", "attributes"))


def check_clone_metadata(my_clone, battery="basic"):
    """Same size, dtype and device; offset 0 in the new storage."""
    _check(battery, my_clone, ("size", "dtype", "device", "storage_offset"))


def check_clone_strides(my_clone, battery="basic"):
    """preserve_format strides on every layout, and contiguous_format when asked."""
    drawn = resolve_battery("drawn", OP + "/strides")
    cases = choose(battery, (_battery.TRANSPOSED, _battery.PERMUTED, _battery.STEPPED), _battery.LAYOUTS, drawn)
    contiguous = choose(battery, (_battery.TRANSPOSED,), _battery.LAYOUTS, drawn)
    _check(battery, my_clone, ("size", "stride", "values"), cases)
    _check(battery, with_keywords(my_clone, memory_format=Reftorch("preserve_format")), ("stride",), cases,
           OP + "(memory_format=torch.preserve_format)",
           lambda t: t.clone(memory_format=torch.preserve_format))
    _check(battery, with_keywords(my_clone, memory_format=Reftorch("contiguous_format")), ("stride", "values"),
           contiguous, OP + "(memory_format=torch.contiguous_format)",
           lambda t: t.clone(memory_format=torch.contiguous_format), CONTIGUOUS_FORMAT)


def check_clone_graph(my_clone, battery="basic"):
    """CloneBackward0 leading to the source; gradients flow back unchanged; the source's .grad untouched."""
    cases = [case for case in resolve_battery(battery, OP + "/graph", grad_mode=True) if case.grad_mode]
    _check(battery, my_clone, ("warnings", "requires_grad", "is_leaf", "grad_fn", "next_functions",
                               "gradient", "input_grads"), cases)


def check_clone_no_grad(my_clone, battery="basic"):
    """Inside no_grad a clone is a plain leaf without grad."""
    cases = choose(battery, (_battery.LEAF_NO_GRAD_MODE, _battery.GPU_NO_GRAD_MODE), _battery.NO_GRAD,
                   resolve_battery("drawn", OP + "/no_grad", grad_mode=False))
    _check(battery, my_clone, ("requires_grad", "is_leaf", "grad_fn"), cases)


def check_clone_version(my_clone, battery="basic"):
    """A new version counter at 0; the source's counter untouched."""
    _check(battery, my_clone, ("version", "source_version", "shares_version_counter"))


# --- the learner's strides: my_contiguous_strides(size), my_preserve_format_strides(size, stride) ---

LAYOUTS = (   # (what it is, size, stride)
    ("a contiguous 2x3", (2, 3), (3, 1)),
    ("a transposed 3x2 (x.t() of a 2x3)", (3, 2), (1, 3)),
    ("a stepped 2x2 (x[:, ::2] of a 2x4)", (2, 2), (4, 2)),
    ("an expanded 3x4 (x.expand(3, 4) of a 1x4)", (3, 4), (0, 1)),
    ("a permuted 3-d 3x4x2 (x.permute(1, 2, 0) of a 2x3x4)", (3, 4, 2), (4, 1, 12)),
    ("an empty 0x3", (0, 3), (3, 1)),
)
MORE_LAYOUTS = (
    ("a transposed stepped 2x2 (x[::2].t() of a 4x2)", (2, 2), (1, 4)),
    ("a 0-d tensor", (), ()),
    ("a 1x3 with an odd stride on its size-1 dimension", (1, 3), (7, 1)),
    ("a 2x2 whose rows overlap (strides 1, 1)", (2, 2), (1, 1)),
    ("an expanded middle dimension 2x3x2", (2, 3, 2), (2, 0, 1)),
    ("a size-0 dimension after a transpose (3x0)", (3, 0), (1, 3)),
)


def _drawn_layouts(salt):
    r = _variants.generator(salt)
    out = []
    for i in range(4):
        size = tuple(r.randint(1, 3) for _ in range(r.randint(1, 3)))
        stride = tuple(r.choice((0, 1, 2, 3, 4, 6, 12)) for _ in size)
        out.append((f"drawn layout #{i + 1}", size, stride))
    return tuple(out)


def _row_major(size):
    strides, step = [], 1
    for n in reversed(size):
        strides.insert(0, step)
        step *= max(n, 1)
    return tuple(strides)


def _layout_message(which, size, stride, theirs, yours):
    if which == "contiguous":
        return M("clone/contiguous-strides", "your my_contiguous_strides differs from torch's row-major "
                 "strides: the last dimension moves fastest (stride 1), each stride is the product of the "
                 "sizes after it, and a size-0 dimension counts as 1")
    if yours == _row_major(size) and theirs != yours and not is_dense(size, stride):
        return M("clone/packs-row-major", PACKS_ROW_MAJOR.replace("your copy", "your my_preserve_format_strides"))
    if yours == _row_major(size) and theirs != yours:
        return M("clone/always-contiguous", "your my_preserve_format_strides packs this layout row-major: a "
                 "dense layout (a transpose, a permutation: every slot used once) keeps its strides exactly")
    if yours == tuple(stride):
        return M("clone/keeps-gaps", "your my_preserve_format_strides keeps strides that are not dense: a "
                 "stepped or expanded layout leaves gaps or reuses slots, so the copy packs its elements "
                 "densely, in the memory order of the source's dimensions")
    return M("clone/wrong-strides", "your my_preserve_format_strides differs from torch: a dense layout is "
             "kept; any other is packed densely, dimensions ordered by their stride (smallest innermost, a "
             "stride-0 dimension keeps its place, on equal strides the bigger size goes outside)")


def check_clone_layout(my_contiguous_strides, my_preserve_format_strides, battery="basic"):
    """Row-major strides for a size, and the strides a preserve_format copy of a layout gets."""
    layouts = choose(battery, LAYOUTS, LAYOUTS + MORE_LAYOUTS, _drawn_layouts(OP + "/layout"))
    for label, size, stride in layouts:
        pairs = (("contiguous", lambda: my_contiguous_strides(size), torch.empty(size).stride()),
                 ("preserve", lambda: my_preserve_format_strides(size, stride),
                  torch.empty_strided(size, stride).clone().stride()))
        for which, yours_of, theirs in pairs:
            name = "my_contiguous_strides" if which == "contiguous" else "my_preserve_format_strides"
            call_text = f"{name}({size!r})" if which == "contiguous" else f"{name}({size!r}, {stride!r})"
            try:
                yours = yours_of()
            except Exception as error:  # the learner's exception is the observation
                if is_stub(error):
                    raise failure(not_written("clone", name), [_(N_("input: {0}")).format(_(label))]) from None
                raise failure(M("clone/strides-raise", f"your {name} raised an error"),
                              [_(N_("input: {0}: {1}")).format(_(label), call_text),
                               yours_raised(type(error).__name__, f"{error}{where(error)}")]) from None
            got = tuple(yours) if isinstance(yours, (tuple, list)) else yours
            if got != tuple(theirs):
                raise failure(_layout_message(which, size, stride, tuple(theirs), got),
                              [_(N_("input: {0}: {1}")).format(_(label), call_text),
                               _(N_("torch gives {0}, yours gives {1}")).format(tuple(theirs), repr(got))])
