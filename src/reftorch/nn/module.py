"""nn.Module: a container that finds its parameters by attribute name.

Assigning a ``Parameter`` or a ``Module`` to an attribute registers it, so
``parameters()``, ``named_parameters()`` and ``state_dict()`` can list them.

``state_dict()`` is *not* a copy: its tensors are ``param.detach()``, new
tensor objects on the parameters' own storage (and version counter). Save one,
train, and the "saved" numbers have changed too. ``copy.deepcopy(model)`` or
``{k: v.clone() for k, v in model.state_dict().items()}`` keeps a snapshot.
``load_state_dict`` copies numbers *into* the existing parameters (``copy_``
under ``no_grad``): the parameter objects stay the same.
"""

from collections import OrderedDict

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .parameter import Parameter


class Module:
    def __init__(self):
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        else:
            self._parameters.pop(name, None)
            self._modules.pop(name, None)
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        for table in ("_parameters", "_modules"):
            entries = self.__dict__.get(table, {})
            if name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def register_parameter(self, name, param):
        if param is None:
            self._parameters[name] = None
        else:
            setattr(self, name, param)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def named_parameters(self, prefix=""):
        for name, param in self._parameters.items():
            if param is not None:
                yield prefix + name, param
        for name, module in self._modules.items():
            yield from module.named_parameters(prefix + name + ".")

    def parameters(self):
        for _, param in self.named_parameters():
            yield param

    def children(self):
        return iter(self._modules.values())

    def zero_grad(self, set_to_none=True):
        for param in self.parameters():
            if set_to_none:
                param.grad = None
            elif param.grad is not None:
                param.grad.zero_()

    def train(self, mode=True):
        self.training = mode
        for module in self._modules.values():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def state_dict(self, prefix="", keep_vars=False):
        """Name -> tensor. The tensors are detached aliases of the parameters, not copies."""
        result = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                result[prefix + name] = param if keep_vars else param.detach()
        for name, module in self._modules.items():
            result.update(module.state_dict(prefix + name + ".", keep_vars))
        return result

    def load_state_dict(self, state_dict, strict=True):
        """Copy numbers into the existing parameters, in place."""
        own = dict(self.named_parameters())
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            parts = []
            if unexpected:
                parts.append("Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                parts.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(parts)
            )
        with no_grad():
            for name, value in state_dict.items():
                if name in own:
                    if not isinstance(value, Tensor) or value.shape != own[name].shape:
                        raise RuntimeError(
                            f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                            f"size mismatch for {name}: copying a param with shape {value.shape} from "
                            f"checkpoint, the shape in current model is {own[name].shape}."
                        )
                    own[name].copy_(value)
        return _IncompatibleKeys(missing, unexpected)

    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = [f"  ({name}): " + repr(m).replace("\n", "\n  ") for name, m in self._modules.items()]
        if not lines:
            return f"{type(self).__name__}({self.extra_repr()})"
        return f"{type(self).__name__}(\n" + "\n".join(lines) + "\n)"

    def __dir__(self):
        return list(super().__dir__()) + list(self._parameters) + list(self._modules)


class _IncompatibleKeys:
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys, self.unexpected_keys = missing_keys, unexpected_keys

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"
