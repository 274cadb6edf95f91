"""Module hooks: functions that run around ``forward`` every time a module is called.

``m.register_forward_pre_hook(fn)`` asks ``m(x)`` to call ``fn(m, args)``
before ``forward``; if ``fn`` returns something other than None, that becomes
the positional arguments (a non-tuple is wrapped in one).
``m.register_forward_hook(fn)`` asks for ``fn(m, args, output)`` after
``forward``; a result other than None replaces the output. With
``with_kwargs=True`` the hook also gets the keyword arguments (a pre-hook then
returns None or ``(args, kwargs)``); ``prepend=True`` puts it first;
``always_call=True`` (forward hooks only) runs it even when ``forward`` raises.
Each call returns a ``RemovableHandle``; ``handle.remove()`` takes the hook away.

Where the hooks live, and so what copies do with them: in ordered dicts in the
module's ``__dict__``, keyed by handle id (``_forward_pre_hooks``,
``_forward_hooks``, plus side tables that mark the ``with_kwargs`` and
``always_call`` ids). Nothing about a hook touches a tensor: no memory, no
version counter, no graph node of its own. So:

* ``copy.copy(m)`` copies ``__dict__`` one level deep: the copy holds the *same*
  dicts, and a hook added to either module runs for both;
* ``copy.deepcopy(m)`` copies the dicts: the copy runs the same hook functions
  (a function deep-copies to itself), but a hook added later to one module is
  not seen by the other, and removing a handle affects only the module it
  came from;
* ``state_dict()`` and ``torch.save(m.state_dict())`` carry no hooks at all.
"""

import warnings
from collections import OrderedDict

from .. import _messages
from ..autograd.hooks import RemovableHandle

TABLES = (
    "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs",
    "_forward_hooks", "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
)


def add_hook_tables(module):
    """Give a new module its empty hook dicts (called from ``Module.__init__``)."""
    for name in TABLES:
        object.__setattr__(module, name, OrderedDict())


def _add_hook(table, hook, prepend, marks):
    """Put ``hook`` into ``table`` under a new handle id (first if ``prepend``) and mark that id
    in each side table of ``marks`` (pairs of side table and whether to mark it)."""
    handle = RemovableHandle(table, extra_dict=[side for side, _ in marks])
    table[handle.id] = hook
    for side, marked in marks:
        if marked:
            side[handle.id] = True
    if prepend:
        table.move_to_end(handle.id, last=False)
    return handle


def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
    return _add_hook(self._forward_pre_hooks, hook, prepend, [(self._forward_pre_hooks_with_kwargs, with_kwargs)])


def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
    return _add_hook(self._forward_hooks, hook, prepend, [(self._forward_hooks_with_kwargs, with_kwargs),
                                                          (self._forward_hooks_always_called, always_call)])


def call_with_hooks(self, args, kwargs):
    """``m(*args, **kwargs)``: pre-hooks, ``forward``, then forward hooks, in dict order."""
    if not (self._forward_pre_hooks or self._forward_hooks):
        return self.forward(*args, **kwargs)
    result, called = None, set()
    try:
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                new = hook(self, args, kwargs)
                if new is not None:
                    if not (isinstance(new, tuple) and len(new) == 2):
                        raise RuntimeError(_messages.MODULE_PRE_HOOK_RESULT.format(got=new))
                    args, kwargs = new
            else:
                new = hook(self, args)
                if new is not None:
                    args = new if isinstance(new, tuple) else (new,)
        result = self.forward(*args, **kwargs)
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_always_called:
                called.add(hook_id)
            new = _run_forward_hook(self, hook_id, hook, args, kwargs, result)
            if new is not None:
                result = new
        return result
    except Exception:
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_always_called and hook_id not in called:
                try:
                    new = _run_forward_hook(self, hook_id, hook, args, kwargs, result)
                    if new is not None:
                        result = new
                except Exception as err:  # noqa: BLE001 - torch silences it with a warning
                    warnings.warn(_messages.MODULE_ALWAYS_CALL_HOOK_RAISED.format(err=err), stacklevel=2)
        raise


def _run_forward_hook(self, hook_id, hook, args, kwargs, result):
    if hook_id in self._forward_hooks_with_kwargs:
        return hook(self, args, kwargs, result)
    return hook(self, args, result)
