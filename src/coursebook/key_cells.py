"""``%%key`` cells: run now on torch, replayed at the end on torch *and* reftorch.

A chapter marks the cells that carry its claims with ``%%key`` on the first
line.  Such a cell runs as usual in the notebook (with ``torch`` being the real
torch) and its source is remembered.  The chapter's last cell calls
``cross_check_key_cells()``, which replays every key cell, in order, as one
program on real torch and as the same program on reftorch, and compares what
they print, the warnings, the exception, and every tensor they leave behind
(see :mod:`crosscheck.harness`).  A difference is displayed and raises, so a
chapter whose reftorch has drifted from torch fails to execute.

A key cell that answers a "Predict the output" question (see
:mod:`coursebook.predict.questions`) runs with its printout held back: the
learner sees the prediction widget instead, and the printout once the answer
is right or revealed, so "Run all" gives no answer away. Until then the
chapter's closing cross-check keeps its table folded (its rows are the
printouts), and says so. A question settled in an earlier session shows its
printout at once, and so does every question when ``COURSEBOOK_PREDICTIONS``
is ``shown`` (the static book, where nobody can answer; its pages keep the
answer in the question's closed "Answer" toggle anyway).

Key cells use only ``torch`` (and ``copy``), print comparisons rather than
addresses or ``id()`` numbers, and catch the exceptions they demonstrate.
"""

from __future__ import annotations

from coursebook.cross_check import cross_check
from coursebook.language import N_, _

__all__ = ["key_cell", "cross_check_key_cells", "recorded_key_cells", "unsettled_questions", "load_ipython_extension"]

_recorded: list[str] = []


def recorded_key_cells() -> list[str]:
    return list(_recorded)


_unsettled: set[str] = set()  # questions whose printout is held back, in this kernel


def unsettled_questions() -> list[str]:
    """The questions whose key cell ran with its printout held back, not answered yet."""
    return sorted(_unsettled)


def key_cell(line: str, cell: str):
    """The ``%%key`` cell magic: run the cell in the notebook, remember its source; hold back the
    printout of a cell that answers a prediction question until the learner has answered."""
    from IPython import get_ipython

    shell = get_ipython()
    if cell not in _recorded:  # re-running a cell must not record it twice
        _recorded.append(cell)
    asked = _open_question(cell)
    if asked is None:
        result = shell.run_cell(cell, store_history=False)
    else:
        result = _run_held_back(shell, cell, asked)
    if result.error_in_exec is not None:
        # the traceback is already shown; stop "Run all" here as a normal cell would
        raise result.error_in_exec


SHOW_ENV = "COURSEBOOK_PREDICTIONS"  # "shown": every key cell prints at once (the static book)


def _open_question(cell: str):
    """The id of the question this cell answers, if the learner has not settled it yet."""
    import os

    from coursebook.predict import settled
    from coursebook.predict.questions import question_of_cell

    if os.environ.get(SHOW_ENV) == "shown":  # a page nobody can answer on: the book
        return None

    try:
        asked = question_of_cell(cell)
    except Exception:  # the course's notebooks unreadable: behave as a plain key cell
        return None
    if asked is None or settled(asked.id):
        return None
    return asked.id


def _run_held_back(shell, cell: str, question_id: str):
    from IPython.display import display
    from IPython.utils.capture import capture_output

    from coursebook.predict import predict

    with capture_output(display=True) as printout:
        result = shell.run_cell(cell, store_history=False)
    if result.error_in_exec is not None:  # an error is no answer to hide: show all, stop
        printout.show()
        return result
    _unsettled.add(question_id)
    import ipywidgets as widgets

    shown = widgets.Output()
    shown.add_class("coursebook-predict-printout")

    def on_settled():
        _unsettled.discard(question_id)
        with shown:
            printout.show()

    box = predict(question_id, on_settled=on_settled)
    box.children = (*box.children, shown)
    display(box)
    return result


def cross_check_key_cells(title: str = N_("the key cells of this chapter")):
    """Replay all ``%%key`` cells on torch and on reftorch; display and compare."""
    if not _recorded:
        raise RuntimeError(_("no %%key cell has run in this kernel yet: run the chapter from the top"))
    program = "\n\n".join(_recorded)
    return cross_check(program, title=title, folded=len(_unsettled))


def load_ipython_extension(shell):
    from coursebook.answer_cells import answer_cell

    shell.register_magic_function(key_cell, magic_kind="cell", magic_name="key")
    shell.register_magic_function(answer_cell, magic_kind="cell", magic_name="answer")
