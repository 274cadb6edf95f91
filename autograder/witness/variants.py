"""A variant per student: hidden inputs drawn from a seed made of the student's id and the assignment.

Two students face different hidden inputs (shapes, dtypes, values, layouts,
devices, grad mode), so a wrong answer tuned to one classmate's feedback does
not carry over; regrading one student draws exactly the same inputs, so the
score never changes on a regrade.

Where the seed comes from: the grader (``autograder.pipeline.variants.AssignVariant``,
an nbgrader preprocessor) puts ``"<student>/<assignment>"`` in the resources of
the notebook being graded, and the grader's executor hands it to the kernel
before the first cell, as data: a silent request that calls
``autograder.checks.use_variant(seed)`` (no environment variable, nothing
process-wide in the grader). Without it (a learner running the notebook, the
self-check, the tests) the seed is ``"default"``.

Every draw goes through ``random.Random("<seed>|<check>")``: a string seed is
hashed with SHA-512, so the inputs do not depend on the Python process
(``PYTHONHASHSEED``) and each check draws its own sequence.

Numbers are chosen so that torch and reftorch hold them exactly (small
integers, quarters), so twin inputs are equal bit for bit.
"""

import random
from contextlib import contextmanager

from .battery import Case

DEFAULT_SEED = "default"
CASES_PER_CHECK = 6

_state = {}  # filled on first use


def current_seed():
    """The seed of this kernel: ``"<student>/<assignment>"`` when grading, else ``"default"``."""
    return _state.get("seed") or DEFAULT_SEED


def use_seed(seed):
    """From now on, this kernel draws from ``seed`` (the grader's call, before the first cell)."""
    _state["seed"] = str(seed)
    return _state["seed"]


@contextmanager
def seeded(seed):
    """Draw with ``seed`` for the length of the block (used by the tests)."""
    had, previous = "seed" in _state, _state.get("seed")
    _state["seed"] = str(seed)
    try:
        yield
    finally:
        if had:
            _state["seed"] = previous
        else:
            _state.pop("seed", None)


def generator(salt):
    """The random generator of one check for the current seed."""
    return random.Random(f"{current_seed()}|{salt}")


# --- tensors ----------------------------------------------------------------

_DTYPES = ("float32", "float64", "int64", "bool")
_LAYOUTS_BY_DIM = {
    0: ("contiguous",),
    1: ("contiguous", "stepped", "offset", "expanded"),
    2: ("contiguous", "transposed", "stepped", "offset", "expanded", "narrowed"),
    3: ("contiguous", "transposed", "permuted", "stepped", "offset"),
}


