"""No answer before its question (issue 36): not in a heading, a bullet, a table or the question's own
lead-in, and not in any output that Run All puts in plain view before the learner has answered.

The answer texts are found by answers_shown.py: torch's printout of the key
cell (or the printouts the answer toggle quotes), value by value, and the
names in it that the question's code does not say. Both languages: the
Chinese chapters have the English code and outputs, and their prose is checked
for the same values and names. The book's pages are checked by
tests/book/test_book_answers.py with the same functions.
"""

from __future__ import annotations

import nbformat
import pytest

from answers_shown import above, distinctive, held_back, in_outputs, in_page, predictions
from course_paths import CHAPTERS, COURSE, ZH_NOTEBOOKS

ZH_CHAPTERS = [p for p in ZH_NOTEBOOKS if p.name[:2].isdigit()]


def _predictions_of(path):
    """The predictions of a chapter; a Chinese chapter's answers are its English twin's."""
    english = COURSE / path.name
    found = predictions(english)
    if path == english:
        return found
    nb = nbformat.read(str(path), as_version=4)
    by_id = {c.get("id"): i for i, c in enumerate(nb.cells)}
    for p in found:
        p.notebook, p.index = path, by_id[p.cell_id]
        p.lead_in = nb.cells[p.index].source.split("<details", 1)[0]
    return found


def test_every_prediction_of_the_course_is_found_with_an_answer_to_look_for():
    found = [p for path in CHAPTERS for p in predictions(path)]
    assert len(found) >= 58, len(found)
    without = [p.label for p in found if not p.values and not p.names]
    # a few answers are all booleans or a few digits: nothing of them can be spotted in prose
    assert len(without) <= 12, without


def test_trivial_printouts_are_not_answer_texts():
    assert not distinctive("True False") and not distinctive("1 1 0") and not distinctive("None")
    assert distinctive("AccumulateGrad True") and distinctive("tensor([1., 1.])") and distinctive("401577 1577")


def test_the_check_finds_an_answer_written_above_its_question():
    """The check can fail: chapter 08 with its first answer copied into the heading above it."""
    path = COURSE / "08_clone.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    first = predictions(path, nb)[0]
    heading = next(c for c in reversed(nb.cells[:first.index]) if c.source.startswith("#"))
    heading.source += f": it prints {first.values[-1]}"
    assert above(first, nb), first.values


def test_the_book_check_finds_an_answer_unfolded_above_its_question_and_none_folded():
    """The book's check reads only headings, <details> and the question's code (any builder)."""
    path = COURSE / "08_clone.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    first = predictions(path, nb)[0]
    code = "".join(f"<span>{c}</span>" for c in first.program)  # a highlighter's spans
    answer = first.values[-1]

    def page(before):
        return (f"<h1>08</h1><p>Intro</p><h2>Is the history kept?</h2>{before}"
                f"<p><b>Predict the output.</b></p><pre>{code}</pre>"
                f"<details><summary>Answer</summary><pre>{answer}</pre></details>")

    assert in_page([first], nb, page(f"<p>It prints {answer}.</p>"))
    assert not in_page([first], nb, page(f"<details><p>It prints {answer}.</p></details>"))
    assert not in_page([first], nb, page("<p>Nothing of it.</p>"))
    assert in_page([first], nb, "<h1>08</h1><p>another page</p>") == [f"{first.label}: its question's code is not on the page"]


@pytest.mark.parametrize("path", CHAPTERS + ZH_CHAPTERS, ids=lambda p: str(p.relative_to(COURSE)))
def test_no_answer_is_written_above_its_question(path):
    nb = nbformat.read(str(path), as_version=4)
    problems = [f"{p.label}: {problem}" for p in _predictions_of(path) for problem in above(p, nb) + held_back(p, nb)]
    assert not problems, "\n".join(problems)


RUNS = [("executed_notebooks", p) for p in CHAPTERS] + [("executed_zh_notebooks", p) for p in ZH_CHAPTERS]


@pytest.mark.e2e  # the executed chapters come from kernels (fixtures asked for by name below)
@pytest.mark.parametrize("executed, path", RUNS, ids=[str(p.relative_to(COURSE)) for _, p in RUNS])
def test_run_all_prints_no_answer_before_it_is_asked_for(request, executed, path):
    """In English and in Chinese (whose answers are its English twin's)."""
    run = request.getfixturevalue(executed)[path]
    assert run.error is None, run.error
    problems = [f"{p.label}: {problem}" for p in _predictions_of(path) for problem in in_outputs(p, run.notebook)]
    assert not problems, "\n".join(problems)


def test_an_answer_cell_holds_its_output_back_and_the_book_shows_it(tmp_path, monkeypatch, warm_kernel_manager):
    """Chapter 01's prediction is answered by a diagram: headless Run All shows only the button's
    text; a page nobody can answer on (COURSEBOOK_PREDICTIONS=shown) shows the diagram."""
    from coursebook.build_it import progress
    from coursebook.execution import execute_notebook

    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "progress.json"))
    path = COURSE / "01_reading_memory_diagrams.ipynb"

    def answer_outputs():
        run = execute_notebook(path, timeout=300, kernel_manager_class=warm_kernel_manager)
        assert run.error is None, run.error
        held = [c for c in run.notebook.cells if c.cell_type == "code" and c.source.startswith("%%answer")]
        assert held
        return [o for c in held for o in c.outputs]

    shown = answer_outputs()
    assert all("image/svg+xml" not in o.get("data", {}) for o in shown)
    assert any("Held back" in o.get("data", {}).get("text/plain", "") for o in shown)
    monkeypatch.setenv("COURSEBOOK_PREDICTIONS", "shown")
    assert any("image/svg+xml" in o.get("data", {}) for o in answer_outputs())
