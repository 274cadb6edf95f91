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
"""

import weakref
from collections import OrderedDict

from .. import _messages
from .._tensor import Tensor


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
