"""The mutant bank: wrong implementations a learner might hand in, and how grading must catch them.

Each mutant replaces one solution cell with code built on a misconception,
taken from the wrong claims of the tutorials the course answers (paraphrased)
or from classic mistakes. ``fails`` lists every test cell that must lose its
points, each with a piece of the message it must show; every other test cell
of the assignment must still pass, so a check cannot blame the wrong belief.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Mutant:
    name: str
    assignment: str
    replaces: str          # grade_id of the solution cell
    misconception: str
    code: str
    fails: dict = field(default_factory=dict)   # test grade_id -> substring of its message


CLONE_HEAD = "def my_clone(self, *, memory_format=torch.preserve_format):\n"
CLONE_STRIDES = """
    if memory_format is torch.contiguous_format:
        strides = contiguous_strides(self.shape)
    else:
        strides = preserve_format_strides(self.shape, self.stride())
"""


def _clone(body):
    return CLONE_HEAD + body


NEW_TENSOR_HELPER = """
def copy_as(data, dtype, device, requires_grad):
    strides = preserve_format_strides(data.shape, data.stride())
    copy = tensor_on(allocate(data.numel(), dtype, device), data.shape, strides, 0, dtype=dtype)
    copy_elements(copy, data)
    if requires_grad:
        copy.requires_grad_()
    return copy
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

DEEPCOPY_BODY = """
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
    new.requires_grad_(self.requires_grad)
    if self.grad is not None:
        new.grad = copy.deepcopy(self.grad, memo)
    new.__dict__.update(copy.deepcopy(self.__dict__, memo))
    memo[id(self)] = new
    return new
"""


