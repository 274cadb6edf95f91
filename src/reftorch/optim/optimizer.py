"""Optimizer: parameter groups, per-parameter state, and their state_dict.

An optimizer holds the *Parameter objects themselves* (not copies) in
``param_groups``, a list of dicts such as ``{"params": [w, b], "lr": 0.1, ...}``.
``step()`` writes into those parameters in place, under ``no_grad``: same
objects, same storage, version counter + 1 per update.

``state`` maps each Parameter to a dict of tensors the method keeps between
steps (SGD's ``momentum_buffer``, Adam's ``exp_avg`` ...), made at the first
step that sees a gradient.

``state_dict()`` replaces the Parameters by their position numbers (0, 1, ...
across all groups), so it can be loaded into another optimizer over other
parameters. It copies no tensor: ``state_dict()["state"][0]`` *is*
``optimizer.state[p]`` (the same dict object), so its momentum buffers are the
live ones and keep changing while training goes on. ``load_state_dict(sd)``
does not copy either: tensors of the right dtype and device are put into the
optimizer's state as they are, so the optimizer then updates the tensors of
``sd`` in place. ``copy.deepcopy`` gives an independent snapshot.
"""

import warnings
from collections import defaultdict
from copy import deepcopy
from itertools import chain

from .. import _messages
from .._tensor import Tensor
from .._typename import typename
from ..autograd.grad_mode import enable_grad, no_grad
from .._overrides import overridable


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError(
                _messages.OPTIMIZER_PARAMS_TYPE.format(typename(params))
            )
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group):
        """Check one group, fill in the defaults it does not set, and append it."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(_messages.OPTIMIZER_SET_OF_PARAMS)
        params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]  # from named_parameters()
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError(_messages.OPTIMIZER_PARAM_NAMES)
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError(_messages.OPTIMIZER_NOT_TENSOR.format(typename(param)))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn(_messages.OPTIMIZER_DUPLICATE_PARAMS, UserWarning, stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    _messages.OPTIMIZER_GROUP_NAMES.format(which)
                )
        if seen & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)
    add_param_group = overridable(add_param_group)

    def zero_grad(self, set_to_none=True):
        """Drop each parameter's ``.grad`` (or zero it in place: same tensor, version + 1)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()
    zero_grad = overridable(zero_grad)

    def step(self, closure=None):
        """One update of every parameter that has a gradient, under ``no_grad``:
        the optimizer writes into the Parameters in place (their versions move).
        ``closure`` re-computes the loss with grad enabled, and its result is returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                self._update_group(group)
        return loss
    step = overridable(step)

    def _update_group(self, group):
        """Update each parameter of ``group`` that has a gradient, one after the other."""
        for param in group["params"]:
            if param.grad is not None:
                self._update(param, group)

    def _update(self, param, group):
        """The update rule of one parameter; each optimizer has its own."""
        raise NotImplementedError

    # --- state_dict ---------------------------------------------------------------

    def state_dict(self):
        """``{"state": {index: per-parameter dict}, "param_groups": [...]}``: no tensor is copied."""
        index_of = {}
        start = 0

        def pack_group(group):
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            index_of.update({id(p): i for i, p in enumerate(group["params"], start) if id(p) not in index_of})
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(index_of[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        """Take the groups' settings and the per-parameter state of ``state_dict``.

        Tensors are cast to the parameter's dtype and device only when they
        differ; otherwise the very tensor of ``state_dict`` becomes the state.
        """
        state_dict = state_dict.copy()
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                _messages.OPTIMIZER_GROUP_SIZE
            )
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))
        state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                param = id_map[key]
                state[param] = _cast(param, value)
            else:
                state[key] = value

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        self.__setstate__({"state": state, "param_groups": [update_group(g, s) for g, s in zip(groups, saved_groups)]})

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _cast(param, value, key=None):
    """A loaded state entry for ``param``: tensors moved to its dtype and device
    (a no-op, returning the same tensor, when they match); ``step`` as it is."""
    if isinstance(value, Tensor):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast(param, v, key=k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v) for v in value)
    return value


def check_supported(name, **flags):
    """reftorch implements torch's single-tensor step only (the one torch runs on a CPU)."""
    for flag, value in flags.items():
        if value:
            raise NotImplementedError(_messages.OPTIMIZER_UNSUPPORTED.format(optimizer=name, flag=flag))
