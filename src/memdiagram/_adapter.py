"""One interface for reading a tensor, whichever library made it.

The diagram never calls torch or reftorch directly. It asks an *adapter*
these questions about a tensor, and nothing else:

* ``metadata(t)``      size, stride, storage offset, dtype, device,
                       requires_grad, is_leaf, the ``grad_fn`` name, ``_version``
                       (``Invalid`` and is_leaf None for a view autograd refuses);
* ``storage_key(t)``   which allocation the tensor looks into (equal keys mean
                       shared memory), with ``storage_nbytes`` and
                       ``storage_values`` (every slot of the allocation, read
                       as the tensor's dtype);
* ``counter_key(t)``   which version counter object the tensor holds (equal
                       keys mean a shared counter), and how that was found out;
* ``base(t)``          the tensor a view was made from (``t._base``);
* ``grad(t)``          the tensor ``t.grad`` holds, or None;
* ``grad_fn(t)``, ``next_functions(node)``, ``node_name(node)``,
  ``accumulated_variable(node)``: the autograd graph;
* ``saved_state(node)`` whether the node still keeps the tensors it saved for
                       backward (see ``SAVED_STATES``).

Every method only reads. Reading must not bump a version, create graph nodes
or move memory: the diagram has to show the program's state, not its own.

``_choose_adapter.adapter_for(tensor)`` and ``adapter_for_module(module)`` pick the adapter.
"""


#: the ``grad_fn`` name of a tensor autograd refuses (``TensorAdapter.refused``), as torch prints it
INVALID = "Invalid"

#: what ``saved_state(node)`` answers, and what it means
SAVED_STATES = {
    None: "the node saved no tensor for backward (or none that can be seen)",
    "kept": "the node keeps the tensors it saved for backward",
    "modified": "a tensor the node saved was modified in place since: backward through it raises",
    "freed": "a backward pass freed the node's saved tensors: a second backward through it raises",
}


class TensorAdapter:
    """The questions the diagram asks about a tensor. Subclasses answer them."""

    #: what the narration calls the library ("torch" or "reftorch")
    library = "?"

    def is_tensor(self, obj):
        raise NotImplementedError

    def metadata(self, t):
        """A dict: shape, stride, offset, dtype, device, itemsize, requires_grad,
        is_leaf, grad_fn (a name or None), version (an int, or None when the
        tensor has no counter, e.g. inference-mode tensors)."""
        raise NotImplementedError

    def storage_key(self, t):
        raise NotImplementedError

    def storage_nbytes(self, t):
        raise NotImplementedError

    def storage_values(self, t):
        """Every slot of the tensor's storage, read as the tensor's dtype, as a
        list of Python numbers (or None when the bytes cannot be read, e.g. on
        the meta device)."""
        raise NotImplementedError

    def counter_key(self, t, others):
        """``(key, how)``: the identity of the tensor's version counter and a
        short phrase saying how it was found. ``others`` are all tensors in
        the same diagram (a rule-based method needs them)."""
        raise NotImplementedError

    def base(self, t):
        return getattr(t, "_base", None)

    def grad(self, t):
        """The tensor ``t.grad`` holds (None when nothing was accumulated)."""
        raise NotImplementedError

    def grad_fn(self, t):
        """``t.grad_fn``, or None where autograd refuses to give one (see ``refused``)."""
        return None if self.refused(t) else t.grad_fn

    def refused(self, t):
        """True for a view made under ``no_grad`` or in ``inference_mode`` whose memory was written
        in place since, while its base requires grad: autograd refuses every use of it, reading
        its ``grad_fn`` and ``is_leaf`` included (torch prints it with ``grad_fn=<Invalid>``)."""
        try:
            t.grad_fn
        except RuntimeError:
            return True
        return False

    def next_functions(self, node):
        return [fn for fn, _ in node.next_functions if fn is not None]

    def node_name(self, node):
        """``MulBackward0``; ``AccumulateGrad`` without the C++ namespace."""
        return node.name().rsplit("::", 1)[-1]

    def accumulated_variable(self, node):
        """For an AccumulateGrad node, the leaf it adds gradients into."""
        return getattr(node, "variable", None)

    def saved_state(self, node):
        """One of the keys of ``SAVED_STATES``, found by reading, never by running backward."""
        raise NotImplementedError
