"""The backward pass: walk the graph from the output to the leaves.

Gradients flow from ``loss.grad_fn`` down the ``next_functions`` edges. A node
runs once, after every gradient flowing into it has been summed (a topological
order), then frees its saved tensors unless ``retain_graph=True``. Tensor hooks
run on a node's complete gradient before the node uses it.
"""

from collections import defaultdict

from .. import _core_messages, _overrides
from .._tensor import Tensor
from .._torch_bookkeeping import may_sum_in_place
from .grad_mode import no_grad
from .graph import AccumulateGrad, update_retained_grad


def execution_order(roots):
    """The nodes reachable from ``roots``, each after every node that sends it a gradient."""
    dependencies, seen, stack = defaultdict(int), set(), list(roots)
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            for next_node, _ in node.next_functions:
                if next_node is not None:
                    dependencies[next_node] += 1
                    stack.append(next_node)
    order, ready = [], [node for node in dict.fromkeys(roots) if dependencies[node] == 0]
    while ready:
        order.append(ready.pop())
        for next_node, _ in order[-1].next_functions:
            if next_node is not None:
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    ready.append(next_node)
    return order
execution_order = _overrides.overridable(execution_order)


def run_backward(roots, grad_outputs, retain_graph=False, capture=None):
    """Propagate ``grad_outputs`` from the ``roots`` edges to the leaves' ``.grad``; with
    ``capture`` (edges), return what arrives along them instead (``autograd.grad``)."""
    pending = {}  # id(node) -> {output_nr: gradient summed over the edges seen so far}
    owned = set()  # ids of gradient tensors this pass created (free to reuse)
    for (node, nr), grad in zip(roots, grad_outputs):
        _receive(pending, node, nr, grad, owned)
    captured = {}
    capture_ids = None if capture is None else {(id(node), nr) for node, nr in capture}
    with no_grad():
        for node in execution_order([node for node, _ in roots]):
            incoming = pending.pop(id(node))
            if _hook_dicts(node):
                for nr, g in list(incoming.items()):
                    if g is not None:
                        owned.discard(id(g))  # a hook may keep this tensor: never write into it again
                        incoming[nr] = call_tensor_hooks(node, g, nr)
            if capture_ids is not None:
                captured.update({(id(node), nr): g for nr, g in incoming.items() if (id(node), nr) in capture_ids})
            for t in node._retained:
                if incoming.get(t._output_nr) is not None:
                    update_retained_grad(t, incoming[t._output_nr])
            grad = incoming[0] if node.num_outputs == 1 else tuple(map(incoming.get, range(node.num_outputs)))
            if isinstance(node, AccumulateGrad):
                if capture_ids is None:  # autograd.grad never writes .grad
                    node.apply(grad, steal=id(grad) in owned)
                grads_in = ()
            else:
                grads_in = node.apply(grad)
                owned.update(id(g) for g in grads_in if g is not None and g is not grad)
            if not retain_graph:
                node.release_saved_tensors()
            for (next_node, nr), g in zip(node._next_functions, grads_in):
                if next_node is not None:
                    _receive(pending, next_node, nr, g, owned)
    return captured


def _receive(pending, node, nr, grad, owned):
    """Add ``grad`` to what output ``nr`` of ``node`` has received so far."""
    incoming = pending.setdefault(id(node), {})
    incoming[nr] = _add(incoming.get(nr), grad, owned)


def _add(total, grad, owned):
    """Sum two gradients: in place into a buffer this pass made when torch would (its version
    goes up), else into a new one."""
    if total is None:
        return grad
    if may_sum_in_place(total, grad, owned):
        total._write([a + b for a, b in zip(total._read(), grad._read())])
        total._version_counter.bump()
        return total
    result = total + grad
    owned.add(id(result))
    return result


def _hook_dicts(node, output_nr=None):
    """The hook dicts watching what arrives at ``node`` (at one output, or any)."""
    if isinstance(node, AccumulateGrad):
        hooks = node.variable._backward_hooks
        return [hooks] if hooks else []
    return [hooks for nr, hooks in node._tensor_hook_dicts if hooks and output_nr in (None, nr)]


def call_tensor_hooks(node, grad, output_nr=0):
    """Run the hooks on the gradient arriving at ``node``'s output, in order; each may replace it."""
    for hooks in _hook_dicts(node, output_nr):
        for hook in list(hooks.values()):
            result = hook(grad)
            if result is not None:
                _check_hook_result(hook, grad, result)
                grad = result
    return grad


def _check_hook_result(hook, grad, result):
    """A hook may change the numbers, not the type, device or size of a gradient."""
    if not isinstance(result, Tensor):
        raise TypeError(_core_messages.HOOK_NOT_A_TENSOR.format(type=type(result).__name__))
    name = getattr(hook, "__name__", "<unknown>")
    if result.type() != grad.type():
        raise RuntimeError(_core_messages.HOOK_CHANGED_TYPE.format(name=name, was=grad.type(), got=result.type()))
    if result.shape != grad.shape:
        raise RuntimeError(_core_messages.HOOK_CHANGED_SIZE.format(name=name))
