"""Build-it cells: the learner writes a piece of reftorch, checks it, and runs on it.

In a chapter, a build-it cell is a stub (signature, docstring, ``raise
NotImplementedError``) named ``my_<piece>``; right below, a check cell::

    check(my_contiguous_strides)

runs it on a battery next to real torch and names the misconception behind
each failing case (:mod:`.check`).  ``reveal(reftorch._strides.contiguous_strides)``
shows the reference, the package's own code, on click (:mod:`.reveal`).
``use_mine(contiguous_strides=my_contiguous_strides)`` runs reftorch on the
learner's piece, ``use_reference()`` switches back (:mod:`.switch`).  Passing
checks are saved in the learner's progress file (:mod:`.progress`), shown by
the index.

The pieces and their batteries are in ``pieces_NN.py``, one module per
chapter (:mod:`.registry`).
"""

from coursebook.build_it.check import Report, check
from coursebook.build_it.progress import progress_table
from coursebook.build_it.registry import Case, Piece, Wrong, piece, pieces, register
from coursebook.build_it.reveal import reveal
from coursebook.build_it.switch import active, use_mine, use_reference

__all__ = [
    "Case", "Piece", "Report", "Wrong", "active", "check", "piece", "pieces",
    "progress_table", "register", "reveal", "use_mine", "use_reference",
]
