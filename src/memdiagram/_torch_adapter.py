"""Reading a real torch tensor without changing it.

Metadata comes from torch's public methods. Shared memory is decided by the
allocation: two tensors share memory when their untyped storages start at the
same address (``untyped_storage().data_ptr()``). Shared version counters are
read by ``_torch_counter`` (see there for how, and what happens when that is
not possible). Storage contents are read through a detached ``as_strided``
view of the whole allocation, made under ``no_grad``: reading bumps no
version and records no graph.
"""

from ._adapter import TensorAdapter
from . import _torch_counter


class TorchAdapter(TensorAdapter):
    library = "torch"

    def is_tensor(self, obj):
        import torch

        return isinstance(obj, torch.Tensor)

    def metadata(self, t):
        grad_fn = t.grad_fn
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
            "is_leaf": t.is_leaf,
            "grad_fn": None if grad_fn is None else self.node_name(grad_fn),
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

    def counter_key(self, t, others):
        return _torch_counter.counter_key(t, others)
