"""nn.Module: a container that finds its tensors and sub-modules by attribute name.

A Module keeps three ordered tables in its ``__dict__``:

* ``_parameters``: the ``Parameter`` objects it trains (``self.weight = Parameter(...)``);
* ``_buffers``: tensors that are part of its state but are not trained, such
  as BatchNorm's running statistics (``self.register_buffer("running_mean", t)``).
  A buffer registered with ``persistent=False`` is left out of ``state_dict()``;
* ``_modules``: its children (``self.fc = Linear(...)``).

Assigning a ``Parameter`` or a ``Module`` to an attribute registers it;
assigning a plain tensor to a name that is already a buffer replaces the
buffer. Reading ``m.weight`` looks in the tables (``__getattr__``), so the
attribute *is* the registered object: no copy anywhere.

Because the tables live in ``__dict__``, Python's copy protocol treats them
like any attribute: ``copy.copy(m)`` gives a new Module whose ``_parameters``
is the *same* dict object (assigning ``c.weight = ...`` changes ``m`` too),
while ``copy.deepcopy(m)`` copies the dicts and, through the memo, every
Parameter once, so weights shared inside ``m`` stay shared inside the copy.

The rest of Module lives next door: ``parameters``, ``named_modules`` ... in
``tree.py``, ``state_dict`` and ``load_state_dict`` in ``state_dict.py``,
``to``/``double``/``cuda`` ... in ``conversion.py``, forward hooks (and what
copies do with them) in ``hooks.py``.
"""

from collections import OrderedDict
from types import SimpleNamespace

from .. import _messages
from .._tensor import Tensor
from .._typename import typename
from . import conversion as _conversion, hooks as _hooks, state_dict as _state_dict, tree as _tree
from .parameter import Parameter
from ..optim.optimizer import Optimizer
from .._overrides import overridable


class Module:
    _version = 1  # the state_dict format version, recorded in state_dict()._metadata

    def __init__(self):
        # object.__setattr__: our own __setattr__ needs these tables to exist first.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        _hooks.add_hook_tables(self)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(_messages.MODULE_NO_FORWARD.format(name=type(self).__name__))

    def __call__(self, *args, **kwargs):
        """``forward``, with the module's forward hooks around it (see hooks.py)."""
        return _hooks.call_with_hooks(self, args, kwargs)

    register_forward_pre_hook = _hooks.register_forward_pre_hook
    register_forward_hook = _hooks.register_forward_hook

    # --- registering ---------------------------------------------------------

    def register_parameter(self, name, param):
        """Put ``param`` (the object itself, or None) in ``_parameters[name]``."""
        _check_name(self, "parameter", name, self.__dict__.get("_parameters"))
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                _messages.MODULE_PARAMETER_TYPE.format(type=typename(param), name=name)
            )
        elif param.grad_fn:
            raise ValueError(
                _messages.MODULE_NON_LEAF_PARAMETER.format(name=name)
            )
        else:
            self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Put ``tensor`` (the object itself, not a copy) in ``_buffers[name]``.

        A non-persistent buffer moves with the module (``to``, ``cuda``) but is
        not saved in ``state_dict()``.
        """
        _check_name(self, "buffer", name, self.__dict__.get("_buffers"))
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                _messages.MODULE_BUFFER_TYPE.format(type=typename(tensor), name=name)
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    # --- attribute access ----------------------------------------------------

    def __getattr__(self, name):
        """Called only when normal lookup fails: look in the three tables."""
        for table in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__.get(table, {})
            if name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        """Route ``m.name = value`` to the right table, as torch does."""
        params, buffers, modules = (self.__dict__.get(t) for t in ("_parameters", "_buffers", "_modules"))
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _remove_from(name, self.__dict__, buffers, modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    _messages.MODULE_ASSIGN_PARAMETER.format(type=typename(value), name=name)
                )
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            _remove_from(name, self.__dict__, params, buffers, self._non_persistent_buffers_set)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    _messages.MODULE_ASSIGN_MODULE.format(type=typename(value), name=name)
                )
            modules[name] = value
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    _messages.MODULE_ASSIGN_BUFFER.format(type=typename(value), name=name)
                )
            self.register_buffer(name, value, name not in self._non_persistent_buffers_set)
        else:
            object.__setattr__(self, name, value)
    __setattr__ = overridable(__setattr__)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = dir(type(self)) + list(self.__dict__) + list(self._parameters) + list(self._modules) + list(self._buffers)
        return sorted(key for key in keys if not key[0].isdigit())

    # --- walking the tree (see tree.py) ------------------------------------------

    named_modules = _tree.named_modules
    _named_members = _tree.named_members
    named_parameters = _tree.named_parameters
    parameters = _tree.parameters
    named_buffers = _tree.named_buffers
    buffers = _tree.buffers
    named_children = _tree.named_children
    children = _tree.children
    modules = _tree.modules

    # --- modes and gradients ---------------------------------------------------

    def train(self, mode=True):
        """Set ``training`` on this module and every descendant (BatchNorm reads it)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Drop every parameter's ``.grad`` (or, with ``set_to_none=False``, zero it in place):
        ``Optimizer.zero_grad`` run on one parameter group, this module's parameters (so a learner's
        zero_grad, switched in, serves both)."""
        Optimizer.zero_grad(SimpleNamespace(param_groups=[{"params": self.parameters()}]), set_to_none)

    # --- saving, loading and converting (see state_dict.py and conversion.py) ---

    state_dict = _state_dict.state_dict
    _save_to_state_dict = _state_dict.save_to_state_dict
    load_state_dict = _state_dict.load_state_dict
    _load_from_state_dict = _state_dict.load_from_state_dict

    _apply = _conversion.apply
    to = _conversion.to
    to_empty = _conversion.to_empty
    float = _conversion.float
    double = _conversion.double
    half = _conversion.half
    cuda = _conversion.cuda
    cpu = _conversion.cpu
    type = _conversion.type  # noqa: A003 - torch's name

    # --- printing --------------------------------------------------------------

    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n") if self.extra_repr() else []
        child_lines = [f"({name}): " + _addindent(repr(module), 2) for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


def _check_name(module, kind, name, table):
    """torch's checks on a parameter or buffer name, in its order."""
    if table is None:
        raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain "."')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if hasattr(module, name) and name not in table:
        raise KeyError(f"attribute '{name}' already exists")


def _remove_from(name, *tables):
    for table in tables:
        if table is not None and name in table:
            if isinstance(table, dict):
                del table[name]
            else:
                table.discard(name)


def _addindent(text, spaces):
    """Indent every line but the first (a child's repr inside its parent's)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join((spaces * " ") + line if line.strip() else "" for line in lines[1:])
