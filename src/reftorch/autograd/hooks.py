"""Tensor hooks: functions that see, and may replace, a gradient during backward.

``h = t.register_hook(fn)`` asks backward to call ``fn(grad)`` with the
gradient of ``t`` as soon as it is known. If ``fn`` returns a tensor, that
tensor travels on in place of the gradient; if it returns None, the gradient
goes on unchanged. ``h.remove()`` takes the hook away again.

Where the hook runs depends on what ``t`` is:

* **a leaf** (``x`` with ``requires_grad=True``): just before its
  ``AccumulateGrad`` node adds the gradient into ``x.grad``. So a hook
  changes what lands in ``.grad``. It runs once per backward, with the
  gradients from every path already summed.
* **a non-leaf** (``y = x * 2``): just before ``y.grad_fn`` runs, so the
  returned tensor is what flows on to ``x``. ``retain_grad()`` keeps the
  gradient *after* the hooks.

The Python object keeps its hooks in ``t._backward_hooks``, an ordered dict
from handle id to function (None until the first hook). For a non-leaf the
same dict is also attached to ``t.grad_fn``: the hooks belong to that node.
An in-place op gives ``t`` a new ``grad_fn`` and an empty slate
(``_backward_hooks`` is None again), as in torch; the old hooks stay with the
old node.

Hooks are never copied: ``copy.copy(t)`` warns that they will not be kept and
gives a tensor with an empty dict; ``copy.deepcopy(t)`` gives one with none.
``torch.save`` warns as ``copy.copy`` does (a file holds no functions), and
the loaded tensor has an empty dict.
A copied model therefore loses the hooks of its parameters.

This module registers hooks and runs them: ``register_hook`` gives the node a
``TensorPreHook`` (a leaf keeps its own, since its ``AccumulateGrad`` may be
renewed), and the engine calls it with the gradients arriving at the node.
``_python_copy.warn_if_has_hooks`` warns when a copy leaves them behind.

A graph node has hooks of its own, as in torch: ``y.grad_fn.register_prehook(fn)``
calls ``fn(grad_outputs)`` with the gradients arriving at the node (after the
tensor hooks and ``retain_grad``), ``y.grad_fn.register_hook(fn)`` calls
``fn(grad_inputs, grad_outputs)`` with what the node computed for its inputs;
either may return a tuple as long to take their place. The node's ``apply`` then
runs them around its class's ``apply`` (``_NodeWithHooks``).
"""

import weakref
from collections import OrderedDict

from .. import _messages
from .._tensor import Tensor
from .graph import Node