MUTANTS = [
    # ---- clone -------------------------------------------------------------
    Mutant("clone-is-assignment", "clone", "clone-solution",
           "assignment `b = a` already is a copy",
           _clone("    return self\n"),
           {"clone-memory": "returns the source itself", "clone-metadata": "offset 0",
            "clone-strides": "preserve the layout", "clone-graph": "is a leaf where torch's is not",
            "clone-no-grad": "requires grad where torch's does not",
            "clone-version": "shares the source's version counter"}),
    Mutant("clone-is-detach", "clone", "clone-solution",
           "for data that is not shared, clone() or detach() will do",
           _clone("    return self.detach()\n"),
           {"clone-memory": "shares memory with its source", "clone-metadata": "offset 0",
            "clone-strides": "preserve the layout", "clone-graph": "drops requires_grad",
            "clone-version": "shares the source's version counter"}),
    Mutant("clone-always-contiguous", "clone", "clone-solution",
           "a clone is always contiguous",
           _clone("""
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, contiguous_strides(self.shape), 0, dtype=self.dtype)
    copy_elements(copy, self)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""),
           {"clone-strides": "preserve the layout"}),
    Mutant("clone-without-history", "clone", "clone-solution",
           "a clone has nothing to do with the original graph",
           _clone(CLONE_STRIDES + """
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype)
    copy_elements(copy, self)
    return copy
"""),
           {"clone-graph": "drops requires_grad"}),
    Mutant("clone-copies-whole-storage", "clone", "clone-solution",
           "a clone duplicates the source's storage and keeps its offset and strides",
           _clone("""
    from reftorch.primitives import copy_storage
    copy = tensor_on(copy_storage(self.untyped_storage()), self.shape, self.stride(),
                     self.storage_offset(), dtype=self.dtype)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""),
           {"clone-metadata": "offset 0", "clone-strides": "preserve the layout"}),
    Mutant("clone-records-in-no-grad", "clone", "clone-solution",
           "requires_grad is simply inherited, grad mode does not matter",
           _clone(CLONE_STRIDES + """
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype)
    copy_elements(copy, self)
    if self.requires_grad:
        record(copy, CloneBackward0(self))
    return copy
"""),
           {"clone-no-grad": "requires grad where torch's does not"}),
    Mutant("clone-node-to-nowhere", "clone", "clone-solution",
           "any CloneBackward0 node will do, whatever it points to",
           _clone(CLONE_STRIDES + """
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype)
    copy_elements(copy, self)
    if should_record(self):
        record(copy, CloneBackward0(self.detach()))
    return copy
"""),
           {"clone-graph": "does not lead back to the source"}),
    Mutant("clone-shares-version-counter", "clone", "clone-solution",
           "the copy and the original are tracked by one version counter",
           _clone(CLONE_STRIDES + """
    from reftorch.primitives import version_counter_of
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, strides, 0, dtype=self.dtype,
                     version_counter=version_counter_of(self))
    copy_elements(copy, self)
    if should_record(self):
        record(copy, CloneBackward0(self))
    return copy
"""),
           {"clone-version": "shares the source's version counter"}),

    # ---- detach, detach().clone(), .data -----------------------------------
    Mutant("detach-copies", "detach", "detach-solution",
           "detach() is how you get data that is not shared",
           """
def my_detach(self):
    copy = tensor_on(allocate(self.numel(), self.dtype, self.device), self.shape,
                     preserve_format_strides(self.shape, self.stride()), 0, dtype=self.dtype)
    copy_elements(copy, self)
    return copy
""",
           {"detach-memory": "copies the memory", "detach-metadata": "changes the metadata",
            "detach-version": "has its own version counter"}),
    Mutant("detach-own-version-counter", "detach", "detach-solution",
           "autograd does not know about in-place changes made through detached data",
           """
def my_detach(self):
    return tensor_on(self.untyped_storage(), self.shape, self.stride(), self.storage_offset(),
                     dtype=self.dtype)
""",
           {"detach-version": "has its own version counter"}),
    Mutant("detach-keeps-requires-grad", "detach", "detach-solution",
           "detach keeps requires_grad, it only drops grad_fn",
           """
def my_detach(self):
    t = tensor_on(self.untyped_storage(), self.shape, self.stride(), self.storage_offset(),
                  dtype=self.dtype, version_counter=version_counter_of(self))
    return t.requires_grad_(self.requires_grad)
""",
           {"detach-graph": "still requires grad"}),
    Mutant("detach-clone-stops-at-detach", "detach", "detach-clone-solution",
           "detach().clone() and detach() both give data of your own",
           """
def my_detach_clone(self):
    return my_detach(self)
""",
           {"detach-clone-copy": "stopped after detach",
            "detach-clone-graph": "shares the source's version counter"}),
    Mutant("detach-clone-keeps-graph", "detach", "detach-clone-solution",
           "the order does not matter, so the clone alone is enough",
           """
def my_detach_clone(self):
    return self.clone()
""",
           {"detach-clone-graph": "it stopped after clone"}),
    Mutant("data-is-detach", "detach", "data-solution",
           ".data is just the old spelling of detach()",
           """
def my_data(self):
    return my_detach(self)
""",
           {"data-version": "shares the source's version counter"}),

    # ---- new_tensor and torch.tensor(t) ------------------------------------
    Mutant("new-tensor-takes-data-dtype", "new_tensor", "new-tensor-solution",
           "new_tensor keeps the data's dtype",
           NEW_TENSOR_HELPER + """
def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    warnings.warn(COPY_WARNING.format("tensor.new_tensor"), UserWarning)
    return copy_as(data, dtype or data.dtype, device or self.device, requires_grad)
""",
           {"new-tensor-dtype": "new_tensor takes it from self"}),
    Mutant("new-tensor-is-detach", "new_tensor", "new-tensor-solution",
           "new_tensor(t) is the same as t.detach()",
           """
def copy_as(data, dtype, device, requires_grad):
    raise NotImplementedError


def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    warnings.warn(COPY_WARNING.format("tensor.new_tensor"), UserWarning)
    return data.detach()
""",
           {"new-tensor-copy": "shares memory with the data", "new-tensor-dtype": "new_tensor takes it from self",
            "new-tensor-graph": "shares the data's version counter",
            "tensor-from-tensor": "NotImplementedError"}),
    Mutant("new-tensor-silent", "new_tensor", "new-tensor-solution",
           "copying a tensor with new_tensor is fine and torch says nothing",
           NEW_TENSOR_HELPER + """
def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    return copy_as(data, dtype or self.dtype, device or self.device, requires_grad)
""",
           {"new-tensor-copy": "UserWarning"}),
    Mutant("new-tensor-keeps-requires-grad", "new_tensor", "new-tensor-solution",
           "the copy inherits requires_grad from the data",
           NEW_TENSOR_HELPER + """
def my_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    warnings.warn(COPY_WARNING.format("tensor.new_tensor"), UserWarning)
    result = copy_as(data, dtype or self.dtype, device or self.device, requires_grad)
    if data.requires_grad and result.is_floating_point():
        result.requires_grad_()
    return result
""",
           {"new-tensor-graph": "gets requires_grad wrong"}),
    Mutant("tensor-default-dtype", "new_tensor", "tensor-solution",
           "torch.tensor(a float32 tensor) may come back in the default float dtype",
           """
def my_tensor(data, *, dtype=None, device=None, requires_grad=False):
    warnings.warn(COPY_WARNING.format("torch.tensor"), UserWarning)
    return copy_as(data, dtype or torch.float64, device or data.device, requires_grad)
""",
           {"tensor-from-tensor": "picks the wrong dtype"}),
    # ---- copy_ ---------------------------------------------------------------
    Mutant("copy-raises-without-grad", "copy_into", "copy-solution",
           "copy_ raises when the destination does not require grad",
           """
def my_copy_(self, src):
    if not self.requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    copy_elements(self, src)
    bump_version(self)
    return self
""",
           {"copy-values": "refuses a write torch allows", "copy-version": "refuses a write torch allows",
            "copy-graph": "refuses a write torch allows", "copy-leaf-rules": "refuses a write torch allows"}),
    Mutant("copy-keeps-requires-grad", "copy_into", "copy-solution",
           "copy_ keeps the destination's requires_grad",
           """
def my_copy_(self, src):
    check_inplace_allowed(self, src)
    copy_elements(self, src)
    bump_version(self)
    return self
""",
           {"copy-graph": "does not make self require grad"}),
    Mutant("copy-no-version-bump", "copy_into", "copy-solution",
           "copying values in is not a write autograd needs to know about",
           COPY_BODY.replace("    bump_version(self)\n", ""),
           # a view's grad_fn is rebuilt from its base's new history only when its version moved
           {"copy-version": "does not bump the version counter", "copy-graph": "leaves self a leaf"}),
    Mutant("copy-no-leaf-check", "copy_into", "copy-solution",
           "any tensor may be overwritten in place",
           COPY_BODY.replace("    check_inplace_allowed(self, src)\n", ""),
           {"copy-leaf-rules": "lets a forbidden write through", "copy-version": "lets a forbidden write through"}),
    Mutant("copy-makes-new-tensor", "copy_into", "copy-solution",
           "copy_ returns a fresh copy of src with self's dtype",
           """
def my_copy_(self, src):
    check_inplace_allowed(self, src)
    new = src.detach().clone()
    out = torch.zeros(self.shape, dtype=self.dtype)
    copy_elements(out, new)
    return out
""",
           {"copy-values": "returns a new tensor", "copy-version": "does not bump the version counter",
            "copy-graph": "does not make self require grad", "copy-leaf-rules": "returns a new tensor"}),
    # ---- copy.copy and copy.deepcopy -----------------------------------------
    Mutant("shallow-copy-copies-memory", "python_copy", "copy-solution",
           "copy.copy of a tensor gives it data of its own",
           """
def my_copy(self):
    new = tensor_on(copy_storage(self.untyped_storage()), self.shape, self.stride(),
                    self.storage_offset(), dtype=self.dtype)
    new.requires_grad_(self.requires_grad)
    new.__dict__.update(self.__dict__)
    return new
""",
           {"copy-alias": "copies the memory"}),
    Mutant("shallow-copy-is-detach", "python_copy", "copy-solution",
           "copy.copy(t) is t.detach()",
           """
def my_copy(self):
    new = self.detach()
    new.__dict__.update(self.__dict__)
    return new
""",
           {"copy-autograd": "does not keep requires_grad"}),
    Mutant("deepcopy-copies-history", "python_copy", "deepcopy-solution",
           "deepcopy also copies the autograd history",
           DEEPCOPY_BODY.replace("""    if not self.is_leaf:
        raise RuntimeError(DEEPCOPY_NON_LEAF)
""", """    if not self.is_leaf:
        return self.clone()
"""),
           {"deepcopy-non-leaf": "copies a non-leaf"}),
    Mutant("deepcopy-without-storage-memo", "python_copy", "deepcopy-solution",
           "deepcopy copies every tensor on its own",
           DEEPCOPY_BODY.replace("""    if id(storage) not in memo:
        memo[id(storage)] = copy_storage(storage)
    new = tensor_on(memo[id(storage)],""", """    new = tensor_on(copy_storage(storage),"""),
           {"deepcopy-memo": "does not use the memo"}),
    Mutant("deepcopy-copies-visible-elements", "python_copy", "deepcopy-solution",
           "a deep copy is a clone: only the elements in view are copied",
           """
def my_deepcopy(self, memo):
    if not self.is_leaf:
        raise RuntimeError(DEEPCOPY_NON_LEAF)
    if id(self) in memo:
        return memo[id(self)]
    new = self.detach().clone()
    new.requires_grad_(self.requires_grad)
    if self.grad is not None:
        new.grad = copy.deepcopy(self.grad, memo)
    new.__dict__.update(copy.deepcopy(self.__dict__, memo))
    memo[id(self)] = new
    return new
""",
           {"deepcopy-copy": "changes the storage offset", "deepcopy-memo": "does not use the memo"}),
    Mutant("deepcopy-forgets-grad", "python_copy", "deepcopy-solution",
           "deepcopy copies the data, not the gradient",
           DEEPCOPY_BODY.replace("""    if self.grad is not None:
        new.grad = copy.deepcopy(self.grad, memo)
""", ""),
           {"deepcopy-copy": "forgets .grad"}),
    # ---- model snapshot --------------------------------------------------------
    Mutant("snapshot-is-state-dict", "model_snapshot", "snapshot-solution",
           "state_dict() saves the weights",
           "def snapshot(model):\n    return model.state_dict()\n",
           {"snapshot-survives": "shares memory with the parameters",
            "restore": "does not bring the saved numbers back"}),
    Mutant("snapshot-is-parameters", "model_snapshot", "snapshot-solution",
           "keeping the parameters by name keeps their values",
           "def snapshot(model):\n    return dict(model.named_parameters())\n",
           {"snapshot-survives": "holds the parameters themselves",
            "snapshot-plain": "require grad", "restore": "does not bring the saved numbers back"}),
    Mutant("snapshot-clone-keeps-graph", "model_snapshot", "snapshot-solution",
           "clone() alone makes a snapshot",
           "def snapshot(model):\n    return {k: p.clone() for k, p in model.named_parameters()}\n",
           {"snapshot-plain": "require grad"}),
    Mutant("snapshot-shallow-dict-copy", "model_snapshot", "snapshot-solution",
           "copying the state_dict dictionary copies the weights",
           "import copy\n\ndef snapshot(model):\n    return copy.copy(model.state_dict())\n",
           {"snapshot-survives": "shares memory with the parameters",
            "restore": "does not bring the saved numbers back"}),
    Mutant("restore-replaces-parameters", "model_snapshot", "restore-solution",
           "restoring means putting new parameters in the model",
           """
def restore(model, snap):
    for name, saved in snap.items():
        module = model
        *path, leaf = name.split(".")
        for part in path:
            module = getattr(module, part)
        setattr(module, leaf, torch.nn.Parameter(saved.clone()))
""",
           {"restore": "replaces the parameter objects"}),
    Mutant("restore-through-data", "model_snapshot", "restore-solution",
           "assigning .data restores the weights",
           """
def restore(model, snap):
    for name, p in model.named_parameters():
        p.data = snap[name]
""",
           {"restore": "ties the snapshot to the parameters"}),
]
