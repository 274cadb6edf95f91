"""Predict, then check: the learner types what a program prints and is told which belief a miss
came from.

``answer("08-31f9b92f", "True False ...")`` checks a prediction against what
torch prints and, when it is wrong, names the misconception models that print
exactly that (:mod:`coursebook.predict.diagnose`); ``reveal(...)`` shows the
answer without a prediction. ``predict(question_id)`` is the same as a small
widget: a text box, Check and Reveal. Each question's outcome is kept in the
learner's progress file: right first time, right after a retry, or revealed.
"""

from __future__ import annotations

from coursebook.build_it import progress
from coursebook.predict.diagnose import Diagnosis, diagnose, right_answer
from coursebook.predict.questions import question

__all__ = ["answer", "reveal", "predict"]

_tries: dict[str, int] = {}  # question id -> wrong answers so far, in this kernel


def answer(question_id: str, text: str) -> Diagnosis:
    """Check one prediction; record the outcome once the learner gets it right."""
    result = diagnose(question(question_id), text)
    if result.right:
        tries = _tries.pop(question_id, 0)
        progress.record_prediction(question_id, "right after a retry" if tries else "right first time", tries + 1)
    else:
        _tries[question_id] = _tries.get(question_id, 0) + 1
    return result


def reveal(question_id: str) -> str:
    """torch's answer, given up on: recorded as revealed."""
    progress.record_prediction(question_id, "revealed", _tries.pop(question_id, 0))
    return right_answer(question(question_id))


def predict(question_id: str):
    """A text box for the prediction, with Check and Reveal buttons and the verdict below."""
    import ipywidgets as widgets

    box = widgets.Textarea(placeholder="Type what the cell below will print, then Check.",
                           layout=widgets.Layout(width="100%", height="6em"))
    check, give_up = widgets.Button(description="Check"), widgets.Button(description="Reveal")
    verdict = widgets.Output()

    def on_check(_):
        verdict.clear_output()
        with verdict:
            print(answer(question_id, box.value).text())

    def on_reveal(_):
        verdict.clear_output()
        with verdict:
            print("torch prints:\n" + reveal(question_id))

    check.on_click(on_check)
    give_up.on_click(on_reveal)
    return widgets.VBox([box, widgets.HBox([check, give_up]), verdict])
