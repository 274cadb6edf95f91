"""reftorch.autograd: grad mode, the graph, and the backward pass.

Read ``graph`` (nodes, edges, saved tensors, ``AccumulateGrad``), then
``variable`` (``requires_grad``, ``grad_fn``, ``is_leaf`` on a tensor),
``engine`` (the backward pass) and ``functional_api`` (``backward``,
``grad``). ``grad_mode``, ``inference_mode`` and ``creation_meta`` are the
modes; ``hooks`` is ``register_hook``; ``function`` is ``torch.autograd.Function``,
an operation whose backward you write yourself.

``backward`` and ``grad`` here (``t.backward()`` too) take a caller's arguments, check them as
torch does before anything runs (``_make_grads``, as in torch), and hand them to
``functional_api``; ``requires_grad_`` checks its flag for ``variable``. Nothing here touches
memory, the version counter or the graph.

Python runs this file before any module of ``autograd``, also when an operation imports ``graph``:
so nothing it imports may import an operation (``function``, and ``_typename`` which it uses, call
``view`` and ``to`` as tensor methods).
"""

from .. import _messages
from .._tensor import Tensor
from . import functional_api, graph, variable
from .function import Function
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .inference_mode import inference_mode

__all__ = ["Function", "backward", "grad", "graph", "enable_grad", "is_grad_enabled", "no_grad", "set_grad_enabled",
           "inference_mode"]


def _as_tuple(x):
    """One tensor, or an iterable of them (torch's own rule: ``tuple(x)``)."""
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _make_grads(outputs, grad_outputs, create_graph):
    """torch's check on the gradients given, for every output before the pass: each must have its
    output's shape (and reftorch builds no graph of gradients)."""
    if create_graph:
        raise NotImplementedError(_messages.NO_CREATE_GRAPH)
    for i, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if g is not None and g._size != t._size:
            raise RuntimeError(_messages.GRAD_SHAPE_MISMATCH.format(i=i, grad=g.shape, output=t.shape))


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """``torch.autograd.backward``: into the ``.grad`` of every leaf the ``tensors`` depend on."""
    if inputs is not None and not _as_tuple(inputs):
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors, inputs = _as_tuple(tensors), _as_tuple(inputs)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    _make_grads(tensors, grad_tensors, create_graph)
    for t in inputs:
        t.retain_grad()  # as torch's engine does: a non-leaf input keeps the gradient it gets
    functional_api.backward(tensors, grad_tensors, retain_graph, inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None):
    """``torch.autograd.grad``: the gradients of ``outputs`` for ``inputs``, no ``.grad`` written."""
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    _make_grads(outputs, grad_outputs, create_graph)
    return functional_api.grad(outputs, inputs, grad_outputs, retain_graph, allow_unused)


def tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """``t.backward(gradient)``: ``backward(t, gradient)``, as torch's ``Tensor.backward``."""
    backward(self, gradient, retain_graph, create_graph, inputs)


def requires_grad_(self, *args, **kwargs):
    """``t.requires_grad_(flag)``: torch's binding takes only a bool; then ``variable.requires_grad_``."""
    flag = args[0] if args else kwargs.get("requires_grad", True)
    if not isinstance(flag, bool):
        where = " (position 1)" if args else ""
        raise TypeError(_messages.REQUIRES_GRAD_NOT_BOOL.format(where=where, got=_messages.type_name(flag)))
    return variable.requires_grad_(self, *args, **kwargs)
