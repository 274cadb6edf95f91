"""Where a prediction's answer shows before the learner has answered (issue 36).

A prediction is a markdown cell that says **Predict the output** and keeps its
answer in a ``<details>`` toggle. Its answer text is what the learner must not
read before predicting:

* for a question answered by a ``%%key`` cell, torch's printout of that cell,
  one printed value at a time (a tensor's rows stay together);
* for the others (a diagram, a timing, a worker process), the printouts quoted
  in the answer toggle (its code blocks and code spans).

A value gives the answer away unless it is trivial: only True, False and None,
or a few characters of numbers (``1 1 0``) that any guess could hit.

On top of the values, the *claims*: a name the answer prints that the
question's code does not contain (``AccumulateGrad``, ``CloneBackward0``,
``torch.float64``) gives it away when the question's own section (from its
heading down to the question, the question's lead-in included) says it.

Everything folded (``<details>``) is out of view, and a cell's hidden output
(the held-back key cell, the ``%%answer`` cell) shows only its button; the rest
is in plain view.
"""

from __future__ import annotations

import functools
import html as html_module
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from coursebook.cross_check import printed_values
from coursebook.predict.diagnose import right_answer
from coursebook.predict.questions import KEY, PROMPT, question_of_cell

TRIVIAL_WORDS = re.compile(r"\b(True|False|None)\b")
DETAILS = re.compile(r"<details\b.*?</details>", re.S | re.I)
# names that say nothing by themselves: every printout of a tensor has them
COMMON_NAMES = {"tensor", "torch", "requires_grad", "grad_fn", "Parameter", "RuntimeError", "TypeError",
                "True", "False", "None", "containing", "float32"}


def squash(text: str) -> str:
    """Text as compared: no markdown code marks, space runs as one space."""
    return re.sub(r"\s+", " ", text.replace("`", "")).strip()


def distinctive(value: str) -> bool:
    text = squash(value)
    rest = TRIVIAL_WORDS.sub("", text)
    if not re.search(r"[^\s,()\[\]]", rest):  # booleans and None only
        return False
    if not re.search(r"[A-Za-z]", rest) and len(rest.replace(" ", "")) < 6:  # "1 1 0", "(None, 0)"
        return False
    return text not in ("Parameter containing:",)


@dataclass
class Prediction:
    notebook: Path
    index: int            # the markdown cell's position
    cell_id: str
    lead_in: str          # the cell's text before its answer toggle
    program: str          # the code the question shows
    values: list          # the distinctive answer values
    names: list           # the distinctive names in them, not in the program
    key_cell: int | None  # the position of the key cell that answers it, if any

    @property
    def label(self) -> str:
        return f"{self.notebook.name[:2]}-{self.cell_id}"


def question_code(cell_source: str) -> str:
    """The code a prediction cell shows above its answer toggles."""
    return _program(cell_source.split("<details", 1)[0])


def _program(cell_source: str) -> str:
    return "\n".join(re.findall(r"```python\n(.*?)```", cell_source, re.S))


def _quoted_answers(cell_source: str) -> list[str]:
    """The printouts an answer toggle quotes: its code blocks and code spans."""
    inside = "\n".join(m.group(0) for m in DETAILS.finditer(cell_source))
    blocks = re.findall(r"```[a-z]*\n(.*?)```", inside, re.S)
    inside = re.sub(r"```.*?```", " ", inside, flags=re.S)
    # a printout, not a name (`S1`, `load_model`): it has brackets, quotes or spaces
    spans = [s for s in re.findall(r"`([^`\n]+)`", inside) if len(s) >= 8 and re.search(r"[\[\]()'\" ]", s)]
    return blocks + spans


def _names(values, program: str) -> list[str]:
    found = []
    for value in values:
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]", value):
            camel = re.search(r"[a-z][A-Z]", name) or re.search(r"[A-Za-z]\d", name)
            if camel and name not in COMMON_NAMES and name not in program and name not in found:
                found.append(name)
    return found


def predictions(path: Path, notebook=None) -> list[Prediction]:
    nb = notebook if notebook is not None else nbformat.read(str(path), as_version=4)
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown" or PROMPT not in cell.source or "<details" not in cell.source:
            continue
        program = _program(cell.source.split("<details", 1)[0])
        after = next((j for j in range(i + 1, len(nb.cells)) if nb.cells[j].cell_type == "code"), None)
        key = None
        values = []
        if after is not None and nb.cells[after].source.startswith(KEY):
            asked = question_of_cell(nb.cells[after].source.split("\n", 1)[1])
            if asked is not None:
                key, values = after, printed_values(right_answer(asked))
        if key is None:
            values = _quoted_answers(cell.source)
        values = [v for v in dict.fromkeys(v.strip() for v in values) if distinctive(v)]
        values = [v for v in values if squash(v) not in squash(program)]
        found.append(Prediction(path, i, cell.get("id", ""), cell.source.split("<details", 1)[0], program,
                                values, _names(values, program), key))
    return found


def _section(nb, index: int, lead_in: str) -> str:
    """The question's own section: from the heading above it (or the previous question) down to
    the question's lead-in, answer toggles left out."""
    parts = [lead_in]
    for cell in reversed(nb.cells[:index]):
        if cell.cell_type != "markdown":
            continue
        text = DETAILS.sub(" ", cell.source)
        if PROMPT in cell.source:
            break
        headings = [m.start() for m in re.finditer(r"^#+ ", text, re.M)]
        if headings:
            parts.append(text[headings[-1]:])
            break
        parts.append(text)
    return "\n".join(reversed(parts))


