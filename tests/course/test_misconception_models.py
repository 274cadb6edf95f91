"""Misconception models: each one explains a wrong prediction, and none is blamed for a right one.

Every model is reftorch changed in one place to behave as a learner with one
wrong belief expects (coursebook.predict.models). Run on every "Predict the
output" question of the chapters, each must print a wrong answer somewhere
(else it explains nothing), the diagnosis of that answer must name it, and a
right answer is never put down to a misconception.
"""

from __future__ import annotations

import pytest

from coursebook.build_it.switch import active
from coursebook.cross_check import CrossCheck
from coursebook.predict.diagnose import diagnose, model_answers, right_answer
from coursebook.predict.models import MODELS, model
from coursebook.predict.questions import normalise, printouts, questions
from crosscheck.harness import import_reftorch

QUESTIONS = questions()


def test_there_are_at_least_twelve_models_and_forty_questions():
    assert len(MODELS) >= 12 and len({m.name for m in MODELS}) == len(MODELS)
    assert len(QUESTIONS) >= 40


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.name)
def test_each_model_explains_a_wrong_answer_to_some_question(model):
    explained = []
    for question in QUESTIONS:
        wrong = model_answers(question)[model.name]
        if normalise(wrong) and normalise(wrong) != normalise(right_answer(question)):
            diagnosis = diagnose(question, wrong)
            assert not diagnosis.right
            assert model in diagnosis.models, (question.id, [m.name for m in diagnosis.models])
            assert model.refutation in diagnosis.text()
            explained.append(question.id)
    assert explained, f"{model.name}: no question's answer changes under this belief"


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.id)
def test_a_right_answer_is_accepted_and_blamed_on_no_belief(question):
    diagnosis = diagnose(question, "  " + right_answer(question).replace("\n", "  \n") + "\n\n")
    assert diagnosis.right and diagnosis.models == []
    assert "Right" in diagnosis.text()


def test_an_answer_no_model_prints_gets_a_hint_that_keeps_the_answer_back():
    question = next(q for q in QUESTIONS if q.id == "08-31f9b92f")  # prints 2 lines, the 2nd asks the graph
    first, second = right_answer(question).splitlines()
    diagnosis = diagnose(question, first + "\nbanana")
    assert not diagnosis.right and diagnosis.models == []
    text = diagnosis.text()
    assert "None of the course's misconception models" in text
    assert "line 2" in text and "History kept?" in text and "New memory?" not in text
    assert second not in text and "@@" not in text and "banana" not in text, text


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.id)
def test_no_hint_shows_a_line_of_the_answer(question):
    expected = [line for line in normalise(right_answer(question)).splitlines() if len(line) > 5]
    text = diagnose(question, "banana").text()
    assert "line 1" in text
    shown = [line for line in expected if line in text]
    assert not shown, shown


def test_a_model_whose_cell_raises_prints_the_raise_and_the_cells_after_it():
    """Under "the version counter belongs to the memory" chapter 09's third key cell raises; the
    cells after it still print, so the chapter's headline question is diagnosed."""
    question = next(q for q in QUESTIONS if q.id == "09-4b564e15")
    printed = model_answers(question)["the version counter belongs to the memory"]
    assert normalise(printed) and normalise(printed) != normalise(right_answer(question))
    assert "the version counter belongs to the memory" in [m.name for m in diagnose(question, printed).models]
    with model("the version counter belongs to the memory").active():
        cells = printouts(question.key_cells, import_reftorch())
    stopped = [i for i, text in enumerate(cells) if text.startswith("RuntimeError: ")]
    assert stopped and stopped[0] < question.index and all(cells[stopped[0] + 1:]), cells


def test_models_switch_back_and_reftorch_agrees_with_torch_afterwards():
    program = "\n".join(QUESTIONS[0].key_cells)
    for model in MODELS:
        with model.active():
            pass
    assert active() == {}
    assert CrossCheck(program).agree


@pytest.mark.parametrize("chapter", sorted({q.chapter for q in QUESTIONS}))
def test_a_chapters_key_cells_run_alone_on_torch(chapter):
    """The questions' programs (and the chapter's cross-check) are the key cells alone: a name one of
    them takes from an ordinary cell of the notebook would stop the replay on torch and reftorch
    alike, and every later question would have no answer."""
    from crosscheck.harness import load_torch, run

    key_cells = next(q.key_cells for q in QUESTIONS if q.chapter == chapter)
    trace = run("\n".join(key_cells), load_torch())
    assert trace.exception is None, f"{chapter}: the key cells alone stop at {trace.exception}"


def test_a_run_for_its_printout_records_what_an_observed_run_prints():
    """printouts() runs the key cells without observing the tensors they leave behind
    (crosscheck.harness.run's observe=False): what they print, warn and raise is unchanged."""
    from crosscheck.harness import load_torch, run

    program = ("a = torch.ones(2, requires_grad=True)\nb = a.clone()\nprint(b, b.grad_fn is not None)\n"
               "c = a.view(2)\nprint(c._version)\na.add_(1)\n")
    for module in (load_torch(), import_reftorch()):
        observed, printed = run(program, module), run(program, module, observe=False)
        assert observed.exception and observed.tensors and not printed.tensors
        assert (printed.stdout, printed.warnings, printed.exception) == \
            (observed.stdout, observed.warnings, observed.exception)


def test_predictions_are_recorded_right_first_time_after_a_retry_or_revealed(tmp_path, monkeypatch):
    from coursebook import predict
    from coursebook.build_it import progress

    monkeypatch.setenv("COURSEBOOK_PROGRESS", str(tmp_path / "progress.json"))
    first, second, third = QUESTIONS[:3]
    assert predict.answer(first.id, right_answer(first)).right
    wrong = "a wrong answer"
    assert not predict.answer(second.id, wrong).right
    assert predict.answer(second.id, right_answer(second)).right
    assert predict.reveal(third.id) == right_answer(third)
    assert not predict.answer(first.id, wrong).right  # settled already: a later try changes nothing
    recorded = progress.load()["predictions"]
    assert recorded[first.id]["outcome"] == "right first time"
    assert recorded[second.id]["outcome"] == "right after a retry" and recorded[second.id]["tries"] == 2
    assert recorded[third.id]["outcome"] == "revealed"
