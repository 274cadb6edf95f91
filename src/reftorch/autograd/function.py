"""torch.autograd.Function: an operation whose forward and backward you write yourself.

``Op.apply(*args)`` runs ``Op.forward(ctx, *args)`` with grad mode off, so
nothing inside it is recorded: the result is what ``forward`` made (new
memory, or a view of an input), and an input it returns as it is comes back as
a new view of that input, which keeps its own history. If grad mode is on and
an input tensor requires grad, the result gets one node, ``OpBackward`` (a
``BackwardCFunction`` in torch), whose ``apply`` calls ``Op.backward(ctx,
grad)``: one gradient per argument of ``forward`` (extra ones only if None),
None for an argument that needs none, each summed down and cast to its input's
shape and dtype as torch does. An integer or bool result gets no node. The
``ctx`` is that node.

What ``backward`` may read, and how it is protected:

* ``ctx.save_for_backward(*tensors)`` names the tensors; when ``forward`` has
  returned, each is kept as a ``SavedTensor`` (``graph``), stamped with its
  version then, so ``ctx.saved_tensors`` raises torch's "modified by an
  inplace operation" error if one was overwritten since, exactly as a
  built-in node does. The output itself, if saved, comes back as a new tensor
  object on its memory, as from a built-in node. Once a backward has freed
  them (without ``retain_graph=True``), ``ctx.saved_tensors`` raises, as in
  torch, even if nothing or only None was saved.
* ``ctx.x = x`` is a plain Python attribute: the same tensor object, with no
  version and no check. ``backward`` reads whatever numbers it holds by then.

Both keep the tensor's memory alive until the graph is freed. reftorch's
Function has one output, a tensor (a number goes back as it is, with no node),
and no ``mark_dirty`` or ``once_differentiable``: a tuple output and
``ctx.mark_dirty`` are refused with a message saying so.
"""

import warnings

from .. import _core_messages, _messages
from .. import _tensor  # the module, not the class: _tensor imports autograd first
from .._broadcast import sum_to_shape
from .._typename import typename
from .graph import Node
from .view_history import IN_CUSTOM_FUNCTION
from .grad_mode import is_grad_enabled, no_grad
from .._overrides import overridable


def saved_tensors(ctx):
    """``ctx.saved_tensors``: what ``save_for_backward`` kept, each unpacked, so each is checked
    against its version counter (``SavedTensor.unpack``); a saved None stays None."""
    return tuple(None if s is None else s.unpack() for s in ctx._saved_for_backward or ())
saved_tensors = overridable(saved_tensors)


def with_the_output_node(ctx, tensors):
    """``tensors`` with the output among them (saved without its node, which would hold itself
    alive through it) as torch's ``unpack`` gives it: a new tensor object each time, ``ctx`` its grad_fn."""
    tensors = list(tensors)
    for i in ctx._saved_output:
        out = tensors[i]
        tensors[i] = _tensor.Tensor._make(out._storage, out._storage_offset, out._size, out._stride, out._dtype,
                                          out._version_counter)
        tensors[i]._set_grad_fn(ctx)
    return tuple(tensors)


