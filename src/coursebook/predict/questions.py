"""The chapters' "Predict the output" questions, read from the notebooks, and how to answer them.

A question is a markdown cell that says **Predict the output.**, followed by
the ``%%key`` cell whose printout is the answer. A key cell may use what the
chapter's earlier key cells made (the cross-check replays them as one program
too), so a question's program is every key cell of its chapter, in order, up
to and including its own; its answer is what its own cell prints.

:func:`printouts` runs a chapter's key cells once, on any module bound to
``torch`` (real torch, reftorch, or reftorch under a misconception model), and
cuts the printout at the cell boundaries, so one run answers every question of
the chapter.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from coursebook.translate.comments import comments, replace
from coursebook.translate import docstrings as doc
from crosscheck.harness import run

__all__ = ["Question", "questions", "question", "question_of_cell", "printouts", "normalise"]

# the repository's chapters; a wheel of the package (the browser's, make lite) carries a copy inside
COURSE = Path(__file__).resolve().parents[3] / "course"
if not COURSE.is_dir():
    COURSE = Path(__file__).resolve().parents[1] / "chapters"
PROMPT = "Predict the output"
KEY = "%%key"
_BOUNDARY = "\x1e--- end of key cell %d ---"


@dataclass(frozen=True)
class Question:
    """One prediction: ``id`` is ``<chapter number>-<markdown cell id>`` (``"08-31f9b92f"``)."""

    id: str
    chapter: str        # the notebook's file name
    prompt: str         # the markdown cell
    program: str        # the key cell's code, without its %%key line
    index: int          # which key cell of the chapter it is (0-based)
    key_cells: tuple    # every key cell of the chapter, in order

    @property
    def anchor(self) -> str:
        return f"{self.chapter}#{self.id.split('-', 1)[1]}"


def _key_source(cell: dict) -> str | None:
    if cell["cell_type"] == "code" and cell["source"].startswith(KEY):
        return cell["source"].split("\n", 1)[1] if "\n" in cell["source"] else ""
    return None


def _cells(path: Path) -> list[dict]:
    """The notebook's cells, each source as one string (read as JSON: nbformat is not in the browser)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        if isinstance(cell["source"], list):
            cell["source"] = "".join(cell["source"])
    return cells


def _chapter_questions(path: Path) -> list[Question]:
    cells = _cells(path)
    keys = [source for source in map(_key_source, cells) if source is not None]
    found, key_index, pending = [], -1, None
    for cell in cells:
        source = _key_source(cell)
        if source is not None:
            key_index += 1
            if pending is not None:
                found.append(Question(f"{path.name[:2]}-{pending.get('id')}", path.name, pending["source"],
                                      source, key_index, tuple(keys)))
            pending = None
        elif cell["cell_type"] == "markdown" and PROMPT in cell["source"]:
            pending = cell
        elif cell["cell_type"] == "code":
            pending = None  # the question is answered by some other cell (a diagram, a timing)
    return found


def questions(course: Path = COURSE) -> list[Question]:
    """Every question of the course whose answer is a key cell's printout, chapter by chapter."""
    return [q for path in sorted(course.glob("[0-9][0-9]_*.ipynb")) for q in _chapter_questions(path)]


def question(question_id: str, course: Path = COURSE) -> Question:
    for q in _by_program(course).values():
        if q.id == question_id:
            return q
    raise LookupError(f"no prediction question is called {question_id!r}")


def _code(source: str) -> str:
    """A key cell's code, the words of its comments and docstrings left out: a translated chapter's
    key cell (course/zh) is the English one with those in another language."""
    source = source.strip()
    source = doc.replace(source, [""] * len(doc.docstrings(source)))
    return replace(source, [""] * len(comments(source))).strip()


@functools.lru_cache(maxsize=4)
def _by_program(course: Path) -> dict:
    return {_code(q.program): q for q in questions(course)}


def question_of_cell(source: str, course: Path = COURSE) -> Question | None:
    """The question a ``%%key`` cell answers (``source`` without its ``%%key`` line), or None.

    Matched by the cell's code: every question's program is different, and a
    cell the learner has changed answers no question any more (a comment's words do not count).
    """
    return _by_program(course).get(_code(source))


# Each key cell runs as the notebook runs a cell: compiled on its own, in the chapter's namespace.
# An exception the cell does not catch ends that cell only, and shows as one line, as the key
# cells that demonstrate an error print it; the next cells run on, as they would when the learner
# runs them one by one.
_RUNNER = """
for __cell_number__, __cell__ in enumerate(__key_cells__):
    try:
        exec(compile(__cell__, "<key cell>", "exec"), globals())
    except Exception as __raised__:
        print(f"{type(__raised__).__name__}: {__raised__}")
    print(__boundary__ % __cell_number__)
"""


def printouts(key_cells, module) -> list[str]:
    """What each key cell prints when the chapter's key cells run in order on ``module``.

    A cell that raises prints what it printed before the exception, then the exception as
    ``Type: message`` (as torch's own key cells print the errors they catch), and the cells after
    it run on: a misconception model whose belief makes a cell raise still answers every later
    question of the chapter.
    """
    return cut_printouts(run(key_cells_program(key_cells), module, observe=False), len(key_cells))


def key_cells_program(key_cells) -> str:
    """One program that runs the key cells in order, printing a boundary after each."""
    return f"__key_cells__ = {list(key_cells)!r}\n__boundary__ = {_BOUNDARY!r}\n{_RUNNER}"


def cut_printouts(trace, count: int) -> list[str]:
    """The printout of that program cut at the boundaries: what each of the ``count`` cells printed."""
    outputs, rest = [], trace.stdout
    for i in range(count):
        marker = _BOUNDARY % i + "\n"
        before, found, rest = rest.partition(marker)
        if not found:  # the runner itself stopped (it cannot, short of an interpreter error)
            raised = f"{trace.exception[0]}: {trace.exception[1]}\n" if trace.exception else ""
            outputs.append(before + raised)
            outputs += [""] * (count - i - 1)
            break
        outputs.append(before)
    return outputs


_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+(?![0-9A-Za-z])")  # not 0xADDR itself


def normalise(text: str) -> str:
    """An answer as compared: spaces runs as one, no trailing spaces, no blank lines at the ends, and
    an address (``<AccumulateGrad object at 0x7f...>``) as the printouts give every one: ``0xADDR``."""
    lines = [re.sub(r"[ \t]+", " ", _ADDRESS.sub("0xADDR", line)).strip() for line in text.strip().splitlines()]
    return "\n".join(line for line in lines)
