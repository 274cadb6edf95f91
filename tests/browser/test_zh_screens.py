"""A Chinese chapter shows no English sentence of the course's own, wherever it runs (issue 36).

The lab is the plain ``jupyter lab`` a learner (or Binder) starts: no ``LANG``
and no ``COURSEBOOK_LANG`` in its environment, so nothing but the notebooks
themselves says which language to speak. On a copy of course/, chapters 00, 02,
06 and 09 of ``course/zh/`` are run whole; a prediction is answered wrong, then
revealed; a memory diagram is stepped. Then the text of every output is read:
the widgets (their buttons, labels, placeholders), the tables, the diagrams
(inline SVG, and the text of an SVG shown as an image), the checks' reports and
the messages, and the test fails on an English sentence in any of them.

What is code is not read: ``<code>`` elements, the listings of reftorch's source
(``pre.coursebook-source``), the printouts the program made (the stdout stream,
a key cell's held-back printout, the cross-check table's printout cells
``pre.coursebook-printout``) and a choice widget's options (printouts too).
"""

import re

import pytest

from lab_page import ARTIFACTS, RUN_ALL_WHEN_IDLE, show_notebook

pytestmark = pytest.mark.browser

CHAPTERS = ("00_index", "02_names_and_objects", "06_version_counter", "09_detach_and_data")

# An English sentence: three words in a row, each only ASCII letters (an apostrophe inside, and
# punctuation around it, allowed), none of them a name Python or torch prints as a value.
_WORD = re.compile(r"""^[("'\u201c\u2018\[]?[A-Za-z]+(?:'[A-Za-z]+)?[)"'\u201d\u2019\],.;:!?]*$""")
NOT_WORDS = {"true", "false", "none", "torch", "reftorch", "nan", "inf", "ok", "fail", "cpu"}


def english_sentences(text: str) -> list[str]:
    """The runs of three or more English words in ``text`` (each text node's text on its own line);
    a name like ``torch`` or ``True`` inside a run neither counts nor breaks it."""
    found = []
    for line in text.splitlines():
        run, words = [], 0
        for token in line.split() + [""]:
            if _WORD.match(token):
                run.append(token)
                words += token.strip("()\"'\u201c\u201d\u2018\u2019[],.;:!?").lower() not in NOT_WORDS
                continue
            if words >= 3:
                found.append(" ".join(run))
            run, words = [], 0
    return found


def test_the_definition_of_an_english_sentence():
    assert english_sentences("Not what torch prints.") == ["Not what torch prints."]
    assert english_sentences("torch 打印的不是这个。") == []
    assert english_sentences("True False True\nrequires_grad True is_leaf True") == []
    assert english_sentences("shape [3] stride (1,) offset 0") == []
    assert english_sentences("Predict the output: type what") == ["Predict the output: type what"]
    assert english_sentences("关闭已关掉的 notebook 的内核") == []


# Every output's text, one text node per line, code and printouts left out (see the docstring).
# An SVG shown as an image is read from its data: its <text>, <title> and <desc>.
OUTPUT_TEXT = r"""() => {
    const read = [];
    const skip = 'code, pre.coursebook-source, pre.coursebook-printout, .coursebook-predict-choices, '
        + '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stdout"], script, style';
    const outputs = [...document.querySelectorAll('.jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output')];
    for (const output of outputs) {
        const kind = output.getAttribute('data-mime-type') || '';
        if (kind === 'application/vnd.jupyter.stdout') continue;
        const copy = output.cloneNode(true);
        copy.querySelectorAll(skip).forEach((node) => node.remove());
        const lines = [];
        const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const text = walker.currentNode.nodeValue.trim();
            if (text) lines.push(text);
        }
        copy.querySelectorAll('[placeholder], [aria-label], [title]').forEach((node) => {
            for (const name of ['placeholder', 'aria-label', 'title']) {
                const value = node.getAttribute(name);
                if (value) lines.push(value);
            }
        });
        copy.querySelectorAll('img[src^="data:image/svg+xml"]').forEach((img) => {
            const src = img.getAttribute('src');
            const comma = src.indexOf(',');
            const body = src.slice(0, comma).includes('base64') ? atob(src.slice(comma + 1))
                : decodeURIComponent(src.slice(comma + 1));
            const svg = new DOMParser().parseFromString(body, 'image/svg+xml');
            svg.querySelectorAll('text, title, desc').forEach((node) => lines.push(node.textContent.trim()));
        });
        // words a style sheet writes (``content:`` of ::before and ::after)
        output.querySelectorAll('*').forEach((node) => {
            if (node.closest(skip)) return;
            for (const pseudo of ['::before', '::after']) {
                const content = getComputedStyle(node, pseudo).content;
                if (content && content !== 'none' && content !== 'normal') lines.push(content.replace(/^"|"$/g, ''));
            }
        });
        read.push({kind, text: lines.join('\n')});
    }
    return read;
}"""


