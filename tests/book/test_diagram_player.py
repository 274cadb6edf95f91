"""Chapter 01's stepping diagram as the book shows it: no kernel, no script, same steps.

Chapter 01 is executed the way ``make book`` executes it (``book.execute``:
a copy in a build folder, nbclient keeping the widget state), and its first
``step_through`` output's ``text/html`` player is opened in headless Chromium
with every request that is not a local file or loopback blocked. The page
has no kernel. With scripts off (a sanitized page) it steps with forward,
back, the step buttons and the arrow keys on a step button; with scripts on
(the book) also with the slider and the arrow keys wherever the player has
the focus. At every step the picture shown must be the one the notebook's
widget holds for that step (the widget's saved state, i.e. what the learner
sees when running the chapter).
"""

import pathlib
import shutil
import xml.etree.ElementTree as ET

import nbformat
import pytest

from book.execute import WIDGET_VIEW, execute, widget_states

pytestmark = pytest.mark.browser

REPO = pathlib.Path(__file__).resolve().parents[2]
CHAPTER = "01_reading_memory_diagrams.ipynb"


@pytest.fixture(scope="module")
def chapter_01(tmp_path_factory, monkeypatch_module):
    """(widget state of the first stepping diagram, its book HTML) from chapter 01 run as the book runs it."""
    build = tmp_path_factory.mktemp("book")
    shutil.copytree(REPO / "course", build / "course", ignore=shutil.ignore_patterns(".progress.json*"))
    monkeypatch_module.setenv("COURSEBOOK_PROGRESS", str(build / "progress.json"))
    path = build / "course" / CHAPTER
    execute(path)
    nb = nbformat.read(path, as_version=4)
    states = widget_states(nb)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data:
                return states[data[WIDGET_VIEW]["model_id"]], data.get("text/html", "")
    pytest.fail("chapter 01 shows no stepping diagram when run")


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def _text(svg: str) -> str:
    return " ".join("".join(ET.fromstring(svg).itertext()).split())


