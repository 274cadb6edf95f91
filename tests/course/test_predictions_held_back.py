"""Run All gives no prediction away: a `%%key` cell that answers a "Predict the output" question
holds its printout back until the learner has answered or revealed it.

A chapter executed headless (nbclient, a new kernel forked from the course tests' zygote, an empty
progress file: docs/decisions/0073-the-course-tests-chapter-reruns-fork-warm-kernels.md)
shows in each such cell the prediction box and how to answer without widgets,
never torch's printout; the closing cross-check still agrees and keeps its
table folded. The functions behind the box diagnose a wrong answer by the
misconception that prints it, accept a right one, and record both outcomes.
"""

from __future__ import annotations

import json

import pytest

from coursebook.build_it import progress
from coursebook.execution import execute_notebook
from coursebook.predict import answer, asks_for_a_choice, choices, reveal
from coursebook.predict.diagnose import model_answers, right_answer
from coursebook.predict.questions import COURSE, normalise, question_of_cell, questions

CHAPTER = COURSE / "08_clone.ipynb"


def _shown(cell) -> str:
    return "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


@pytest.fixture(scope="module")
def run_with_nothing_answered(tmp_path_factory, warm_kernel_manager):
    path = tmp_path_factory.mktemp("predict") / "progress.json"
    with pytest.MonkeyPatch.context() as patch:  # the kernel gets the environment of its launch
        patch.setenv(progress.PROGRESS_ENV, str(path))
        return execute_notebook(CHAPTER, timeout=300, kernel_manager_class=warm_kernel_manager)


def test_the_chapter_runs_to_its_agreeing_cross_check(run_with_nothing_answered):
    assert run_with_nothing_answered.error is None, run_with_nothing_answered.error
    last = [c for c in run_with_nothing_answered.notebook.cells if c.cell_type == "code"][-1]
    assert "torch and reftorch agree" in _shown(last)
    assert "The table is folded" in _shown(last), "the cross-check's table gives the answers away"


def test_no_question_cell_shows_its_answer_before_it_is_answered(run_with_nothing_answered):
    asked = 0
    for cell in run_with_nothing_answered.notebook.cells:
        if cell.cell_type != "code" or not cell.source.startswith("%%key"):
            continue
        q = question_of_cell(cell.source.split("\n", 1)[1])
        shown = _shown(cell)
        if q is None:
            assert shown.strip(), "a key cell that is no prediction lost its printout"
            continue
        asked += 1
        assert normalise(right_answer(q)) not in normalise(shown), f"{q.id} shows its answer: {shown!r}"
        assert f"Predict the output ({q.id})" in shown and "coursebook.predict.answer(" in shown
    assert asked == len([q for q in questions() if q.chapter == CHAPTER.name]) == 3


def test_a_settled_question_shows_its_printout_at_once(tmp_path, monkeypatch, warm_kernel_manager):
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "progress.json"))
    settled = [q for q in questions() if q.chapter == CHAPTER.name]
    for q in settled:
        reveal(q.id)
    run = execute_notebook(CHAPTER, timeout=300, kernel_manager_class=warm_kernel_manager)
    assert run.error is None, run.error
    shown = "\n".join(_shown(c) for c in run.notebook.cells)
    for q in settled:
        assert normalise(right_answer(q)) in normalise(shown)
    assert "The table is folded" not in shown


def test_a_wrong_answer_is_diagnosed_by_name_and_a_right_one_accepted_and_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "progress.json"))
    # a clone on a's memory, made under no_grad, is a view of a leaf that requires grad
    q = next(q for q in questions() if q.id == "08-6a46c24a")
    wrong = model_answers(q)["clone shares memory"]
    assert normalise(wrong) != normalise(right_answer(q))
    diagnosis = answer(q.id, wrong)
    assert not diagnosis.right and "clone shares memory" in diagnosis.text()
    assert q.id not in progress.load()["predictions"], "a wrong answer settled the question"
    assert answer(q.id, right_answer(q)).right
    assert progress.load()["predictions"][q.id]["outcome"] == "right after a retry"
    other = next(q for q in questions() if q.id == "08-31f9b92f")
    assert answer(other.id, right_answer(other)).right
    reveal("08-0731bc27")
    outcomes = {k: v["outcome"] for k, v in json.loads((tmp_path / "progress.json").read_text())["predictions"].items()}
    assert outcomes == {"08-6a46c24a": "right after a retry", "08-31f9b92f": "right first time",
                        "08-0731bc27": "revealed"}


def test_a_printout_too_long_to_type_is_chosen_among_what_torch_and_the_models_print():
    long = [q for q in questions() if asks_for_a_choice(q.id)]
    assert long, "no question asks for a choice"
    for q in long:
        offered = choices(q.id)
        assert right_answer(q) in offered and len(offered) > 1
        assert offered == sorted(offered, key=normalise)


def test_the_static_book_prints_every_answer_at_once(tmp_path, monkeypatch, warm_kernel_manager):
    """A page nobody can answer on (the book: COURSEBOOK_PREDICTIONS=shown) shows the printouts."""
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "progress.json"))
    monkeypatch.setenv("COURSEBOOK_PREDICTIONS", "shown")
    run = execute_notebook(CHAPTER, timeout=300, kernel_manager_class=warm_kernel_manager)
    assert run.error is None, run.error
    shown = "\n".join(_shown(c) for c in run.notebook.cells)
    for q in questions():
        if q.chapter == CHAPTER.name:
            assert normalise(right_answer(q)) in normalise(shown), q.id
    assert "Predict the output (" not in shown
    recorded = tmp_path / "progress.json"  # a learner's filled build-it cells may record pieces; no prediction
    assert not recorded.exists() or not json.loads(recorded.read_text()).get("predictions"), recorded.read_text()
