"""Run reftorch on someone else's version of one of its functions.

The course's ``use_mine`` switches a learner's piece in here. The functions
that may be replaced are marked where they are defined (``_overrides``), and
the marked function looks up the replacement at each call, so switching is a
change to one table, and switching back removes the entry. Nothing here
touches tensors, memory, the version counter or the graph.

The name follows ``torch.overrides``, whose ``get_overridable_functions``
lists what a ``__torch_function__`` may replace; torch has no per-function
switch like ``override``.
"""

from . import _messages
from ._overrides import _OVERRIDABLE, _YOURS, qualified_name

__all__ = ["get_overridable_functions", "is_overridable", "original", "override", "restore", "overridden"]


def get_overridable_functions():
    """``{qualified name: marked function}`` for every function that may be replaced."""
    return dict(_OVERRIDABLE)


def is_overridable(fn):
    """Is ``fn`` (marked, or the function it marks) one that may be replaced?"""
    return qualified_name(fn) in _OVERRIDABLE


def original(fn):
    """The package's own function behind ``fn`` (``fn`` itself when it is not marked)."""
    if _OVERRIDABLE.get(qualified_name(fn)) is fn:
        return fn.__wrapped__
    return fn


def override(fn, yours):
    """From now on every call of ``fn`` (marked, or the function it marks) runs ``yours``."""
    name = qualified_name(fn)
    if name not in _OVERRIDABLE:
        raise LookupError(_messages.NOT_OVERRIDABLE.format(name))
    _YOURS[name] = yours


def restore(fn):
    """Every call of ``fn`` runs the package's own code again."""
    _YOURS.pop(qualified_name(fn), None)


def overridden():
    """``{qualified name: replacement}`` for every function now replaced."""
    return dict(_YOURS)
