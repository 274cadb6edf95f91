"""``backward`` accumulates into every leaf's ``.grad``; ``autograd.grad`` returns the
gradients for ``inputs`` instead and leaves every ``.grad`` alone. ``reftorch.autograd`` checks
the shapes of the gradients a caller gives before they arrive here."""

from .. import _core_messages
from .._tensor import Tensor
from .engine import run_backward
from .graph import gradient_edge


def _roots_and_grads(tensors, grad_tensors):
    """The gradient each output starts from (a 1 only for a scalar output given none), then the
    edge it starts along, which only an output that requires grad has (torch's order)."""
    grads = []
    for t, g in zip(tensors, grad_tensors):
        if g is None and t.requires_grad and t.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        grads.append(Tensor._from_values(1, t._size, t._dtype, t.device) if g is None else g)
    for i, t in enumerate(tensors):
        if not t.requires_grad:
            raise RuntimeError(_core_messages.BACKWARD_NO_GRAD.format(i))
    return [gradient_edge(t) for t in tensors], grads


def backward(tensors, grad_tensors, retain_graph=None, inputs=()):
    roots, grads = _roots_and_grads(tensors, grad_tensors)
    run_backward(roots, grads, retain_graph=bool(retain_graph), inputs=[gradient_edge(t) for t in inputs])


def grad(outputs, inputs, grad_outputs, retain_graph=None, allow_unused=None):
    roots, grads = _roots_and_grads(outputs, grad_outputs)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    targets = [gradient_edge(t) for t in inputs]
    captured = run_backward(roots, grads, retain_graph=bool(retain_graph), capture=targets)
    result = []
    for i, (node, nr) in enumerate(targets):
        if (id(node), nr) not in captured and not allow_unused:
            raise RuntimeError(_core_messages.GRAD_UNUSED.format(i))
        result.append(captured.get((id(node), nr)))
    return tuple(result)
