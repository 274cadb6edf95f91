"""Checks for the learner's ``copy_``: ``my_copy_(dst, src)``.

torch's answer: an in-place write into ``dst``. Same object, same metadata
and memory; ``src`` is broadcast to ``dst``'s shape and cast to its dtype; the
version counter goes up by one; if ``src`` requires grad (grad mode, floating
``dst``), ``dst`` gets a ``CopyBackwards`` node and stops being a leaf.
Outside ``no_grad``, writing into a leaf that requires grad, or a view of one,
raises.
"""

from ._observe import expect_same

OP = "copy_"

MISCONCEPTIONS = {
    "raised": "your copy_ lets a forbidden write through (or raises the wrong error): outside no_grad, "
              "autograd refuses to overwrite a leaf that requires grad or a view of one, and src must "
              "broadcast to dst's shape",
    "raised_unexpectedly": "your copy_ refuses a write torch allows: only a leaf that requires grad (or a "
                           "view of one) is protected, only outside no_grad; a destination without grad "
                           "is fine",
    "same_object": "your copy_ returns a new tensor: copy_ writes into self and returns self",
    "shares_memory": "your copy_ moved self to new memory: copy_ writes into the memory self already has",
    "values": "your copy_ writes the wrong numbers: src is broadcast to self's shape and cast to self's "
              "dtype (floats written into an int tensor are truncated), element by element through "
              "self's strides",
    "size": "your copy_ changed self's metadata: only the numbers change",
    "stride": "your copy_ changed self's metadata: only the numbers change",
    "storage_offset": "your copy_ changed self's metadata: only the numbers change",
    "dtype": "your copy_ changed self's dtype: the result keeps self's dtype, src is cast to it",
    "version": "your copy_ does not bump the version counter by one: it is an in-place write, and "
               "autograd must be able to notice it",
    "requires_grad": lambda theirs, yours: (
        "your copy_ does not make self require grad: copying from a src that requires grad puts self "
        "in the graph (it does not keep self's old requires_grad)"
        if theirs else
        "your copy_ makes self require grad where torch does not: inside no_grad, into an int tensor, "
        "or from a src without grad nothing is recorded"
    ),
    "is_leaf": "your copy_ leaves self a leaf: with a src that requires grad, self gets a grad_fn",
    "grad_fn": "your copy_ records the wrong node: torch records CopyBackwards exactly when src requires "
               "grad (floating self, grad mode)",
    "next_functions": "your CopyBackwards does not lead to the right places: its next_functions are "
                      "self's old history first, then src's",
    "gradient": "gradients through your copy_ go to the wrong place: all of it flows to src (summed over "
                "broadcast dimensions), none to self's old values",
}


class CopyCase:
    """A destination and a source, built in the same module."""

    def __init__(self, name, dst, src, grad_mode=True):
        self.name, self.dst, self.src, self.grad_mode = name, dst, src, grad_mode

    def build(self, module):
        dst, dst_leaf = self.dst(module)
        src, src_leaf = self.src(module)
        leaves = tuple(leaf for leaf in (dst_leaf, src_leaf) if leaf is not None)
        return dst, leaves, (src,)

    def label(self):
        return self.name + ("" if self.grad_mode else ", inside no_grad")


def _plain(T):
    return T.zeros(2, 3), None


def _grad_leaf(T):
    x = T.zeros(2, 3, requires_grad=True)
    return x, x


def _src_leaf(T):
    x = T.tensor([[1.5, -2.5, 3.5], [4.5, 5.5, -6.5]], requires_grad=True)
    return x, x


def _src_row(T):
    x = T.tensor([7.25, 8.5, -9.75], requires_grad=True)
    return x, x


def _src_plain(T):
    return T.tensor([[1.5, -2.5, 3.5], [4.5, 5.5, -6.5]]), None


def _int(T):
    return T.zeros(2, 3, dtype=T.int64), None


def _float64(T):
    return T.zeros(2, 3, dtype=T.float64), None


def _non_leaf(T):
    x = T.ones(2, 3, requires_grad=True)
    return x * 2, x


def _view_of_grad_leaf(T):
    x = T.zeros(2, 3, requires_grad=True)
    return x[0], x


def _transposed(T):
    return T.zeros(3, 2).t(), None


def _stepped(T):
    return T.zeros(2, 6)[:, ::2], None


def _wrong_shape(T):
    x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    return x, x


BASIC_VALUES = (
    CopyCase("plain float dst <- src leaf that requires grad", _plain, _src_leaf),
    CopyCase("plain float dst (2, 3) <- a row (3,) that requires grad (broadcast)", _plain, _src_row),
)
VALUES = BASIC_VALUES + (
    CopyCase("int64 dst <- float src that requires grad (cast, truncation)", _int, _src_leaf),
    CopyCase("float64 dst <- float32 src", _float64, _src_leaf),
    CopyCase("transposed dst <- src", _transposed, _src_plain),
    CopyCase("stepped dst [:, ::2] <- broadcast row", _stepped, _src_row),
    CopyCase("non-leaf dst (x * 2) <- src leaf", _non_leaf, _src_leaf),
    CopyCase("plain dst <- src without grad", _plain, _src_plain),
    CopyCase("plain dst <- src leaf that requires grad", _plain, _src_leaf, grad_mode=False),
)
BASIC_ERRORS = (
    CopyCase("plain dst without grad <- src", _plain, _src_plain),
    CopyCase("a leaf that requires grad as dst", _grad_leaf, _src_plain),
)
ERRORS = BASIC_ERRORS + (
    CopyCase("a leaf that requires grad as dst", _grad_leaf, _src_leaf, grad_mode=False),
    CopyCase("a view of a leaf that requires grad as dst", _view_of_grad_leaf, _src_row),
    CopyCase("a leaf that requires grad as dst <- src leaf", _grad_leaf, _src_leaf),
    CopyCase("dst (2, 3) <- src (4,) that cannot broadcast", _plain, _wrong_shape),
    CopyCase("int64 dst <- float src", _int, _src_plain),
)


def _torch(dst, src):
    return dst.copy_(src)


def _pick(battery, basic, full):
    return basic if battery == "basic" else full


def check_copy_values(my_copy_, battery="basic"):
    """Same object and memory; numbers broadcast and cast into self's layout."""
    expect_same(OP, _pick(battery, BASIC_VALUES, VALUES), _torch, my_copy_,
                ("same_object", "shares_memory", "size", "stride", "storage_offset", "dtype", "values"),
                MISCONCEPTIONS)


def check_copy_version(my_copy_, battery="basic"):
    """The version counter goes up by one."""
    expect_same(OP, _pick(battery, BASIC_VALUES, VALUES + ERRORS), _torch, my_copy_,
                ("version",), MISCONCEPTIONS)


def check_copy_graph(my_copy_, battery="basic"):
    """CopyBackwards exactly when src requires grad; gradients go to src."""
    expect_same(OP, _pick(battery, BASIC_VALUES, VALUES), _torch, my_copy_,
                ("requires_grad", "is_leaf", "grad_fn", "next_functions", "gradient"), MISCONCEPTIONS)


def check_copy_leaf_rules(my_copy_, battery="basic"):
    """torch's errors exactly where torch raises them, and nowhere else."""
    expect_same(OP, _pick(battery, BASIC_ERRORS, ERRORS), _torch, my_copy_,
                ("same_object", "values"), MISCONCEPTIONS)
