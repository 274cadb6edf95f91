"""Wrong answers for the blind spots issue 21 names, merged into ``exercise_mutants.BANK``.

Each is the reference solution with one realistic mistake written in (``mutate`` refuses a
replacement that no longer matches the solution). ``blind_spot`` names the category;
``test_agreement`` checks that each fails, with its own tag, under 20 students' seeds.
"""

from exercise_mutants import Entry
from exercise_mutants_new import mutate

BLIND_SPOT_CATEGORIES = (
    "negative slice bounds", "empty slices", "size-1 dimensions in expand", "a list of Python floats",
    "device= arguments", "which error comes first", ".grad when counting saved bytes",
    "storages with equal bytes", "interleaved records", "an argument every test passed the same",
    "the version counter after a soft update", "buffer memory identity",
    "storages named by their bytes", "state kept from one load to the next",
)


def wrong(name, assignment, about, cells, fails, blind_spot):
    return Entry(f"blind-{name}", assignment, "wrong", about, cells, fails, blind_spot)


BLIND_SPOT_ENTRIES = []


# ---- strides_and_views ----------------------------------------------------------------

SV, VIEWS = "strides_and_views", "sv-views-solution"
NORMALISED = "    start, stop, _ = slice(start, stop, step).indices(t.shape[dim])\n"

BLIND_SPOT_ENTRIES += [
    wrong("sv-slice-negative-bounds-as-zero", SV, "a negative start or stop counts from 0, like any number "
          "below 0 (it is clipped, not counted from the end)",
          mutate(SV, VIEWS, NORMALISED, "    n = t.shape[dim]\n"
                 "    start, stop = min(max(start, 0), n), min(max(stop, 0), n)\n"),
          {"sv-slice": f"{SV}/slice-negative-bounds"}, "negative slice bounds"),
    wrong("sv-slice-empty-is-negative", SV, "a slice keeps ceil((stop - start) / step) elements, even when start "
          "is past stop",
          mutate(SV, VIEWS, "size[dim] = len(range(start, stop, step))",
                 "size[dim] = (stop - start + step - 1) // step"),
          {"sv-slice": f"{SV}/slice-empty"}, "empty slices"),
    wrong("sv-expand-size-one-keeps-stride", SV, "only the new leading dimensions of expand get stride 0; a "
          "size-1 dimension that grows keeps its stride",
          mutate(SV, VIEWS, "size[i], stride[i] = n, s if n == old else 0",
                 "size[i], stride[i] = n, s if n == old or i >= new else 0"),
          {"sv-expand": f"{SV}/expand-size-one-stride"}, "size-1 dimensions in expand"),
    wrong("sv-expand-zeroes-size-one", SV, "every size-1 dimension of an expanded view has stride 0, grown or not",
          mutate(SV, VIEWS, "size[i], stride[i] = n, s if n == old else 0",
                 "size[i], stride[i] = n, s if n == old and old != 1 else 0"),
          {"sv-expand": f"{SV}/expand-zeroes-kept-dims"}, "size-1 dimensions in expand"),
]


# ---- new_tensor ----------------------------------------------------------------------

NT, NEW, TENSOR = "new_tensor", "new-tensor-solution", "tensor-solution"

BLIND_SPOT_ENTRIES += [
    wrong("new-tensor-ignores-device", NT, "new_tensor always builds on self's device; device= changes nothing",
          mutate(NT, NEW, "device or self.device", "self.device"),
          {"new-tensor-dtype": "new_tensor/ignores-device-argument"}, "device= arguments"),
    wrong("new-tensor-ignores-dtype", NT, "new_tensor always takes self's dtype; dtype= is only a hint",
          mutate(NT, NEW, "dtype or self.dtype", "self.dtype"),
          {"new-tensor-dtype": "new_tensor/ignores-dtype-argument", "new-tensor-graph": "new_tensor/ignores-dtype-argument"},
          "an argument every test passed the same"),
    wrong("tensor-ignores-device", NT, "torch.tensor(t) copies t where it lives, whatever device= says",
          mutate(NT, TENSOR, "device or data.device", "data.device"),
          {"tensor-from-tensor": "tensor/ignores-device-argument"}, "device= arguments"),
    wrong("tensor-ignores-requires-grad", NT, "a copy made by torch.tensor(t) never requires grad",
          mutate(NT, TENSOR, "device or data.device, requires_grad)", "device or data.device, False)"),
          {"tensor-from-tensor": "tensor/ignores-requires-grad-argument"}, "an argument every test passed the same"),
]


# ---- numpy_bridge --------------------------------------------------------------------

NB, AS_TENSOR, NUMPY = "numpy_bridge", "nb-as-tensor-solution", "nb-numpy-solution"

