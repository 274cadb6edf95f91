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
"""

import warnings
import weakref
from collections import OrderedDict

from .. import _messages
from .._tensor import Tensor
from .graph import AccumulateGrad


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
    """Add ``hook`` to this tensor's hooks (and, for a non-leaf, to its grad_fn's)."""
    if not self.requires_grad:
        raise RuntimeError(_messages.HOOK_NO_GRAD)
    if self._backward_hooks is None:
        self._backward_hooks = OrderedDict()
        if self.grad_fn is not None:
            # the output of grad_fn this tensor is (split/unbind pieces share one node)
            self.grad_fn._tensor_hook_dicts.append((self._output_nr, self._backward_hooks))
    handle = RemovableHandle(self._backward_hooks)
    self._backward_hooks[handle.id] = hook
    return handle


def _hook_dicts(node, output_nr=None):
    """The hook dicts that watch the gradient arriving at ``node`` (for one output, or any)."""
    if isinstance(node, AccumulateGrad):
        hooks = node.variable._backward_hooks
        return [hooks] if hooks else []
    return [hooks for nr, hooks in node._tensor_hook_dicts if hooks and output_nr in (None, nr)]


def has_tensor_hooks(node):
    return bool(_hook_dicts(node))


def call_tensor_hooks(node, grad, output_nr=0):
    """Run the hooks on the gradient arriving at output ``output_nr`` of ``node``, in the order
    they were registered."""
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
        raise TypeError(_messages.HOOK_NOT_A_TENSOR.format(type=type(result).__name__))
    name = getattr(hook, "__name__", "<unknown>")
    if result.type() != grad.type():
        raise RuntimeError(_messages.HOOK_CHANGED_TYPE.format(name=name, was=grad.type(), got=result.type()))
    if result.shape != grad.shape:
        raise RuntimeError(_messages.HOOK_CHANGED_SIZE.format(name=name))


def warn_if_has_hooks(tensor):
    """``copy.copy`` (and saving) cannot keep hooks: torch warns once per hook."""
    hooks = tensor._backward_hooks
    for hook in (hooks or {}).values():
        if not hasattr(hook, "__torch_unserializable__"):
            # torch warns from its own Python code (Tensor.__reduce_ex__), so the
            # warning names a line in torch's _tensor.py; this one names its line here.
            warnings.warn(_messages.HOOK_NOT_SERIALIZED.format(hook=repr(hook)), UserWarning, stacklevel=1)
