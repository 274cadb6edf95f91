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

In the browser's copy of the course (Pyodide) there is no numpy: no build of
it for the browser is published where the site is built from. A key cell that
stops there because numpy cannot be imported shows no traceback: it says, in
one line, that it needs numpy and where to run it, then what torch printed for
it when the site was built (if that was recorded), and Run all goes on; a
question it answers shows the same once answered. The closing cross-check then
leaves such cells out, says so in one line naming them, and compares the rest
with torch's trace of that shorter program, recorded when the site was built
(:mod:`lite.record`). Wherever numpy can be imported, nothing of this happens.
"""

from __future__ import annotations

from coursebook.cross_check import cross_check
from coursebook.in_the_browser import quiet_errors
from coursebook.language import N_, _

__all__ = ["key_cell", "cross_check_key_cells", "recorded_key_cells", "unsettled_questions", "load_ipython_extension"]

_recorded: list[str] = []


def recorded_key_cells() -> list[str]:
    return list(_recorded)


_unsettled: set[str] = set()  # questions whose printout is held back, in this kernel

_without_numpy: dict[str, str] = {}  # in the browser: key cell -> the line where it stopped for want of numpy


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
    _without_numpy.pop(cell, None)
    asked = _open_question(cell)
    # numpy cannot run in the browser: say so below instead of a traceback
    with quiet_errors(shell, (ModuleNotFoundError,), _traceback_unless_numpy) as quiet:
        if asked is None:
            result = shell.run_cell(cell, store_history=False)
        else:
            result = _run_held_back(shell, cell, asked, quiet)
    if quiet and _numpy_missing(result.error_in_exec):
        _without_numpy[cell] = _stopping_line(cell, result.error_in_exec)
        if asked is None:  # a held-back cell says it in its prediction box, once answered
            _say_numpy_is_missing(cell)
        return
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


def _numpy_missing(error) -> bool:
    """Did the cell stop because numpy cannot be imported here?"""
    return isinstance(error, ModuleNotFoundError) and error.name == "numpy"


def _traceback_unless_numpy(shell, etype, value, tb, tb_offset=None):
    """IPython's custom exception handler while a key cell runs in the browser: any other
    ``ModuleNotFoundError`` shows its traceback as usual."""
    if not _numpy_missing(value):
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def _stopping_line(cell: str, error: BaseException) -> str:
    """The cell's line where it stopped (the last frame of the traceback in the cell)."""
    import traceback

    lines = {line.strip() for line in cell.splitlines() if line.strip()}
    inside = [frame.line.strip() for frame in traceback.extract_tb(error.__traceback__)
              if frame.line and frame.line.strip() in lines]
    return inside[-1] if inside else next(iter(line.strip() for line in cell.splitlines() if line.strip()), "")


def _torch_printout(cell: str) -> str | None:
    """What torch printed for this key cell, run after the key cells before it, as recorded when
    the browser's site was built; None if that was not recorded."""
    from coursebook.predict.questions import cut_printouts, key_cells_program
    from crosscheck.recorded import NotRecorded, torch_run

    before = _recorded[:_recorded.index(cell) + 1]
    try:
        trace = torch_run(key_cells_program(before))
    except NotRecorded:
        return None
    return cut_printouts(trace, len(before))[-1]


def _say_numpy_is_missing(cell: str):
    from crosscheck.recorded import recorded_torch_version

    print(_("This cell needs numpy, which has no build for the browser: it stops at {line}. Run the chapter "
            "on Binder or with make lab to see it whole.").format(line=_without_numpy[cell]))
    printout = _torch_printout(cell)
    if printout is not None:
        print(_("What torch {version} printed for this cell when this site was built:").format(
            version=recorded_torch_version()))
        print(printout, end="")


def _run_held_back(shell, cell: str, question_id: str, quiet: bool = False):
    from IPython.display import display
    from IPython.utils.capture import capture_output

    from coursebook.predict import predict

    with capture_output(display=True) as printout:
        result = shell.run_cell(cell, store_history=False)
    stopped = quiet and _numpy_missing(result.error_in_exec)
    if result.error_in_exec is not None and not stopped:  # an error is no answer to hide: show all, stop
        printout.show()
        return result
    if not stopped:  # the closing cross-check leaves a cell that stopped for numpy out
        _unsettled.add(question_id)
    import ipywidgets as widgets

    shown = widgets.Output()
    shown.add_class("coursebook-predict-printout")

    def on_settled():
        _unsettled.discard(question_id)
        with shown:
            if stopped:
                _say_numpy_is_missing(cell)
            else:
                printout.show()

    box = predict(question_id, on_settled=on_settled)
    box.children = (*box.children, shown)
    display(box)
    return result


def cross_check_key_cells(title: str = N_("the key cells of this chapter")):
    """Replay all ``%%key`` cells on torch and on reftorch; display and compare."""
    if not _recorded:
        raise RuntimeError(_("no %%key cell has run in this kernel yet: run the chapter from the top"))
    cells = [cell for cell in _recorded if cell not in _without_numpy]
    if len(cells) < len(_recorded):
        print(_("Left out here: the key cells that stopped for want of numpy, at {lines}. The rest is "
                "compared with torch.").format(lines="; ".join(_without_numpy[c] for c in _recorded
                                                             if c in _without_numpy)))
    return cross_check("\n\n".join(cells), title=title, folded=len(_unsettled))


def load_ipython_extension(shell):
    from coursebook.answer_cells import answer_cell

    shell.register_magic_function(key_cell, magic_kind="cell", magic_name="key")
    shell.register_magic_function(answer_cell, magic_kind="cell", magic_name="answer")