BLIND_SPOT_ENTRIES += [
    wrong("nb-list-through-numpy", NB, "Python data goes through numpy on its way to a tensor",
          mutate(NB, AS_TENSOR, "    return torch.tensor(data, dtype=dtype, device=device)\n",
                 "    shared = my_from_numpy(np.array(data))\n"
                 "    return shared.to(device=device or \"cpu\", dtype=dtype or shared.dtype)\n"),
          {"nb-as-tensor": f"{NB}/list-floats-as-float64"}, "a list of Python floats"),
    wrong("nb-list-on-the-cpu", NB, "a tensor built from a Python list is always on the CPU",
          mutate(NB, AS_TENSOR, "    return torch.tensor(data, dtype=dtype, device=device)\n",
                 "    return torch.tensor(data, dtype=dtype)\n"),
          {"nb-as-tensor": f"{NB}/ignores-device"}, "device= arguments"),
    wrong("nb-numpy-grad-first", NB, "numpy() asks about requires_grad before it looks at the device",
          mutate(NB, NUMPY, """    if t.device.type != "cpu":
        raise TypeError(f"can't convert {t.device} device type tensor to numpy")
    if torch.is_grad_enabled() and t.requires_grad:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad")
""", """    if torch.is_grad_enabled() and t.requires_grad:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad")
    if t.device.type != "cpu":
        raise TypeError(f"can't convert {t.device} device type tensor to numpy")
"""), {"nb-numpy": f"{NB}/refusal-order"}, "which error comes first"),
]


# ---- copy_into -----------------------------------------------------------------------

CI = "copy_into"

BLIND_SPOT_ENTRIES += [
    wrong("copy-shape-first", CI, "copy_ first makes sure src fits (a trial copy), then asks autograd",
          mutate(CI, "copy-solution", "    if self.dtype.is_floating_point and should_record(self, src):   #",
                 "    copy_elements(torch.empty(self.shape, dtype=self.dtype), src)   # does src fit?\n"
                 "    if self.dtype.is_floating_point and should_record(self, src):   #"),
          {"copy-leaf-rules": "copy_/refusal-order"}, "which error comes first"),
]


# ---- save_and_load -------------------------------------------------------------------

SL = "save_and_load"

BLIND_SPOT_ENTRIES += [
    wrong("sl-counts-grad", SL, "a saved tensor takes its gradient along, so .grad's bytes count too",
          mutate(SL, "sl-bytes-solution", "        sizes[storage.data_ptr()] = storage.nbytes()\n",
                 "        sizes[storage.data_ptr()] = storage.nbytes()\n"
                 "        if t.is_leaf and t.grad is not None:\n"
                 "            sizes[t.grad.untyped_storage().data_ptr()] = t.grad.untyped_storage().nbytes()\n"),
          {"sl-bytes": f"{SL}/counts-grad"}, ".grad when counting saved bytes"),
    wrong("sl-merges-equal-storages", SL, "storages of the same size are written once",
          mutate(SL, "sl-bytes-solution", "sizes[storage.data_ptr()] = storage.nbytes()",
                 "sizes[storage.nbytes()] = storage.nbytes()"),
          {"sl-bytes": f"{SL}/merges-equal-storages"}, "storages with equal bytes"),
    wrong("sl-rebuild-last-storage-only", SL, "a file lists the tensors of one storage together, so keeping "
          "the last storage is enough",
          mutate(SL, "sl-rebuild-solution", """    storages = {}
    tensors = []
    for entry in entries:
        key = entry["key"]
        if key not in storages:
            storages[key] = storage_from_bytes(records[key])
        t = tensor_on(storages[key],""", """    last, storage = None, None
    tensors = []
    for entry in entries:
        key = entry["key"]
        if key != last:
            last, storage = key, storage_from_bytes(records[key])
        t = tensor_on(storage,"""),
          {"sl-rebuild": f"{SL}/shares-only-neighbours"}, "interleaved records"),
    wrong("sl-rebuild-by-bytes", SL, "a storage is its bytes: records that hold the same bytes are one storage",
          mutate(SL, "sl-rebuild-solution", """        if key not in storages:
            storages[key] = storage_from_bytes(records[key])
        t = tensor_on(storages[key],""", """        if records[key] not in storages:
            storages[records[key]] = storage_from_bytes(records[key])
        t = tensor_on(storages[records[key]],"""),
          {"sl-rebuild": f"{SL}/merges-equal-records"}, "storages named by their bytes"),
    # issue 34: scored full marks until a check loaded one file twice and saved equal bytes twice
    wrong("sl-rebuild-by-bytes-kept", SL, "a storage is its bytes, and a file loaded again finds the storages "
          "it made the first time",
          mutate(SL, "sl-rebuild-solution", "def my_rebuild(entries, records):",
                 "loaded_storages = {}   # bytes -> storage, kept from one load to the next\n\n\n"
                 "def my_rebuild(entries, records):",
                 "    storages = {}\n", "", """        if key not in storages:
            storages[key] = storage_from_bytes(records[key])
        t = tensor_on(storages[key],""", """        if records[key] not in loaded_storages:
            loaded_storages[records[key]] = storage_from_bytes(records[key])
        t = tensor_on(loaded_storages[records[key]],"""),
          {"sl-rebuild": f"{SL}/keeps-storages-between-loads"}, "state kept from one load to the next"),
]


