"""Predict, then check, in the learner's JupyterLab, in headless Chromium at 1366x768.

A copy of chapter 09 (the learner's workspace copy, in a scratch folder) is
opened in the learner's lab (``coursebook.lab``'s command line) and every cell
is run. Then:

* no cell shows the answer of a prediction question: each such ``%%key`` cell
  shows the prediction box instead, and the cross-check's table is folded;
* a wrong answer that a misconception model prints is typed and checked: the
  verdict names that model, and the printout stays hidden;
* the right answer is typed: it is accepted and the printout appears;
* a second question is answered right at once, a third is revealed;
* the progress file records each outcome: right after a retry, right first
  time, revealed;
* the memory diagram's controls, picture and narration are on the screen
  together, at every step.
"""

from __future__ import annotations

import json
import shutil

import pytest

from coursebook.predict.diagnose import model_answers, right_answer
from coursebook.predict.questions import COURSE, normalise, questions
from lab_page import ARTIFACTS, RUN_ALL_WHEN_IDLE, off_screen, on_screen, scroll_to_top, show_notebook

pytestmark = pytest.mark.browser

CHAPTER = "09_detach_and_data.ipynb"
ASKED = [q for q in questions() if q.chapter == CHAPTER]

# What the learner can read in the outputs (a folded table and a closed answer toggle are not read).
SHOWN_OUTPUTS = "() => Array.from(document.querySelectorAll('.jp-OutputArea')).map(e => e.innerText).join('\\n')"

ON_SCREEN = on_screen(".md-figure svg.md-diagram")


@pytest.fixture(scope="module")
def learners_lab(learners_lab_on, tmp_path_factory):
    """The learner's lab on a scratch folder holding their copy of the chapter; the kernels keep
    progress in a file of the test's. Yields (base_url, token, progress file)."""
    root = tmp_path_factory.mktemp("learner")
    (root / "course").mkdir()
    shutil.copy(COURSE / CHAPTER, root / "course" / CHAPTER)
    progress = tmp_path_factory.mktemp("progress") / "progress.json"
    with learners_lab_on(root, "jupyterlab-predict.log", progress=progress) as (base, token):
        yield base, token, progress


def _wrong_but_explained(question):
    """(model name, what it prints) for a model whose printout of the question is wrong."""
    for name, printed in model_answers(question).items():
        if normalise(printed) and normalise(printed) != normalise(right_answer(question)):
            return name, printed
    raise AssertionError(f"no misconception model gets {question.id} wrong")


def _check(page, box, text):
    box.locator(".coursebook-predict-answer textarea").fill(text)
    box.locator(".coursebook-predict-check").click()
    verdict = box.locator(".coursebook-predict-verdict")
    verdict.locator("pre, .jp-OutputArea-output").first.wait_for(timeout=60_000)
    page.wait_for_timeout(200)
    return verdict.inner_text()


def test_a_chapter_run_whole_gives_nothing_away_then_diagnoses_accepts_and_records(learners_lab, browser):
    base, token, progress = learners_lab
    assert len(ASKED) == 3, [q.id for q in ASKED]
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    try:
        show_notebook(page, base, token, f"course/{CHAPTER}")
        page.evaluate(RUN_ALL_WHEN_IDLE, 60_000)
        page.wait_for_function("() => document.body.innerText.includes('torch and reftorch agree')", timeout=180_000)
        assert page.locator("#filebrowser").is_visible()

        # Run all gave nothing away.
        boxes = page.locator(".coursebook-predict")
        assert boxes.count() == len(ASKED), "not every prediction question shows its box"
        shown = normalise(page.evaluate(SHOWN_OUTPUTS))
        for q in ASKED:
            assert normalise(right_answer(q)) not in shown, f"Run all shows the answer to {q.id}"
        assert "The table is folded" in shown
        page.screenshot(path=str(ARTIFACTS / "predict-1366x768-run-all.png"))

        # A wrong answer a misconception model prints is named; the printout stays hidden.
        first, box = ASKED[0], boxes.nth(0)
        box.scroll_into_view_if_needed()
        name, wrong = _wrong_but_explained(first)
        verdict = _check(page, box, wrong)
        assert f"Misconception \u201c{name}\u201d" in verdict, verdict
        assert "In fact:" in verdict and "See " in verdict
        assert normalise(right_answer(first)) not in normalise(page.evaluate(SHOWN_OUTPUTS))
        page.screenshot(path=str(ARTIFACTS / "predict-1366x768-diagnosed.png"))

        # The right one is accepted, and the printout appears under the box.
        verdict = _check(page, box, right_answer(first))
        assert verdict.startswith("Right"), verdict
        printout = box.locator(".coursebook-predict-printout")
        page.wait_for_function("(e) => e.innerText.trim().length > 0", arg=printout.element_handle(), timeout=30_000)
        assert normalise(printout.inner_text()) == normalise(right_answer(first))

        second, third = ASKED[1], ASKED[2]
        boxes.nth(1).scroll_into_view_if_needed()
        assert _check(page, boxes.nth(1), right_answer(second)).startswith("Right")
        boxes.nth(2).scroll_into_view_if_needed()
        boxes.nth(2).locator(".coursebook-predict-reveal").click()
        third_printout = boxes.nth(2).locator(".coursebook-predict-printout")
        page.wait_for_function("(e) => e.innerText.trim().length > 0", arg=third_printout.element_handle(),
                               timeout=30_000)
        assert normalise(third_printout.inner_text()) == normalise(right_answer(third))

        recorded = json.loads(progress.read_text())["predictions"]
        assert {k: (v["outcome"], v["tries"]) for k, v in recorded.items()} == {
            first.id: ("right after a retry", 2), second.id: ("right first time", 1), third.id: ("revealed", 0)}

        # The diagram: controls, picture and narration on screen together, step after step.
        widget = page.locator(".md-widget").first
        scroll_to_top(page, widget, ON_SCREEN)
        steps = widget.locator(".md-statements li").count()
        assert steps >= 2
        for step in range(1, steps + 1):
            if step > 1:
                widget.locator(".md-next").click()
                page.wait_for_timeout(50)
            assert widget.get_attribute("data-step") == str(step)
            off = off_screen(widget.evaluate(ON_SCREEN))
            assert not off, f"step {step}: the learner must scroll to see {sorted(off)}"
        page.screenshot(path=str(ARTIFACTS / "predict-1366x768-diagram.png"))
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "predict-failure.png"), full_page=True)
        raise
    finally:
        page.close()
