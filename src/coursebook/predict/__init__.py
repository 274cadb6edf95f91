"""Predict, then check: the learner types what a program prints and is told which belief a miss
came from.

``answer("08-31f9b92f", "True False ...")`` checks a prediction against what
torch prints and, when it is wrong, names the misconception models that print
exactly that (:mod:`coursebook.predict.diagnose`); ``reveal(...)`` shows the
answer without a prediction. ``predict(question_id)`` is the same as a small
widget: a text box (or, when the printout is too long to type, a choice among
what torch and the misconception models print), Check and Reveal. Each
question's outcome is kept in the learner's progress file: right first time,
right after a retry, or revealed.

The ``%%key`` magic (:mod:`coursebook.key_cells`) shows this widget in place of
the printout of a key cell that answers a question, and shows the printout
once the question is settled.
"""

from __future__ import annotations

from coursebook import sharing
from coursebook.build_it import progress
from coursebook.language import _
from coursebook.predict.diagnose import Diagnosis, diagnose, model_answers, right_answer
from coursebook.predict.questions import normalise, question

__all__ = ["answer", "reveal", "predict", "settled", "choices", "asks_for_a_choice"]

_tries: dict[str, int] = {}  # question id -> wrong answers so far, in this kernel
_LONG = 200  # characters: a printout longer than this (or than 5 lines) is chosen, not typed


def answer(question_id: str, text: str) -> Diagnosis:
    """Check one prediction; record the outcome once the learner gets it right."""
    result = diagnose(question(question_id), text)
    sharing.share_first_answer(result.question, result)  # only with consent, only on a course hub
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


def settled(question_id: str) -> bool:
    """Has the learner answered this question right, or asked to see the answer (any session)?"""
    return question_id in progress.load()["predictions"]


def choices(question_id: str) -> list[str]:
    """torch's printout and every different one a misconception model gives, in a fixed order
    that says nothing about which is right."""
    q = question(question_id)
    found = {normalise(right_answer(q)): right_answer(q)}
    for text in model_answers(q).values():
        found.setdefault(normalise(text), text)
    return [found[key] for key in sorted(found)]


def asks_for_a_choice(question_id: str) -> bool:
    """Typing makes no sense for a long printout (a tensor's rows, a table): choose instead,
    when the misconception models give something to choose from."""
    expected = right_answer(question(question_id))
    if len(expected) <= _LONG and len(expected.strip().splitlines()) <= 5:
        return False
    return len(choices(question_id)) > 1


def _widget_classes():
    import ipywidgets as widgets

    class PredictionBox(widgets.VBox):
        """The prediction widget; where widgets are not shown (a plain notebook run) its text says
        how to answer with functions instead, and never gives the answer away."""

        question_id = ""

        def __repr__(self):
            q = self.question_id
            return _("Predict the output ({q}). Where this box does not show, answer with "
                     "coursebook.predict.answer({answer}, '''...''') or give up with "
                     "coursebook.predict.reveal({answer}); then run the cell again.").format(q=q, answer=repr(q))

    return widgets, PredictionBox


def predict(question_id: str, on_settled=None):
    """A text box (or choices) for the prediction, with Check and Reveal buttons and the verdict
    below. ``on_settled()`` is called once, when the answer is right or revealed."""
    widgets, PredictionBox = _widget_classes()
    choose = asks_for_a_choice(question_id)
    if choose:
        entry = widgets.RadioButtons(options=choices(question_id), value=None,
                                     layout=widgets.Layout(width="100%"))
        entry.add_class("coursebook-predict-choices")
        prompt = _("Predict the output: which of these will the cell print? Choose, then Check.")
    else:
        entry = widgets.Textarea(placeholder=_("Type what this cell will print, then Check."),
                                 layout=widgets.Layout(width="100%", height="6em"))
        entry.add_class("coursebook-predict-answer")
        prompt = _("Predict the output: type what this cell prints, then Check. Reveal shows it.")
    check, give_up = widgets.Button(description=_("Check")), widgets.Button(description=_("Reveal"))
    check.add_class("coursebook-predict-check")
    give_up.add_class("coursebook-predict-reveal")
    verdict = widgets.Output()
    verdict.add_class("coursebook-predict-verdict")
    done = []

    def finish():
        if not done:
            done.append(True)
            check.disabled = give_up.disabled = entry.disabled = True
            if on_settled is not None:
                on_settled()

    def on_check(button):
        verdict.clear_output()
        from IPython.display import display

        with verdict:
            result = answer(question_id, entry.value or "")
            display(result)
        if result.right:
            finish()

    def on_reveal(button):
        verdict.clear_output()
        with verdict:
            expected = reveal(question_id)
            if on_settled is None:
                print(_("torch prints:") + "\n" + expected)
        finish()

    check.on_click(on_check)
    give_up.on_click(on_reveal)
    parts = [widgets.Label(prompt), entry, widgets.HBox([check, give_up]), verdict]
    if sharing.available():  # on a course hub that collects first answers: the switch is right here
        parts.append(sharing.switch())
    box = PredictionBox(parts)
    box.question_id = question_id
    box.add_class("coursebook-predict")
    return box
