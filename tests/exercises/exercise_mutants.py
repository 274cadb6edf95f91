"""The bank: what learners hand in, and how grading must answer each submission.

Four kinds of entries, each replacing some solution cells of one assignment
(every other solution cell holds the instructor's solution):

* ``wrong``: an honest attempt built on a misconception, taken from the wrong
  claims of the tutorials the course answers (paraphrased) or from classic
  mistakes, including every blind spot issue 13 lists (``blind_spot``: the
  device, ``.grad``, version counters, a refused op's destination, attribute
  identity, deepcopy's memo, float64 models, parameter memory).
* ``cheat``: code that tries to get the points without doing the work: calling
  the op itself, patching torch, the copy module, the checks or the old tamper
  check, lying subclasses. The op called by name is stopped by the static rule
  ``calls-the-op``; everything else gains nothing because every assignment is
  judged (``autograder.judge``): the wrong answer the cheat hides is observed as
  it is and scores 0 on the checks' own tags.
* ``honest``: a correct answer in an unusual style; it must keep full marks
  (the static rules must never reject it).
* ``stub``: the untouched release (``cells = RELEASE``): "not written yet".

``fails`` maps every test cell that must score 0 to the tag its error must carry (a
misconception tag such as ``clone/keeps-offset``, or the rule's ``rules/calls-the-op``);
every other test cell must keep its full points, so a check cannot blame the wrong belief.
"""

from dataclasses import dataclass, field

RELEASE = "release"   # cells: use the released notebook's solution cells (the stub)
APPENDED = "+end"     # a key of cells: a cell the learner added after the last one


@dataclass(frozen=True)
class Entry:
    name: str
    assignment: str
    kind: str                      # "wrong", "cheat", "honest" or "stub"
    about: str                     # the misconception, the cheat, or the style
    cells: object                  # {solution grade_id: code}, or RELEASE
    fails: dict = field(default_factory=dict)   # test grade_id -> piece of its error message
    blind_spot: str = ""

    def tags(self):
        """The misconception tags the graded notebook must show, in test order."""
        return list(dict.fromkeys(self.fails[test] for test in ALL_TESTS[self.assignment] if test in self.fails))


ALL_TESTS = {
    "clone": ("clone-layout", "clone-memory", "clone-metadata", "clone-strides", "clone-graph", "clone-no-grad", "clone-version"),
    "detach": ("detach-memory", "detach-metadata", "detach-graph", "detach-version", "detach-clone-copy",
               "detach-clone-graph", "data-alias", "data-version"),
    "new_tensor": ("new-tensor-copy", "new-tensor-dtype", "new-tensor-graph", "tensor-from-tensor"),
    "copy_into": ("copy-values", "copy-version", "copy-graph", "copy-leaf-rules"),
    "python_copy": ("copy-alias", "copy-autograd", "deepcopy-copy", "deepcopy-memo", "deepcopy-non-leaf"),
    "model_snapshot": ("snapshot-survives", "snapshot-plain", "restore"),
}


def every(assignment, text, tests=None):
    return {test: text for test in (tests or ALL_TESTS[assignment])}


# the clone tests that call my_clone (clone-layout calls only the learner's strides functions)
MY_CLONE_TESTS = ALL_TESTS["clone"][1:]


