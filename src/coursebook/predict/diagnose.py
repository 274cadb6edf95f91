"""Which belief produced a wrong prediction: run the question under every misconception model.

``diagnose(question, answer)`` compares the learner's answer (normalised:
space runs, trailing spaces and blank lines at the ends do not matter) with
what real torch prints. A right answer is accepted. A wrong one is compared
with what reftorch prints under each model of :mod:`coursebook.predict.models`;
every model that prints exactly the learner's answer is named, with its
refutation and the section to reread. When none does, the diagnosis says so
and shows the lines that differ.
"""

from __future__ import annotations

import difflib
import functools
import html
from dataclasses import dataclass, field

from coursebook.language import _
from coursebook.predict.models import MODELS, Model
from coursebook.predict.questions import Question, normalise, printouts
from crosscheck.harness import import_reftorch, load_torch

__all__ = ["Diagnosis", "diagnose", "right_answer", "model_answers"]

# as the cross-check's tables: wrapped at spaces only, never inside a word
WRAP = "text-align: left; white-space: pre-wrap; overflow-wrap: normal; word-break: normal; margin: 0"


@functools.lru_cache(maxsize=None)
def _torch_printouts(key_cells: tuple) -> tuple:
    return tuple(printouts(key_cells, load_torch()))


@functools.lru_cache(maxsize=None)
def _model_printouts(key_cells: tuple, name: str) -> tuple:
    model = next(m for m in MODELS if m.name == name)
    with model.active():
        return tuple(printouts(key_cells, import_reftorch()))


def right_answer(question: Question) -> str:
    """What torch prints for the question's cell."""
    return _torch_printouts(question.key_cells)[question.index]


def model_answers(question: Question) -> dict[str, str]:
    """{model name: what reftorch prints for the question's cell under that model}."""
    return {m.name: _model_printouts(question.key_cells, m.name)[question.index] for m in MODELS}


@dataclass
class Diagnosis:
    question: Question
    answer: str
    right: bool
    expected: str
    models: list[Model] = field(default_factory=list)  # the beliefs that print the learner's answer

    def text(self) -> str:
        if self.right:
            return _("Right: that is what torch prints.")
        lines = [_("Not what torch prints.")]
        for m in self.models:
            belief = _(m.belief)
            lines += [_("Misconception \u201c{name}\u201d: this is what you would see if {belief}").format(
                          name=_(m.name), belief=belief[0].lower() + belief[1:]),
                      "  " + _("In fact: {refutation}").format(refutation=_(m.refutation)),
                      "  " + _("See {section}.").format(section=m.section)]
        if not self.models:
            lines.append(_("None of the course's misconception models prints this either. The lines that differ:"))
            lines += [line for line in difflib.unified_diff(normalise(self.expected).splitlines(),
                                                           normalise(self.answer).splitlines(),
                                                           "torch", _("your answer"), lineterm="", n=0)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        """The same text, wrapped at spaces only, with the section to reread as a link."""
        shown = html.escape(self.text())
        for m in self.models:
            link = f"<a href='{html.escape(m.section)}'>{html.escape(m.section)}</a>"
            shown = shown.replace(html.escape(_("See {section}.").format(section=m.section)),
                                  html.escape(_("See {section}.")).format(section=link))
        return f"<pre style='{WRAP}'>{shown}</pre>"


def diagnose(question: Question, answer: str) -> Diagnosis:
    expected = right_answer(question)
    if normalise(answer) == normalise(expected):
        return Diagnosis(question, answer, True, expected)
    named = [m for m in MODELS
             if normalise(model_answers(question)[m.name]) == normalise(answer)]
    return Diagnosis(question, answer, False, expected, named)
