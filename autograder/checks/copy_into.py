"""Checks for the learner's ``copy_``: ``my_copy_(dst, src)``.

torch's answer: an in-place write into ``dst``. Same object, same metadata
(device included) and memory; ``src`` is broadcast to ``dst``'s shape and cast
to its dtype (from any device); ``dst``'s version counter goes up by one and
``src``'s does not move; if ``src`` requires grad (grad mode, floating ``dst``),
``dst`` gets a ``CopyBackwards`` node and stops being a leaf (a view ``dst``
gets ``AsStridedBackward0``, its base ``CopySlices``). Outside ``no_grad``,
writing into a leaf that requires grad, or a view of one, raises; so does a
``src`` that does not broadcast. A refused write leaves ``dst`` exactly as it
was: same numbers, same version.
"""

from ..judge.marked_calls import SOURCE, argument, call
from ..witness import variants as _variants
from ..witness import pairs as P
from ..witness.pairs import CopyCase
from ._observe import M, by_torch, choose, expect_same

OP = "copy_"


def _raised(theirs, yours, context):
    message = theirs[1] if theirs else ""
    if theirs and yours and "leaf Variable" in message and any(
            word in yours[1] for word in ("must match the size", "broadcast", "expand")):
        return M("copy_/refusal-order", "your copy_ refuses with another error than torch's when two refusals "
                 "apply: torch asks autograd's leaf rule first (a leaf that requires grad, or a view of one, "
                 "may not be written in grad mode) and only then whether src broadcasts to self's shape")
    if theirs and yours:
        return M("copy_/raises-differently", "your copy_ raises another error than torch's here: torch checks "
                 "autograd's leaf rule first (check_inplace_allowed), then whether src broadcasts to self's "
                 "shape (copy_elements); any other refusal is one torch does not make")
    if "leaf Variable" in message:
        return M("copy_/no-leaf-check", "your copy_ lets a forbidden write through: outside no_grad, "
                 "autograd refuses to overwrite a leaf that requires grad, or a view of one, because its "
                 ".grad would no longer describe its values")
    if "must match the size" in message or "expand" in message or "broadcast" in message:
        return M("copy_/no-broadcast-check", "your copy_ accepts a src that does not broadcast to self's "
                 "shape: src is broadcast to self's shape, and torch refuses when the sizes do not match "
                 "and are not 1")
    return M("copy_/raises-differently", "torch's copy_ raises an error here and yours does not")


def _raised_unexpectedly(theirs, yours, context):
    if yours and "leaf Variable" in yours[1]:
        return M("copy_/refuses-allowed-write", "your copy_ refuses a write torch allows: only a leaf that "
                 "requires grad (or a view of one) is protected, and only outside no_grad; a destination "
                 "without grad is fine")
    return M("copy_/raises", "your copy_ raised where torch's does not")


def _grad_fn(theirs, yours, context):
    if theirs is None:
        return M("copy_/records-without-grad", "your copy_ records a node where torch records none: only a "
                 "src that requires grad, copied in grad mode into a floating dst, is recorded")
    if context["yours"].get("version") != context["theirs"].get("version"):
        return M("copy_/no-version-bump", "your copy_ leaves self's version counter where it was, so self's "
                 "history is not brought up to date: a view's grad_fn is rebuilt when its version moves, and "
                 "copy_ is an in-place write that must bump it (bump_version) before the node is installed")
    if theirs == "AsStridedBackward0":
        return M("copy_/view-history", "your copy_ gives self the wrong history: self is a view, so torch "
                 "records the write on its base (a CopySlices node) and the view's grad_fn becomes "
                 "AsStridedBackward0; install the node with record_inplace, which does that")
    if yours is None:
        return M("copy_/keeps-requires-grad", f"your copy_ leaves self without history: torch records "
                 f"{theirs} because src requires grad; copy_ does not keep self's old requires_grad")
    return M("copy_/wrong-node", f"your copy_ records the wrong node: torch records {theirs} here")


_requires_grad = by_torch(
    M("copy_/keeps-requires-grad", "your copy_ does not make self require grad: copying from a src that requires "
      "grad puts self in the graph (it does not keep self's old requires_grad)"),
    M("copy_/records-without-grad", "your copy_ makes self require grad where torch does not: inside no_grad, into "
      "an int tensor, or from a src without grad nothing is recorded"))


