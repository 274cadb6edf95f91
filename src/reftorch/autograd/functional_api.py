"""``backward`` accumulates into every leaf's ``.grad``; ``autograd.grad`` returns the
gradients for ``inputs`` instead and leaves every ``.grad`` alone."""

from .. import _core_messages
from .._tensor import Tensor
from .engine import run_backward
from .graph import gradient_edge


def _roots_and_grads(tensors, grad_tensors):
    roots, grads = [], []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if not t.requires_grad:
            raise RuntimeError(_core_messages.BACKWARD_NO_GRAD.format(i))
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = Tensor._from_values(1, t._size, t._dtype, t.device)
        elif g._size != t._size:
            raise RuntimeError(_core_messages.GRAD_SHAPE_MISMATCH.format(i=i, grad=g.shape, output=t.shape))
        roots.append(gradient_edge(t))
        grads.append(g)
    return roots, grads


def _as_tuple(x):
    """One tensor, or an iterable of them (torch's own rule: ``tuple(x)``)."""
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    if create_graph:
        raise NotImplementedError(_core_messages.NO_CREATE_GRAPH)
    roots, grads = _roots_and_grads(tensors, grad_tensors)
    run_backward(roots, grads, retain_graph=bool(retain_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None):
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if create_graph:
        raise NotImplementedError(_core_messages.NO_CREATE_GRAPH)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots, grads = _roots_and_grads(outputs, grad_outputs)
    targets = [gradient_edge(t) for t in inputs]
    captured = run_backward(roots, grads, retain_graph=bool(retain_graph), capture=targets)
    result = []
    for i, (node, nr) in enumerate(targets):
        if (id(node), nr) not in captured and not allow_unused:
            raise RuntimeError(_core_messages.GRAD_UNUSED.format(i))
        result.append(captured.get((id(node), nr)))
    return tuple(result)
