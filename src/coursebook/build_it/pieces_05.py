"""Chapter 05's pieces: ``accumulate_grad`` and ``execution_order``.

``accumulate_grad`` is what ``AccumulateGrad`` does to ``.grad``.

The first gradient becomes ``.grad``: kept as it is when the engine made it
for this call and its layout fits, otherwise copied (with ``copy_``: version
1).  The leaves are laid out row after row, the only layout chapter 05 may
assume; how ``.grad`` follows other layouts is chapter 08's (``clone``'s
rule, which the reference shares).  Every later one is
*added* into it, in place, which bumps the version of ``.grad``.  Each case
runs backward on real torch (through ``x * 1``, whose gradient is made for
AccumulateGrad, or ``x.backward(g)`` with the caller's own ``g``) and compares
the numbers, the strides and the version of ``x.grad``.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._strides
import reftorch._tensor
import reftorch.autograd.engine
import reftorch.autograd.graph

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _grad_of(x, before=None):
    """The numbers, strides and version of ``x.grad``; with ``before`` (the .grad an earlier backward
    left), also whether ``x.grad`` is still that same tensor."""
    grad = x.grad
    if grad is None:
        return None
    seen = (grad.tolist(), grad.stride(), grad._version)
    return seen if before is None else seen + (grad is before,)


def _leaf(module, shape, transposed):
    x = module.zeros(*shape)
    return (x.t() if transposed else x).requires_grad_()


def _on_torch(shape, transposed, gradients, made_for_it, same_object):
    def run():
        x = _leaf(torch, shape, transposed)
        before = None
        for g in gradients:
            before = x.grad
            if made_for_it:  # MulBackward0 makes a new gradient, which AccumulateGrad may keep
                (x * 1).backward(torch.tensor(g))
            else:  # the caller's own tensor: AccumulateGrad may not keep it
                x.backward(torch.tensor(g))
        return _grad_of(x, before if same_object else None)
    return run


def _case(label, shape, transposed, gradients, misconception, made_for_it=True, same_object=False):
    """``same_object``: also compare whether ``.grad`` is still the tensor the earlier backward left."""
    before = {}

    def args():
        x = _leaf(reftorch, shape, transposed)
        before.clear()
        if len(gradients) > 1:  # .grad as the earlier gradients left it
            x.grad = reftorch.tensor(gradients[0])
            if same_object:
                before["grad"] = x.grad
        return (x, reftorch.tensor(gradients[-1]), made_for_it)
    expected = _on_torch(shape, transposed, gradients, made_for_it, same_object)
    return Case(label, args, misconception, expected=expected,
                observe=lambda result, args: _grad_of(args[0], before.get("grad")))


def _replaces(variable, grad, steal=False):
    variable._grad = reftorch.tensor(grad.tolist())


def _adds_out_of_place(variable, grad, steal=False):
    if variable._grad is None:
        variable._grad = grad
    else:
        variable._grad = variable._grad + grad


def _copy_not_counted(variable, grad, steal=False):
    dense = reftorch._strides.is_non_overlapping_and_dense(variable._size, variable._stride)
    strides = variable._stride if dense else reftorch._strides.contiguous_strides(variable._size)
    if variable._grad is not None:
        variable._grad.add_(grad)
    elif steal and grad._stride == strides:
        variable._grad = grad
    else:
        variable._grad = reftorch._tensor.Tensor._from_values(grad._read(), grad._size, variable._dtype,
                                                               variable.device, strides)


_ACCUMULATES = ("gradients accumulate: a later backward adds into .grad, it does not replace it "
                "(that is why training loops zero the gradients)")
_COPY_WRITES = "torch writes that copy with copy_: one in-place write, so .grad starts at version 1"
_COPY_COUNTS = "a gradient autograd may not keep is copied into new memory, and " + _COPY_WRITES

register(Piece(
    name="accumulate_grad",
    chapter="05",
    reference=reftorch.autograd.graph.accumulate_grad,
    summary="AccumulateGrad: the first gradient becomes .grad, later ones add in place",
    cases=[
        _case("(a leaf with no .grad yet, [1., 2., 3.], made for it)", (3,), False, [[1.0, 2.0, 3.0]],
              "the first gradient becomes .grad; one the engine made for this call alone is kept as "
              "it is (no copy, version 0)"),
        _case("(a leaf whose .grad is [1., 2., 3.], [10., 10., 10.])", (3,), False,
              [[1.0, 2.0, 3.0], [10.0, 10.0, 10.0]], _ACCUMULATES),
        _case("(a leaf whose .grad is [1., 1.], [2., 3.]): the version of .grad", (2,), False,
              [[1.0, 1.0], [2.0, 3.0]], "the sum goes into the existing .grad tensor, in place, so its "
                                        "version counter goes up by one; a new tensor would start at 0"),
        _case("(a leaf whose .grad is [1., 1.], [2., 3.]): which tensor .grad is", (2,), False,
              [[1.0, 1.0], [2.0, 3.0]], "x.grad stays the tensor it was: the sum is added into it, not into "
                                        "the new gradient (every name of the old .grad sees the sum)", same_object=True),
        _case("(a leaf with no .grad yet, the caller's own [1., 2.])", (2,), False, [[1.0, 2.0]],
              _COPY_COUNTS, made_for_it=False),
    ],
    wrong=[Wrong(_replaces, "gradients accumulate", breaks="stdout"),
           Wrong(_adds_out_of_place, "in place, so its version counter goes up"),
           Wrong(_copy_not_counted, "torch writes that copy with copy_")],
))


# --- execution_order -------------------------------------------------------------
# The learner's order is judged by what it computes: the engine runs backward in that
# order (the engine's own ``execution_order`` answers with it), and the leaves' .grad
# must be torch's.  An order that runs a node before all its gradients arrived gives
# a gradient that is too small, or a KeyError (nothing arrived yet).

def _leaves(module):
    return (module.tensor([1.0, 2.0], requires_grad=True), module.tensor([0.5, -1.0], requires_grad=True))


def _grads(x, w):
    return (None if x.grad is None else x.grad.tolist(), None if w.grad is None else w.grad.tolist())


def _grads_on_torch(program):
    def run():
        x, w = _leaves(torch)
        program(x, w).backward()
        return _grads(x, w)
    return run


class _Roots(list):
    """The root nodes handed to the piece: a plain list to the learner, which also keeps the
    loss and its leaves for the check."""

    def __init__(self, loss, leaves):
        super().__init__([loss.grad_fn])
        self.loss, self.leaves = loss, leaves


def _run_in_order(result, args):
    """Backward with the engine running the nodes in the order the learner returned."""
    (roots,) = args
    engine = reftorch.autograd.engine
    own = engine.execution_order
    engine.execution_order = lambda nodes: list(result)
    try:
        roots.loss.backward()
    except KeyError:  # the engine's table of gradients received has no entry for the node
        raise RuntimeError("a node ran before any gradient had reached it") from None
    finally:
        engine.execution_order = own
    return _grads(*roots.leaves)


def _order_case(label, program, misconception):
    def args():
        x, w = _leaves(reftorch)
        return (_Roots(program(x, w), (x, w)),)
    return Case(f"([{label}].grad_fn)", args, misconception, expected=_grads_on_torch(program),
                observe=_run_in_order)


def _breadth_first(roots):
    order, queue = [], list(roots)
    while queue:
        node = queue.pop(0)
        if node not in order:
            order.append(node)
            queue += [n for n, _ in node.next_functions if n is not None]
    return order


def _depth_first_with_repeats(roots):
    order, stack = [], list(roots)
    while stack:
        node = stack.pop()
        order.append(node)
        stack += [n for n, _ in node.next_functions if n is not None]
    return order


def _counts_senders(roots):
    senders = {}  # node -> how many nodes send it a gradient (a node sending along two edges counts once)
    for node in _breadth_first(roots):  # every node once: the order does not matter for counting
        for receiver in {n for n, _ in node.next_functions if n is not None}:
            senders[receiver] = senders.get(receiver, 0) + 1
    order, ready = [], [node for node in roots if node not in senders]
    while ready:
        node = ready.pop()
        order.append(node)
        for receiver in [n for n, _ in node.next_functions if n is not None]:  # one release per edge
            senders[receiver] -= 1
            if not senders[receiver]:
                ready.append(receiver)
    return order


_WAIT = ("a node runs only once every gradient flowing into it has arrived and been summed: "
         "count the edges into each node and release it when the count reaches 0")

register(Piece(
    name="execution_order",
    chapter="05",
    reference=reftorch.autograd.engine.execution_order,
    summary="the topological order backward runs the nodes in",
    cases=[
        _order_case("loss = (x * 2).exp().sum()", lambda x, w: (x * 2).exp().sum(),
                    "a chain runs from the loss down to the leaf, each node once"),
        _order_case("u = x * 2; loss = (u * u + u).sum()", lambda x, w: ((u := x * 2) * u + u).sum(),
                    _WAIT + " (u's node receives three gradients)"),
        _order_case("a = x * 2; loss = (a + a * 3).sum()", lambda x, w: ((a := x * 2) + a * 3).sum(),
                    _WAIT + " (a short path and a long path meet at a's node: breadth-first order "
                            "runs it before the long path delivered)"),
        _order_case("loss = (x * 3 + x * x).sum()", lambda x, w: (x * 3 + x * x).sum(),
                    "count edges, not senders: x * x sends two gradients to x along two edges, "
                    "and x must wait for x * 3 too"),
        _order_case("h = x.exp(); loss = (h * w + h).sum()", lambda x, w: ((h := x.exp()) * w + h).sum(),
                    "each node appears once in the order: a node reached along two paths runs once, "
                    "with the sum of both gradients (a second run finds its saved tensors freed)"),
    ],
    wrong=[Wrong(_breadth_first, "breadth-first order runs it before"),
           Wrong(_depth_first_with_repeats, "each node appears once in the order"),
           Wrong(_counts_senders, "count edges, not senders")],
))