def _after_refusal(theirs, yours, context):
    changed = [f for f in ("values", "version", "requires_grad", "grad_fn") if theirs[0].get(f) != yours[0].get(f)]
    return M("copy_/writes-before-check", "your copy_ raised the right error but changed self first ("
             + ", ".join(changed or ["src"]) + "): check that the write is allowed before writing anything, "
             "so a refused copy_ leaves self exactly as it was")


MISCONCEPTIONS = {
    "raised": _raised,
    "raised_unexpectedly": _raised_unexpectedly,
    "after_refusal": _after_refusal,
    "same_object": M("copy_/returns-new-tensor", "your copy_ returns a new tensor: copy_ writes into self and "
                     "returns self"),
    "returns_an_argument": M("copy_/returns-src", "your copy_ returns src: copy_ writes into self and "
                             "returns self"),
    "shares_memory": M("copy_/moves-self", "your copy_ moved self to new memory: copy_ writes into the memory "
                       "self already has"),
    "values": M("copy_/wrong-values", "your copy_ writes the wrong numbers: src is broadcast to self's shape "
                "and cast to self's dtype (floats written into an int tensor are truncated), element by "
                "element through self's strides"),
    "size": M("copy_/changes-metadata", "your copy_ changed self's metadata: only the numbers change"),
    "stride": M("copy_/changes-metadata", "your copy_ changed self's metadata: only the numbers change"),
    "storage_offset": M("copy_/changes-metadata", "your copy_ changed self's metadata: only the numbers "
                        "change"),
    "dtype": M("copy_/takes-src-dtype", "your copy_ changed self's dtype: the result keeps self's dtype, src "
               "is cast to it"),
    "device": M("copy_/takes-src-device", "your copy_ changed self's device: the numbers are copied across "
                "to wherever self lives"),
    "version": M("copy_/no-version-bump", "your copy_ does not bump self's version counter by one: it is an "
                 "in-place write, and autograd must be able to notice it"),
    "input_versions": M("copy_/bumps-src-version", "your copy_ bumped src's version: copy_ only reads src, "
                        "only self is written"),
    "requires_grad": _requires_grad,
    "is_leaf": M("copy_/keeps-requires-grad", "your copy_ leaves self a leaf: with a src that requires grad, "
                 "self gets a grad_fn"),
    "grad_fn": _grad_fn,
    "next_functions": M("copy_/node-edges", "your CopyBackwards does not lead to the right places: its "
                        "next_functions are self's old history first, then src's"),
    "gradient": M("copy_/wrong-gradient", "gradients through your copy_ go to the wrong place: all of it "
                  "flows to src (summed over broadcast dimensions), none to self's old values"),
    "input_grads": M("copy_/touches-grad", "your copy_ changes the .grad of self or src: copy_ writes "
                     "numbers, not gradients"),
}


BASIC_VALUES = (
    CopyCase("plain float dst <- src leaf that requires grad", P.plain, P.src_leaf),
    CopyCase("plain float dst (2, 3) <- a row (3,) that requires grad (broadcast)", P.plain, P.src_row),
    CopyCase("int64 dst <- float src that requires grad (cast, truncation)", P.int64, P.src_leaf),
    CopyCase("transposed dst <- src", P.transposed, P.src_plain),
    CopyCase("dst on the GPU (cuda:0) <- src leaf on the CPU", P.plain, P.src_leaf, dst_on="cuda"),
    CopyCase("a row view of a non-leaf as dst <- a row that requires grad", P.view_of_non_leaf, P.src_row),
    CopyCase("plain dst <- src leaf that requires grad", P.plain, P.src_leaf, grad_mode=False),
)
VALUES = BASIC_VALUES + (
    CopyCase("float64 dst <- float32 src", P.float64, P.src_leaf),
    CopyCase("stepped dst [:, ::2] <- broadcast row", P.stepped, P.src_row),
    CopyCase("non-leaf dst (x * 2) <- src leaf", P.non_leaf, P.src_leaf),
    CopyCase("plain dst <- src without grad", P.plain, P.src_plain),
    CopyCase("dst on the CPU <- src on the GPU (cuda:0)", P.float64, P.src_leaf, src_on="cuda"),
)
BASIC_ERRORS = (
    CopyCase("plain dst without grad <- src", P.plain, P.src_plain),
    CopyCase("a leaf that requires grad as dst", P.grad_leaf, P.src_plain),
    CopyCase("a leaf that requires grad as dst", P.grad_leaf, P.src_leaf, grad_mode=False),
    CopyCase("a view of a leaf that requires grad as dst", P.view_of_grad_leaf, P.src_row),
    CopyCase("a view of a leaf that requires grad as dst <- src without grad", P.view_of_grad_leaf, P.row_plain),
    CopyCase("dst (2, 3) <- src (4,) that cannot broadcast", P.plain, P.wrong_shape_plain),
)
ERRORS = BASIC_ERRORS + (
    CopyCase("a leaf that requires grad as dst <- src leaf", P.grad_leaf, P.src_leaf),
    CopyCase("dst (2, 3) <- src (4,) that requires grad and cannot broadcast", P.plain, P.wrong_shape),
    CopyCase("int64 dst <- float src", P.int64, P.src_plain),
    CopyCase("a leaf that requires grad on the GPU as dst", P.grad_leaf, P.src_plain, dst_on="cuda"),
    # two refusals apply: torch asks the leaf rule first
    CopyCase("a leaf that requires grad as dst <- src (4,) that cannot broadcast", P.grad_leaf, P.wrong_shape_plain),
    CopyCase("a view of a leaf that requires grad as dst <- src (4,) that cannot broadcast", P.view_of_grad_leaf,
             P.wrong_shape),
)