def _answer_wrong_then_reveal(page):
    """In the first prediction box that asks for typing: a wrong answer, Check, then Reveal."""
    box = page.locator(".coursebook-predict:has(.coursebook-predict-answer)").first
    box.scroll_into_view_if_needed()
    box.locator(".coursebook-predict-answer textarea").fill("7 7 7")
    box.locator(".coursebook-predict-check").click()
    box.locator(".coursebook-predict-verdict pre").first.wait_for(timeout=60_000)
    verdict = box.locator(".coursebook-predict-verdict").inner_text()
    box.locator(".coursebook-predict-reveal").click()
    printout = box.locator(".coursebook-predict-printout")
    page.wait_for_function("(e) => e.innerText.trim().length > 0", arg=printout.element_handle(), timeout=60_000)
    return verdict


@pytest.fixture(scope="module")
def plain_lab(course_copy, learners_lab_on, tmp_path_factory):
    """The plain lab (no `make lab LANG=zh`, no language in its environment) on a copy of course/,
    with a fresh progress file, so every prediction is still open."""
    progress = tmp_path_factory.mktemp("progress") / "progress.json"
    with learners_lab_on(course_copy, "zh-screens-lab.log", progress=progress,
                         unset=("LANG", "LANGUAGE", "LC_ALL", "COURSEBOOK_LANG")) as (base, token):
        yield base, token


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_chinese_chapter_shows_no_english_sentence_in_a_plain_lab(plain_lab, browser, chapter):
    base, token = plain_lab
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        show_notebook(page, base, token, f"course/zh/{chapter}.ipynb")
        page.evaluate(RUN_ALL_WHEN_IDLE, 90_000)
        # the chapter's last cell, its cross-check, says the two agree (in Chinese)
        page.wait_for_function("() => document.body.innerText.includes('torch 与 reftorch 一致')", timeout=300_000)
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']").count()
        assert errors == 0, f"a cell of zh/{chapter} raised"

        verdict = _answer_wrong_then_reveal(page)
        assert "torch 打印的不是这个" in verdict, verdict
        if page.locator(".md-widget").count():
            widget = page.locator(".md-widget").first
            widget.scroll_into_view_if_needed()
            widget.locator(".md-next").click()
            page.wait_for_function("(w) => w.dataset.step === '2'", arg=widget.element_handle(), timeout=30_000)
            assert "第 2 步" in widget.locator(".md-position").inner_text()
        page.wait_for_timeout(500)
        page.screenshot(path=str(ARTIFACTS / f"zh-screens-{chapter}.png"), full_page=True)

        outputs = page.evaluate(OUTPUT_TEXT)
        assert len(outputs) >= 5, outputs
        shown = "\n".join(o["text"] for o in outputs)
        assert re.search(r"[\u4e00-\u9fff]", shown), "no Chinese at all in the outputs"
        english = [(o["kind"], sentence) for o in outputs for sentence in english_sentences(o["text"])]
        assert not english, f"zh/{chapter} shows English sentences: {english}"
    finally:
        page.close()
