"""Your piece: a function marked ``f = overridable(f)`` runs the replacement ``_YOURS`` holds
under its qualified name (``reftorch.overrides`` sets one), else its own."""

import functools

_OVERRIDABLE = {}  # "reftorch._strides.contiguous_strides" -> the marked function
_YOURS = {}  # qualified name -> the function that runs in its place


def qualified_name(fn):
    return f"{fn.__module__}.{fn.__qualname__}"


def overridable(fn):
    """``fn``, marked: a call runs the replacement named like ``fn``, if any, else ``fn``."""
    name = qualified_name(fn)

    @functools.wraps(fn)
    def yours_or_ours(*args, **kwargs):
        return _YOURS.get(name, fn)(*args, **kwargs)

    _OVERRIDABLE[name] = yours_or_ours
    return yours_or_ours