# ---- target_network ------------------------------------------------------------------

TN, UPDATE, TRAIN = "target_network", "tn-update-solution", "tn-train-solution"

BLIND_SPOT_ENTRIES += [
    wrong("tn-hard-coded-tau", TN, "the soft update always moves a quarter of the way",
          mutate(TN, UPDATE, "t.lerp_(p, tau)", "t.lerp_(p, 0.25)"),
          {"tn-update": f"{TN}/ignores-tau", "tn-train": f"{TN}/ignores-tau"}, "an argument every test passed the same"),
    wrong("tn-hard-coded-lr", TN, "a learning rate of 0.01 is what SGD uses",
          mutate(TN, TRAIN, "torch.optim.SGD(model.parameters(), lr=lr)", "torch.optim.SGD(model.parameters(), lr=0.01)"),
          {"tn-train": f"{TN}/ignores-lr"}, "an argument every test passed the same"),
    wrong("tn-update-through-data", TN, "writing through .data is the safe way to change weights by hand",
          mutate(TN, UPDATE, "t.lerp_(p, tau)", "t.data.lerp_(p.data, tau)"),
          {"tn-update": f"{TN}/hides-updates"}, "the version counter after a soft update"),
    wrong("tn-replaces-buffers", TN, "a buffer can simply be replaced by a copy of the online one",
          mutate(TN, UPDATE, """        for t, b in zip(target.buffers(), model.buffers()):
            t.copy_(b)
""", """        for mine, theirs in zip(target.modules(), model.modules()):
            if isinstance(theirs, torch.nn.BatchNorm1d):
                for name, buffer in theirs.named_buffers():
                    mine.register_buffer(name, buffer.clone())
"""), {"tn-update": f"{TN}/replaces-buffers"}, "buffer memory identity"),
    wrong("tn-no-zero-grad", TN, "gradients start from zero at every backward()",
          mutate(TN, TRAIN, "        optimizer.zero_grad()\n", ""),
          {"tn-train": f"{TN}/no-zero-grad"}, "an argument every test passed the same"),
    wrong("tn-zero-grad-after-backward", TN, "zero_grad() cleans up after backward(), before the step",
          mutate(TN, TRAIN, """        optimizer.zero_grad()
        model(x).pow(2).sum().backward()
""", """        model(x).pow(2).sum().backward()
        optimizer.zero_grad()
"""), {"tn-train": f"{TN}/zero-grad-after-backward"}, "an argument every test passed the same"),
    wrong("tn-updates-once", TN, "the target is brought up to date once training is over",
          mutate(TN, TRAIN, """        update_target(target, model, tau)
    return target
""", """    update_target(target, model, tau)
    return target
"""), {"tn-train": f"{TN}/updates-once"}, "an argument every test passed the same"),
]


# ---- clone ---------------------------------------------------------------------------

from exercise_mutants import LAYOUT_CONTIGUOUS  # noqa: E402

BLIND_SPOT_ENTRIES += [
    wrong("clone-packs-row-major", "clone", "a dense layout is kept; anything else is packed row-major",
          {"clone-layout-solution": LAYOUT_CONTIGUOUS + """

def my_preserve_format_strides(size, stride):
    step, dense = 1, True
    for s, n in sorted(zip(stride, size)):
        if n != 1 and s != step:
            dense = False
        step *= n
    if dense or 0 in size:
        return tuple(stride)
    return my_contiguous_strides(size)
"""}, {"clone-layout": "clone/packs-row-major", "clone-strides": "clone/packs-row-major"},
          "a non-dense layout that is not row-major"),
]


# ---- python_copy, model_snapshot, detach ---------------------------------------------

BLIND_SPOT_ENTRIES += [
    wrong("deepcopy-own-memo", "python_copy", "each tensor's deepcopy may start a memo of its own",
          mutate("python_copy", "deepcopy-solution", "    if not self.is_leaf:\n",
                 "    memo = {}\n    if not self.is_leaf:\n"),
          {"deepcopy-memo": "deepcopy/ignores-memo"}, "an argument every test passed the same"),
    wrong("restore-by-position", "model_snapshot", "the saved tensors come back in the order of model.parameters()",
          mutate("model_snapshot", "restore-solution", """        for name, saved in snap.items():
            params[name].copy_(saved)
""", """        for p, saved in zip(model.parameters(), snap.values()):
            p.copy_(saved)
"""), {"restore": "restore/by-position"}, "an argument every test passed the same"),
    wrong("detach-clone-of-an-empty-tensor", "detach", "an empty tensor needs no memory, so its strides do not matter",
          mutate("detach", "detach-clone-solution", "    strides = preserve_format_strides(self.shape, self.stride())\n",
                 "    strides = preserve_format_strides(self.shape, self.stride())\n"
                 "    if self.numel() == 0:\n        strides = (0,) * len(self.shape)\n"),
          {"detach-clone-copy": "detach-clone/wrong-strides"}, "empty slices"),
]