def _open(browser, chapter_01, tmp_path, scripts):
    state, html = chapter_01
    page_file = tmp_path / "player.html"
    page_file.write_text(f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
                         f'<meta name="viewport" content="width=device-width"><title>player</title></head>'
                         f'<body>{html}</body></html>', encoding="utf-8")
    context = browser.new_context(viewport={"width": 1000, "height": 900}, java_script_enabled=scripts)
    blocked, errors = [], []

    def only_local(route):
        url = route.request.url
        if url.startswith("file://") or url.startswith(("http://127.0.0.1", "http://localhost")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(page_file.as_uri())
    yield page, state
    context.close()
    assert blocked == [], f"the diagram page asked the network for {blocked}"
    assert errors == [], f"the diagram page has script errors: {errors}"


@pytest.fixture
def player(browser, chapter_01, tmp_path):
    """The player with scripts off, as a sanitizer leaves it."""
    yield from _open(browser, chapter_01, tmp_path, scripts=False)


@pytest.fixture
def live_player(browser, chapter_01, tmp_path):
    """The player with scripts on, as the book shows it."""
    yield from _open(browser, chapter_01, tmp_path, scripts=True)


def _shown(page):
    """(step number, statement, text of the SVG) of the one visible step."""
    visible = [s for s in page.locator(".md-player .mdp-frame").all() if s.is_visible()]
    assert len(visible) == 1, f"{len(visible)} steps visible at once; the player must show exactly one"
    step = visible[0]
    svg_text = " ".join(step.locator("svg.md-diagram:visible").text_content().split())
    return int(step.get_attribute("data-step")), step.locator("code.mdp-stmt").text_content(), svg_text


def test_chapter_01_book_page_shows_every_step_the_run_notebook_shows(player):
    page, state = player
    n = len(state["svgs"])
    assert n == len(state["statements"]) >= 2
    assert page.locator(".md-player .mdp-frame").count() == n
    for i in range(n):
        number, statement, svg_text = _shown(page)
        assert number == i + 1
        assert statement == state["statements"][i]
        assert svg_text == _text(state["svgs"][i]), f"step {i + 1} in the book is not the notebook's step {i + 1}"
        if i < n - 1:
            page.locator(".mdp-frame:visible .mdp-forward").click()
    assert page.locator(".mdp-frame:visible .mdp-forward").evaluate("e => e.tagName") == "SPAN", \
        "the last step still offers 'forward'"


def test_book_diagram_steps_back_and_forward_without_a_kernel_or_script(player):
    page, state = player
    assert not page.locator(".md-player .mdp-slider").is_visible(), \
        "without scripts the slider shows but cannot move the steps"
    n = len(state["svgs"])
    box = page.locator(".md-player .mdp-frame:visible svg.md-diagram:visible").bounding_box()
    assert box and box["width"] > 100 and box["height"] > 100, "the diagram is not visible"
    assert _shown(page)[0] == 1
    page.locator(".mdp-frame:visible .mdp-forward").click()
    page.locator(".mdp-frame:visible .mdp-forward").click()
    assert _shown(page)[0] == 3
    page.locator(".mdp-frame:visible .mdp-back").click()
    assert _shown(page)[0] == 2
    page.locator(f'.mdp-ticks label:text-is("{n}")').click()  # the slider: jump to the last step
    assert _shown(page)[0] == n
    page.keyboard.press("ArrowLeft")
    assert _shown(page)[0] == n - 1, "the left arrow key did not step back"
    page.keyboard.press("ArrowRight")
    assert _shown(page)[0] == n, "the right arrow key did not step forward"


def test_book_diagram_on_a_390_px_phone_is_rearranged_not_shrunk_and_shows_the_same_steps(player):
    page, state = player
    page.set_viewport_size({"width": 390, "height": 800})
    for i in range(len(state["svgs"])):
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the diagram page scrolls sideways on a phone ({width} px wide)"
        number, _statement, svg_text = _shown(page)
        assert (number, svg_text) == (i + 1, _text(state["svgs"][i]))
        svg = page.locator(".mdp-frame:visible svg.md-diagram:visible")
        assert svg.get_attribute("data-arrangement") != "wide", "the phone gets the wide arrangement, shrunk"
        box = svg.bounding_box()
        assert box["width"] > 300 and box["height"] > box["width"], \
            f"step {i + 1} on a phone is {box['width']:.0f}x{box['height']:.0f} px, not stacked to the width"
        if i < len(state["svgs"]) - 1:
            page.locator(".mdp-frame:visible .mdp-forward").click()


def _slider(page):
    return page.locator(".md-player .mdp-slider")


def test_book_diagram_slider_jumps_to_any_step_and_follows_back_and_forward(live_player):
    page, state = live_player
    n = len(state["svgs"])
    slider = _slider(page)
    assert slider.is_visible(), "the book's diagram has no slider"
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("1", str(n))
    assert slider.input_value() == "1"
    for k in [n, 2, 1, n - 1]:
        slider.fill(str(k))
        number, statement, svg_text = _shown(page)
        assert number == k, f"the slider set to {k} shows step {number}"
        assert (statement, svg_text) == (state["statements"][k - 1], _text(state["svgs"][k - 1]))
    page.locator(".mdp-frame:visible .mdp-forward").click()
    assert slider.input_value() == str(n), "the slider does not follow 'forward'"
    page.locator(".mdp-frame:visible .mdp-back").click()
    page.locator(".mdp-frame:visible .mdp-back").click()
    assert slider.input_value() == str(n - 2), "the slider does not follow 'back'"
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert _shown(page)[0] == n - 1 and slider.input_value() == str(n - 1), "the slider's own arrow key did not step"


def test_book_diagram_arrow_keys_step_whenever_the_player_has_the_focus(live_player):
    page, state = live_player
    n = len(state["svgs"])
    page.locator(".md-player .mdp-frame:visible svg.md-diagram:visible").click()  # a click on the picture
    assert page.evaluate("document.activeElement.classList.contains('md-player')"), \
        "clicking the picture does not give the player the focus"
    for k in range(2, n + 1):
        page.keyboard.press("ArrowRight")
        assert _shown(page)[0] == k, f"the right arrow key on the player did not go to step {k}"
    page.keyboard.press("ArrowRight")
    assert _shown(page)[0] == n, "the right arrow key went past the last step"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert _shown(page)[0] == n - 2, "the left arrow key on the player did not step back"
    assert _slider(page).input_value() == str(n - 2), "the slider does not follow the arrow keys"
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("ArrowLeft")
    assert _shown(page)[0] == n - 3, "after Tab back to the player, the left arrow key did not step back"