def _solution_code(assignment, grade_id):
    """The instructor's code of one solution cell, without nbgrader's markers."""
    import nbformat
    from pathlib import Path
    nb = nbformat.read(str(Path(__file__).resolve().parents[2] / "solutions" / assignment / f"{assignment}.ipynb"), 4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return "\n".join(line for line in cell.source.splitlines()
                             if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")) + "\n"
    raise KeyError(grade_id)


LAYOUT_PRESERVE = _solution_code("clone", "clone-layout-solution")   # both strides functions, as solved
LAYOUT_CONTIGUOUS = LAYOUT_PRESERVE[:LAYOUT_PRESERVE.index("\n\ndef my_preserve_format_strides")]


# The way past the static rules that several cheats take (on purpose): a check function's
# module globals, reached through getattr with a computed name; through them, real torch
# (the module globals of the checks' comparison functions).
GLOBALS_OF = 'getattr({}, "__glo" + "bals__")'
REAL_TORCH = 'getattr(getattr({}, "__glo" + "bals__")["{}"], "__glo" + "bals__")["torch"]'

# ---- clone ---------------------------------------------------------------------

CLONE_HEAD = "def my_clone(self, *, memory_format=torch.preserve_format):\n"
CLONE_STRIDES = """
    if memory_format is torch.contiguous_format:
        strides = my_contiguous_strides(self.shape)
    else:
        strides = my_preserve_format_strides(self.shape, self.stride())
"""
CLONE_REST = """
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype)
    copy_elements(copy, self)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""


def clone(body):
    return {"clone-solution": CLONE_HEAD + body}


def clone_with(old, new):
    return clone((CLONE_STRIDES + CLONE_REST).replace(old, new))


CLONE = [
    Entry("clone-is-assignment", "clone", "wrong", "assignment `b = a` already is a copy",
          clone("    return self\n"), every("clone", "clone/returns-source", MY_CLONE_TESTS)),
    Entry("clone-is-detach", "clone", "wrong", "for data that is not shared, clone() or detach() will do",
          clone("    return self.detach()\n"),
          {"clone-memory": "clone/shares-memory", "clone-metadata": "clone/keeps-offset",
           "clone-strides": "clone/wrong-strides", "clone-graph": "clone/drops-history",
           "clone-version": "clone/shares-version-counter"}),
    Entry("clone-always-contiguous", "clone", "wrong", "a clone is always contiguous",
          clone_with(CLONE_STRIDES, "\n    strides = my_contiguous_strides(self.shape)\n"),
          {"clone-strides": "clone/always-contiguous"}),
    Entry("clone-ignores-memory-format", "clone", "wrong", "memory_format does not matter",
          clone_with(CLONE_STRIDES, "\n    strides = my_preserve_format_strides(self.shape, self.stride())\n"),
          {"clone-strides": "clone/ignores-memory-format"}),
    Entry("clone-without-history", "clone", "wrong", "a clone has nothing to do with the original graph",
          clone_with("    if should_record(self):\n        record(copy, CloneBackward0(self))\n", ""),
          {"clone-graph": "clone/drops-history"}),
    Entry("clone-new-leaf", "clone", "wrong", "a clone simply inherits requires_grad",
          clone_with("    if should_record(self):\n        record(copy, CloneBackward0(self))\n",
                     "    copy.requires_grad_(self.requires_grad)\n"),
          {"clone-graph": "clone/new-leaf", "clone-no-grad": "clone/records-without-grad"}),
    Entry("clone-copies-whole-storage", "clone", "wrong",
          "a clone duplicates the source's storage and keeps its offset and strides",
          clone("""
    from reftorch.primitives import copy_storage
    copy = tensor_on(copy_storage(self.untyped_storage()), self.shape, self.stride(),
                     self.storage_offset(), dtype=self.dtype)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""), {"clone-metadata": "clone/keeps-offset", "clone-strides": "clone/wrong-strides"}),
    Entry("clone-keeps-offset", "clone", "wrong", "a clone keeps the source's storage offset",
          clone_with("""    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype)""",
                     """    storage = allocate(self.storage_offset() + self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, strides, self.storage_offset(), dtype=self.dtype)"""),
          {"clone-metadata": "clone/keeps-offset"}),
    Entry("clone-records-in-no-grad", "clone", "wrong", "grad mode does not matter, requires_grad decides",
          clone_with("    if should_record(self):", "    if self.requires_grad:"),
          {"clone-no-grad": "clone/records-without-grad"}),
    Entry("clone-node-to-nowhere", "clone", "wrong", "any CloneBackward0 node will do, whatever it points to",
          clone_with("CloneBackward0(self)", "CloneBackward0(self.detach())"),
          {"clone-graph": "clone/node-to-nowhere"}),
    Entry("clone-shares-version-counter", "clone", "wrong",
          "the copy and the original are tracked by one version counter",
          clone_with("    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype)",
                     "    from reftorch.primitives import version_counter_of\n"
                     "    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype,\n"
                     "                     version_counter=version_counter_of(self))"),
          {"clone-version": "clone/shares-version-counter"}),
    Entry("clone-bumps-its-version", "clone", "wrong", "filling the new memory is an in-place write",
          clone_with("    copy_elements(copy, self)\n",
                     "    copy_elements(copy, self)\n    from reftorch.primitives import bump_version\n"
                     "    bump_version(copy)\n"),
          {"clone-version": "clone/version-not-zero"}, blind_spot="version counters"),
    Entry("clone-on-the-cpu", "clone", "wrong", "new memory is always on the CPU",
          clone_with("allocate(self.numel(), self.dtype, self.device)", "allocate(self.numel(), self.dtype)"),
          {"clone-metadata": "clone/changes-device"}, blind_spot="device"),
    Entry("clone-copies-grad", "clone", "wrong", "a copy carries the gradient along",
          clone_with("    return copy\n", "    copy.grad = self.grad if self.is_leaf else None\n    return copy\n"),
          {"clone-memory": "clone/copies-grad"}, blind_spot=".grad"),
    Entry("clone-copies-attributes", "clone", "wrong", "a clone copies the Python object too",
          clone_with("    return copy\n", "    copy.__dict__.update(self.__dict__)\n    return copy\n"),
          {"clone-memory": "clone/copies-attributes"}, blind_spot="attribute identity"),
    Entry("clone-reads-the-storage", "clone", "wrong", "the numbers of a tensor are the first numel slots of its storage",
          clone("""
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, my_contiguous_strides(self.shape), 0, dtype=self.dtype)
    # as many leading slots as the storage has (reftorch refuses to read past it)
    n = min(self.numel(), self.untyped_storage().nbytes() // self.element_size())
    flat = tensor_on(self.untyped_storage(), (n,), (1,), 0, dtype=self.dtype)
    copy_elements(tensor_on(storage, (n,), (1,), 0, dtype=self.dtype), flat)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""), {"clone-memory": "clone/wrong-values", "clone-strides": "clone/always-contiguous"}),
    Entry("clone-is-a-view", "clone", "wrong", "slicing the whole tensor copies it",
          clone("    return self[...]\n"),
          {"clone-memory": "clone/shares-memory", "clone-metadata": "clone/keeps-offset",
           "clone-strides": "clone/wrong-strides", "clone-graph": "clone/wrong-node",
           "clone-no-grad": "clone/records-without-grad", "clone-version": "clone/shares-version-counter"}),
    # cheats
    Entry("clone-calls-clone", "clone", "cheat", "my_clone returns self.clone()",
          clone("    return self.clone(memory_format=memory_format)\n"), every("clone", "rules/calls-the-op", MY_CLONE_TESTS)),
    Entry("clone-helper-calls-clone", "clone", "cheat", "the op hidden in a helper, called with getattr",
          {"clone-solution": "def _copy_of(t, fmt):\n    return getattr(t, 'clone')(memory_format=fmt)\n\n\n"
                             + CLONE_HEAD + "    return _copy_of(self, memory_format)\n"},
          every("clone", "rules/calls-the-op", MY_CLONE_TESTS)),   # judged: getattr is allowed, the op is not
    Entry("clone-patches-torch-clone", "clone", "cheat",
          "torch.Tensor.clone (inherited from the C base class) replaced so that torch agrees with `return self`",
          clone(f"""    real = {REAL_TORCH.format("check_clone_memory", "expect_same")}
    setattr(real.Tensor, "cl" + "one", lambda t, **kw: t)
    return self
"""), every("clone", "clone/raises", MY_CLONE_TESTS)),   # judged: the kernel holds no check and no torch
    Entry("clone-tensor-subclass", "clone", "cheat", "a Tensor subclass whose methods lie",
          {"clone-solution": "class Liar(torch.Tensor):\n    def storage_offset(self):\n        return 0\n\n\n"
                             + CLONE_HEAD + "    return self\n"},
          every("clone", "clone/returns-source", MY_CLONE_TESTS)),   # judged: the subclass is allowed, `self` is not
    Entry("clone-dynamic-subclass", "clone", "cheat",
          "a lying Tensor subclass built at run time (past the static rules)",
          clone(CLONE_STRIDES + """
    maker = type(type(self))
    Liar = maker("Liar", (type(self),), {"__slots__": ()})
    copy = Liar._make(allocate(self.numel(), self.dtype, self.device), 0, self.shape, strides, self.dtype)
    copy_elements(copy, self)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""), every("clone", "clone/not-a-tensor", MY_CLONE_TESTS)),   # judged: the witness reads the class
    # honest answers in unusual styles
    Entry("clone-honest-helpers", "clone", "honest", "helpers, renamed imports, == on the format",
          {"clone-solution": """from reftorch.primitives import allocate as new_memory


def _strides_for(t, fmt):
    return my_contiguous_strides(t.shape) if fmt == torch.contiguous_format else \\
        my_preserve_format_strides(t.shape, t.stride())


def my_clone(src, *, memory_format=torch.preserve_format):
    out = tensor_on(new_memory(src.numel(), src.dtype, src.device), src.shape, _strides_for(src, memory_format),
                    0, dtype=src.dtype)
    copy_elements(out, src)
    return record(out, CloneBackward0(src)) if should_record(src) else out
"""}),
    Entry("clone-honest-module-style", "clone", "honest", "the module imported whole, a walrus, a dict",
          {"clone-solution": """import reftorch
import reftorch.primitives as P

LAYOUTS = {reftorch.contiguous_format: lambda t: my_contiguous_strides(t.shape)}


def my_clone(self, *, memory_format=reftorch.preserve_format):
    pick = LAYOUTS.get(memory_format, lambda t: my_preserve_format_strides(t.shape, t.stride()))
    copy = P.tensor_on(P.allocate(self.numel(), self.dtype, device=self.untyped_storage().device),
                       self.shape, pick(self), storage_offset=0, dtype=self.dtype)
    P.copy_elements(copy, self)
    if (needed := P.should_record(self)):
        P.record(copy, P.CloneBackward0(self))
    return copy
"""}),
    Entry("clone-honest-class", "clone", "honest", "a small helper class and typing annotations",
          {"clone-solution": """from dataclasses import dataclass
from typing import Tuple


@dataclass
class Layout:
    size: Tuple[int, ...]
    stride: Tuple[int, ...]


def my_clone(self, *, memory_format=torch.preserve_format) -> "torch.Tensor":
    layout = Layout(tuple(self.shape), my_contiguous_strides(self.shape))
    if memory_format is not torch.contiguous_format:
        layout.stride = my_preserve_format_strides(self.shape, self.stride())
    result = tensor_on(allocate(self.numel(), self.dtype, self.device), layout.size, layout.stride,
                       dtype=self.dtype)
    copy_elements(result, self)
    if should_record(self):
        record(result, CloneBackward0(self))
    return result
"""}),
    # the layout the learner computes (my_contiguous_strides, my_preserve_format_strides)
    Entry("clone-layout-transposes-only", "clone", "wrong", "a copy keeps a transposed matrix; anything else is row-major",
          {"clone-layout-solution": LAYOUT_CONTIGUOUS + "\n\ndef my_preserve_format_strides(size, stride):\n"
                                    "    if len(size) == 2 and stride == (1, size[0]):\n"
                                    "        return tuple(stride)\n"
                                    "    return my_contiguous_strides(size)\n"},
          {"clone-layout": "clone/always-contiguous", "clone-strides": "clone/always-contiguous"}),
    Entry("clone-layout-row-major", "clone", "wrong", "a copy is always laid out row-major",
          {"clone-layout-solution": LAYOUT_CONTIGUOUS + "\n\ndef my_preserve_format_strides(size, stride):\n"
                                    "    return my_contiguous_strides(size)\n"},
          {"clone-layout": "clone/always-contiguous", "clone-strides": "clone/always-contiguous"}),
    Entry("clone-layout-column-major", "clone", "wrong", "the first dimension moves fastest in memory",
          {"clone-layout-solution": LAYOUT_PRESERVE.replace("for n in reversed(size):", "for n in size:")
                                    .replace("strides.insert(0, step)", "strides.append(step)")},
          {"clone-layout": "clone/contiguous-strides", "clone-strides": "clone/ignores-memory-format"}),
    Entry("clone-layout-plain-sort", "clone", "wrong", "dense packing orders the dimensions by stride, expanded ones too",
          {"clone-layout-solution": LAYOUT_PRESERVE.replace(
              "            if inner == 0 or outer == 0 or (inner == outer and size[order[k]] <= size[order[moving]]):\n",
              "            if inner == outer:\n")},
          {"clone-layout": "clone/wrong-strides", "clone-strides": "clone/wrong-strides"}),
    Entry("clone-honest-layout", "clone", "honest", "math.prod, sorted() with a key that keeps stride-0 dims in place", {
        "clone-layout-solution": """import math


def my_contiguous_strides(size):
    return tuple(math.prod(max(n, 1) for n in size[i + 1:]) for i in range(len(size)))


def _dense(size, stride):
    if 0 in size:
        return True
    big = sorted((stride[d], size[d]) for d in range(len(size)) if size[d] > 1)
    expected = 1
    for s, n in big:
        if s != expected:
            return False
        expected *= n
    return True


def my_preserve_format_strides(size, stride):
    if _dense(size, stride):
        return tuple(stride)
    order = list(range(len(size)))[::-1]
    for i in range(1, len(order)):
        pos, k = i, i - 1
        while k >= 0:
            a, b = stride[order[k]], stride[order[pos]]
            if a and b and (a > b or (a == b and size[order[k]] > size[order[pos]])):
                order[k], order[pos] = order[pos], order[k]
                pos = k
            elif a and b and a < b:
                break
            k -= 1
    out, step = [0] * len(size), 1
    for d in order:
        out[d] = step
        step *= size[d]
    return tuple(out)
"""}),
    Entry("clone-stub", "clone", "stub", "the untouched release", RELEASE, every("clone", "clone/not-written")),
]