class FunctionCtx(Node):
    """The node of one call of a custom Function; ``forward`` and ``backward`` get it as ``ctx``."""

    def __init__(self, function, args):
        # one edge per tensor argument: numbers and flags passed to forward get none
        super().__init__(*(a for a in args if isinstance(a, _tensor.Tensor)))
        self._function = function
        self._is_tensor = tuple(isinstance(a, _tensor.Tensor) for a in args)
        self._input_metadata = tuple((a._size, a.dtype, a.device) for a in args if isinstance(a, _tensor.Tensor))
        self._to_save = self._saved_for_backward = None
        self._saved_output = []  # where the output is among them
        self._freed = False

    def save_for_backward(self, *tensors):
        """Name ``tensors`` for backward; ``Function.apply`` keeps them once ``forward`` returned."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _tensor.Tensor):
                raise TypeError(_messages.FUNCTION_SAVE_NOT_TENSOR.format(index=i, type=typename(t)))
        self._to_save = tensors
    save_for_backward = overridable(save_for_backward)

    def _keep_saved(self, out):
        """Each named tensor stamped with its version now (None kept as None; ``out`` as an output)."""
        self._saved_for_backward = tuple(None if t is None else self.save(t, is_output=t is out)
                                         for t in self._to_save or ())
        self._saved_output = [i for i, t in enumerate(self._to_save or ()) if t is out]
        self._to_save = None  # as torch clears it: the output names its node, which must not hold it

    def release_saved_tensors(self):
        """The backward frees what the forward saved: from then on ``saved_tensors`` raises,
        also when nothing, or only None, was saved."""
        super().release_saved_tensors()
        self._freed = True

    @property
    def saved_tensors(self):
        if self._freed:
            raise RuntimeError(_core_messages.BACKWARD_TWICE)
        return with_the_output_node(self, saved_tensors(self))

    @property
    def needs_input_grad(self):
        """One flag per argument of ``forward``: a tensor whose edge leads somewhere."""
        edges = iter(self._next_functions)
        return tuple(is_tensor and next(edges)[0] is not None for is_tensor in self._is_tensor)

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    def mark_dirty(self, *tensors):
        """Not in reftorch: a ``forward`` that writes its inputs in place is torch's alone."""
        raise NotImplementedError(_messages.FUNCTION_UNSUPPORTED.format(what="ctx.mark_dirty"))

    materializes_grads = True  # as torch's ctx.set_materialize_grads(True), its default

    def apply(self, grad):
        """``backward`` gives one gradient per argument of ``forward``, None or a tensor for a tensor
        argument, None for any other; the tensors' go down the edges, fitted to their inputs. When no
        gradient arrived, ``backward`` gets zeros in the output's size and dtype."""
        if grad is None:
            size, dtype = self._output_metadata[0]
            grad = _tensor.Tensor._from_values(0, size, dtype, self._input_metadata[0][2])
        grads = self._function.backward(self, grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        expected = len(self._is_tensor)
        if len(grads) > expected and all(g is None for g in grads[expected:]):
            grads = grads[:expected]  # extra gradients are allowed when they are all None
        if len(grads) != expected:
            raise RuntimeError(_messages.FUNCTION_GRADIENT_COUNT.format(name=self.name(), expected=expected,
                                                                       got=len(grads)))
        for position, (g, is_tensor) in enumerate(zip(grads, self._is_tensor), 1):
            if g is not None and not is_tensor:
                raise RuntimeError(_messages.FUNCTION_GRADIENT_FOR_NUMBER.format(name=self.name(), position=position))
            if g is not None and not isinstance(g, _tensor.Tensor):
                raise RuntimeError(f"expected Variable or None (got {typename(g)})")
        grads = [g for g, is_tensor in zip(grads, self._is_tensor) if is_tensor]
        return tuple(self._fitted(index, g) for index, g in enumerate(grads))

    def _fitted(self, index, grad):
        """torch's ``validate_outputs``, for an input that needs a gradient: a gradient its shape
        broadcasts to is summed down to that shape (new memory), another dtype is cast; a shape it
        does not broadcast to, or another device, is refused."""
        size, dtype, device = self._input_metadata[index]
        if grad is None or self._next_functions[index][0] is None:
            return grad
        lead = grad.dim() - len(size)
        if lead < 0 or any(n not in (1, m) for n, m in zip(size, grad._size[lead:])):
            raise RuntimeError(f"Function {self.name()} returned an " + _core_messages.GRADIENT_SHAPE.format(
                index=index, got=list(grad._size), expected=list(size)))
        if grad.device != device:
            raise RuntimeError(_messages.FUNCTION_GRADIENT_DEVICE.format(
                name=self.name(), index=index, expected=device, got=grad.device))
        if grad._size != size:
            grad = _tensor.Tensor._from_values(sum_to_shape(grad._read(), grad._size, size), size, grad.dtype, device)
        return grad.to(dtype)


class Function:
    """Subclass it with ``@staticmethod forward(ctx, *args)`` and ``backward(ctx, grad)``; call ``apply``."""

    def __init__(self, *args, **kwargs):
        """``Op(x)`` makes an object and computes nothing; torch warns that ``Op.apply(x)`` was meant."""
        warnings.warn(_messages.FUNCTION_INSTANTIATED.format(self.__class__), DeprecationWarning, stacklevel=2)

    @classmethod
    def apply(cls, *args):
        node_class = type(cls.__name__ + "Backward", (FunctionCtx,), {})
        ctx = node_class(cls, args)
        with no_grad():
            out = cls.forward(ctx, *args)
            if isinstance(out, (tuple, list)):  # torch gives each tensor output the node; reftorch has one
                raise NotImplementedError(_messages.FUNCTION_ONE_OUTPUT.format(name=cls.__name__))
            if not isinstance(out, _tensor.Tensor):
                return out  # a number or None goes back as it is, with no node, as in torch
            if any(out is a for a in args):  # an input handed back as it is: torch returns a new view
                out = out.view(out.shape)    # of it (its view_as(out)), so the input keeps its own history
            if out._base_tensor is not None and out.is_floating_point():  # a view: writing it in place is refused,
                out._creation_meta = IN_CUSTOM_FUNCTION  # as a CopySlices would bypass backward (view_history)
        # an integer or bool result is not differentiable: torch gives it no node, as any operation. apply is
        # not dispatched: in grad mode (also enable_grad() inside inference_mode), an input that requires grad
        # is recorded, inference tensor or not
        if out.is_floating_point() and is_grad_enabled() and any(
                isinstance(a, _tensor.Tensor) and a.requires_grad for a in args):
            out._set_grad_fn(ctx)
            ctx._keep_saved(out)
        return out

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError(_messages.FUNCTION_FORWARD_MISSING)

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError(_messages.FUNCTION_BACKWARD_MISSING)