class TensorSpec:
    """Everything drawn for one input tensor; ``build(T, device)`` makes it in torch or reftorch."""

    def __init__(self, r, *, dtypes=_DTYPES, leaf_only=False, allow_empty=True, grad=True, shape=None,
                 overlapping=True, true_leaf=False):
        self.dtype = r.choice(dtypes)
        floating = self.dtype.startswith("float")
        self.ndim = r.choice((0, 1, 2, 2, 3)) if shape is None else len(shape)
        layouts = [x for x in _LAYOUTS_BY_DIM[self.ndim] if overlapping or x != "expanded"]
        self.layout = r.choice(layouts)
        self.shape = [r.randint(1, 3) for _ in range(self.ndim)] if shape is None else list(shape)
        empty = (shape is None and allow_empty and self.ndim and self.layout == "contiguous"
                 and r.random() < 0.15)
        if empty:
            self.shape[r.randrange(self.ndim)] = 0
        self.base_shape = list(self.shape)
        if self.layout == "stepped":
            self.base_shape[-1] = 2 * self.shape[-1]
        elif self.layout in ("offset", "narrowed"):
            where = 0 if self.layout == "offset" else 1
            self.base_shape[where] += r.randint(1, 2)
        elif self.layout == "expanded":
            self.base_shape[0] = 1
        elif self.layout in ("transposed", "permuted"):
            order = (self.ndim - 1,) + tuple(range(1, self.ndim - 1)) + (0,) if self.layout == "transposed" \
                else (1, 2, 0)
            self.base_shape = [self.shape[i] for i in order]
        numel = 1
        for n in self.base_shape:
            numel *= n
        if self.dtype == "bool":
            self.values = [r.random() < 0.5 for _ in range(numel)]
        elif floating:
            self.values = [r.randint(-16, 16) / 4 for _ in range(numel)]
        else:
            self.values = [r.randint(-9, 9) for _ in range(numel)]
        # (no empty non-leaf: reftorch's x * 2 of an empty tensor does not give torch's strides)
        self.requires_grad = grad and floating and not empty and r.random() < 0.6
        self.non_leaf = self.requires_grad and not leaf_only and r.random() < 0.4
        if true_leaf and self.layout != "contiguous":
            self.requires_grad = False   # a view of a leaf that requires grad is not a leaf
        self.written = r.random() < 0.3 and not self.requires_grad and self.dtype != "bool"

    FIELDS = ("dtype", "ndim", "layout", "shape", "base_shape", "values", "requires_grad", "non_leaf",
              "written")

    def fields(self):
        """The drawn numbers, as plain data (what the judge sends the witness)."""
        return {name: getattr(self, name) for name in self.FIELDS}

    @classmethod
    def from_fields(cls, fields):
        """The spec ``fields()`` describes, without drawing anything."""
        spec = cls.__new__(cls)
        for name in cls.FIELDS:
            setattr(spec, name, fields[name])
        return spec

    def build(self, T, device):
        dtype = getattr(T, self.dtype)
        if self.ndim == 0:
            base = T.tensor(self.values[0], dtype=dtype, device=device)
        else:
            base = T.tensor(self.values, dtype=dtype, device=device).reshape(self.base_shape)
        if self.written:
            base.add_(1)
        leaf = base.requires_grad_() if self.requires_grad else None
        x = base * 2 if self.non_leaf else base
        if self.layout == "transposed":
            x = x.transpose(0, self.ndim - 1)
        elif self.layout == "permuted":
            x = x.permute(2, 0, 1)
        elif self.layout == "stepped":
            x = x[..., ::2]
        elif self.layout == "offset":
            x = x[self.base_shape[0] - self.shape[0]:]
        elif self.layout == "narrowed":
            x = x[:, self.base_shape[1] - self.shape[1]:]
        elif self.layout == "expanded":
            x = x.expand(*self.shape)
        return x, leaf

    def label(self):
        parts = [self.dtype, "0-d" if self.ndim == 0 else "size %s" % (tuple(self.shape),),
                 {"contiguous": "contiguous", "transposed": "transposed view",
                  "permuted": "permuted view", "stepped": "stepped slice [..., ::2]",
                  "offset": "slice with a storage offset", "narrowed": "narrowed slice [:, k:]",
                  "expanded": "expanded view (stride 0)"}[self.layout]]
        if self.written:
            parts.append("written once in place")
        if self.requires_grad:
            parts.append("of a non-leaf" if self.non_leaf else "of a leaf that requires grad")
        return ", ".join(parts)


def tensor_cases(salt, n=CASES_PER_CHECK, *, leaf_only=False, grad_mode=None, dtypes=_DTYPES, true_leaf=False):
    """``n`` battery cases drawn for the current seed: random tensors, layouts, devices, and grad
    mode (drawn too, unless ``grad_mode`` is given)."""
    r = generator(salt)
    cases = []
    for i in range(n):
        spec = TensorSpec(r, leaf_only=leaf_only, dtypes=dtypes, true_leaf=true_leaf)
        on = "cuda" if r.random() < 0.25 else "cpu"
        drawn_mode = r.random() < 0.8
        grad_mode = drawn_mode if grad_mode is None else grad_mode
        cases.append(Case(f"drawn input #{i + 1} ({spec.label()})", spec.build, grad_mode, on))
    return tuple(cases)
