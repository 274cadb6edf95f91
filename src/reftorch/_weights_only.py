"""load(weights_only=True): which names a saved file may ask the unpickler to use.

A pickle is a small program: "look up the global ``collections.OrderedDict``,
call it, put these items in it". Loading an untrusted file with plain pickle
therefore runs whatever functions the file names. Since torch 2.6,
``torch.load`` checks each name first and refuses the file (with
``pickle.UnpicklingError``) at the first name that is not on its list:
tensors, Parameters, dtypes, ``torch.Size``, ``torch.device``, and a few
plain Python types. A whole saved model, a numpy array or a ``slice`` is
refused before anything is built; ``weights_only=False`` (trusted files only)
or ``add_safe_globals([...])`` lets them through.

Nothing here touches tensors or memory: it only says yes or no to names.
"""

import pickle
import re

from . import _messages

# Allowed besides the torch names reftorch can rebuild (_rebuild.TORCH_NAMES).
ALLOWED = {
    "collections.OrderedDict", "collections.Counter",
    "_codecs.encode",  # how protocol 2 pickles bytes
    "builtins.bytearray", "builtins.set", "builtins.complex",
}
# Never allowed, even by add_safe_globals.
BLOCKED_MODULES = ("sys", "os", "posix", "nt")
# Modules whose names torch allows (other dtypes, storage and tensor types,
# quantized and sparse rebuilds): refusing one is a limit of reftorch, not a safety rule.
_TORCH_ALLOWED_MODULES = ("torch", "torch._utils", "torch._tensor", "torch.serialization", "torch.cuda")

_safe_globals = set()


def check_global(module, name, known):
    """Raise torch's UnpicklingError unless the global ``module.name`` may be loaded.

    ``known``: reftorch can rebuild it (a tensor, a dtype ...).
    """
    full_name = f"{module}.{name}"
    if module in BLOCKED_MODULES:
        raise pickle.UnpicklingError(_messages.WEIGHTS_ONLY_BLOCKED_MODULE.format(name=full_name, module=module))
    if known or full_name in ALLOWED or full_name in user_allowed() or module in _TORCH_ALLOWED_MODULES:
        return
    shown = full_name.removeprefix("builtins.")
    raise pickle.UnpicklingError(_messages.WEIGHTS_ONLY_UNSUPPORTED_GLOBAL.format(name=shown))


def load_failed_message(reason):
    """torch's advice around the unpickler's reason (torch.serialization._get_wo_message)."""
    if "was not an allowed global by default" in reason:
        text = _messages.WEIGHTS_ONLY_FAILED_GLOBAL.format(reason=reason)
    elif re.search(r"whose module (\S+) is blocked", reason):
        text = _messages.WEIGHTS_ONLY_FAILED_BLOCKED.format(reason=reason)
    else:
        text = _messages.WEIGHTS_ONLY_FAILED_OTHER.format(reason=reason)
    return text + _messages.WEIGHTS_ONLY_DOCS


# --- the user's own allowlist (torch.serialization.add_safe_globals) -------------

def user_allowed():
    """``{global name: object}`` for what ``add_safe_globals`` allowed.

    An entry is an object, named by its module and qualified name, or an
    ``(object, "module.name")`` pair.
    """
    return {
        entry[1] if isinstance(entry, tuple) else f"{entry.__module__}.{entry.__qualname__}":
        entry[0] if isinstance(entry, tuple) else entry
        for entry in _safe_globals
    }


def add_safe_globals(safe_globals):
    """Let ``load(weights_only=True)`` build these classes and call these functions."""
    _safe_globals.update(safe_globals)


def get_safe_globals():
    return list(_safe_globals)


def clear_safe_globals():
    _safe_globals.clear()


class safe_globals:
    """``with safe_globals([Point]): load(f)``: allowed inside the block only."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        _safe_globals.update(self.safe_globals)

    def __exit__(self, *exc_info):
        _safe_globals.difference_update(self.safe_globals)
