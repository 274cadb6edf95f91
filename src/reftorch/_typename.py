"""``torch.typename``: how torch's error messages name the type of a value.

A tensor is named by its legacy type (``torch.FloatTensor``); a class or
function by its qualified name; anything else by its class, prefixed with
the module unless it is a builtin: ``int``, ``collections.OrderedDict``.
"""

from ._tensor import Tensor


def typename(obj):
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    return f"{module}.{qualname}"