def above(prediction: Prediction, nb) -> list[str]:
    """What gives this prediction's answer away in the cells above it (their sources)."""
    text = [DETAILS.sub(" ", c.source) for c in nb.cells[:prediction.index]] + [prediction.lead_in]
    seen = squash("\n".join(text))
    problems = [f"its answer {v!r} is written above it" for v in prediction.values if squash(v) in seen]
    section = _section(nb, prediction.index, prediction.lead_in)
    problems += [f"its section says {name!r}, which its answer prints" for name in prediction.names
                 if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", section)]
    return problems


def shown_text(output) -> str:
    """What an output shows in plain view (its folded parts left out)."""
    if output.get("output_type") == "stream":
        return output.get("text", "")
    data = output.get("data", {})
    if output.get("output_type") == "error":
        return "\n".join([output.get("ename", ""), output.get("evalue", "")])
    if "text/html" in data:
        shown = DETAILS.sub(" ", data["text/html"])
        shown = re.sub(r"<(script|style)\b.*?</\1>", " ", shown, flags=re.S | re.I)
        return html_module.unescape(re.sub(r"<[^>]+>", " ", shown))
    if "text/markdown" in data:
        return DETAILS.sub(" ", data["text/markdown"])
    return data.get("text/plain", "")


def _starts_a_section(cell) -> bool:
    return cell.cell_type == "markdown" and (re.search(r"^#+ ", cell.source, re.M) is not None
                                            or PROMPT in cell.source)


def in_outputs(prediction: Prediction, executed) -> list[str]:
    """What gives this prediction's answer away in the outputs of a Run All with nothing answered:
    the outputs in plain view from its section's start (the heading above it, or the prediction
    before it) down to the next section. Above the question, a key cell prints the state the
    question starts from, which an "unchanged" answer repeats (the weight that a step then leaves
    as it was): there only the other cells count (a diagram, a timing, a demonstration). Earlier
    sections come before the question's set-up, later ones after its answer."""
    cells = executed.cells
    start = next((i for i in range(prediction.index - 1, -1, -1) if _starts_a_section(cells[i])), 0)
    end = next((i for i in range(prediction.index + 1, len(cells)) if _starts_a_section(cells[i])), len(cells))
    problems = []
    for position in range(start, end):
        cell = cells[position]
        if cell.cell_type != "code" or (position < prediction.index and cell.source.startswith(KEY)):
            continue
        shown = squash("\n".join(shown_text(o) for o in cell.get("outputs", [])))
        for value in prediction.values:
            if squash(value) in shown:
                where = "above" if position < prediction.index else "below"
                problems.append(f"cell {position} ({where} it) prints its answer {value!r} in plain view")
    return problems


def held_back(prediction: Prediction, nb) -> list[str]:
    """A prediction that no key cell answers needs a ``%%answer`` cell below it (before the next
    section): otherwise the cell that answers it (a diagram, a timing) shows its output at once."""
    if prediction.key_cell is not None:
        return []
    cells = nb.cells
    end = next((i for i in range(prediction.index + 1, len(cells)) if _starts_a_section(cells[i])), len(cells))
    if any(c.cell_type == "code" and c.source.startswith("%%answer") for c in cells[prediction.index + 1:end]):
        return []
    return ["no key cell and no %%answer cell below it holds its answer back"]


def _page_text(html_text: str) -> str:
    """A page's text in plain view, without any white space: a highlighter's spans may split a
    line of code anywhere, and a renderer may reflow text, so only the characters are compared."""
    shown = DETAILS.sub(" ", html_text)
    shown = re.sub(r"<(script|style)\b.*?</\1>", " ", shown, flags=re.S | re.I)
    return re.sub(r"\s+", "", html_module.unescape(re.sub(r"<[^>]+>", "", shown)))


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text.replace("`", ""))


@functools.cache
def _torch_printouts(key_cells: tuple) -> list:
    """What each of a chapter's key cells prints on torch, run once for all its predictions (and for
    a chapter of another language whose key cells are the same)."""
    from coursebook.predict.questions import printouts
    from crosscheck.harness import load_torch

    return printouts(list(key_cells), load_torch())


def set_up_printouts(prediction: Prediction, nb) -> set:
    """What the key cells of the prediction's section print above it: the state it starts from,
    which a page that prints every cell (the book) shows, and an "unchanged" answer repeats."""
    keys = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.startswith(KEY + "\n")]
    if not keys:
        return set()
    printed = _torch_printouts(tuple(nb.cells[i].source.split("\n", 1)[1] for i in keys))
    start = next((i for i in range(prediction.index - 1, -1, -1) if _starts_a_section(nb.cells[i])), 0)
    return {squash(v) for i, text in zip(keys, printed) if start <= i < prediction.index
            for v in printed_values(text)}


def in_page(predictions_of_page: list, nb, page_html: str) -> list:
    """What a built book page shows of each prediction's answer, unfolded, in the prediction's
    section above it. Any builder: a section starts at a heading (``<h1>`` to ``<h6>``), folded
    parts are ``<details>``, and the prediction is found by the code it shows."""
    problems = []
    sections = [_page_text(part) for part in re.split(r"(?=<h[1-6][\s>])", page_html, flags=re.I)]
    for p in predictions_of_page:
        code = _bare(p.program)
        where = [(i, s.find(code)) for i, s in enumerate(sections) if code and code in s]
        if not where:
            problems.append(f"{p.label}: its question's code is not on the page")
            continue
        section, position = where[0]
        seen = sections[section][:position]
        allowed = {_bare(v) for v in set_up_printouts(p, nb)}
        problems += [f"{p.label}: its answer {v!r} is in plain view above it"
                     for v in p.values if _bare(v) in seen and _bare(v) not in allowed]
    return problems
