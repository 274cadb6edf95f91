"""The book gives no answer before its question (issue 36), checked on the built HTML only.

On every chapter page, English and Chinese, no prediction's answer is in plain
view above it in its section. The book prints every cell (nobody can answer
there), so each answer must be folded (``<details>``) or below its question;
the printouts of the key cells that set a question up are the state it starts
from. Headings, ``<details>`` and the question's code are all it reads, so it
holds for any builder of ``_build/book``. The answer texts come from
tests/course/answers_shown.py.
"""

import pathlib
import sys

import nbformat

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "course"))
from answers_shown import in_page, predictions, question_code  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
CHAPTERS = sorted((REPO / "course").glob("[0-9][0-9]_*.ipynb"))


def answers_above_questions(book: pathlib.Path, language: str) -> list:
    """The problems of every chapter page of one language ("" for English, "zh")."""
    problems = []
    for chapter in CHAPTERS:
        page = book / language / f"{chapter.stem}.html"
        if not page.is_file() and chapter.stem.startswith("00"):
            page = book / language / "index.html"  # the index may be the book's front page
        if not page.is_file():
            problems.append(f"{page} is missing")
            continue
        nb = nbformat.read(str(REPO / "course" / language / chapter.name), as_version=4)
        found = predictions(chapter)
        by_id = {c.get("id"): i for i, c in enumerate(nb.cells)}
        for p in found:
            p.index = by_id[p.cell_id]
            # the page shows this language's code: its comments are translated
            p.program = question_code(nb.cells[p.index].source)
        problems += [f"{language or 'en'}/{chapter.stem}: {problem}"
                     for problem in in_page(found, nb, page.read_text(encoding="utf-8"))]
    return problems
