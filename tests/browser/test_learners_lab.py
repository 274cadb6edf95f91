"""The learner's JupyterLab, as `make lab` starts it, in headless Chromium.

On a copy of course/ (so that saving is allowed): no news pop-up, none of
nbgrader's instructor interface, a chapter opened and closed untouched is not
marked modified, and a chapter run and saved shows its memory diagrams again
after the page is reloaded and the chapter reopened.
"""

import json
import urllib.error
import urllib.request

import pytest

from lab_page import ARTIFACTS, OUTPUTS_HOLD, RUN_ALL, WAIT_IDLE, open_in_lab, open_notebook

pytestmark = pytest.mark.browser

CHAPTER = "01_reading_memory_diagrams.ipynb"


# A diagram that answers a prediction (a %%answer cell) shows once its "Show it" is clicked.
SHOW_HELD_ANSWERS = "document.querySelectorAll('button.coursebook-answer-show').forEach(b => b.click()); "

def _run_until(page, printed, shown, attempts=4):
    """Run the notebook in front until its outputs hold ``printed``, then wait until ``shown`` (a
    locator) is visible. A run that meets a kernel still settling can end without running the
    cells (seen on a machine busy grading): its outputs then lack ``printed``, and it is run again
    as soon as the kernel is idle."""
    for _ in range(attempts):
        page.evaluate(WAIT_IDLE, 90_000)
        page.evaluate(RUN_ALL, 120_000)
        if page.evaluate(OUTPUTS_HOLD, printed):
            shown.wait_for(timeout=45_000)
            return
    raise AssertionError(f"{attempts} runs of the notebook in front printed no {printed!r}")


DIRTY = "() => window.jupyterapp.shell.currentWidget.context.model.dirty"


@pytest.fixture(scope="module")
def learners_lab(course_copy, learners_lab_on):
    """The lab as `make lab` starts it (no settings of ours: only binder/lab-settings), on a copy of
    course/; the kernels keep progress in course/.progress.json there."""
    root = course_copy
    with learners_lab_on(root, "learners-lab.log", our_settings=False,
                         progress=root / "course" / ".progress.json") as (base, token):
        yield root, base, token


def _open(page, base, token, name):
    open_notebook(page, base, token, f"course/{name}")


@pytest.fixture(scope="module")
def lab(learners_lab, browser):
    """One page for the module: JupyterLab is loaded once, with the index open, and each test opens
    its chapter in it as the file browser does (decision 0077). A test that proves something
    about a reloaded lab reloads it itself."""
    root, base, token = learners_lab
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    _open(page, base, token, "00_index.ipynb")
    yield page
    page.close()


def test_no_news_pop_up_and_no_nbgrader_instructor_interface(learners_lab, lab):
    root, base, token = learners_lab
    lab.wait_for_timeout(5000)  # the news question comes a moment after start-up
    assert lab.get_by_text("Jupyter news").count() == 0
    menus = lab.locator("#jp-menu-panel").inner_text()
    assert "Run" in menus and "Nbgrader" not in menus, menus
    commands = lab.evaluate("() => window.jupyterapp.commands.listCommands()")
    assert "notebook:run-all-cells" in commands
    assert not [c for c in commands if "nbgrader" in c.lower()], "nbgrader's lab commands are loaded"
    assert lab.locator("text=Create Assignment").count() == 0
    for path in ("formgrader", "assignments"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/{path}?token={token}", timeout=10)
        assert refused.value.code == 404, path
    lab.screenshot(path=str(ARTIFACTS / "learners-lab.png"))


def test_a_chapter_opened_and_closed_untouched_is_not_modified(learners_lab, lab):
    root, base, token = learners_lab
    path = root / "course" / "02_names_and_objects.ipynb"  # a chapter no other test here opens
    before = path.read_bytes()
    open_in_lab(lab, f"course/{path.name}")
    lab.wait_for_timeout(2000)  # the kernel's info has arrived and been applied
    assert lab.evaluate(DIRTY) is False
    lab.evaluate("() => window.jupyterapp.commands.execute('application:close')")
    lab.wait_for_timeout(500)
    assert lab.get_by_text("Save your work").count() == 0  # no "unsaved changes" dialog
    assert path.read_bytes() == before


def test_a_saved_chapter_shows_its_diagrams_after_reopening(learners_lab, lab):
    root, base, token = learners_lab
    open_in_lab(lab, f"course/{CHAPTER}")
    lab.evaluate(RUN_ALL, 120_000)
    lab.wait_for_function(
        "() => { " + SHOW_HELD_ANSWERS + "return document.querySelectorAll('.md-widget .md-figure svg').length >= 2; }",
        timeout=90_000)
    lab.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    lab.wait_for_function(f"!({DIRTY[6:]})", timeout=30_000)
    lab.evaluate("() => window.jupyterapp.commands.execute('application:close')")
    lab.goto("about:blank")  # the page is reloaded: the lab loads again, with only the chapter open
    _open(lab, base, token, CHAPTER)
    lab.wait_for_function(
        "() => { " + SHOW_HELD_ANSWERS + "return document.querySelectorAll('.md-widget .md-figure svg').length >= 2; }",
        timeout=60_000)
    assert lab.get_by_text("Error displaying widget").count() == 0
    lab.screenshot(path=str(ARTIFACTS / "learners-lab-reopened.png"), full_page=True)
    saved = (root / "course" / CHAPTER).read_text()
    assert "application/vnd.jupyter.widget-state+json" in saved


# The stub is found in the notebook's model (its cells' widgets may not all exist yet).
FILL_STUB = """(source) => {
    const cells = window.jupyterapp.shell.currentWidget.content.model.sharedModel.cells;
    const stub = cells.find((c) => c.getSource().includes('def my_contiguous_strides'));
    if (!stub) return false;
    stub.setSource(source);
    return true;
}"""


def test_a_build_it_cell_filled_and_checked_shows_as_done_in_the_index(learners_lab, lab):
    root, base, token = learners_lab
    answer = (
        "def my_contiguous_strides(shape):\n"
        "    strides, step = [], 1\n"
        "    for n in reversed(shape):\n"
        "        strides.append(step)\n"
        "        step *= max(n, 1)\n"
        "    return tuple(reversed(strides))\n"
    )
    page = lab
    open_in_lab(page, "course/03_storage_strides_views.ipynb")
    page.wait_for_function(FILL_STUB, arg=answer, timeout=30_000)
    passed = "All 6 cases pass: contiguous_strides is done."
    _run_until(page, passed, page.get_by_text(passed))
    page.evaluate("() => window.jupyterapp.commands.execute('application:close')")
    page.get_by_role("button", name="Discard").click(timeout=10_000)

    recorded = json.loads((root / "course" / ".progress.json").read_text())
    assert "contiguous_strides" in recorded["pieces"], recorded
    open_in_lab(page, "course/00_index.ipynb")  # as the learner goes on, in the same lab
    row = page.locator(".coursebook-progress tr", has_text="contiguous_strides")
    _run_until(page, "Build-it pieces:", row.get_by_text("done"))
    assert page.locator(".coursebook-progress tr", has_text="is_contiguous").get_by_text("done").count() == 0
    page.screenshot(path=str(ARTIFACTS / "learners-lab-progress.png"), full_page=True)