def _drawn(salt, refusals):
    """Pairs drawn for this student: dst of any layout, src broadcastable, any devices; with
    ``refusals``, some pairs torch refuses (a dst that requires grad, a src that does not broadcast)."""
    r = _variants.generator(salt)
    cases = []
    for i in range(_variants.CASES_PER_CHECK):
        dst = _variants.TensorSpec(r, dtypes=("float32", "float64", "int64"), leaf_only=True,
                                   allow_empty=False, overlapping=False)
        dst.requires_grad = dst.requires_grad and refusals and r.random() < 0.3   # mostly writable
        shape = list(dst.shape)
        if refusals and r.random() < 0.1 and shape:
            shape[-1] += 1                       # does not broadcast
        else:
            shape = shape[r.randint(0, len(shape)):] if r.random() < 0.4 else shape
            shape = [1 if r.random() < 0.3 else n for n in shape]
        src = _variants.TensorSpec(r, dtypes=("float32", "float64", "int64"), allow_empty=False, shape=shape)
        name = f"drawn pair #{i + 1}: dst = {dst.label()}; src = {src.label()}"
        # A dst that requires grad is drawn in grad mode only (the write is refused): inside
        # no_grad, reftorch does not yet give a written view of such a leaf torch's
        # AsStridedBackward0 (a disagreement for the reftorch views work, not for this check).
        grad_mode = dst.requires_grad or r.random() < 0.8
        cases.append(CopyCase(name, dst.build, src.build, grad_mode=grad_mode,
                              dst_on=r.choice(("cpu", "cpu", "cuda")), src_on=r.choice(("cpu", "cpu", "cuda"))))
    return tuple(cases)


def _torch(dst, src):
    return dst.copy_(src)


def _pick(battery, basic, full, salt, refusals=False):
    return choose(battery, basic, full, _drawn(OP + "/" + salt, refusals))


def _check(cases, my_copy_, fields):
    expect_same(OP, cases, _torch, call(my_copy_, SOURCE, argument(0)), fields, MISCONCEPTIONS, topic="copy_")


def check_copy_values(my_copy_, battery="basic"):
    """Same object, memory and metadata (device included); numbers broadcast and cast into self's layout."""
    _check(_pick(battery, BASIC_VALUES, VALUES, "values"), my_copy_,
           ("returns_an_argument", "same_object", "shares_memory", "size", "stride", "storage_offset", "dtype",
            "device", "values"))


def check_copy_version(my_copy_, battery="basic"):
    """self's version counter goes up by one; src's does not move. (A refused write is the
    leaf-rules test's business: there, nothing may move.)"""
    _check(_pick(battery, BASIC_VALUES, VALUES, "version"), my_copy_, ("version", "input_versions"))


def check_copy_graph(my_copy_, battery="basic"):
    """CopyBackwards exactly when src requires grad; gradients go to src; no .grad touched."""
    _check(_pick(battery, BASIC_VALUES, VALUES, "graph"), my_copy_,
           ("requires_grad", "is_leaf", "grad_fn", "next_functions", "gradient", "input_grads"))


def check_copy_leaf_rules(my_copy_, battery="basic"):
    """torch's errors exactly where torch raises them, and nowhere else; a refused write changes nothing."""
    _check(_pick(battery, BASIC_ERRORS, ERRORS, "leaf_rules", refusals=True), my_copy_,
           ("same_object", "values", "after_refusal"))
