"""state_dict and load_state_dict: a model's numbers by name, out and back in.

``state_dict()`` is *not* a copy. It is an ``OrderedDict`` from dotted name to
``param.detach()`` (and ``buffer.detach()`` for persistent buffers): new tensor
objects on the parameters' own storage and version counter, without
``requires_grad``. Save one, train, and the "saved" numbers have changed too.
``copy.deepcopy(model.state_dict())`` or ``{k: v.clone() ...}`` keeps a snapshot.
The dict also carries ``_metadata``: each module's format version.

``load_state_dict(sd)`` copies numbers *into* the existing tensors, with
``copy_`` under ``no_grad``: every parameter stays the same Python object on
the same storage, and its version counter goes up by one. Nothing in the model
shares memory with ``sd`` afterwards. A parameter on the ``meta`` device has no
memory, so the copy writes nothing, and torch warns that ``assign=True`` was
probably meant.

``load_state_dict(sd, assign=True)`` does the opposite: it *replaces* each
parameter by a new ``Parameter`` built on the tensor from ``sd`` (same storage
as ``sd``'s tensor, ``requires_grad`` taken from the old parameter), and each
buffer by the tensor itself. Optimizers built earlier still hold the old
parameters.

With ``strict=True`` (the default), names the model has but ``sd`` lacks are
"missing", names ``sd`` has but the model lacks are "unexpected", and either
is an error. With ``strict=False`` they are only reported, in the returned
``_IncompatibleKeys`` named tuple.
"""

import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from .. import _messages
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .parameter import Parameter
from .._overrides import overridable
from .._warn import warn


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


# --- saving ---------------------------------------------------------------------


def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
    """Name -> detached alias of each parameter and persistent buffer (not copies)."""
    if args:
        warn(_messages.STATE_DICT_POSITIONAL, FutureWarning)
        destination = args[0] if destination is None else destination
        prefix = args[1] if len(args) > 1 and prefix == "" else prefix
        keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = {"version": self._version}
    self._save_to_state_dict(destination, prefix, keep_vars)
    for name, module in self._modules.items():
        if module is not None:
            module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
    return destination
state_dict = overridable(state_dict)


def save_to_state_dict(self, destination, prefix, keep_vars):
    """This module's own entries: ``detach()`` shares storage and version counter."""
    for name, param in self._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach()
    for name, buf in self._buffers.items():
        if buf is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = buf if keep_vars else buf.detach()
save_to_state_dict = overridable(save_to_state_dict)


# --- loading --------------------------------------------------------------------


def load_state_dict(self, state_dict, strict=True, assign=False):
    """Copy (or with ``assign=True``, place) the tensors of ``state_dict`` into the model."""
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing_keys, unexpected_keys, error_msgs = [], [], []
    metadata = getattr(state_dict, "_metadata", None)
    state_dict = OrderedDict(state_dict)

    def load(module, local_state_dict, prefix=""):
        local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
        local_metadata["assign_to_params_buffers"] = assign
        module._load_from_state_dict(
            local_state_dict, prefix, local_metadata, True, missing_keys, unexpected_keys, error_msgs
        )
        for name, child in module._modules.items():
            if child is not None:
                child_prefix = prefix + name + "."
                load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}, child_prefix)

    load(self, state_dict)
    if strict:
        if unexpected_keys:
            error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected_keys)))
        if missing_keys:
            error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing_keys)))
    if error_msgs:
        raise RuntimeError(
            "Error(s) in loading state_dict for {}:\n\t{}".format(type(self).__name__, "\n\t".join(error_msgs))
        )
    return _IncompatibleKeys(missing_keys, unexpected_keys)
load_state_dict = overridable(load_state_dict)


def load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    """Load this module's own parameters and persistent buffers; note what does not fit."""
    persistent_buffers = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
    local_state = {k: v for k, v in list(self._parameters.items()) + list(persistent_buffers.items()) if v is not None}
    assign = local_metadata.get("assign_to_params_buffers", False)
    for name, param in local_state.items():
        key = prefix + name
        if key not in state_dict:
            if strict:
                missing_keys.append(key)
            continue
        input_param = state_dict[key]
        if not isinstance(input_param, Tensor):
            error_msgs.append(
                _messages.LOAD_STATE_DICT_NOT_TENSOR.format(key=key, type=type(input_param))
            )
            continue
        if len(param.shape) == 0 and len(input_param.shape) == 1 and input_param.shape[0] == 1:
            input_param = input_param[0]  # an old checkpoint's 1-element tensor for a 0-d one
        if input_param.shape != param.shape:
            error_msgs.append(
                _messages.LOAD_STATE_DICT_SIZE.format(key=key, got=input_param.shape, expected=param.shape)
            )
            continue
        try:
            with no_grad():
                if assign:
                    _assign(self, name, param, input_param)
                else:
                    if param.device.type == "meta" and input_param.device.type != "meta":
                        # a meta parameter has no memory: the copy_ below writes nothing (but counts)
                        warnings.warn(_messages.LOAD_STATE_DICT_INTO_META.format(key=key), stacklevel=2)
                    param.copy_(input_param)  # same object, same storage, version + 1
        except Exception as ex:  # noqa: BLE001 - torch reports it with the others
            error_msgs.append(
                _messages.LOAD_STATE_DICT_COPY_FAILED.format(
                    key=key, model=param.size(), checkpoint=input_param.size(), args=ex.args
                )
            )
    if strict and prefix + "_extra_state" in state_dict:
        unexpected_keys.append(prefix + "_extra_state")  # no reftorch module keeps extra state
    if strict:
        for key in state_dict:
            if key.startswith(prefix) and key != prefix + "_extra_state":
                first, *rest = key[len(prefix):].split(".", 1)
                if (rest and first not in self._modules) or (not rest and first not in local_state):
                    unexpected_keys.append(key)


def _assign(module, name, param, input_param):
    """``assign=True``: the module's attribute becomes the checkpoint's tensor.

    A parameter is replaced by a Parameter on the checkpoint tensor's storage
    (the tensor itself if it already is a Parameter), taking the old
    parameter's ``requires_grad``.
    """
    if isinstance(param, Parameter):
        if isinstance(input_param, Parameter):
            input_param.requires_grad_(param.requires_grad)
        else:
            input_param = Parameter(input_param, requires_grad=param.requires_grad)
    setattr(module, name, input_param)
_assign = overridable(_assign)
