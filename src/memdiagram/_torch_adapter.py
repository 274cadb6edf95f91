"""Reading a real torch tensor without changing it.

Metadata comes from torch's public methods. Shared memory is decided by the
allocation: two tensors share memory when their untyped storages start at the
same address (``untyped_storage().data_ptr()``). Shared version counters are
read by ``_torch_counter`` (see there for how, and what happens when that is
not possible). Storage contents are read through a detached ``as_strided``
view of the whole allocation, made under ``no_grad``: reading bumps no
version and records no graph.

``.grad`` is read as ``t.grad``. For a non-leaf that did not ask for
``retain_grad()``, torch warns on that read (the field is normally empty),
so the read is made with that warning silenced: the diagram must not add
warnings to the program it draws.

What a graph node saved for backward is read from its ``_saved_<name>``
attributes. Reading one unpacks the saved tensor, which is how torch itself
finds out at backward time whether it is still there: torch raises "Trying to
backward through the graph a second time (or directly access saved tensors
after they have already been freed)" once a backward pass without
``retain_graph=True`` released it, and "one of the variables needed for
gradient computation has been modified by an inplace operation" when the
tensor's version moved since it was saved. Those errors are the answer; the
read changes nothing. (A ``saved_tensors_hooks`` unpack hook would run; the
course uses none.)
"""

import warnings

from ._adapter import INVALID, TensorAdapter
from . import _torch_counter

_FREED = "after they have already been freed"
_MODIFIED = "modified by an inplace operation"


class TorchAdapter(TensorAdapter):
    library = "torch"

    def is_tensor(self, obj):
        import torch

        return isinstance(obj, torch.Tensor)

    def metadata(self, t):
        refused = self.refused(t)
        grad_fn = None if refused else t.grad_fn
        try:
            version = t._version
        except RuntimeError:  # inference-mode tensors have no version counter
            version = None
        return {
            "shape": tuple(t.shape),
            "stride": tuple(t.stride()),
            "offset": t.storage_offset(),
            "dtype": str(t.dtype),
            "device": str(t.device),
            "itemsize": t.element_size(),
            "requires_grad": t.requires_grad,
            "is_leaf": None if refused else t.is_leaf,
            "grad_fn": INVALID if refused else None if grad_fn is None else self.node_name(grad_fn),
            "version": version,
        }

    def storage_key(self, t):
        storage = t.untyped_storage()
        if storage.data_ptr() == 0:  # no bytes, no address: its own "allocation"
            return ("torch-empty", id(t))
        return ("torch", str(t.device), storage.data_ptr())

    def storage_nbytes(self, t):
        return t.untyped_storage().nbytes()

    def storage_values(self, t):
        import torch

        if t.device.type == "meta":
            return None
        count = t.untyped_storage().nbytes() // t.element_size()
        with torch.no_grad():
            whole = t.detach().as_strided((count,), (1,), 0)
            return whole.cpu().tolist()

    def grad(self, t):
        if self.refused(t) or t.is_leaf or t.retains_grad:  # a refused view's .grad reads without a warning
            return t.grad
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "The .grad attribute of a Tensor that is not a leaf..."
            return t.grad

    def saved_state(self, node):
        import torch

        found = set()
        for attribute in dir(node):
            if not attribute.startswith("_saved_"):
                continue
            try:
                value = getattr(node, attribute)
            except RuntimeError as error:
                if _FREED in str(error):
                    found.add("freed")
                elif _MODIFIED in str(error):
                    found.add("modified")
                continue
            values = value if isinstance(value, (tuple, list)) else (value,)
            if values and all(isinstance(v, torch.Tensor) for v in values):
                found.add("kept")
        for state in ("freed", "modified", "kept"):
            if state in found:
                return state
        return None

    def counter_key(self, t, others):
        return _torch_counter.counter_key(t, others)
