"""Grad mode: a global switch that says whether operations record history.

Inside ``no_grad()`` results get no ``grad_fn`` and ``requires_grad=False``, whatever
their inputs: ``clone()`` gives a plain leaf, and optimisers may write into leaves.
"""

import functools

from .. import _core_messages

_enabled = True


def is_grad_enabled():
    """True unless inside ``no_grad`` (or after ``set_grad_enabled(False)``)."""
    return _enabled


def _set_enabled(mode):
    global _enabled
    _enabled = bool(mode)


class _GradModeContext:
    """Set grad mode on entry, restore it on exit; also a decorator."""

    mode = True

    def __new__(cls, func=None):
        """``@no_grad`` without parentheses: ``func`` is the function, decorated at once, as in torch."""
        return super().__new__(cls) if func is None else cls()(func)

    def __enter__(self):
        self._previous = is_grad_enabled()
        _set_enabled(self.mode)

    def __exit__(self, *exc):
        _set_enabled(self._previous)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with type(self)():
                return func(*args, **kwargs)

        return wrapper


class no_grad(_GradModeContext):
    """Record no history inside this block."""

    mode = False


class enable_grad(_GradModeContext):
    """Record history inside this block, even within ``no_grad`` (the base class's ``mode``)."""


class set_grad_enabled(_GradModeContext):
    """``set_grad_enabled(False)`` switches at once, and restores on ``with`` exit."""

    def __new__(cls, *args, **kwargs):  # a mode, never a function; ``__init__`` reads it
        return object.__new__(cls)

    def __init__(self, mode):
        if not isinstance(mode, bool):  # torch's binding takes a bool, nothing read as one
            raise TypeError(_core_messages.GRAD_MODE_NOT_BOOL.format(_core_messages.type_name(mode)))
        self.mode = mode
        self._previous = is_grad_enabled()
        _set_enabled(self.mode)

    def __enter__(self):
        pass

    def __call__(self, func):
        _set_enabled(self._previous)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(self.mode):
                return func(*args, **kwargs)

        return wrapper
