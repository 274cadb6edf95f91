"""The browser's copy of the course (Pyodide), where reftorch stands in for torch and numpy is absent.

A cell magic that expects some errors there (a torch-only answer, a key cell
that needs numpy) runs its cell with IPython's public custom-exception hook set
to its own handler, so no traceback is published for them, and says instead
what happened. Outside the browser, or when another handler is already set,
nothing changes.
"""

from __future__ import annotations

import contextlib
import sys

__all__ = ["in_the_browser", "quiet_errors"]


def in_the_browser() -> bool:
    """Is this the browser's copy of the course (Pyodide)?"""
    return sys.platform == "emscripten"


@contextlib.contextmanager
def quiet_errors(shell, exceptions: tuple, handler):
    """While the block runs, in the browser only, ``handler`` shows (or not) the ``exceptions``
    a cell raises; yields whether it was set."""
    quiet = in_the_browser() and shell.custom_exceptions == ()
    if quiet:
        shell.set_custom_exc(exceptions, handler)
    try:
        yield quiet
    finally:
        if quiet:
            shell.set_custom_exc((), None)
