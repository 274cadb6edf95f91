"""Which belief produced a wrong prediction: run the question under every misconception model.

``diagnose(question, answer)`` compares the learner's answer (normalised:
space runs, trailing spaces and blank lines at the ends do not matter) with
what real torch prints. A right answer is accepted. A wrong one is compared
with what reftorch prints under each model of :mod:`coursebook.predict.models`;
every model that prints exactly the learner's answer is named, with its
refutation and the section to reread. When none does, the diagnosis says so
and gives a hint that keeps the answer back (:func:`hint`): which printed line
differs, by its number, and which of the four questions (and the version
counter) to ask again about it. Never torch's line itself: a retry would be
pointless.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, field

from coursebook.language import _
from coursebook.predict.models import MODELS, Model
from coursebook.predict.questions import Question, cut_printouts, key_cells_program, normalise, printouts
from crosscheck.harness import import_reftorch
from crosscheck.recorded import torch_run

__all__ = ["Diagnosis", "diagnose", "right_answer", "model_answers", "hint"]

# as the cross-check's tables: wrapped at spaces only, never inside a word
WRAP = "text-align: left; white-space: pre-wrap; overflow-wrap: normal; word-break: normal; margin: 0"


@functools.lru_cache(maxsize=None)
def _torch_printouts(key_cells: tuple) -> tuple:
    # in the browser: torch's trace recorded when the site was built
    return tuple(cut_printouts(torch_run(key_cells_program(key_cells)), len(key_cells)))


@functools.lru_cache(maxsize=None)
def _model_printouts(key_cells: tuple, name: str) -> tuple:
    model = next(m for m in MODELS if m.name == name)
    with model.active():
        return tuple(printouts(model.program(key_cells), import_reftorch()))


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
            lines += hint(self.question, self.expected, self.answer)
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


# The four questions and the version counter, each with the words of a print() that asks it.
_ASKS = [
    ("object", r"\bis\b|\bid\("),
    ("metadata", r"stride|shape|size\(|dtype|device|storage_offset|is_contiguous"),
    ("memory", r"data_ptr|untyped_storage|shares_memory|_base\b|is_shared|print\(\w+\)"),
    ("history", r"grad_fn|requires_grad|is_leaf|\.grad\b|backward|next_functions|\bnode\b"),
    ("counter", r"_version"),
]


def _ask(name: str) -> str:
    """One of the four questions (or the counter's), in the learner's language."""
    return {"object": _("New Python object?"), "metadata": _("New metadata?"), "memory": _("New memory?"),
            "history": _("History kept?"), "counter": _("Shares the version counter?")}[name]


def _asked_by(question: Question, line: int, lines: int) -> list[str]:
    """The questions the ``line``-th printed line answers, when the program's print() calls can be
    matched to its lines one to one (no loop, one line each); otherwise all five."""
    calls = re.findall(r"^\s*print\((.*)\)\s*$", question.program, flags=re.M)
    looped = re.search(r"^\s*(for|while)\b", question.program, flags=re.M)
    if looped or len(calls) != lines or not 0 <= line < len(calls):
        return [ask for ask, _words in _ASKS]
    return [ask for ask, words in _ASKS if re.search(words, f"print({calls[line]})")] or [a for a, _w in _ASKS]


def hint(question: Question, expected: str, answer: str) -> list[str]:
    """For a wrong answer no model explains: which printed line differs (its number, never torch's
    text) and which questions to ask again about it."""
    want, got = normalise(expected).splitlines(), normalise(answer).splitlines()
    differ = [i for i in range(max(len(want), len(got)))
              if i >= len(want) or i >= len(got) or want[i] != got[i]]
    lines = [_("None of the course's misconception models prints this either.")]
    if len(got) != len(want):
        lines.append(_("torch prints {n} line(s); your answer has {m}.").format(n=len(want), m=len(got)))
    first = differ[0]
    if first < len(want):
        lines.append(_("The first line that differs is line {n}.").format(n=first + 1))
        again = _("Ask again, for what that line prints:")
        asks = _asked_by(question, first, len(want))
    else:  # every line of torch's is there, and more
        again = _("Ask again:")
        asks = [ask for ask, _words in _ASKS]
    lines.append(again + " " + "  ".join(_ask(ask) for ask in asks))
    return lines


def diagnose(question: Question, answer: str) -> Diagnosis:
    expected = right_answer(question)
    if normalise(answer) == normalise(expected):
        return Diagnosis(question, answer, True, expected)
    named = [m for m in MODELS
             if normalise(model_answers(question)[m.name]) == normalise(answer)]
    return Diagnosis(question, answer, False, expected, named)
