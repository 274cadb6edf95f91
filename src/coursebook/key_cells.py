"""``%%key`` cells: run now on torch, replayed at the end on torch *and* reftorch.

A chapter marks the cells that carry its claims with ``%%key`` on the first
line.  Such a cell runs as usual in the notebook (with ``torch`` being the real
torch) and its source is remembered.  The chapter's last cell calls
``cross_check_key_cells()``, which replays every key cell, in order, as one
program on real torch and as the same program on reftorch, and compares what
they print, the warnings, the exception, and every tensor they leave behind
(see :mod:`crosscheck.harness`).  A difference is displayed and raises, so a
chapter whose reftorch has drifted from torch fails to execute.

Key cells use only ``torch`` (and ``copy``), print comparisons rather than
addresses or ``id()`` numbers, and catch the exceptions they demonstrate.
"""

from __future__ import annotations

from coursebook.cross_check import cross_check

__all__ = ["key_cell", "cross_check_key_cells", "recorded_key_cells", "load_ipython_extension"]

_recorded: list[str] = []


def recorded_key_cells() -> list[str]:
    return list(_recorded)


def key_cell(line: str, cell: str):
    """The ``%%key`` cell magic: run the cell in the notebook, remember its source."""
    from IPython import get_ipython

    shell = get_ipython()
    if cell not in _recorded:  # re-running a cell must not record it twice
        _recorded.append(cell)
    result = shell.run_cell(cell, store_history=False)
    if result.error_in_exec is not None:
        # the traceback is already shown; stop "Run all" here as a normal cell would
        raise result.error_in_exec


def cross_check_key_cells(title: str = "the key cells of this chapter"):
    """Replay all ``%%key`` cells on torch and on reftorch; display and compare."""
    if not _recorded:
        raise RuntimeError("no %%key cell has run in this kernel yet: run the chapter from the top")
    program = "\n\n".join(_recorded)
    return cross_check(program, title=title)


def load_ipython_extension(shell):
    shell.register_magic_function(key_cell, magic_kind="cell", magic_name="key")
