"""The bank's entries for the four newer assignments (strides_and_views, numpy_bridge,
save_and_load, target_network), merged into ``exercise_mutants.BANK``.

Each wrong answer is the reference solution, read from ``solutions/``, with one
misconception written in (``mutate`` refuses a replacement that no longer
matches the solution, so the bank cannot drift from it silently).
"""

from pathlib import Path

import nbformat

from exercise_mutants import RELEASE, Entry

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"

NEW_TESTS = {
    "strides_and_views": ("sv-strides", "sv-positions", "sv-slice", "sv-transpose", "sv-expand"),
    "numpy_bridge": ("nb-from-numpy", "nb-as-tensor", "nb-numpy"),
    "save_and_load": ("sl-bytes", "sl-compact", "sl-rebuild"),
    "target_network": ("tn-make", "tn-update", "tn-train"),
}


def reference(assignment, grade_id):
    """The instructor's code of one solution cell, without nbgrader's markers."""
    nb = nbformat.read(str(SOLUTIONS / assignment / f"{assignment}.ipynb"), as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return "\n".join(line for line in cell.source.splitlines()
                             if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")) + "\n"
    raise KeyError(grade_id)


def mutate(assignment, grade_id, *pairs):
    """``{grade_id: the reference with each (old, new) replaced}``; every ``old`` must occur."""
    code = reference(assignment, grade_id)
    for old, new in zip(pairs[::2], pairs[1::2]):
        assert old in code, f"{assignment}/{grade_id}: {old!r} is not in the solution any more"
        code = code.replace(old, new)
    return {grade_id: code}


def every(assignment, text, tests=None):
    return {test: text for test in (tests or NEW_TESTS[assignment])}


def section(assignment, prefix):
    """``(edit, wrong)`` for one assignment: ``edit(grade_id, old, new, ...)`` is ``mutate`` of its
    reference; ``wrong(name, about, cells, fails, **kw)`` the wrong answer ``prefix-name`` whose
    ``fails`` maps each test to a tag of this assignment."""
    def edit(grade_id, *pairs):
        return mutate(assignment, grade_id, *pairs)

    def wrong(name, about, cells, fails, **kw):
        return Entry(f"{prefix}-{name}", assignment, "wrong", about, cells,
                     {test: f"{assignment}/{tag}" for test, tag in fails.items()}, **kw)
    return edit, wrong


def stub(assignment, prefix):
    """The untouched release: every test fails as not written."""
    return Entry(f"{prefix}-stub", assignment, "stub", "the untouched release", RELEASE,
                 every(assignment, f"{assignment}/not-written"))


# ---- strides_and_views ---------------------------------------------------------------

SV = "strides_and_views"
STRIDES, POSITIONS, VIEWS = "sv-strides-solution", "sv-positions-solution", "sv-views-solution"


sv, sv_wrong = section(SV, "sv")


SLICE_VIEW = """    return tensor_on(t.untyped_storage(), size, stride, offset, dtype=t.dtype,
                     version_counter=version_counter_of(t))
"""

STRIDES_AND_VIEWS = [
    sv_wrong("column-major", "strides: the first dimension moves fastest (Fortran order)",
             sv(STRIDES, "for n in reversed(size):", "for n in size:", "strides.insert(0, step)",
                "strides.append(step)"), {"sv-strides": "column-major"}),
    sv_wrong("strides-are-sizes", "the stride of a dimension is its size",
             {STRIDES: "def my_contiguous_strides(size):\n    return tuple(size)\n"},
             {"sv-strides": "strides-are-sizes"}),
    sv_wrong("zero-size-dims", "a size-0 dimension multiplies the later strides by 0",
             sv(STRIDES, "step *= max(n, 1)", "step *= n"), {"sv-strides": "zero-size-dims"}),
    sv_wrong("counts-own-dim", "a stride is the product of the sizes from that dimension on",
             sv(STRIDES, "        strides.insert(0, step)\n        step *= max(n, 1)\n",
                "        step *= max(n, 1)\n        strides.insert(0, step)\n"), {"sv-strides": "counts-own-dim"}),
    sv_wrong("positions-ignore-offset", "element [0, 0] sits at slot 0",
             sv(POSITIONS, "positions = [t.storage_offset()]", "positions = [0]"),
             {"sv-positions": "ignores-offset"}),
    sv_wrong("positions-contiguous", "the elements are the next numel slots of the storage",
             {POSITIONS: "def my_storage_positions(t):\n"
                         "    return list(range(t.storage_offset(), t.storage_offset() + t.numel()))\n"},
             {"sv-positions": "assumes-contiguous"}),
    sv_wrong("positions-column-order", "elements listed with the first index moving fastest",
             sv(POSITIONS, "[p + i * s for p in positions for i in range(n)]",
                "[p + i * s for i in range(n) for p in positions]"), {"sv-positions": "column-major-order"}),
    sv_wrong("slice-ignores-step", "a step only changes the size of a slice",
             sv(VIEWS, "    stride[dim] *= step\n", ""), {"sv-slice": "slice-ignores-step"}),
    sv_wrong("slice-forgets-offset", "a slice starts start*stride slots into the storage",
             sv(VIEWS, "offset = t.storage_offset() + start * stride[dim]", "offset = start * stride[dim]"),
             {"sv-slice": "slice-offset"}),
    sv_wrong("slice-size-floor", "a stepped slice keeps (stop - start) // step elements",
             sv(VIEWS, "size[dim] = len(range(start, stop, step))", "size[dim] = (stop - start) // step"),
             {"sv-slice": "slice-size"}),
    sv_wrong("slice-copies", "slicing copies the selected elements",
             sv(VIEWS, SLICE_VIEW, """    view = tensor_on(t.untyped_storage(), size, stride, offset, dtype=t.dtype)
    from reftorch.primitives import allocate, copy_elements
    out = tensor_on(allocate(view.numel(), view.dtype, view.device), view.shape,
                    my_contiguous_strides(view.shape), 0, dtype=view.dtype)
    copy_elements(out, view)
    return out
"""), {"sv-slice": "copies"}),
    sv_wrong("slice-own-counter", "a view is a new tensor, so it gets a version counter of its own",
             sv(VIEWS, SLICE_VIEW, """    return tensor_on(t.untyped_storage(), size, stride, offset, dtype=t.dtype)
"""), {"sv-slice": "own-version-counter"}, blind_spot="version counters"),
    sv_wrong("transpose-sizes-only", "transposing swaps the sizes",
             sv(VIEWS, "    stride[dim0], stride[dim1] = stride[dim1], stride[dim0]\n", ""),
             {"sv-transpose": "transpose-keeps-strides"}),
    sv_wrong("transpose-row-major", "a transposed tensor is laid out row-major in its new shape",
             sv(VIEWS, "    stride[dim0], stride[dim1] = stride[dim1], stride[dim0]\n",
                "    stride = my_contiguous_strides(size)\n"), {"sv-transpose": "transpose-copies-layout"}),
    sv_wrong("transpose-offset-zero", "a view starts at the beginning of the storage",
             sv(VIEWS, "return tensor_on(t.untyped_storage(), size, stride, t.storage_offset(), dtype=t.dtype,\n"
                       "                     version_counter=version_counter_of(t))\n\n\n"
                       "def my_expand",
                "return tensor_on(t.untyped_storage(), size, stride, 0, dtype=t.dtype,\n"
                "                     version_counter=version_counter_of(t))\n\n\n"
                "def my_expand"), {"sv-transpose": "transpose-offset"}),
    sv_wrong("expand-keeps-stride", "an expanded dimension keeps its stride",
             sv(VIEWS, "size[i], stride[i] = n, s if n == old else 0", "size[i], stride[i] = n, s"),
             {"sv-expand": "expand-keeps-stride"}),
    sv_wrong("expand-copies", "expand repeats the numbers in new memory",
             sv(VIEWS, """        size[i], stride[i] = n, s if n == old else 0
    return tensor_on(t.untyped_storage(), size, stride, t.storage_offset(), dtype=t.dtype,
                     version_counter=version_counter_of(t))
""", """        size[i], stride[i] = n, s if n == old else 0
    from reftorch.primitives import allocate, copy_elements
    out = tensor_on(allocate(_numel(size), t.dtype, t.device), size, my_contiguous_strides(size), 0,
                    dtype=t.dtype)
    copy_elements(out, t)
    return out


def _numel(size):
    count = 1
    for n in size:
        count *= n
    return count
"""), {"sv-expand": "copies"}),
    # honest answers in unusual styles
    Entry("sv-honest-math", SV, "honest", "math.prod, itertools.product, a comprehension", {
        STRIDES: """import math


def my_contiguous_strides(size):
    return tuple(math.prod(max(n, 1) for n in size[i + 1:]) for i in range(len(size)))
""", POSITIONS: """import itertools


def my_storage_positions(t):
    stride = t.stride()
    return [t.storage_offset() + sum(i * s for i, s in zip(index, stride))
            for index in itertools.product(*(range(n) for n in t.shape))]
"""}),
    Entry("sv-honest-helper", SV, "honest", "a shared helper, math.ceil, a permutation list", {
        VIEWS: """import math


def _view(t, size, stride, offset):
    return tensor_on(t.untyped_storage(), tuple(size), tuple(stride), offset, dtype=t.dtype,
                     version_counter=version_counter_of(t))


def my_slice(t, dim, start, stop, step):
    first, last, _ = slice(start, stop, step).indices(t.shape[dim])
    size = list(t.shape)
    size[dim] = max(0, math.ceil((last - first) / step))
    stride = [s * step if d == dim else s for d, s in enumerate(t.stride())]
    return _view(t, size, stride, t.storage_offset() + first * t.stride()[dim])


def my_transpose(t, dim0, dim1):
    order = list(range(len(t.shape)))
    order[dim0], order[dim1] = dim1, dim0
    return _view(t, [t.shape[d] for d in order], [t.stride()[d] for d in order], t.storage_offset())


def my_expand(t, *sizes):
    size, stride = list(sizes), [0] * len(sizes)
    old = [1] * (len(sizes) - len(t.shape)) + list(t.shape)
    kept = [None] * (len(sizes) - len(t.shape)) + list(t.stride())
    inner = 0
    for i in range(len(sizes) - 1, -1, -1):
        if size[i] == -1:
            size[i] = old[i]
        own = kept[i] if kept[i] is not None else inner
        stride[i] = own if size[i] == old[i] else 0
        inner = size[i] * stride[i]
    return _view(t, size, stride, t.storage_offset())
"""}),
    Entry("sv-honest-numpy", SV, "honest", "numpy broadcasting for the positions, a while loop", {
        STRIDES: """def my_contiguous_strides(size):
    out, step, i = [], 1, len(size)
    while i > 0:
        i -= 1
        out.append(step)
        step *= size[i] or 1
    return tuple(reversed(out))
""", POSITIONS: """import numpy as np


def my_storage_positions(t):
    grid = np.zeros(tuple(t.shape), dtype=np.int64) + t.storage_offset()
    for d, (n, s) in enumerate(zip(t.shape, t.stride())):
        shape = [1] * len(t.shape)
        shape[d] = n
        grid = grid + (np.arange(n) * s).reshape(shape)
    return [int(p) for p in grid.reshape(-1)]
"""}),
    stub(SV, "sv"),
]


# ---- numpy_bridge ---------------------------------------------------------------------

NB = "numpy_bridge"
FROM_NUMPY, AS_TENSOR, NUMPY = "nb-from-numpy-solution", "nb-as-tensor-solution", "nb-numpy-solution"


nb, nb_wrong = section(NB, "nb")


NUMPY_BRIDGE = [
    nb_wrong("from-numpy-copies", "from_numpy copies the array (so it is safe to change it later)",
             nb(FROM_NUMPY, "array_memory(array)", "array_memory(array.copy(order='K'))"),
             {"nb-from-numpy": "copies-when-it-could-share", "nb-as-tensor": "copies-when-it-could-share"}),
    nb_wrong("from-numpy-float32", "tensors are float32, whatever numpy had",
             nb(FROM_NUMPY, "dtype=dtype_of_numpy(array.dtype)", "dtype=torch.float32"),
             {"nb-from-numpy": "default-dtype", "nb-as-tensor": "default-dtype"}, blind_spot="float64 models"),
    nb_wrong("from-numpy-byte-strides", "numpy's strides are torch's strides",
             nb(FROM_NUMPY, "tuple(s // array.itemsize for s in array.strides)", "tuple(array.strides)"),
             {"nb-from-numpy": "strides-in-bytes", "nb-as-tensor": "strides-in-bytes"}),
    nb_wrong("from-numpy-row-major", "an array's memory is always row-major",
             nb(FROM_NUMPY, "strides = tuple(s // array.itemsize for s in array.strides)",
                "strides = tuple(int(np.prod(array.shape[i + 1:])) for i in range(array.ndim))"),
             {"nb-from-numpy": "wrong-strides", "nb-as-tensor": "wrong-strides"}),
    nb_wrong("as-tensor-copies-arrays", "as_tensor copies an array, like torch.tensor",
             nb(AS_TENSOR, "shared = my_from_numpy(data)", "shared = my_from_numpy(data.copy())"),
             {"nb-as-tensor": "copies-when-it-could-share"}),
    nb_wrong("as-tensor-detaches", "as_tensor of a tensor gives fresh data, cut from the graph",
             nb(AS_TENSOR, "return data.to(device=device or data.device, dtype=dtype or data.dtype)",
                "return data.detach().to(device=device or data.device, dtype=dtype or data.dtype)"),
             {"nb-as-tensor": "new-object"}),
    nb_wrong("as-tensor-copy-drops-history", "a converted copy of a tensor is plain data",
             nb(AS_TENSOR, "return data.to(device=device or data.device, dtype=dtype or data.dtype)",
                "out = data.to(device=device or data.device, dtype=dtype or data.dtype)\n"
                "        return out if out is data else out.detach()"),
             {"nb-as-tensor": "drops-history"}),
    nb_wrong("as-tensor-ignores-dtype", "an array keeps its dtype: as_tensor shares it as it is",
             nb(AS_TENSOR, 'return shared.to(device=device or "cpu", dtype=dtype or shared.dtype)',
                'return shared.to(device=device or "cpu")'), {"nb-as-tensor": "ignores-dtype"}),
    nb_wrong("as-tensor-ignores-device", "an array's tensor lives on the CPU",
             nb(AS_TENSOR, 'return shared.to(device=device or "cpu", dtype=dtype or shared.dtype)',
                'return shared.to(dtype=dtype or shared.dtype)'), {"nb-as-tensor": "ignores-device"},
             blind_spot="device"),
    nb_wrong("as-tensor-list-ignores-dtype", "Python data gets the default dtype",
             nb(AS_TENSOR, "return torch.tensor(data, dtype=dtype, device=device)",
                "return torch.tensor(data, device=device)"), {"nb-as-tensor": "default-dtype"}),
    nb_wrong("numpy-copies", "numpy() gives a copy of the numbers",
             nb(NUMPY, "    return elements_of(t)\n", "    return elements_of(t).copy()\n"),
             {"nb-numpy": "copies-when-it-could-share"}),
    nb_wrong("numpy-ignores-grad", "numpy() is just a view, there is nothing to refuse",
             nb(NUMPY, "    if torch.is_grad_enabled() and t.requires_grad:\n"
                       "        raise RuntimeError(\"Can't call numpy() on Tensor that requires grad\")\n", ""),
             {"nb-numpy": "ignores-requires-grad"}),
    nb_wrong("numpy-refuses-in-no-grad", "a tensor that requires grad never gives its memory away",
             nb(NUMPY, "if torch.is_grad_enabled() and t.requires_grad:", "if t.requires_grad:"),
             {"nb-numpy": "refuses-without-need"}),
    nb_wrong("numpy-of-gpu", "numpy can read any tensor's memory",
             nb(NUMPY, "    if t.device.type != \"cpu\":\n"
                       "        raise TypeError(f\"can't convert {t.device} device type tensor to numpy\")\n", ""),
             {"nb-numpy": "numpy-of-gpu"}, blind_spot="device"),
    nb_wrong("numpy-force-shares-gpu", "force=True only skips the checks",
             nb(NUMPY, "return elements_of(t.detach().cpu())", "return elements_of(t.detach())"),
             {"nb-numpy": "shares-when-it-must-copy"}),
    nb_wrong("numpy-bumps-version", "handing out the memory counts as a write",
             nb(NUMPY, "    return elements_of(t)\n",
                "    from reftorch.primitives import bump_version\n    bump_version(t)\n    return elements_of(t)\n"),
             {"nb-numpy": "bumps-version"}, blind_spot="version counters"),
    nb_wrong("numpy-ignores-force", "force=True changes nothing",
             nb(NUMPY, "    if force:\n        return elements_of(t.detach().cpu())\n", ""),
             {"nb-numpy": "refuses-without-need"}),
    nb_wrong("numpy-wrong-error", "a GPU tensor is a bad value (ValueError)",
             nb(NUMPY, "raise TypeError(f\"can't convert", "raise ValueError(f\"can't convert"),
             {"nb-numpy": "wrong-refusal"}),
    Entry("nb-honest-explicit", NB, "honest", "explicit defaults, divmod, the checks in another order", {
        FROM_NUMPY: """def my_from_numpy(array):
    strides = []
    for step in array.strides:
        count, rest = divmod(step, array.dtype.itemsize)
        strides.append(count)
    return tensor_on(array_memory(array), tuple(array.shape), tuple(strides), dtype=dtype_of_numpy(array.dtype))
""", AS_TENSOR: """def my_as_tensor(data, dtype=None, device=None):
    if isinstance(data, (list, tuple, int, float, bool)):
        return torch.tensor(data, dtype=dtype, device=device)
    t = data if isinstance(data, torch.Tensor) else my_from_numpy(data)
    if dtype is None:
        dtype = t.dtype
    if device is None:
        device = t.device
    return t.to(device=device, dtype=dtype)
""", NUMPY: """def my_numpy(t, force=False):
    if not force and t.requires_grad and torch.is_grad_enabled():
        if t.device.type == "cpu":
            raise RuntimeError("Can't call numpy() on Tensor that requires grad")
    if not force and t.device.type != "cpu":
        raise TypeError("can't convert a GPU tensor to numpy")
    source = t.detach().cpu() if force else t
    return elements_of(source)
"""}),
    Entry("nb-honest-helpers", NB, "honest", "helpers and a table of refusals", {
        NUMPY: """REFUSALS = [
    (lambda t: t.device.type != "cpu", TypeError, "can't convert a non-CPU tensor to numpy"),
    (lambda t: torch.is_grad_enabled() and t.requires_grad, RuntimeError, "requires grad: detach() first"),
]


def my_numpy(t, force=False):
    for applies, error, text in ([] if force else REFUSALS):
        if applies(t):
            raise error(text)
    return elements_of(t.detach().cpu() if force else t)
"""}),
    Entry("nb-honest-list-strides", NB, "honest", "a list comprehension, positional offset, a guard clause", {
        FROM_NUMPY: """def my_from_numpy(array):
    size = array.itemsize
    return tensor_on(array_memory(array), array.shape, [s // size for s in array.strides], 0,
                     dtype=dtype_of_numpy(array.dtype))
""", AS_TENSOR: """def my_as_tensor(data, dtype=None, device=None):
    if not isinstance(data, (torch.Tensor, np.ndarray)):
        return torch.tensor(data, dtype=dtype, device=device)
    base = my_from_numpy(data) if isinstance(data, np.ndarray) else data
    return base.to(device=device if device is not None else base.device,
                   dtype=dtype if dtype is not None else base.dtype)
"""}),
    stub(NB, "nb"),
]


# ---- save_and_load ---------------------------------------------------------------------

SL = "save_and_load"
BYTES, COMPACT, REBUILD = "sl-bytes-solution", "sl-compact-solution", "sl-rebuild-solution"


sl, sl_wrong = section(SL, "sl")


def counted(name, about, line, tag, **kw):
    """A wrong my_saved_bytes: it counts ``line`` where the solution counts each storage once."""
    return sl_wrong(name, about, sl(BYTES, "sizes[storage.data_ptr()] = storage.nbytes()", line),
                    {"sl-bytes": tag}, **kw)


def compact(name, about, saved, tag, **kw):
    """A wrong my_save_compact: it saves ``saved`` where the solution saves ``t.clone()``."""
    return sl_wrong(name, about, sl(COMPACT, "torch.save(t.clone(), f)", f"torch.save({saved}, f)"),
                    {"sl-compact": tag}, **kw)


SAVE_AND_LOAD = [
    sl_wrong("bytes-of-the-view", "saving a view writes the view's elements",
             {BYTES: "def my_saved_bytes(tensors):\n    return sum(t.numel() * t.element_size() for t in tensors)\n"},
             {"sl-bytes": "view-elements"}),
    counted("bytes-per-tensor", "every saved tensor writes its own copy of its storage",
            "sizes[id(t)] = storage.nbytes()", "counts-each-tensor"),
    counted("bytes-by-data-ptr", "t.data_ptr() names the memory a tensor looks into",
            "sizes[t.data_ptr()] = storage.nbytes()", "identifies-by-data-ptr"),
    counted("bytes-four-each", "every element is 4 bytes",
            "sizes[storage.data_ptr()] = storage.nbytes() // t.element_size() * 4", "four-bytes-each",
            blind_spot="float64 models"),
    compact("compact-saves-the-view", "torch.save(view) writes only the view", "t", "saves-whole-storage"),
    compact("compact-detach", "detach() gives a new tensor, so its file is new too", "t.detach()",
            "saves-whole-storage"),
    compact("compact-contiguous", "contiguous() always makes a compact copy", "t.contiguous()", "saves-whole-storage"),
    compact("compact-through-python", "a tensor rebuilt from its numbers is the same tensor",
            "torch.tensor(t.tolist())", "changes-dtype", blind_spot="float64 models"),
    compact("compact-detach-clone", "a saved snapshot never requires grad", "t.detach().clone()",
            "drops-requires-grad"),
    compact("compact-row-major", "a copy is always laid out row-major",
            "t.clone(memory_format=torch.contiguous_format)", "changes-layout"),
    sl_wrong("rebuild-storage-each", "every loaded tensor gets memory of its own",
             sl(REBUILD, "        if key not in storages:\n            storages[key] = storage_from_bytes(records[key])\n",
                "        storages[key] = storage_from_bytes(records[key])\n"),
             {"sl-rebuild": "no-sharing"}),
    sl_wrong("rebuild-offset-zero", "a loaded tensor starts at the beginning of its storage",
             sl(REBUILD, 'entry["stride"], entry["storage_offset"], dtype', 'entry["stride"], 0, dtype'),
             {"sl-rebuild": "ignores-offset"}),
    sl_wrong("rebuild-row-major", "a loaded tensor is laid out row-major",
             sl(REBUILD, '    tensors = []\n', '    tensors = []\n\n    def row_major(size):\n'
                '        out, step = [], 1\n        for n in reversed(size):\n            out.insert(0, step)\n'
                '            step *= max(n, 1)\n        return out\n',
                'entry["size"], entry["stride"], entry["storage_offset"]',
                'entry["size"], row_major(entry["size"]), entry["storage_offset"]'),
             {"sl-rebuild": "ignores-stride"}),
    sl_wrong("rebuild-float32", "the numbers in a file are float32",
             sl(REBUILD, 'dtype=entry["dtype"])', 'dtype=torch.float32)'),
             {"sl-rebuild": "ignores-dtype"}, blind_spot="float64 models"),
    sl_wrong("rebuild-version-zero", "a freshly loaded tensor has never been written: version 0",
             sl(REBUILD, "        bump_version(t)\n", ""), {"sl-rebuild": "version"}, blind_spot="version counters"),
    sl_wrong("rebuild-shared-counter", "tensors on one storage share a version counter",
             {REBUILD: """from reftorch.primitives import version_counter_of


def my_rebuild(entries, records):
    storages, counters, tensors = {}, {}, []
    for entry in entries:
        key = entry["key"]
        if key not in storages:
            storages[key] = storage_from_bytes(records[key])
        t = tensor_on(storages[key], entry["size"], entry["stride"], entry["storage_offset"], dtype=entry["dtype"],
                      version_counter=counters.get(key))
        if key not in counters:
            counters[key] = version_counter_of(t)
            bump_version(t)
        t.requires_grad_(entry["requires_grad"])
        tensors.append(t)
    return tensors
"""}, {"sl-rebuild": "shares-version-counter"}, blind_spot="version counters"),
    sl_wrong("rebuild-no-grad-flag", "a file holds numbers only: loaded tensors never require grad",
             sl(REBUILD, '        t.requires_grad_(entry["requires_grad"])\n', ""),
             {"sl-rebuild": "drops-requires-grad"}),
    Entry("sl-honest-set", SL, "honest", "a set of storages, a generator, sorted keys", {
        BYTES: """def my_saved_bytes(tensors):
    seen = set()
    total = 0
    for t in tensors:
        s = t.untyped_storage()
        if s.data_ptr() not in seen:
            seen.add(s.data_ptr())
            total += s.nbytes()
    return total
""", COMPACT: """def my_save_compact(t, f):
    snapshot = t.clone()
    torch.save(snapshot, f)
    return None
"""}),
    Entry("sl-honest-two-passes", SL, "honest", "storages first, then tensors; requires_grad set before the bump", {
        REBUILD: """def my_rebuild(entries, records):
    storages = {key: storage_from_bytes(data) for key, data in records.items()}
    out = []
    for e in entries:
        t = tensor_on(storages[e["key"]], tuple(e["size"]), tuple(e["stride"]), e["storage_offset"],
                      dtype=e["dtype"])
        if e["requires_grad"]:
            t.requires_grad_()
        bump_version(t)
        out.append(t)
    return out
"""}),
    Entry("sl-honest-dict-lookup", SL, "honest", "dict.get for the cache, a list comprehension", {
        REBUILD: """def my_rebuild(entries, records):
    made = {}

    def storage(key):
        if made.get(key) is None:
            made[key] = storage_from_bytes(records[key])
        return made[key]

    def one(e):
        t = tensor_on(storage(e["key"]), e["size"], e["stride"], e["storage_offset"], dtype=e["dtype"])
        bump_version(t)
        return t.requires_grad_(e["requires_grad"])
    return [one(e) for e in entries]
"""}),
    stub(SL, "sl"),
]


# ---- target_network --------------------------------------------------------------------

TN = "target_network"
MAKE, UPDATE, TRAIN = "tn-make-solution", "tn-update-solution", "tn-train-solution"
PARAMS_LOOP = """        for t, p in zip(target.parameters(), model.parameters()):
            t.lerp_(p, tau)
"""
BUFFERS_LOOP = """        for t, b in zip(target.buffers(), model.buffers()):
            t.copy_(b)
"""


tn, tn_wrong = section(TN, "tn")
WRONG_EMA = {"tn-update": "wrong-ema", "tn-train": "wrong-ema"}


def ema(name, about, step, fails, **kw):
    """A wrong update_target: it moves each target parameter by ``step`` where the solution has
    ``t.lerp_(p, tau)``."""
    return tn_wrong(name, about, tn(UPDATE, "            t.lerp_(p, tau)\n", f"            {step}\n"), fails, **kw)


TARGET_NETWORK = [
    tn_wrong("target-is-model", "assignment makes the target",
             tn(MAKE, "target = copy.deepcopy(model)", "target = model"),
             {"tn-make": "alias", "tn-train": "raises"}),
    tn_wrong("shallow-copy", "copy.copy of a module is a copy of the model",
             tn(MAKE, "copy.deepcopy(model)", "copy.copy(model)"),
             {"tn-make": "shares-parameters", "tn-train": "raises"}),
    tn_wrong("not-frozen", "a deep copy is enough: nobody trains the target anyway",
             tn(MAKE, "    for p in target.parameters():\n        p.requires_grad_(False)\n", ""),
             {"tn-make": "not-frozen", "tn-train": "not-frozen"}),
    tn_wrong("freezes-online", "freeze the model whose weights must not move by themselves",
             tn(MAKE, "for p in target.parameters():", "for p in model.parameters():"),
             {"tn-make": "freezes-online", "tn-train": "raises"}),
    tn_wrong("float-copy", "a target made with .float() is the same model",
             tn(MAKE, "target = copy.deepcopy(model)", "target = copy.deepcopy(model).float()"),
             {"tn-make": "changes-dtype", "tn-train": "raises"}, blind_spot="float64 models"),
    tn_wrong("update-without-no-grad", "an in-place update of a frozen tensor is invisible to autograd",
             tn(UPDATE, "    with torch.no_grad():\n" + PARAMS_LOOP + BUFFERS_LOOP,
                "    if True:\n" + PARAMS_LOOP + BUFFERS_LOOP),
             {"tn-update": "forgets-no-grad", "tn-train": "forgets-no-grad"}),
    ema("update-new-tensors", "assigning a new tensor to .data updates the target",
        "t.data = t * (1 - tau) + p * tau", {"tn-update": "moves-parameters"}, blind_spot="parameter memory"),
    tn_wrong("update-forgets-buffers", "only parameters are learned, so only parameters need updating",
             tn(UPDATE, BUFFERS_LOOP, ""), {"tn-update": "stale-buffers", "tn-train": "stale-buffers"}),
    ema("update-wrong-direction", "lerp_ moves the online model towards the target", "p.lerp_(t, tau)",
        {"tn-update": "moves-online", "tn-train": "moves-online"}),
    ema("update-tau-swapped", "tau is the share the target keeps", "t.lerp_(p, 1 - tau)", WRONG_EMA),
    ema("update-rebinds", "t = new value updates the target's parameter", "t = t + tau * (p - t)", WRONG_EMA),
    ema("update-hard-copy", "a target update is a copy of the weights", "t.copy_(p)", WRONG_EMA),
    tn_wrong("train-copies-every-step", "the target is a fresh copy of the model after every step",
             tn(TRAIN, "        update_target(target, model, tau)\n", "        target = make_target(model)\n"),
             {"tn-train": "wrong-ema"}),
    tn_wrong("train-optimizer-on-target", "the optimizer belongs to the target network",
             tn(TRAIN, "torch.optim.SGD(model.parameters(), lr=lr)", "torch.optim.SGD(target.parameters(), lr=lr)"),
             {"tn-train": "optimizer-on-target"}),
    tn_wrong("train-optimizer-on-a-copy", "the optimizer may be built on any copy of the model",
             tn(TRAIN, "torch.optim.SGD(model.parameters(), lr=lr)",
                "torch.optim.SGD(copy.deepcopy(model).parameters(), lr=lr)"),
             {"tn-train": "optimizer-on-target"}),
    tn_wrong("train-update-before-step", "update the target, then step: the order does not matter",
             tn(TRAIN, "        optimizer.step()\n        update_target(target, model, tau)\n",
                "        update_target(target, model, tau)\n        optimizer.step()\n"),
             {"tn-train": "update-before-step"}),
    Entry("tn-honest-state-dict", TN, "honest", "load_state_dict with a dict comprehension, a mul_/add_ EMA", {
        UPDATE: """def update_target(target, model, tau):
    online = model.state_dict()
    mine = target.state_dict()
    with torch.no_grad():
        for name, p in model.named_parameters():
            mine[name].mul_(1 - tau).add_(p, alpha=tau)
    target.load_state_dict({name: (mine[name] if name in dict(model.named_parameters()) else online[name])
                            for name in mine})
"""}),
    Entry("tn-honest-explicit", TN, "honest", "named parameters, a decorator for no_grad, a separate optimizer loop", {
        MAKE: """def make_target(model):
    target = copy.deepcopy(model)
    target.requires_grad_(False)
    return target
""", UPDATE: """@torch.no_grad()
def update_target(target, model, tau):
    mine = dict(target.named_parameters())
    for name, p in model.named_parameters():
        mine[name].add_(tau * (p - mine[name]))
    buffers = dict(target.named_buffers())
    for name, b in model.named_buffers():
        buffers[name].copy_(b)
"""}),
    Entry("tn-honest-loop", TN, "honest", "set_to_none, the loss computed apart, an enumerate", {
        TRAIN: """def my_train(model, batches, lr, tau):
    target = None
    optimizer = torch.optim.SGD(list(model.parameters()), lr=lr)
    for i, x in enumerate(batches):
        if target is None:
            target = make_target(model)
        optimizer.zero_grad(set_to_none=True)
        loss = (model(x) ** 2).sum()
        loss.backward()
        optimizer.step()
        update_target(target, model, tau)
    return target
"""}),
    stub(TN, "tn"),
]

NEW_BANK = STRIDES_AND_VIEWS + NUMPY_BRIDGE + SAVE_AND_LOAD + TARGET_NETWORK
