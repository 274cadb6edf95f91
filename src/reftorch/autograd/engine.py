"""The backward pass: walk the graph from the output to the leaves.

Gradients flow from ``loss.grad_fn`` down the ``next_functions`` edges. A node
runs once, after every gradient flowing into it has been summed (a topological
order), then frees its saved tensors unless ``retain_graph=True``. Before a node uses
its complete gradient, its tensor pre-hooks (``autograd/hooks``) see it and may replace it.
"""

from collections import defaultdict

from .. import _core_messages, _overrides
from .._broadcast import sum_to_shape
from .._tensor import Tensor
from .._torch_bookkeeping import sum_gradients
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


def needed_nodes(order, targets, capturing):
    """The ids of the nodes that lead to ``targets`` (edges), and, unless ``capturing``, of the
    targets' own nodes: only these run, as torch prunes the rest of the graph."""
    edges = {(id(node), nr) for node, nr in targets}
    needed = set() if capturing else {node for node, _ in edges}
    for node in reversed(order):
        if any((id(n), nr) in edges or id(n) in needed for n, nr in node.next_functions):
            needed.add(id(node))
    return needed


def run_backward(roots, grad_outputs, retain_graph=False, capture=None, inputs=None):
    """Propagate ``grad_outputs`` from the ``roots`` edges to the leaves' ``.grad`` (only to ``inputs``,
    edges, if given); with ``capture`` (edges), return what arrives along them (``autograd.grad``)."""
    pending = {}  # id(node) -> {output_nr: gradient summed over the edges seen so far}
    owned = set()  # ids of gradient tensors this pass created (free to reuse)
    for index, ((node, nr), grad) in enumerate(zip(roots, grad_outputs)):
        _receive(pending, node, nr, _fitted(None, index, node, nr, grad, set()), owned)  # the caller's own
    captured = {}
    capture_ids = None if capture is None else {(id(node), nr) for node, nr in capture}
    order = execution_order([node for node, _ in roots])
    needed = needed_nodes(order, capture or inputs, capture is not None) if capture or inputs else set(map(id, order))
    receivers = needed | {node for node, _ in capture_ids or ()}
    with no_grad():
        for node in order:
            incoming = pending.pop(id(node), {})  # empty if no gradient reached it
            holder = node.variable if isinstance(node, AccumulateGrad) else node  # a leaf keeps its own hooks
            arrived = any(g is not None for g in incoming.values())
            runs = not (capture or inputs) or arrived  # as torch prunes
            for pre_hook in holder._tensor_pre_hooks if runs else ():
                pre_hook(incoming, owned)  # a hook where no gradient arrived sees None
            if capture_ids is not None:
                captured.update({(id(node), nr): g for nr, g in incoming.items()
                                 if g is not None and (id(node), nr) in capture_ids})
            for t in node._retained:
                if incoming.get(t._output_nr) is not None:
                    update_retained_grad(t, incoming[t._output_nr])
            grad = incoming.get(0) if node.num_outputs == 1 else tuple(map(incoming.get, range(node.num_outputs)))
            grads_in = ()  # a node no gradient reached (a backward gave None), or not needed, runs no apply
            if isinstance(node, AccumulateGrad):
                if capture_ids is None and grad is not None and id(node) in needed:  # never in autograd.grad
                    node.apply(grad, steal=id(grad) in owned)
            elif id(node) in needed and (arrived or (runs and node.materializes_grads)):
                grads_in = node.apply(grad)
                owned.update(id(g) for g in grads_in if g is not None and g is not grad)
            if not retain_graph:
                node.release_saved_tensors()
            for index, ((next_node, nr), g) in enumerate(zip(node._next_functions, grads_in)):
                if next_node is not None and id(next_node) in receivers:
                    _receive(pending, next_node, nr, _fitted(node, index, next_node, nr, g, owned), owned)
    return captured


def _fitted(node, index, receiver, nr, grad, owned):
    """Gradient ``index`` of ``node`` (None: of the caller) must fit the size its receiver's output
    ``nr`` had when made: a size it broadcasts to is summed down to it, another dtype is cast (new
    memory, this pass's own); any other size is refused."""
    size, dtype = receiver._output_metadata.get(nr, (None, None))
    if grad is None or size is None or (grad._size, grad._dtype) == (size, dtype):
        return grad
    lead = len(grad._size) - len(size)
    if lead < 0 or any(n not in (1, m) for n, m in zip(size, grad._size[lead:])):
        text = _core_messages.GRADIENT_SHAPE.format(index=index, got=list(grad._size), expected=list(size))
        raise RuntimeError(text if node is None else f"Function {node.name()} returned an {text}")
    fitted = Tensor._from_values(sum_to_shape(grad._read(), grad._size, size), size, dtype, grad.device)
    owned.add(id(fitted))
    return fitted


def _receive(pending, node, nr, grad, owned):
    """Add ``grad`` to what output ``nr`` of ``node`` has received so far."""
    incoming = pending.setdefault(id(node), {})
    incoming[nr] = sum_gradients(incoming.get(nr), grad, owned)
