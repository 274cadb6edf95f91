"""``%%answer`` cells: the answer to a prediction that no key cell prints, held back until asked for.

Most "Predict the output" questions are answered by the ``%%key`` cell below
them, whose printout waits for the prediction widget (:mod:`coursebook.key_cells`).
A few are answered by a cell that is not replayed on reftorch: a memory
diagram, a timing, a file format or a worker process that reftorch does not
have. Such a cell starts with ``%%answer``. It runs at once (Run All keeps
going, and a later cell can use what it made), but its output is held back
behind a button until the learner has written their prediction down and asks
for it. An error is no answer to hide: it is shown at once, and stops Run All.

In the browser's copy of the course (Pyodide), where reftorch stands in for
torch, a cell that only torch can run says so and where to see it, and Run All
goes on.

When every answer is shown at once (``COURSEBOOK_PREDICTIONS=shown``, the
static book), the cell is a plain cell.
"""

from __future__ import annotations

import os

from coursebook.in_the_browser import quiet_errors
from coursebook.language import _

__all__ = ["answer_cell"]

SHOW_ENV = "COURSEBOOK_PREDICTIONS"


def _held_box():
    import ipywidgets as widgets

    class HeldAnswer(widgets.VBox):
        """The button and, once clicked, the output; where widgets do not show (a plain notebook
        run) its text says so and gives nothing away."""

        def __repr__(self):
            # ipywidgets cuts a widget's text at 110 characters
            return _("Held back: the answer to the prediction above. Click Show it once you have made "
                     "your prediction.")

    return widgets, HeldAnswer


def answer_cell(line: str, cell: str):
    """The ``%%answer`` cell magic: run the cell now, show its output when the learner asks."""
    from IPython import get_ipython
    from IPython.display import display
    from IPython.utils.capture import capture_output

    shell = get_ipython()
    if os.environ.get(SHOW_ENV) == "shown":
        result = shell.run_cell(cell, store_history=False)
    else:
        # reftorch may not run a torch-only answer: in the browser, say so below instead of a traceback
        with quiet_errors(shell, (Exception,), lambda *args, **kwargs: None) as quiet, \
                capture_output(display=True) as output:
            result = shell.run_cell(cell, store_history=False)
        if result.error_in_exec is not None and quiet:   # no traceback was shown: say why
            print(_("This answer is torch's own, and torch cannot run in the browser: reftorch, which "
                    "stands in for it here, stops at {0}: {1}. Open the chapter on Binder or with "
                    "make lab to see it.").format(type(result.error_in_exec).__name__, result.error_in_exec))
            return
        if result.error_in_exec is not None:
            output.show()
        else:
            widgets, HeldAnswer = _held_box()
            show = widgets.Button(description=_("Show it"))
            show.add_class("coursebook-answer-show")
            shown = widgets.Output()
            shown.add_class("coursebook-answer-output")

            def on_show(_button):
                show.disabled = True
                with shown:
                    output.show()

            show.on_click(on_show)
            display(HeldAnswer([widgets.Label(_("Made your prediction? The answer:")), show, shown]))
    if result.error_in_exec is not None:
        raise result.error_in_exec