class RemovableHandle:
    """The ticket ``register_hook`` returns: ``remove()`` deletes that one hook.

    It holds only weak references to the dicts, so it does not keep a tensor's
    (or a module's) hooks alive. Ids come from one counter shared by all
    handles. ``extra_dict`` (a dict or a list of dicts) names the side tables
    a module keeps per hook id (``with_kwargs``, ``always_call``): removing the
    hook removes its id from them too.
    """

    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        extras = [extra_dict] if isinstance(extra_dict, dict) else list(extra_dict or [])
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras)

    def remove(self):
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            table = ref()
            if table is not None and self.id in table:
                del table[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


def register_hook(self, hook):
    """Add ``hook`` to this tensor's hooks; a new dict of hooks gets a ``TensorPreHook`` on its
    ``grad_fn`` (a non-leaf) or on the tensor (a leaf, read by its ``AccumulateGrad``)."""
    if not self.requires_grad:
        raise RuntimeError(_messages.HOOK_NO_GRAD)
    if self._backward_hooks is None:
        self._backward_hooks = OrderedDict()
        if self.grad_fn is not None:
            hooks = self._backward_hooks  # the node keeps this dict, even when the tensor moves on
            self.grad_fn._tensor_pre_hooks.append(TensorPreHook(lambda: hooks, self._output_nr))
    if self.grad_fn is None and not self._tensor_pre_hooks:
        self._tensor_pre_hooks = (TensorPreHook(lambda: self._backward_hooks),)
    handle = RemovableHandle(self._backward_hooks)
    self._backward_hooks[handle.id] = hook
    return handle


class TensorPreHook:
    """The hooks of one tensor, run by the engine on the gradient arriving at its output
    ``output_nr`` before the node uses it (torch's ``PyFunctionTensorPreHook``)."""

    def __init__(self, hooks_of, output_nr=0):
        self.hooks_of, self.output_nr = hooks_of, output_nr

    def __call__(self, incoming, owned):
        """Run the hooks in order on ``incoming[output_nr]``, None if no gradient arrived there;
        each may replace a gradient (not a None). A hook may keep a gradient, so the engine never
        writes into one it ``owned`` again."""
        hooks = self.hooks_of()
        if not hooks:
            return
        owned.difference_update(id(g) for g in incoming.values() if g is not None)
        grad = incoming.get(self.output_nr)
        for hook in list(hooks.values()):
            result = hook(grad)
            if result is not None and grad is None:
                raise RuntimeError(_messages.HOOK_REPLACES_NONE)
            if result is not None:
                _check_hook_result(hook, grad, result)
                grad = result
        if grad is not None:
            incoming[self.output_nr] = grad


def _check_hook_result(hook, grad, result):
    """A hook may change the numbers, not the type, device or size of a gradient."""
    if not isinstance(result, Tensor):
        raise TypeError(_messages.HOOK_NOT_A_TENSOR.format(type=_messages.type_name(result)))
    name = getattr(hook, "__name__", "<unknown>")
    if result.type() != grad.type():
        raise RuntimeError(_messages.HOOK_CHANGED_TYPE.format(name=name, was=grad.type(), got=result.type()))
    if result.shape != grad.shape:
        raise RuntimeError(_messages.HOOK_CHANGED_SIZE.format(name=name))


def register_node_prehook(node, hook):
    """``grad_fn.register_prehook(hook)``: ``hook(grad_outputs)`` before the node runs."""
    return _add_node_hook(node, 0, hook)


def register_node_hook(node, hook):
    """``grad_fn.register_hook(hook)``: ``hook(grad_inputs, grad_outputs)`` after the node ran."""
    return _add_node_hook(node, 1, hook)


def _add_node_hook(node, kind, hook):
    if "apply" not in vars(node):  # the first hook: the node's own apply runs them
        node._node_hooks = (OrderedDict(), OrderedDict())
        node.apply = _NodeWithHooks(node)
    handle = RemovableHandle(node._node_hooks[kind])
    node._node_hooks[kind][handle.id] = hook
    return handle


class _NodeWithHooks:
    """A node's ``apply`` once it has hooks: the pre-hooks, its class's ``apply``, the post-hooks
    (torch's ``call_pre_hooks`` and ``call_post_hooks``). It holds the node weakly: a graph is
    freed with its last tensor, hooks or not."""

    def __init__(self, node):
        self.node = weakref.ref(node)

    def __call__(self, grad, **keywords):
        node = self.node()
        pre_hooks, post_hooks = node._node_hooks
        outputs = tuple(grad) if node.num_outputs > 1 else (grad,)
        for hook in list(pre_hooks.values()):
            outputs = _node_hook_result(hook, hook(outputs), outputs)
        if keywords and outputs[0] is not grad:
            keywords["steal"] = False  # a hook's tensor is not the engine's own
        inputs = type(node).apply(node, outputs if node.num_outputs > 1 else outputs[0], **keywords)
        for hook in list(post_hooks.values()):
            inputs = _node_hook_result(hook, hook(inputs, outputs), inputs)
        return inputs


def _node_hook_result(hook, result, given):
    """What a node hook returned in place of ``given``: None keeps it, else a tuple as long."""
    if result is None:
        return given
    if not isinstance(result, tuple):
        raise TypeError(_messages.NODE_HOOK_NOT_A_TUPLE.format(type=_messages.type_name(result)))
    if len(result) != len(given):
        raise RuntimeError(_messages.NODE_HOOK_COUNT.format(
            name=getattr(hook, "__name__", "<unknown>"), got=len(result), expected=len(given)))
    return result


Node.register_prehook = register_node_prehook
Node.register_hook = register_node_hook
