"""The memory diagram in a real JupyterLab, in headless Chromium.

Opens course/01_reading_memory_diagrams.ipynb, runs every cell with the real kernel, and
reads the diagram back from the page: names, tensor boxes, arrows, covered
storage slots, change marks and the narration, while stepping with the
keyboard, the buttons and the slider. Screenshots go to tests/artifacts/.
"""

import pathlib

import pytest

pytestmark = pytest.mark.browser

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"

NOTEBOOK = REPO / "course" / "01_reading_memory_diagrams.ipynb"
STATIC = REPO / "src" / "memdiagram" / "static"


RUN_ALL = """async (timeout) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    await panel.sessionContext.ready;
    const started = Date.now();
    const ready = () => {
        const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
        return kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
    };
    while (!ready()) {
        if (Date.now() - started > timeout) throw new Error('the kernel never became idle');
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await app.commands.execute('notebook:run-all-cells');
}"""


def _step_widget(page):
    return page.locator(".md-widget").first


def _state(widget):
    """What the shown step draws, read from the DOM."""
    return widget.evaluate("""(root) => {
        const svg = root.querySelector('.md-figure svg.md-diagram');
        const all = (sel) => Array.from(svg.querySelectorAll(sel));
        return {
            step: root.dataset.step,
            names: all('g.md-name').map(g => g.dataset.name + '->' + g.dataset.target),
            tensors: all('g.md-tensor').map(g => g.dataset.label),
            arrows: all('path.md-arrow').length,
            covered: Object.fromEntries(all('g.md-view').map(g => [g.dataset.tensor,
                Array.from(g.querySelectorAll('rect.md-covered')).map(r => Number(r.dataset.slot))])),
            changed: all('g.md-changed').map(g => g.getAttribute('class').split(' ')[0]),
            changedCells: all('rect.md-changed-cell').length,
            nodes: all('g.md-node').map(g => g.dataset.name).sort(),
            leaves: all('g.md-leaf').length,
            edges: all('path.md-edge').length,
            narration: root.querySelector('.md-narration').textContent,
            title: svg.querySelector('title').textContent,
            aria: svg.getAttribute('aria-label'),
        };
    }""")


