"""The backward pass: walk the graph from the output to the leaves.

``loss.backward()`` starts with the gradient 1 at ``loss.grad_fn`` and hands
gradients down ``next_functions`` edges. A node may be reached along several
paths (``y = x * x``, or a tensor used twice), so a node runs only once all
the gradients that flow into it have been *summed*. Counting the incoming
edges first and then releasing nodes when their count drops to zero is a
topological sort; it is why a reused tensor gets the right gradient.

Unless ``retain_graph=True``, each node frees its saved tensors after it ran:
a second ``backward()`` through a node that saved tensors raises.
"""

from collections import defaultdict

import numpy as np

from .grad_mode import no_grad
from .graph import AccumulateGrad
from .hooks import call_tensor_hooks, has_tensor_hooks


def _count_dependencies(roots):
    """How many edges point at each node reachable from ``roots``."""
    dependencies = defaultdict(int)
    seen = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for next_node, _ in node.next_functions:
            if next_node is not None:
                dependencies[id(next_node)] += 1
                stack.append(next_node)
    return dependencies


def run_backward(roots, grad_outputs, retain_graph=False, capture=None):
    """Propagate ``grad_outputs`` from the ``roots`` nodes down to the leaves.

    Normally the AccumulateGrad nodes at the bottom write into ``.grad``. With
    ``capture`` (a collection of nodes), the gradients arriving at those nodes
    are returned in a dict keyed by ``id(node)`` and no ``.grad`` is touched:
    that is ``torch.autograd.grad``.
    """
    dependencies = _count_dependencies(roots)
    pending = {}  # id(node) -> gradient summed over the edges seen so far
    owned = set()  # ids of gradient tensors this pass created (free to reuse)
    for node, grad in zip(roots, grad_outputs):
        pending[id(node)] = _add(pending.get(id(node)), grad, owned)
    ready = list({id(node): node for node in roots if dependencies[id(node)] == 0}.values())
    captured = {}
    capture_ids = None if capture is None else {id(node) for node in capture}
    with no_grad(), np.errstate(all="ignore"):
        while ready:
            node = ready.pop()
            grad = pending.pop(id(node))
            if has_tensor_hooks(node):
                owned.discard(id(grad))  # a hook may keep this tensor: never write into it again
                grad = call_tensor_hooks(node, grad)
            if capture_ids is not None and id(node) in capture_ids:
                captured[id(node)] = grad
            for t in node._retained:
                t._accumulate_grad(grad, steal=False)
            if isinstance(node, AccumulateGrad):
                if capture_ids is None:  # autograd.grad never writes .grad
                    node.apply(grad, steal=id(grad) in owned)
                grads_in = ()
            else:
                grads_in = node.apply(grad)
                owned.update(id(g) for g in grads_in if g is not None and g is not grad)
            if not retain_graph:
                node.release_saved_tensors()
            for (next_node, _), g in zip(node.next_functions, grads_in):
                if next_node is None:
                    continue
                key = id(next_node)
                pending[key] = _add(pending.get(key), g, owned)
                dependencies[key] -= 1
                if dependencies[key] == 0:
                    ready.append(next_node)
    return captured


def _add(total, grad, owned):
    """Sum gradients arriving at one node: in place into a buffer this pass made
    (as torch does, so that buffer's version goes up), otherwise into a new one."""
    if total is None:
        return grad
    if id(total) in owned:
        total._values()[...] += grad._values()
        total._version_counter.bump()
        return total
    result = total + grad
    owned.add(id(result))
    return result
