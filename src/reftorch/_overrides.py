"""Your piece: the one place where reftorch looks for a function someone else wrote.

A function a learner may replace is marked below its definition
(``f = overridable(f)``): every caller holds the marked function, and each
call runs the replacement ``_YOURS`` holds under ``f``'s qualified name, or
the package's own. ``reftorch.overrides`` fills that table; no module, class
or method table is rewritten. Nothing here touches tensors.
"""

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
