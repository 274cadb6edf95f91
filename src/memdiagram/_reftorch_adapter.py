"""Reading a reftorch tensor: everything is a plain Python attribute.

reftorch keeps the storage, the version counter and the graph as ordinary
objects, so nothing here is inferred: two tensors share memory exactly when
they hold the same ``UntypedStorage`` object, and share a version counter
exactly when they hold the same ``VersionCounter`` object. ``.grad`` is the
``_grad`` slot (read directly: the ``grad`` property warns for non-leaves),
and a node's saved tensors are its ``_saved`` list of ``SavedTensor``, each
knowing whether backward released it and the version it was saved at.
"""

import struct

from ._adapter import INVALID, TensorAdapter


class ReftorchAdapter(TensorAdapter):
    library = "reftorch"

    def is_tensor(self, obj):
        from reftorch import Tensor

        return isinstance(obj, Tensor)

    def metadata(self, t):
        refused = self.refused(t)
        grad_fn = None if refused else t.grad_fn
        return {
            "shape": tuple(t._size),
            "stride": tuple(t._stride),
            "offset": t._storage_offset,
            "dtype": str(t.dtype),
            "device": str(t.device),
            "itemsize": t._dtype.itemsize,
            "requires_grad": t.requires_grad,
            "is_leaf": None if refused else grad_fn is None,
            "grad_fn": INVALID if refused else None if grad_fn is None else self.node_name(grad_fn),
            "version": None if t._version_counter is None else t._version,  # an inference tensor has none
        }

    def storage_key(self, t):
        return ("reftorch", id(t._storage))

    def storage_nbytes(self, t):
        return t._storage.nbytes()

    def storage_values(self, t):
        itemsize = t._dtype.itemsize
        whole = t._storage.nbytes() // itemsize * itemsize
        return list(struct.unpack_from(f"{whole // itemsize}{t._dtype._format}", t._storage._bytes))

    def grad(self, t):
        return t._grad

    def saved_state(self, node):
        saved = getattr(node, "_saved", ())
        if not saved:
            return None
        if any(s._released for s in saved):
            return "freed"
        # a saved number (``a * 2`` keeps the 2) has no version to compare
        if any(getattr(s, "_tensor", None) is not None and s._tensor._version != s._version for s in saved):
            return "modified"
        return "kept"

    def counter_key(self, t, others):
        if t._version_counter is None:
            return None, "none: an inference-mode tensor has no version counter"
        return ("reftorch", id(t._version_counter)), "the VersionCounter object the tensor holds"