def test_course_notebook_runs_and_steps(lab, browser):
    base, token = lab
    before = NOTEBOOK.read_bytes()
    checkpoints = NOTEBOOK.parent / ".ipynb_checkpoints"
    checkpoint = checkpoints / (NOTEBOOK.stem + "-checkpoint.ipynb")
    had_checkpoints, had_checkpoint = checkpoints.exists(), checkpoint.exists()
    page = browser.new_page(viewport={"width": 1700, "height": 1100})
    try:
        page.goto(f"{base}/lab/tree/course/{NOTEBOOK.name}?token={token}")
        page.wait_for_selector(".jp-Notebook", timeout=90_000)
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=90_000)
        for attempt in range(2):  # a kernel can be replaced while Lab starts; then run again
            page.evaluate(RUN_ALL, 60_000)
            try:
                page.wait_for_function(
                    "document.querySelectorAll('.md-widget .md-figure svg').length >= 2", timeout=90_000)
                break
            except Exception:
                if attempt:
                    raise
        # show(): a static SVG output, no widget.
        assert page.locator(".jp-RenderedSVG").count() >= 1
        widget = _step_widget(page)
        widget.scroll_into_view_if_needed()

        s = _state(widget)
        assert s["step"] == "1"
        assert s["names"] == ["a->T1"] and s["tensors"] == ["T1"]
        assert s["covered"] == {"T1": [0, 1, 2, 3]}
        assert s["arrows"] == 2  # name -> tensor, tensor -> storage row
        assert s["narration"].startswith("Step 1 of 8: a = torch.tensor(")
        assert s["title"].startswith("Memory diagram, step 1 of 8") and s["aria"].startswith(s["title"])

        widget.locator(".md-figure").click()  # focus the widget, then use the keyboard
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        s = _state(widget)
        assert s["step"] == "3"
        assert s["names"] == ["a->T1", "b->T1", "v->T2"]
        assert s["covered"] == {"T1": [0, 1, 2, 3], "T2": [1, 2]}
        assert "md-tensor" in s["changed"] and "v = a[1:3]" in s["narration"]

        page.keyboard.press("ArrowRight")
        s = _state(widget)
        assert s["nodes"] == ["AccumulateGrad", "MulBackward0", "SliceBackward0", "SumBackward0"]
        # Slice->Acc, Sum->Mul, Mul->Acc twice (a * a), Acc->leaf
        assert s["leaves"] == 1 and s["edges"] == 5
        assert s["changed"].count("md-node") == 2

        page.keyboard.press("ArrowRight")
        s = _state(widget)
        assert s["step"] == "5"
        assert "md-counter" in s["changed"] and "md-storage" in s["changed"]
        assert s["changedCells"] == 2
        assert "went from 0 to 1" in s["narration"]
        # A screenshot of the stepped widget, big enough to hold it whole (used in the README).
        page.set_viewport_size({"width": 2100, "height": 2000})
        page.evaluate("window.jupyterapp.commands.execute('application:toggle-left-area')")
        widget.evaluate("(root) => root.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        widget.screenshot(path=str(ARTIFACTS / "memory-diagram-stepped.png"))
        widget.locator(".md-figure").click()

        page.keyboard.press("ArrowLeft")
        assert _state(widget)["step"] == "4"
        page.keyboard.press("End")
        s = _state(widget)
        assert s["step"] == "8" and "It raises RuntimeError" in s["narration"]
        widget.locator(".md-prev").click()
        assert _state(widget)["step"] == "7"
        widget.locator(".md-slider").fill("1")
        assert _state(widget)["step"] == "2"
        assert widget.locator(".md-statements li.md-current").inner_text().startswith("b = a")

        # The second diagram runs on reftorch: .data gets its own counter, detach() shares a's.
        second = page.locator(".md-widget").nth(1)
        second.locator(".md-figure").click()
        page.keyboard.press("End")
        s = _state(second)
        assert s["step"] == "4" and "Version counter C2 went from 0 to 1" in s["narration"]
        page.screenshot(path=str(ARTIFACTS / "memory-diagram-lab-page.png"), full_page=True)
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "memory-diagram-failure.png"), full_page=True)
        raise
    finally:
        page.close()
        # Running the notebook must not have written it back.
        assert NOTEBOOK.read_bytes() == before
        # Lab may have made a checkpoint of it: remove that, and the folder if we created it.
        if checkpoint.exists() and not had_checkpoint:
            checkpoint.unlink()
        if checkpoints.exists() and not had_checkpoints and not any(checkpoints.iterdir()):
            checkpoints.rmdir()


def test_stepping_needs_no_kernel(browser):
    """The widget's own code, in a bare page with a stand-in model and no Jupyter at all."""
    from memdiagram import step_through
    import torch

    w = step_through(["a = torch.ones(3)", "v = a[1:]", "v.add_(1)"], torch=torch)
    page = browser.new_page()
    try:
        page.set_content(f"<style>{(STATIC / 'widget.css').read_text()}</style><div id='host'></div>")
        page.evaluate("""async ([esm, state]) => {
            const url = URL.createObjectURL(new Blob([esm], {type: 'text/javascript'}));
            const widget = (await import(url)).default;
            const handlers = {};
            const model = {
                get: (k) => state[k],
                set: (k, v) => { state[k] = v; },
                save_changes: () => { throw new Error('no kernel here'); },
                on: (e, f) => { handlers[e] = f; }, off: () => {},
            };
            widget.render({model, el: document.getElementById('host')});
        }""", [w._esm, {"svgs": w.svgs, "narrations": w.narrations, "statements": w.statements, "step": 0}])
        root = page.locator(".md-widget")
        root.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert root.get_attribute("data-step") == "3"
        assert page.locator("g.md-counter.md-changed").count() == 1
        assert page.locator(".md-narration").inner_text().startswith("Step 3 of 3: v.add_(1)")
        page.keyboard.press("Home")
        assert root.get_attribute("data-step") == "1"
    finally:
        page.close()
