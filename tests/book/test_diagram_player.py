"""Chapter 01's stepping diagram as the book shows it: no kernel, no script, same steps.

Chapter 01 is executed the way ``make book`` executes it (``booksite.build``:
a copy in a build folder, nbclient keeping the widget state), and its first
``step_through`` output's ``text/html`` player is opened in headless Chromium
with every request that is not a local file or loopback blocked. The page
has no kernel and no script. The test steps with forward, back, the step
buttons (the slider) and the arrow keys, and checks at every step that the
picture shown is the one the notebook's widget holds for that step (the
widget's saved state, i.e. what the learner sees when running the chapter).
"""

import pathlib
import shutil
import xml.etree.ElementTree as ET

import nbformat
import pytest

from booksite.build import WIDGET_VIEW, execute, widget_states

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


@pytest.fixture
def player(browser, chapter_01, tmp_path):
    state, html = chapter_01
    page_file = tmp_path / "player.html"
    page_file.write_text(f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
                         f'<meta name="viewport" content="width=device-width"><title>player</title></head>'
                         f'<body>{html}</body></html>', encoding="utf-8")
    context = browser.new_context(viewport={"width": 1000, "height": 900}, java_script_enabled=False)
    blocked = []

    def only_local(route):
        url = route.request.url
        if url.startswith("file://") or url.startswith(("http://127.0.0.1", "http://localhost")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    page.goto(page_file.as_uri())
    yield page, state
    context.close()
    assert blocked == [], f"the diagram page asked the network for {blocked}"


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
