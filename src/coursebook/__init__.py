"""Support code for the chapter notebooks in ``course/``.

* :func:`show_source` shows a piece of reftorch straight from the package.
* ``%load_ext coursebook`` enables ``%%key`` cells; :func:`cross_check_key_cells`
  replays them on real torch and on reftorch and compares.
* :func:`cross_check` does the same for one program given as text.
* :mod:`coursebook.execution` runs notebooks top to bottom (tests, benchmark).
"""

from coursebook.cross_check import CrossCheck, cross_check
from coursebook.key_cells import cross_check_key_cells, load_ipython_extension
from coursebook.source import Source, show_source

__all__ = [
    "CrossCheck",
    "Source",
    "cross_check",
    "cross_check_key_cells",
    "load_ipython_extension",
    "show_source",
]