# ---- detach, detach().clone(), .data ----------------------------------------------

DETACH = "def my_detach(self):\n"
SAME_PLACE = "tensor_on(self.untyped_storage(), self.shape, self.stride(), self.storage_offset(), dtype=self.dtype"

DETACH_ENTRIES = [
    Entry("detach-copies", "detach", "wrong", "detach() is how you get data that is not shared",
          {"detach-solution": DETACH + """    copy = tensor_on(allocate(self.numel(), self.dtype, self.device), self.shape,
                     preserve_format_strides(self.shape, self.stride()), 0, dtype=self.dtype)
    copy_elements(copy, self)
    return copy
"""}, {"detach-memory": "detach/copies-memory", "detach-metadata": "detach/changes-metadata",
       "detach-version": "detach/own-version-counter"}),
    Entry("detach-own-version-counter", "detach", "wrong",
          "autograd does not know about in-place changes made through detached data",
          {"detach-solution": DETACH + f"    return {SAME_PLACE})\n"},
          {"detach-version": "detach/own-version-counter"}, blind_spot="version counters"),
    Entry("detach-keeps-requires-grad", "detach", "wrong", "detach keeps requires_grad, it only drops grad_fn",
          {"detach-solution": DETACH + f"""    t = {SAME_PLACE},
                  version_counter=version_counter_of(self))
    return t.requires_grad_(self.requires_grad)
"""}, {"detach-graph": "detach/keeps-requires-grad"}),
    Entry("detach-returns-self", "detach", "wrong", "detach() switches off the source's history in place",
          {"detach-solution": DETACH + "    return self\n"},
          {"detach-memory": "detach/returns-source", "detach-metadata": "detach/returns-source",
           "detach-graph": "detach/returns-source"}),
    Entry("detach-is-a-view", "detach", "wrong", "a detached tensor is a view of the source",
          {"detach-solution": DETACH + "    return self[...]\n"},
          {"detach-metadata": "detach/is-a-view", "detach-graph": "detach/keeps-requires-grad"}),
    Entry("detach-copies-grad", "detach", "wrong", "the detached tensor keeps the gradient",
          {"detach-solution": DETACH + f"""    t = {SAME_PLACE},
                  version_counter=version_counter_of(self))
    t.grad = self.grad
    return t
"""}, {"detach-memory": "detach/copies-grad"}, blind_spot=".grad"),
    Entry("detach-starts-at-zero", "detach", "wrong", "new metadata starts at the beginning of the storage",
          {"detach-solution": DETACH + """    return tensor_on(self.untyped_storage(), self.shape, self.stride(), 0, dtype=self.dtype,
                     version_counter=version_counter_of(self))
"""}, {"detach-memory": "detach/wrong-values", "detach-metadata": "detach/changes-metadata"}),
    Entry("detach-clone-stops-at-detach", "detach", "wrong", "detach().clone() and detach() both give data of your own",
          {"detach-clone-solution": "def my_detach_clone(self):\n    return my_detach(self)\n"},
          {"detach-clone-copy": "detach-clone/stops-after-detach",
           "detach-clone-graph": "detach-clone/shares-version-counter"}),
    Entry("detach-clone-keeps-graph", "detach", "wrong", "the order does not matter, the clone alone is enough",
          {"detach-clone-solution": """from reftorch.primitives import should_record, record, CloneBackward0


def my_detach_clone(self):
    copy = tensor_on(allocate(self.numel(), self.dtype, self.device), self.shape,
                     preserve_format_strides(self.shape, self.stride()), 0, dtype=self.dtype)
    copy_elements(copy, self)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""}, {"detach-clone-graph": "detach-clone/stops-after-clone"}),
    Entry("detach-clone-keeps-requires-grad", "detach", "wrong", "the copy inherits requires_grad",
          {"detach-clone-solution": """def my_detach_clone(self):
    copy = tensor_on(allocate(self.numel(), self.dtype, self.device), self.shape,
                     preserve_format_strides(self.shape, self.stride()), 0, dtype=self.dtype)
    copy_elements(copy, self)
    return copy.requires_grad_(self.requires_grad)
"""}, {"detach-clone-graph": "detach-clone/keeps-requires-grad"}),
    Entry("detach-clone-row-major", "detach", "wrong", "an independent copy is always row-major",
          {"detach-clone-solution": """from reftorch.primitives import contiguous_strides


def my_detach_clone(self):
    copy = tensor_on(allocate(self.numel(), self.dtype, self.device), self.shape,
                     contiguous_strides(self.shape), 0, dtype=self.dtype)
    copy_elements(copy, self)
    return copy
"""}, {"detach-clone-copy": "detach-clone/wrong-strides"}),
    Entry("detach-clone-on-the-cpu", "detach", "wrong", "an independent copy lives on the CPU",
          {"detach-clone-solution": """def my_detach_clone(self):
    copy = tensor_on(allocate(self.numel(), self.dtype), self.shape,
                     preserve_format_strides(self.shape, self.stride()), 0, dtype=self.dtype)
    copy_elements(copy, self)
    return copy
"""}, {"detach-clone-copy": "detach-clone/changes-device"}, blind_spot="device"),
    Entry("detach-clone-shares-counter", "detach", "wrong", "a copy keeps the source's version counter",
          {"detach-clone-solution": """def my_detach_clone(self):
    copy = tensor_on(allocate(self.numel(), self.dtype, self.device), self.shape,
                     preserve_format_strides(self.shape, self.stride()), 0, dtype=self.dtype,
                     version_counter=version_counter_of(self))
    copy_elements(copy, self)
    return copy
"""}, {"detach-clone-graph": "detach-clone/shares-version-counter"}, blind_spot="version counters"),
    Entry("data-is-detach", "detach", "wrong", ".data is just the old spelling of detach()",
          {"data-solution": "def my_data(self):\n    return my_detach(self)\n"},
          {"data-version": "data/shares-version-counter"}),
    Entry("data-copies", "detach", "wrong", ".data gives the numbers, in memory of their own",
          {"data-solution": "def my_data(self):\n    return my_detach_clone(self)\n"},
          {"data-alias": "data/copies-memory"}),
    Entry("data-keeps-requires-grad", "detach", "wrong", ".data is the tensor without its history, still requiring grad",
          {"data-solution": f"def my_data(self):\n    return {SAME_PLACE}).requires_grad_(self.requires_grad)\n"},
          {"data-alias": "data/keeps-requires-grad"}),
    Entry("data-carries-version", "detach", "wrong", "a new counter starts from the source's version",
          {"data-solution": f"""from reftorch.primitives import bump_version


def my_data(self):
    new = {SAME_PLACE})
    for _ in range(self._version):
        bump_version(new)
    return new
"""}, {"data-version": "data/carries-version"}, blind_spot="version counters"),
    # cheats
    Entry("detach-calls-detach", "detach", "cheat", "my_detach returns self.detach()",
          {"detach-solution": DETACH + "    return self.detach()\n"},
          every("detach", "rules/calls-the-op", ("detach-memory", "detach-metadata", "detach-graph",
                                                   "detach-version"))),
    Entry("data-patches-torch-data", "detach", "cheat",
          "torch.Tensor.data (inherited from the C base class) replaced so that torch's .data shares the counter",
          {"data-solution": f"""def my_data(self):
    real = {REAL_TORCH.format("check_data_alias", "expect_same")}
    setattr(real.Tensor, "da" + "ta", property(lambda t: t.detach()))
    return my_detach(self)
"""}, every("detach", "data/raises", ("data-alias", "data-version"))),   # judged: no check, no torch to reach
    # honest
    Entry("detach-honest-kwargs", "detach", "honest", "keyword arguments from a dict, a shared helper",
          {"detach-solution": """def _place(t):
    return dict(size=t.shape, stride=t.stride(), storage_offset=t.storage_offset(), dtype=t.dtype)


def my_detach(self):
    return tensor_on(self.untyped_storage(), **_place(self), version_counter=version_counter_of(self))
""", "data-solution": """def my_data(self):
    return tensor_on(self.untyped_storage(), **_place(self), version_counter=None)
"""}),
    Entry("detach-honest-through-detach", "detach", "honest", "detach().clone() built on the learner's own detach",
          {"detach-clone-solution": """def my_detach_clone(self):
    alias = my_detach(self)
    fresh = tensor_on(allocate(alias.numel(), alias.dtype, alias.device), alias.shape,
                      preserve_format_strides(alias.shape, alias.stride()), 0, dtype=alias.dtype)
    copy_elements(fresh, alias)
    return fresh
"""}),
    Entry("detach-honest-lambdas", "detach", "honest", "lambdas and functools.partial",
          {"detach-solution": """import functools

same_memory = lambda t, **kw: tensor_on(t.untyped_storage(), t.shape, t.stride(), t.storage_offset(),
                                        dtype=t.dtype, **kw)
my_detach = lambda self: same_memory(self, version_counter=version_counter_of(self))
""", "data-solution": """my_data = functools.partial(same_memory)
"""}),
    Entry("detach-stub", "detach", "stub", "the untouched release", RELEASE,
          {**every("detach", "detach/not-written", ALL_TESTS["detach"][:4]),
           "detach-clone-copy": "detach-clone/not-written", "detach-clone-graph": "detach-clone/not-written",
           "data-alias": "data/not-written", "data-version": "data/not-written"}),
]

# ---- new_tensor and torch.tensor(t) ---------------------------------------------------

NEW_TENSOR_HELPER = """
def copy_as(data, dtype, device, requires_grad):
    strides = preserve_format_strides(data.shape, data.stride())
    copy = tensor_on(allocate(data.numel(), dtype, device), data.shape, strides, 0, dtype=dtype)
    copy_elements(copy, data)
    if requires_grad:
        copy.requires_grad_()
    return copy
"""
NEW_TENSOR = """
def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    warnings.warn(COPY_WARNING.format("tensor.new_tensor"), UserWarning)
    return copy_as(data, dtype or self.dtype, device or self.device, requires_grad)
"""
TENSOR = """def my_tensor(data, *, dtype=None, device=None, requires_grad=False):
    warnings.warn(COPY_WARNING.format("torch.tensor"), UserWarning)
    return copy_as(data, dtype or data.dtype, device or data.device, requires_grad)
"""


def new_tensor(helper=NEW_TENSOR_HELPER, method=NEW_TENSOR):
    return {"new-tensor-solution": helper + method}


NEW_TENSOR_ENTRIES = [
    Entry("new-tensor-takes-data-dtype", "new_tensor", "wrong", "new_tensor keeps the data's dtype",
          new_tensor(method=NEW_TENSOR.replace("dtype or self.dtype", "dtype or data.dtype")),
          {"new-tensor-dtype": "new_tensor/dtype-from-data"}),
    Entry("new-tensor-takes-data-device", "new_tensor", "wrong", "new_tensor keeps the data's device",
          new_tensor(method=NEW_TENSOR.replace("device or self.device", "device or data.device")),
          {"new-tensor-dtype": "new_tensor/device-from-data"}, blind_spot="device"),
    Entry("new-tensor-is-detach", "new_tensor", "wrong", "new_tensor(t) is the same as t.detach()",
          {"new-tensor-solution": """
def copy_as(data, dtype, device, requires_grad):
    raise NotImplementedError


def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    warnings.warn(COPY_WARNING.format("tensor.new_tensor"), UserWarning)
    return data.detach()
"""}, {"new-tensor-copy": "new_tensor/shares-memory", "new-tensor-dtype": "new_tensor/dtype-from-data",
       "new-tensor-graph": "new_tensor/shares-version-counter", "tensor-from-tensor": "tensor/not-written"}),
    Entry("new-tensor-silent", "new_tensor", "wrong", "copying a tensor with new_tensor is fine and torch says nothing",
          new_tensor(method=NEW_TENSOR.replace(
              '    warnings.warn(COPY_WARNING.format("tensor.new_tensor"), UserWarning)\n', "")),
          {"new-tensor-copy": "new_tensor/no-warning"}),
    Entry("new-tensor-keeps-requires-grad", "new_tensor", "wrong", "the copy inherits requires_grad from the data",
          new_tensor(method=NEW_TENSOR.replace("    return copy_as(", "    result = copy_as(") + """    if data.requires_grad and result.is_floating_point():
        result.requires_grad_()
    return result
"""), {"new-tensor-graph": "new_tensor/requires-grad-from-data"}),
    Entry("new-tensor-row-major", "new_tensor", "wrong", "a tensor built from data is always row-major",
          new_tensor(helper=NEW_TENSOR_HELPER.replace("preserve_format_strides(data.shape, data.stride())",
                                                      "contiguous_strides(data.shape)"),
                     method="from reftorch.primitives import contiguous_strides\n" + NEW_TENSOR),
          {"new-tensor-copy": "new_tensor/wrong-strides", "tensor-from-tensor": "tensor/wrong-strides"}),
    Entry("new-tensor-keeps-offset", "new_tensor", "wrong", "the copy keeps the data's storage offset",
          new_tensor(helper=NEW_TENSOR_HELPER.replace(
              "allocate(data.numel(), dtype, device), data.shape, strides, 0,",
              "allocate(data.storage_offset() + data.numel(), dtype, device), data.shape, strides,\n"
              "                     data.storage_offset(),")),
          {"new-tensor-copy": "new_tensor/keeps-offset", "tensor-from-tensor": "tensor/keeps-offset"}),
    Entry("new-tensor-copies-grad", "new_tensor", "wrong", "the copy carries the data's gradient",
          new_tensor(method=NEW_TENSOR.replace("    return copy_as(", "    out = copy_as(") +
                     "    out.grad = data.grad if data.is_leaf else None\n    return out\n"),
          {"new-tensor-copy": "new_tensor/copies-grad"}, blind_spot=".grad"),
    Entry("new-tensor-copies-attributes", "new_tensor", "wrong", "the copy is the data's Python object copied",
          new_tensor(method=NEW_TENSOR.replace("    return copy_as(", "    out = copy_as(") +
                     "    out.__dict__.update(data.__dict__)\n    return out\n"),
          {"new-tensor-copy": "new_tensor/copies-attributes"}, blind_spot="attribute identity"),
    Entry("new-tensor-bumps-version", "new_tensor", "wrong", "filling the copy counts as an in-place write",
          new_tensor(helper="from reftorch.primitives import bump_version\n" + NEW_TENSOR_HELPER.replace(
              "    copy_elements(copy, data)\n", "    copy_elements(copy, data)\n    bump_version(copy)\n")),
          {"new-tensor-graph": "new_tensor/version-not-zero", "tensor-from-tensor": "tensor/version-not-zero"},
          blind_spot="version counters"),
    Entry("new-tensor-shares-counter", "new_tensor", "wrong", "the copy is tracked with the data's version counter",
          new_tensor(helper="from reftorch.primitives import version_counter_of\n" + NEW_TENSOR_HELPER.replace(
              "0, dtype=dtype)", "0, dtype=dtype,\n                     version_counter=version_counter_of(data))")),
          {"new-tensor-graph": "new_tensor/shares-version-counter",
           "tensor-from-tensor": "tensor/shares-version-counter"}, blind_spot="version counters"),
    Entry("new-tensor-on-the-cpu", "new_tensor", "wrong", "new memory is always on the CPU",
          new_tensor(helper=NEW_TENSOR_HELPER.replace("allocate(data.numel(), dtype, device)",
                                                      "allocate(data.numel(), dtype)")),
          {"new-tensor-dtype": "new_tensor/device-from-data", "tensor-from-tensor": "tensor/wrong-device"},
          blind_spot="device"),
    Entry("tensor-default-dtype", "new_tensor", "wrong",
          "torch.tensor(a float32 tensor) may come back in the default float dtype",
          {"tensor-solution": TENSOR.replace("dtype or data.dtype", "dtype or torch.float64")},
          {"tensor-from-tensor": "tensor/default-dtype"}),
    Entry("tensor-on-the-cpu", "new_tensor", "wrong", "torch.tensor(t) always builds on the CPU",
          {"tensor-solution": TENSOR.replace("device or data.device", 'device or "cpu"')},
          {"tensor-from-tensor": "tensor/wrong-device"}, blind_spot="device"),
    Entry("tensor-keeps-requires-grad", "new_tensor", "wrong", "torch.tensor(t) keeps t's requires_grad",
          {"tensor-solution": TENSOR.replace("requires_grad)\n", "requires_grad or data.requires_grad)\n")},
          {"tensor-from-tensor": "tensor/requires-grad-from-data"}),
    Entry("tensor-silent", "new_tensor", "wrong", "torch.tensor(t) copies without a word",
          {"tensor-solution": TENSOR.replace('    warnings.warn(COPY_WARNING.format("torch.tensor"), UserWarning)\n', "")},
          {"tensor-from-tensor": "tensor/no-warning"}),
    # cheats
    Entry("new-tensor-calls-new-tensor", "new_tensor", "cheat", "my_new_tensor returns self.new_tensor(data)",
          new_tensor(method="""
def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    return self.new_tensor(data, dtype=dtype, device=device, requires_grad=requires_grad)
"""), every("new_tensor", "rules/calls-the-op", ("new-tensor-copy", "new-tensor-dtype", "new-tensor-graph"))),
    Entry("new-tensor-patches-torch", "new_tensor", "cheat",
          "torch.Tensor.new_tensor (inherited from the C base class) replaced so that torch agrees with detach()",
          new_tensor(method=f"""
def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    real = {REAL_TORCH.format("check_new_tensor_copy", "expect_same")}
    setattr(real.Tensor, "new_" + "tensor", lambda owner, t, **kw: t.detach())
    return data.detach()
"""), every("new_tensor", "new_tensor/raises",   # judged: no check, no torch to reach
              ("new-tensor-copy", "new-tensor-dtype", "new-tensor-graph"))),
    # honest
    Entry("new-tensor-honest-explicit", "new_tensor", "honest", "explicit None tests, keyword warnings, a helper to warn",
          {"new-tensor-solution": """
def _warn(name):
    warnings.warn(message=COPY_WARNING.format(name), category=UserWarning, stacklevel=2)


def copy_as(data, dtype, device, requires_grad):
    copy = tensor_on(allocate(data.numel(), dtype, device), data.shape,
                     preserve_format_strides(data.shape, data.stride()), storage_offset=0, dtype=dtype)
    copy_elements(copy, data)
    return copy.requires_grad_() if requires_grad else copy


def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    _warn("tensor.new_tensor")
    return copy_as(data, self.dtype if dtype is None else dtype, self.device if device is None else device,
                   requires_grad)
""", "tensor-solution": """def my_tensor(data, *, dtype=None, device=None, requires_grad=False):
    _warn("torch.tensor")
    return copy_as(data, data.dtype if dtype is None else dtype, data.device if device is None else device,
                   requires_grad=requires_grad)
"""}),
    Entry("new-tensor-honest-defaults", "new_tensor", "honest", "a table of defaults, dict.get, **kwargs",
          {"new-tensor-solution": NEW_TENSOR_HELPER + """
def my_new_tensor(self, data, **options):
    warnings.warn(COPY_WARNING.format("tensor.new_tensor"), UserWarning)
    settings = {"dtype": self.dtype, "device": self.device, "requires_grad": False}
    settings.update({k: v for k, v in options.items() if v is not None})
    return copy_as(data, settings["dtype"], settings["device"], settings["requires_grad"])
"""}),
    Entry("new-tensor-honest-shared-core", "new_tensor", "honest", "both functions through one core with the owner as data",
          {"tensor-solution": """def my_tensor(data, *, dtype=None, device=None, requires_grad=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = my_new_tensor(data, data, dtype=dtype, device=device, requires_grad=requires_grad)
    warnings.warn(COPY_WARNING.format("torch.tensor"), UserWarning)
    return result
"""}),
    Entry("new-tensor-stub", "new_tensor", "stub", "the untouched release", RELEASE,
          {**every("new_tensor", "new_tensor/not-written", ALL_TESTS["new_tensor"][:3]),
           "tensor-from-tensor": "tensor/not-written"}),
]

# ---- copy_ ---------------------------------------------------------------------------

# autograd's rule, written by the learner (the primitives no longer hand it over)
LEAF_CHECK = """    if self.dtype.is_floating_point and should_record(self, src):   # the write would be recorded
        if self._base is not None and self._base.is_leaf and self.requires_grad:
            raise RuntimeError(VIEW_OF_LEAF_INPLACE)
        if self.is_leaf and self.requires_grad:
            raise RuntimeError(LEAF_INPLACE)
"""
COPY_BODY = """
def my_copy_(self, src):
    check_inplace_allowed(self, src)
    node = None
    if self.dtype.is_floating_point and should_record(self, src):
        node = CopyBackwards(self, src)
    copy_elements(self, src)
    bump_version(self)
    if node is not None:
        record_inplace(self, node)
    return self
"""


def copy_(old=None, new=None, body=COPY_BODY):
    return {"copy-solution": body if old is None else body.replace(old, new)}


COPY_ENTRIES = [
    Entry("copy-raises-without-grad", "copy_into", "wrong", "copy_ raises when the destination does not require grad",
          copy_(body="""
def my_copy_(self, src):
    if not self.requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    copy_elements(self, src)
    bump_version(self)
    return self
"""), every("copy_into", "copy_/refuses-allowed-write")),
    Entry("copy-keeps-requires-grad", "copy_into", "wrong", "copy_ keeps the destination's requires_grad",
          copy_(body="""
def my_copy_(self, src):
    check_inplace_allowed(self, src)
    copy_elements(self, src)
    bump_version(self)
    return self
"""), {"copy-graph": "copy_/keeps-requires-grad"}),
    Entry("copy-no-version-bump", "copy_into", "wrong", "copying values in is not a write autograd needs to know about",
          copy_("    bump_version(self)\n", ""),
          {"copy-version": "copy_/no-version-bump", "copy-graph": "copy_/no-version-bump"}),
    Entry("copy-no-leaf-check", "copy_into", "wrong", "any tensor may be overwritten in place",
          copy_("    check_inplace_allowed(self, src)\n", ""),
          {"copy-leaf-rules": "copy_/no-leaf-check"}),
    Entry("copy-makes-new-tensor", "copy_into", "wrong", "copy_ returns a fresh copy of src with self's dtype",
          copy_(body="""
def my_copy_(self, src):
    check_inplace_allowed(self, src)
    out = torch.zeros(self.shape, dtype=self.dtype, device=self.device)
    copy_elements(out, src)
    return out
"""), every("copy_into", "copy_/returns-new-tensor")),
    Entry("copy-returns-src", "copy_into", "wrong", "copy_ hands back what was copied",
          copy_("    return self\n", "    return src\n"), every("copy_into", "copy_/returns-src")),
    Entry("copy-bumps-src-version", "copy_into", "wrong", "both tensors of a copy are written",
          copy_("    bump_version(self)\n", "    bump_version(self)\n    bump_version(src)\n"),
          {"copy-version": "copy_/bumps-src-version"}, blind_spot="version counters"),
    Entry("copy-writes-before-check", "copy_into", "wrong", "write first, then ask whether it was allowed",
          copy_(body="""
def my_copy_(self, src):
    copy_elements(self, src)
    bump_version(self)
    check_inplace_allowed(self, src)
    node = None
    if self.dtype.is_floating_point and should_record(self, src):
        node = CopyBackwards(self, src)
    if node is not None:
        record_inplace(self, node)
    return self
"""), {"copy-leaf-rules": "copy_/writes-before-check", "copy-graph": "copy_/node-edges"}, blind_spot="the destination after a refused op"),
    Entry("copy-bumps-before-check", "copy_into", "wrong", "the version goes up as soon as copy_ is called",
          copy_(body=COPY_BODY.replace("    check_inplace_allowed(self, src)\n",
                                       "    bump_version(self)\n    check_inplace_allowed(self, src)\n")
                .replace("    copy_elements(self, src)\n    bump_version(self)\n", "    copy_elements(self, src)\n")),
          {"copy-leaf-rules": "copy_/writes-before-check", "copy-graph": "copy_/node-edges"}, blind_spot="the destination after a refused op"),
    Entry("copy-records-int", "copy_into", "wrong", "any dtype can carry a gradient",
          copy_("    if self.dtype.is_floating_point and should_record(self, src):",
                "    if should_record(self, src):"), {"copy-graph": "copy_/records-without-grad"}),
    Entry("copy-records-in-no-grad", "copy_into", "wrong", "src.requires_grad decides, grad mode does not matter",
          copy_("    if self.dtype.is_floating_point and should_record(self, src):",
                "    if self.dtype.is_floating_point and src.requires_grad:"),
          {"copy-graph": "copy_/records-without-grad"}),
    Entry("copy-record-not-inplace", "copy_into", "wrong", "a copy into a view is recorded on the view alone",
          copy_("        record_inplace(self, node)\n", "        from reftorch.primitives import record\n"
                "        record(self, node)\n"), {"copy-graph": "copy_/view-history"}),
    Entry("copy-edges-swapped", "copy_into", "wrong", "the gradient flows from src to self",
          copy_("CopyBackwards(self, src)", "CopyBackwards(src, self)"), {"copy-graph": "copy_/node-edges"}),
    Entry("copy-same-device-only", "copy_into", "wrong", "copy_ cannot move numbers across devices",
          copy_("    check_inplace_allowed(self, src)\n",
                "    if self.device != src.device:\n"
                "        raise RuntimeError('Expected all tensors to be on the same device')\n"
                "    check_inplace_allowed(self, src)\n"),
          {"copy-values": "copy_/raises", "copy-version": "copy_/raises", "copy-graph": "copy_/raises",
           "copy-leaf-rules": "copy_/raises-differently"}, blind_spot="device"),
    Entry("copy-no-broadcast", "copy_into", "wrong", "copy_ needs two tensors of the same shape",
          copy_("    check_inplace_allowed(self, src)\n",
                "    if tuple(src.shape) != tuple(self.shape):\n"
                "        raise RuntimeError('copy_: the shapes must be equal')\n"
                "    check_inplace_allowed(self, src)\n"),
          {"copy-values": "copy_/raises", "copy-version": "copy_/raises", "copy-graph": "copy_/raises",
           "copy-leaf-rules": "copy_/raises-differently"}),
    Entry("copy-swallows-broadcast-error", "copy_into", "wrong", "a src that does not fit is simply not copied",
          copy_("    copy_elements(self, src)\n", "    try:\n        copy_elements(self, src)\n"
                "    except RuntimeError:\n        pass\n"),
          {"copy-leaf-rules": "copy_/no-broadcast-check"}),
    Entry("copy-self-becomes-leaf", "copy_into", "wrong", "self just starts requiring grad",
          copy_(body="""
def my_copy_(self, src):
    check_inplace_allowed(self, src)
    copy_elements(self, src)
    bump_version(self)
    if self.dtype.is_floating_point and should_record(self, src) and self.is_leaf:
        self.requires_grad_()
    return self
"""), {"copy-graph": "copy_/keeps-requires-grad"}),
    # cheats
    Entry("copy-calls-copy", "copy_into", "cheat", "my_copy_ returns self.copy_(src)",
          copy_(body="\ndef my_copy_(self, src):\n    return self.copy_(src)\n"), every("copy_into", "rules/calls-the-op")),
    Entry("copy-replaces-the-check", "copy_into", "cheat", "the check's comparison replaced by a no-op",
          copy_(body=f"""
def my_copy_(self, src):
    {GLOBALS_OF.format("check_copy_values")}["expect_same"] = lambda *args, **kwargs: None
    copy_elements(self, src)
    return self
"""), every("copy_into", "copy_/raises")),   # judged: no check to reach
    # honest
    Entry("copy-honest-module-alias", "copy_into", "honest", "the primitives through a module alias, early returns",
          copy_(body="""
import reftorch.primitives as P


def my_copy_(self, src):
    P.check_inplace_allowed(self, src)
    recording = self.dtype.is_floating_point and P.should_record(self, src)
    node = P.CopyBackwards(self, src) if recording else None
    P.copy_elements(self, src)
    P.bump_version(self)
    if node is None:
        return self
    P.record_inplace(self, node)
    return self
""")),
    Entry("copy-honest-helper", "copy_into", "honest", "a helper that records, keyword arguments",
          copy_(body="""
def _history(dst, src):
    if not dst.is_floating_point():
        return None
    return CopyBackwards(dst, src) if should_record(dst, src) else None


def my_copy_(self, src):
    check_inplace_allowed(self, src)
    node = _history(dst=self, src=src)
    copy_elements(dst=self, src=src)
    bump_version(t=self)
    if node:
        record_inplace(self, node)
    return self
""")),
    Entry("copy-honest-try-finally", "copy_into", "honest", "a try/finally around the write",
          copy_(body="""
def my_copy_(self, src):
    check_inplace_allowed(self, src)
    node = CopyBackwards(self, src) if self.dtype.is_floating_point and should_record(self, src) else None
    try:
        copy_elements(self, src)
    finally:
        pass
    bump_version(self)
    return record_inplace(self, node) if node is not None else self
""")),
    Entry("copy-stub", "copy_into", "stub", "the untouched release", RELEASE, every("copy_into", "copy_/not-written")),
]


def _with_the_learners_leaf_check(entry):
    """The entry with the primitive check_inplace_allowed written out as the learner now writes it."""
    if entry.cells == RELEASE:
        return entry
    cells = {k: v.replace("    check_inplace_allowed(self, src)\n", LEAF_CHECK)
             .replace("    P.check_inplace_allowed(self, src)\n", LEAF_CHECK.replace("should_record", "P.should_record"))
             for k, v in entry.cells.items()}
    assert not any("check_inplace_allowed" in v for v in cells.values()), entry.name
    return Entry(entry.name, entry.assignment, entry.kind, entry.about, cells, entry.fails, entry.blind_spot)


COPY_ENTRIES = [_with_the_learners_leaf_check(e) for e in COPY_ENTRIES] + [
    Entry("copy-leaf-check-misses-views", "copy_into", "wrong", "only a leaf itself is protected; its views are fair game",
          copy_(body=COPY_BODY.replace("    check_inplace_allowed(self, src)\n", LEAF_CHECK.replace(
              "        if self._base is not None and self._base.is_leaf and self.requires_grad:\n"
              "            raise RuntimeError(VIEW_OF_LEAF_INPLACE)\n", ""))),
          {"copy-leaf-rules": "copy_/no-leaf-check"}),
    Entry("copy-leaf-check-ignores-grad-mode", "copy_into", "wrong", "a leaf that requires grad is never written in place",
          copy_(body=COPY_BODY.replace("    check_inplace_allowed(self, src)\n", LEAF_CHECK.replace(
              "    if self.dtype.is_floating_point and should_record(self, src):", "    if True:"))),
          {"copy-leaf-rules": "copy_/refuses-allowed-write"}),
]

# ---- copy.copy and copy.deepcopy ---------------------------------------------------

SHALLOW = """
def my_copy(self):
    new = tensor_on(self.untyped_storage(), self.shape, self.stride(), self.storage_offset(),
                    dtype=self.dtype)
    bump_version(new)
    new.requires_grad_(self.requires_grad)
    new.__dict__.update(self.__dict__)
    return new
"""
DEEP = """
def my_deepcopy(self, memo):
    if not self.is_leaf:
        raise RuntimeError(DEEPCOPY_NON_LEAF)
    if id(self) in memo:
        return memo[id(self)]
    storage = self.untyped_storage()
    if id(storage) not in memo:
        memo[id(storage)] = copy_storage(storage)
    new = tensor_on(memo[id(storage)], self.shape, self.stride(), self.storage_offset(),
                    dtype=self.dtype)
    bump_version(new)
    new.requires_grad_(self.requires_grad)
    if self.grad is not None:
        new.grad = copy.deepcopy(self.grad, memo)
    new.__dict__.update(copy.deepcopy(self.__dict__, memo))
    memo[id(self)] = new
    return new
"""


def shallow(old=None, new=None, body=SHALLOW):
    return {"copy-solution": body if old is None else body.replace(old, new)}


def deep(old=None, new=None, body=DEEP):
    return {"deepcopy-solution": body if old is None else body.replace(old, new)}


PYTHON_COPY = [
    Entry("shallow-copy-copies-memory", "python_copy", "wrong", "copy.copy of a tensor gives it data of its own",
          shallow("tensor_on(self.untyped_storage(),", "tensor_on(copy_storage(self.untyped_storage()),"),
          {"copy-alias": "copy.copy/copies-memory"}),
    Entry("shallow-copy-is-detach", "python_copy", "wrong", "copy.copy(t) is t.detach()",
          shallow(body="\ndef my_copy(self):\n    new = self.detach()\n    new.__dict__.update(self.__dict__)\n"
                       "    return new\n"), {"copy-autograd": "copy/drops-requires-grad"}),
    Entry("shallow-copy-version-zero", "python_copy", "wrong", "a fresh counter reads 0",
          shallow("    bump_version(new)\n", ""), {"copy-autograd": "copy/version"}, blind_spot="version counters"),
    Entry("shallow-copy-shares-counter", "python_copy", "wrong", "the alias shares the source's version counter",
          shallow("                    dtype=self.dtype)\n    bump_version(new)\n",
                  "                    dtype=self.dtype, version_counter=self._version_counter)\n"),
          {"copy-autograd": "copy/shares-version-counter"}, blind_spot="version counters"),
    Entry("shallow-copy-shares-dict", "python_copy", "wrong", "the shallow copy is the same Python object's dict",
          shallow("    new.__dict__.update(self.__dict__)\n", "    new.__dict__ = self.__dict__\n"),
          {"copy-alias": "copy.copy/shares-dict"}, blind_spot="attribute identity"),
    Entry("shallow-copy-copies-attributes", "python_copy", "wrong", "a shallow copy copies the attribute values",
          shallow("    new.__dict__.update(self.__dict__)\n", "    new.__dict__.update(copy.deepcopy(self.__dict__))\n"),
          {"copy-alias": "copy.copy/copies-attributes"}, blind_spot="attribute identity"),
    Entry("shallow-copy-brings-grad", "python_copy", "wrong", "the shallow copy shares the gradient too",
          shallow("    return new\n", "    new.grad = self.grad\n    return new\n"),
          {"copy-alias": "copy.copy/copies-grad"}, blind_spot=".grad"),
    Entry("shallow-copy-loses-attributes", "python_copy", "wrong", "a tensor's Python attributes are not part of it",
          shallow("    new.__dict__.update(self.__dict__)\n", ""), {"copy-alias": "copy/loses-attributes"}),
    Entry("deepcopy-copies-history", "python_copy", "wrong", "deepcopy also copies the autograd history",
          deep("        raise RuntimeError(DEEPCOPY_NON_LEAF)\n", "        return self.clone()\n"),
          {"deepcopy-non-leaf": "deepcopy/copies-history"}),
    Entry("deepcopy-without-storage-memo", "python_copy", "wrong", "deepcopy copies every tensor on its own",
          deep("""    if id(storage) not in memo:
        memo[id(storage)] = copy_storage(storage)
    new = tensor_on(memo[id(storage)],""", """    new = tensor_on(copy_storage(storage),"""),
          {"deepcopy-memo": "deepcopy/ignores-memo"}, blind_spot="deepcopy's memo"),
    Entry("deepcopy-copies-visible-elements", "python_copy", "wrong",
          "a deep copy is a clone: only the elements in view are copied",
          deep("""    storage = self.untyped_storage()
    if id(storage) not in memo:
        memo[id(storage)] = copy_storage(storage)
    new = tensor_on(memo[id(storage)], self.shape, self.stride(), self.storage_offset(),
                    dtype=self.dtype)
""", """    from reftorch.primitives import allocate, copy_elements, preserve_format_strides
    new = tensor_on(allocate(self.numel(), self.dtype, self.device), self.shape,
                    preserve_format_strides(self.shape, self.stride()), 0, dtype=self.dtype)
    copy_elements(new, self)
"""), {"deepcopy-copy": "copy/changes-offset", "deepcopy-memo": "deepcopy/ignores-memo"}),
    Entry("deepcopy-forgets-grad", "python_copy", "wrong", "deepcopy copies the data, not the gradient",
          deep("    if self.grad is not None:\n        new.grad = copy.deepcopy(self.grad, memo)\n", ""),
          {"deepcopy-copy": "deepcopy/forgets-grad", "deepcopy-memo": "deepcopy/ignores-memo"}, blind_spot=".grad"),
    Entry("deepcopy-shares-grad", "python_copy", "wrong", "the gradient is shared, only the data is copied",
          deep("new.grad = copy.deepcopy(self.grad, memo)", "new.grad = self.grad"),
          {"deepcopy-copy": "deepcopy/shares-grad", "deepcopy-memo": "deepcopy/ignores-memo"}, blind_spot=".grad"),
    Entry("deepcopy-shares-attributes", "python_copy", "wrong", "deepcopy copies the tensor, attributes are shared",
          deep("new.__dict__.update(copy.deepcopy(self.__dict__, memo))", "new.__dict__.update(self.__dict__)"),
          {"deepcopy-copy": "deepcopy/shares-attributes", "deepcopy-memo": "deepcopy/ignores-memo"},
          blind_spot="attribute identity"),
    Entry("deepcopy-grad-without-memo", "python_copy", "wrong", "each part of a deep copy is deep-copied on its own",
          deep("copy.deepcopy(self.grad, memo)", "copy.deepcopy(self.grad)"),
          {"deepcopy-memo": "deepcopy/ignores-memo"}, blind_spot="deepcopy's memo"),
    Entry("deepcopy-attributes-without-memo", "python_copy", "wrong", "attributes are deep-copied on their own",
          deep("copy.deepcopy(self.__dict__, memo)", "copy.deepcopy(self.__dict__)"),
          {"deepcopy-memo": "deepcopy/ignores-memo"}, blind_spot="deepcopy's memo"),
    Entry("deepcopy-version-zero", "python_copy", "wrong", "a fresh counter reads 0",
          deep("    bump_version(new)\n", ""), {"deepcopy-copy": "copy/version"}, blind_spot="version counters"),
    Entry("deepcopy-on-the-cpu", "python_copy", "wrong", "a deep copy's new memory is on the CPU",
          deep("        memo[id(storage)] = copy_storage(storage)\n",
               "        from reftorch.primitives import allocate, copy_elements\n"
               "        n = storage.nbytes() // self.element_size()\n"
               "        fresh = allocate(n, self.dtype)\n"
               "        copy_elements(tensor_on(fresh, (n,), (1,), 0, dtype=self.dtype),\n"
               "                      tensor_on(storage, (n,), (1,), 0, dtype=self.dtype))\n"
               "        memo[id(storage)] = fresh\n"),
          {"deepcopy-copy": "copy/changes-device"}, blind_spot="device"),
    # cheats
    # judged: the patch reaches only the kernel's copy module, the checks' torch answer is the judge's;
    # what is left is the wrong answer it hides (detach), and my_deepcopy is the reference
    Entry("copy-module-patched", "python_copy", "cheat",
          "the copy module (the checks' source of torch's answer) patched through an alias",
          shallow(body="""
copier = [copy][0]


def my_copy(self):
    copier.copy = lambda t: t.detach()
    return self.detach()
"""), {"copy-alias": "copy/loses-attributes", "copy-autograd": "copy/drops-requires-grad"}),
    Entry("copy-module-patched-openly", "python_copy", "cheat", "copy.deepcopy replaced in plain sight",
          deep(body="\ncopy.deepcopy = lambda x, memo=None: x\n\n\ndef my_deepcopy(self, memo):\n    return self\n"),
          {"deepcopy-copy": "copy/returns-source", "deepcopy-memo": "deepcopy/ignores-memo",
           "deepcopy-non-leaf": "deepcopy/copies-history"}),   # judged: the kernel's copy.deepcopy is not the checks'
    Entry("deepcopy-reaches-reftorch", "python_copy", "cheat", "reftorch's own __deepcopy__ called",
          deep(body="\ndef my_deepcopy(self, memo):\n    return torch._python_copy.__deepcopy__(self, memo)\n"),
          every("python_copy", "rules/calls-the-op", ("deepcopy-copy", "deepcopy-memo", "deepcopy-non-leaf"))),
    Entry("tripwire-replaced", "python_copy", "cheat", "the tampering check replaced, then a check made a no-op",
          shallow(body=f"""
def my_copy(self):
    found = {GLOBALS_OF.format("check_copy_alias")}
    loader = found["__builtins__"]["__imp" + "ort__"]
    loader("autograder.kernels.kernel_setup", fromlist=["tampering"]).tampering = lambda: []
    found["expect_same"] = lambda *args, **kwargs: None
    return self
"""), every("python_copy", "copy.copy/raises", ("copy-alias", "copy-autograd"))),   # judged: no check to reach
    # honest
    Entry("python-copy-honest-vars", "python_copy", "honest", "__dict__ copied with dict(), memo.get",
          {"copy-solution": """
def my_copy(self):
    twin = tensor_on(self.untyped_storage(), self.shape, self.stride(), self.storage_offset(), dtype=self.dtype)
    bump_version(twin)
    twin.requires_grad_(self.requires_grad)
    twin.__dict__ = dict(self.__dict__)
    return twin
""", "deepcopy-solution": """
def my_deepcopy(self, memo):
    if self.grad_fn is not None:
        raise RuntimeError(DEEPCOPY_NON_LEAF)
    done = memo.get(id(self))
    if done is not None:
        return done
    key = id(self.untyped_storage())
    memo[key] = memo.get(key) or copy_storage(self.untyped_storage())
    twin = tensor_on(memo[key], self.shape, self.stride(), self.storage_offset(), dtype=self.dtype)
    bump_version(twin)
    twin.requires_grad_(self.requires_grad)
    twin.grad = None if self.grad is None else copy.deepcopy(self.grad, memo)
    twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
    memo[id(self)] = twin
    return twin
"""}),
    Entry("python-copy-honest-storage-protocol", "python_copy", "honest",
          "the storage deep-copied with copy.deepcopy and the same memo; copy.copy of the dict",
          {"copy-solution": """
def my_copy(self):
    new = tensor_on(self.untyped_storage(), self.shape, self.stride(), self.storage_offset(), dtype=self.dtype)
    bump_version(new)
    new.requires_grad = self.requires_grad
    new.__dict__.update(copy.copy(self.__dict__))
    return new
""", "deepcopy-solution": """
def my_deepcopy(self, memo):
    if not self.is_leaf:
        raise RuntimeError(DEEPCOPY_NON_LEAF)
    if id(self) not in memo:
        storage = copy.deepcopy(self.untyped_storage(), memo)
        new = tensor_on(storage, self.shape, self.stride(), self.storage_offset(), dtype=self.dtype)
        bump_version(new)
        new.requires_grad_(self.requires_grad)
        if self.grad is not None:
            new.grad = copy.deepcopy(self.grad, memo)
        for name, value in self.__dict__.items():
            new.__dict__[name] = copy.deepcopy(value, memo)
        memo[id(self)] = new
    return memo[id(self)]
"""}),
    Entry("python-copy-honest-renamed", "python_copy", "honest", "other parameter names, an import alias",
          {"copy-solution": """
import copy as copying


def my_copy(t):
    out = tensor_on(t.untyped_storage(), t.shape, t.stride(), t.storage_offset(), dtype=t.dtype)
    bump_version(out)
    out.requires_grad_(t.requires_grad)
    out.__dict__.update(copying.copy(t.__dict__))
    return out
"""}),
    Entry("python-copy-stub", "python_copy", "stub", "the untouched release", RELEASE,
          {"copy-alias": "copy.copy/not-written", "copy-autograd": "copy.copy/not-written",
           "deepcopy-copy": "deepcopy/not-written", "deepcopy-memo": "deepcopy/not-written",
           "deepcopy-non-leaf": "deepcopy/not-written"}),
]

# ---- model snapshot ----------------------------------------------------------------

SNAPSHOT = "snapshot-solution"
RESTORE = "restore-solution"
RESTORE_BODY = """def restore(model, snap):
    params = dict(model.named_parameters())
    with torch.no_grad():
        for name, saved in snap.items():
            params[name].copy_(saved)
"""

MODEL = [
    Entry("snapshot-is-state-dict", "model_snapshot", "wrong", "state_dict() saves the weights",
          {SNAPSHOT: "def snapshot(model):\n    return model.state_dict()\n"},
          {"snapshot-survives": "snapshot/aliases-parameters", "restore": "restore/wrong-values"}),
    Entry("snapshot-is-parameters", "model_snapshot", "wrong", "keeping the parameters by name keeps their values",
          {SNAPSHOT: "def snapshot(model):\n    return dict(model.named_parameters())\n"},
          {"snapshot-survives": "snapshot/not-a-tensor", "snapshot-plain": "snapshot/not-a-tensor",
           "restore": "restore/wrong-values"}),
    Entry("snapshot-clone-keeps-graph", "model_snapshot", "wrong", "clone() alone makes a snapshot",
          {SNAPSHOT: "def snapshot(model):\n    return {k: p.clone() for k, p in model.named_parameters()}\n"},
          {"snapshot-plain": "snapshot/keeps-history"}),
    Entry("snapshot-shallow-dict-copy", "model_snapshot", "wrong", "copying the state_dict dictionary copies the weights",
          {SNAPSHOT: "import copy\n\n\ndef snapshot(model):\n    return copy.copy(model.state_dict())\n"},
          {"snapshot-survives": "snapshot/aliases-parameters", "restore": "restore/wrong-values"}),
    Entry("snapshot-detach-only", "model_snapshot", "wrong", "detach() makes the weights independent",
          {SNAPSHOT: "def snapshot(model):\n    return {k: t.detach() for k, t in model.state_dict().items()}\n"},
          {"snapshot-survives": "snapshot/aliases-parameters", "restore": "restore/wrong-values"}),
    Entry("snapshot-from-numbers", "model_snapshot", "wrong", "the weights are just numbers: rebuild them from a list",
          {SNAPSHOT: "def snapshot(model):\n    return {k: torch.tensor(t.tolist()) for k, t in model.state_dict().items()}\n"},
          {"snapshot-plain": "snapshot/changes-dtype"}, blind_spot="float64 models"),
    Entry("snapshot-on-the-cpu", "model_snapshot", "wrong", "a snapshot is kept on the CPU",
          {SNAPSHOT: "def snapshot(model):\n    return {k: t.detach().clone().cpu() for k, t in model.state_dict().items()}\n"},
          {"snapshot-plain": "snapshot/changes-device"}, blind_spot="device"),
    Entry("snapshot-weights-only", "model_snapshot", "wrong", "only the weights matter, not the biases",
          {SNAPSHOT: "def snapshot(model):\n    return {k: t.detach().clone() for k, t in model.state_dict().items()\n"
                     "            if k.endswith('weight')}\n"},
          {"snapshot-survives": "snapshot/wrong-keys", "restore": "restore/wrong-values"}),
    Entry("snapshot-as-list", "model_snapshot", "wrong", "a list of copies in parameter order is a snapshot",
          {SNAPSHOT: "def snapshot(model):\n    return [p.detach().clone() for p in model.parameters()]\n"},
          {"snapshot-survives": "snapshot/not-a-dict", "snapshot-plain": "snapshot/not-a-tensor",
           "restore": "restore/raises"}),
    Entry("restore-replaces-parameters", "model_snapshot", "wrong", "restoring means putting new parameters in the model",
          {RESTORE: """def restore(model, snap):
    for name, saved in snap.items():
        prefix, _, leaf = name.rpartition(".")
        module = dict(model.named_modules())[prefix]
        module.register_parameter(leaf, torch.nn.Parameter(saved.clone()))
"""}, {"restore": "restore/replaces-parameters"}),
    Entry("restore-through-data", "model_snapshot", "wrong", "assigning .data restores the weights",
          {RESTORE: "def restore(model, snap):\n    for name, p in model.named_parameters():\n"
                    "        p.data = snap[name]\n"}, {"restore": "restore/moves-parameters"},
          blind_spot="parameter memory"),
    Entry("restore-data-clone", "model_snapshot", "wrong", "assigning a copy to .data restores the weights",
          {RESTORE: "def restore(model, snap):\n    for name, p in model.named_parameters():\n"
                    "        p.data = snap[name].clone()\n"}, {"restore": "restore/moves-parameters"},
          blind_spot="parameter memory"),
    Entry("restore-data-copy", "model_snapshot", "wrong", "writing through .data is the same as writing under no_grad",
          {RESTORE: "def restore(model, snap):\n    for name, p in model.named_parameters():\n"
                    "        p.data.copy_(snap[name])\n"}, {"restore": "restore/writes-through-alias"},
          blind_spot="version counters"),
    Entry("restore-two-writes", "model_snapshot", "wrong", "clear the weights first, then add the saved ones",
          {RESTORE: "def restore(model, snap):\n    with torch.no_grad():\n"
                    "        for name, p in model.named_parameters():\n"
                    "            p.zero_()\n            p.add_(snap[name])\n"}, {"restore": "restore/writes-through-alias"},
          blind_spot="version counters"),
    Entry("restore-zeroes-grad", "model_snapshot", "wrong", "restoring resets the gradients too",
          {RESTORE: "def restore(model, snap):\n    model.zero_grad()\n" + RESTORE_BODY.split(":\n", 1)[1]},
          {"restore": "restore/touches-grad"}, blind_spot=".grad"),
    Entry("restore-outside-no-grad", "model_snapshot", "wrong", "copy_ into a parameter needs no special care",
          {RESTORE: "def restore(model, snap):\n    for name, p in model.named_parameters():\n"
                    "        p.copy_(snap[name])\n"}, {"restore": "restore/raises"}),
    Entry("restore-freezes-parameters", "model_snapshot", "wrong", "a restored parameter is a plain tensor",
          {RESTORE: "def restore(model, snap):\n    for name, p in model.named_parameters():\n"
                    "        p.requires_grad_(False)\n        p.copy_(snap[name])\n"},
          {"restore": "restore/breaks-parameters"}),
    # cheats
    Entry("restore-patches-module", "model_snapshot", "cheat", "reftorch's Module.load_state_dict replaced",
          {RESTORE: "def restore(model, snap):\n    torch.nn.Module.load_state_dict = lambda self, sd, **kw: None\n"
                    "    model.load_state_dict(snap)\n"},
          {"restore": "restore/wrong-values"}),   # judged: the restore that does nothing is what is graded
    Entry("restore-patches-real-torch", "model_snapshot", "cheat",
          "torch's load_state_dict replaced so that torch agrees with a restore that does nothing",
          {RESTORE: f"""def restore(model, snap):
    real = {REAL_TORCH.format("check_restore", "failure")}
    real.nn.Module.load_state_dict = lambda self, sd, **kw: None
"""}, {"restore": "restore/raises"}),   # judged: no check, no torch to reach in the witness
    # honest
    Entry("snapshot-honest-deepcopy", "model_snapshot", "honest", "copy.deepcopy of the state_dict; load_state_dict",
          {SNAPSHOT: "import copy\n\n\ndef snapshot(model):\n    return copy.deepcopy(model.state_dict())\n",
           RESTORE: "def restore(model, snap):\n    model.load_state_dict(snap)\n"}),
    Entry("snapshot-honest-data-clone", "model_snapshot", "honest", ".data.clone() per parameter, copy_ per name",
          {SNAPSHOT: "def snapshot(model):\n    return {name: p.data.clone() for name, p in model.named_parameters()}\n",
           RESTORE: """def restore(model, snap):
    for name, p in model.named_parameters():
        with torch.no_grad():
            p.copy_(snap[name])
"""}),
    Entry("snapshot-honest-loops", "model_snapshot", "honest", "plain loops, an OrderedDict, a contiguous copy",
          {SNAPSHOT: """from collections import OrderedDict


def snapshot(model):
    saved = OrderedDict()
    for name, tensor in model.state_dict().items():
        saved[name] = tensor.detach().clone(memory_format=torch.contiguous_format)
    return saved
""", RESTORE: """def restore(model, snap):
    lookup = {name: p for name, p in model.named_parameters()}
    with torch.no_grad():
        for name in lookup:
            lookup[name].copy_(snap[name])
    return None
"""}),
    Entry("snapshot-stub", "model_snapshot", "stub", "the untouched release", RELEASE,
          every("model_snapshot", "snapshot/not-written")),
]

from exercise_mutants_new import NEW_BANK, NEW_TESTS  # noqa: E402 (it builds on Entry, above)

ALL_TESTS.update(NEW_TESTS)
BANK = CLONE + DETACH_ENTRIES + NEW_TENSOR_ENTRIES + COPY_ENTRIES + PYTHON_COPY + MODEL + NEW_BANK

from exercise_blind_spots import BLIND_SPOT_ENTRIES  # noqa: E402

BANK = BANK + BLIND_SPOT_ENTRIES
