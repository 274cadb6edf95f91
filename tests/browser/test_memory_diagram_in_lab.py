"""The memory diagram in a real JupyterLab, in headless Chromium.

Opens course/01_reading_memory_diagrams.ipynb, runs every cell with the real kernel, and
reads the diagram back from the page: names, tensor boxes, arrows, covered
storage slots, change marks and the narration, while stepping with the
keyboard, the buttons and the slider.

Then, at 800 and 1100 px wide with the file browser open, every step of every
diagram must fit its output area (nothing scrolls sideways), be arranged as
``memdiagram._layout.fit`` says for the width it got, and have no label that
overlaps another or leaves its box, measured with getBBox() on the real fonts.
A demo notebook whose last step runs backward (written into tests/artifacts/)
gives the screenshots of docs/images/. Screenshots go to tests/artifacts/.
"""

import json

import nbformat
import pytest

from lab_page import ARTIFACTS, REPO, RUN_ALL_WHEN_IDLE, off_screen, on_screen, scroll_to_top, show_notebook
from memdiagram._geometry import label_problems
from memdiagram._layout import fit

pytestmark = pytest.mark.browser

NOTEBOOK = REPO / "course" / "01_reading_memory_diagrams.ipynb"
STATIC = REPO / "src" / "memdiagram" / "static"
DEMO = ARTIFACTS / "memory-diagram-demo.ipynb"
DEMO_PROGRAM = [
    "a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)",
    "b = a",
    "v = a[1:3]",
    "y = (a * a).sum()",
    "k = a.clone()",
    "d = a.detach()",
    "y.backward()",
]


# A diagram that answers a prediction (a %%answer cell) shows once its "Show it" is clicked.
SHOW_HELD_ANSWERS = "document.querySelectorAll('button.coursebook-answer-show').forEach(b => b.click()); "

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
            grads: all('g.md-grad').map(g => g.dataset.tensor + '->' + g.dataset.grad),
            covered: Object.fromEntries(all('g.md-view').map(g => [g.dataset.tensor,
                Array.from(g.querySelectorAll('rect.md-covered')).map(r => Number(r.dataset.slot))])),
            changed: all('g.md-changed').map(g => g.getAttribute('class').split(' ')[0]),
            changedCells: all('rect.md-changed-cell').length,
            nodes: all('g.md-node').map(g => g.dataset.name).sort(),
            saved: Object.fromEntries(all('g.md-node').map(g => [g.dataset.label, g.dataset.saved])),
            leaves: all('g.md-leaf').length,
            edges: all('path.md-edge').length,
            narration: root.querySelector('.md-now').textContent,
            fullState: root.querySelector('.md-state-body').textContent,
            stateOpen: root.querySelector('details.md-state').open,
            title: svg.querySelector('title').textContent,
            aria: svg.getAttribute('aria-label'),
        };
    }""")


# Every label and box of the shown figure, measured: getBBox() mapped by getCTM() into the
# figure's pixels. The same items memdiagram._geometry.svg_items estimates from the SVG text.
MEASURE = """(root) => {
    const svg = root.querySelector('.md-figure svg.md-diagram');
    const items = [];
    const place = (el) => {
        const b = el.getBBox(), m = el.getCTM();
        const xs = [], ys = [];
        for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                              [b.x + b.width, b.y + b.height]]) {
            xs.push(m.a * x + m.c * y + m.e);
            ys.push(m.b * x + m.d * y + m.f);
        }
        return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    };
    const add = (kind, el, frames, label, filled, opaque) => {
        items.push({kind, box: place(el), id: items.length, order: items.length, frames: frames.slice(),
                    label, filled, opaque});
        return items.length - 1;
    };
    const visit = (el, frames) => {
        const tag = el.tagName.toLowerCase();
        if (['title', 'desc', 'defs'].includes(tag) || el.getAttribute('display') === 'none') return;
        if (tag === 'text') { add('text', el, frames, el.textContent, true, true); return; }
        if (tag === 'g') {
            const frame = Array.from(el.children).find(
                (c) => c.tagName.toLowerCase() === 'rect' && c.classList.contains('md-frame'));
            if (frame) {
                const filled = getComputedStyle(frame).fill !== 'none';
                const id = add('frame', frame, frames, el.getAttribute('class'), filled,
                               el.classList.contains('md-badge'));
                frames = [id, ...frames];
            }
        } else if (tag === 'rect' && el.classList.contains('md-change-outline')) {
            add('outline', el, frames, 'outline', false, false);
        }
        for (const child of el.children) visit(child, frames);
    };
    visit(svg, []);
    return items;
}"""

# How the figure sits in its output area, and how the widget arranged it.
PLACEMENT = """(root) => {
    const output = root.closest('.jp-OutputArea-output');
    const figure = root.querySelector('.md-figure');
    const svg = figure.querySelector('svg.md-diagram');
    const graph = svg.querySelector('g.md-panel-graph').getBoundingClientRect();
    const area = output.getBoundingClientRect();
    const notebook = root.closest('.jp-WindowedPanel-outer') || root.closest('.jp-Notebook');
    const panels = Object.fromEntries(Array.from(svg.querySelectorAll('g.md-panel')).map(
        (g) => [g.dataset.panel, g.getAttribute('transform')]));
    return {
        output: [output.scrollWidth, output.clientWidth],
        notebook: [notebook.scrollWidth, notebook.clientWidth],
        widget: [root.scrollWidth, root.clientWidth],
        figureWidth: figure.clientWidth,
        fitWidth: Number(svg.dataset.fitWidth),
        shown: svg.getBoundingClientRect().width,
        oneColumn: !root.classList.contains('md-beside'),
        svg: [Number(svg.getAttribute('width')), Number(svg.getAttribute('height'))],
        viewBox: svg.getAttribute('viewBox'),
        graphRight: graph.right, areaRight: area.right,
        arrangement: svg.dataset.arrangement,
        arrangements: JSON.parse(svg.dataset.arrangements),
        panels,
        arrowsShown: svg.querySelector('g.md-storage-arrows').getAttribute('display') !== 'none',
    };
}"""


def _transform(x, y, scale):
    return f"translate({round(x)},{round(y)})" + ("" if scale == 1 else f" scale({scale:.4f})")


def _run_notebook(page, base, token, path, widgets):
    show_notebook(page, base, token, path)
    for attempt in range(2):  # a kernel can be replaced while Lab starts; then run again
        page.evaluate(RUN_ALL_WHEN_IDLE, 60_000)
        try:
            page.wait_for_function(
                "() => { " + SHOW_HELD_ANSWERS + f"return document.querySelectorAll('.md-widget .md-figure svg').length >= {widgets}; }}", timeout=90_000)
            break
        except Exception:
            if attempt:
                raise


class _Unchanged:
    """Running a notebook in Lab must not write it back; a checkpoint Lab made is removed."""

    def __init__(self, path):
        self.path = path
        self.checkpoints = path.parent / ".ipynb_checkpoints"
        self.checkpoint = self.checkpoints / (path.stem + "-checkpoint.ipynb")

    def __enter__(self):
        self.before = self.path.read_bytes()
        self.had = self.checkpoints.exists(), self.checkpoint.exists()
        return self

    def __exit__(self, *exc):
        assert self.path.read_bytes() == self.before
        if self.checkpoint.exists() and not self.had[1]:
            self.checkpoint.unlink()
        if self.checkpoints.exists() and not self.had[0] and not any(self.checkpoints.iterdir()):
            self.checkpoints.rmdir()


def test_course_notebook_runs_and_steps(lab, browser):
    base, token = lab
    page = browser.new_page(viewport={"width": 1700, "height": 1100})
    try:
        with _Unchanged(NOTEBOOK):
            _run_notebook(page, base, token, f"course/{NOTEBOOK.name}", 2)
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
            assert "made a new tensor object T1 (a) with new memory S1 (16 bytes)" in s["narration"]
            assert s["fullState"].startswith("Tensor T1 (a): shape [4]") and not s["stateOpen"]
            assert s["title"].startswith("Memory diagram, step 1 of 8") and s["aria"].startswith(s["title"])

            widget.locator(".md-figure").click()  # focus the widget, then use the keyboard
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            s = _state(widget)
            assert s["step"] == "3"
            assert s["names"] == ["a->T1", "b->T1", "v->T2"]
            assert s["covered"] == {"T1": [0, 1, 2, 3], "T2": [1, 2]}
            assert "md-tensor" in s["changed"]
            assert "v = a[1:3] made a new tensor object T2 (v), a view of T1 (a, b)" in s["narration"]

            page.keyboard.press("ArrowRight")
            s = _state(widget)
            assert s["nodes"] == ["AccumulateGrad", "MulBackward0", "SliceBackward0", "SumBackward0"]
            # Slice->Acc, Sum->Mul, Mul->Acc twice (a * a), Acc->leaf
            assert s["leaves"] == 1 and s["edges"] == 5
            assert s["changed"].count("md-node") == 2
            assert "kept" in s["saved"].values()

            # The full state opens on a click and stays open while stepping.
            widget.locator("details.md-state summary").click()
            widget.locator(".md-figure").click()
            page.keyboard.press("ArrowRight")
            s = _state(widget)
            assert s["step"] == "5" and s["stateOpen"]
            assert "md-counter" in s["changed"] and "md-storage" in s["changed"]
            assert s["changedCells"] == 2
            assert "went from 0 to 1" in s["narration"] and "Tensor T1" not in s["narration"]
            assert "modified" in s["saved"].values()
            assert "had saved a tensor that this step modified in place" in s["narration"]

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

            # The second diagram runs on reftorch: r = c[0] is a view of the clone c, so writing r moves C2.
            second = page.locator(".md-widget").nth(1)
            second.locator(".md-figure").click()
            page.keyboard.press("End")
            s = _state(second)
            assert s["step"] == "4" and "Version counter C2 of T2 (c) and T3 (r) went from 0 to 1" in s["narration"]
            page.screenshot(path=str(ARTIFACTS / "memory-diagram-lab-page.png"), full_page=True)
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "memory-diagram-failure.png"), full_page=True)
        raise
    finally:
        page.close()


def _write_demo(width):
    """A notebook whose diagram ends with a backward pass that fills a.grad and frees the graph;
    one file per width, so the lab never saves one test's open copy over the next test's file."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import torch\nfrom memdiagram import step_through"),
                nbformat.v4.new_code_cell(f"step_through({json.dumps(DEMO_PROGRAM, indent=4)}, torch=torch)")]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = DEMO.with_name(f"{DEMO.stem}-{width}.ipynb")
    nbformat.write(nb, path)
    return path


def _check_every_step(page, widget, width):
    """Step through one widget: nothing cut off, arranged as memdiagram says, no label hidden."""
    count = widget.locator(".md-statements li").count()
    for step in range(count):
        widget.locator(f".md-statements li[data-step='{step}']").click()
        page.wait_for_timeout(50)
        where = f"{width}px, step {step + 1}"
        p = widget.evaluate(PLACEMENT)
        assert p["output"][0] <= p["output"][1], f"{where}: the output area scrolls sideways {p['output']}"
        assert p["notebook"][0] <= p["notebook"][1], f"{where}: the notebook scrolls sideways"
        assert p["widget"][0] <= p["widget"][1], f"{where}: the widget is wider than its area"
        # Fitted to the widget's width (the figure's, in one column); beside the narration it is drawn smaller.
        assert p["svg"][0] <= p["fitWidth"], f"{where}: the figure is wider than the widget"
        assert p["shown"] <= p["figureWidth"] + 0.5, f"{where}: the figure is wider than its frame"
        assert not p["oneColumn"] or p["fitWidth"] == p["figureWidth"], where
        assert p["graphRight"] <= p["areaRight"] + 1, f"{where}: the autograd panel is cut off"
        expected = fit(p["arrangements"], p["fitWidth"])
        assert p["arrangement"] == expected.name, where
        assert p["panels"] == {k: _transform(*v) for k, v in expected.panels.items()}, where
        assert abs(p["svg"][0] - int(round(expected.width) * expected.scale)) <= 1, where
        assert p["arrowsShown"] == expected.arrows, where
        problems = label_problems(widget.evaluate(MEASURE))
        assert not problems, f"{where}: {problems[:3]}"
    return count


@pytest.mark.parametrize("width", [800, 1100])
def test_every_step_fits_and_no_label_hides_with_the_file_browser_open(lab, browser, width):
    base, token = lab
    page = browser.new_page(viewport={"width": width, "height": 1000})
    try:
        with _Unchanged(NOTEBOOK):
            _run_notebook(page, base, token, f"course/{NOTEBOOK.name}", 2)
            assert page.locator("#filebrowser").is_visible()
            for i in range(2):
                widget = page.locator(".md-widget").nth(i)
                widget.scroll_into_view_if_needed()
                assert _check_every_step(page, widget, width) in (8, 4)
            # JupyterLab gives the output about 370 px at 800 and 670 px at 1100: the graph is not
            # beside the storages any more (at 1100 px that was cut off before).
            arrangement = page.locator(".md-widget svg.md-diagram").first.get_attribute("data-arrangement")
            assert arrangement in {800: ("stacked",), 1100: ("graph-below", "stacked")}[width]
    except Exception:
        page.screenshot(path=str(ARTIFACTS / f"memory-diagram-failure-{width}.png"), full_page=True)
        raise
    finally:
        page.close()


@pytest.mark.parametrize("width", [800, 1400])
def test_backward_demo_fits_and_gives_the_screenshots(lab, browser, width):
    """The demo's last step: a.grad filled, MulBackward0's saved tensors freed. Its pictures are
    docs/images/memory-diagram-1400.png, -800.png and (the widget alone at 1400) memory-diagram.png."""
    base, token = lab
    demo = _write_demo(width)
    page = browser.new_page(viewport={"width": width, "height": 1100})
    try:
        with _Unchanged(demo):
            _run_notebook(page, base, token, demo.relative_to(REPO).as_posix(), 1)
            assert page.locator("#filebrowser").is_visible()
            widget = _step_widget(page)
            widget.scroll_into_view_if_needed()
            assert _check_every_step(page, widget, width) == len(DEMO_PROGRAM)
            s = _state(widget)  # the last step is shown
            assert s["step"] == str(len(DEMO_PROGRAM))
            assert s["grads"] == ["T1->T6"] and "freed" in s["saved"].values()
            assert "y.backward() filled a.grad: a new tensor T6 with new memory S4, holding [2, 4, 6, 8]" \
                in s["narration"]
            assert "a second backward through it would raise" in s["narration"]
            page.evaluate("window.jupyterapp.commands.execute('filebrowser:go-to-path', {path: '/course'})")
            widget.evaluate("(root) => root.querySelector('.md-figure').scrollIntoView({block: 'start'})")
            page.evaluate("() => { const n = document.querySelector('.jp-WindowedPanel-outer');"
                          " if (n) n.scrollTop -= 150; }")
            page.wait_for_timeout(300)
            page.screenshot(path=str(ARTIFACTS / f"memory-diagram-{width}.png"))
            if width == 1400:  # the widget whole, for the README
                page.set_viewport_size({"width": 1400, "height": 2400})
                widget.evaluate("(root) => root.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(300)
                widget.screenshot(path=str(ARTIFACTS / "memory-diagram.png"))
    except Exception:
        page.screenshot(path=str(ARTIFACTS / f"memory-diagram-failure-demo-{width}.png"), full_page=True)
        raise
    finally:
        page.close()


def _bare_widget(page, w, host_width, html=True):
    """The widget's own code in a bare page: a stand-in model, no Jupyter, no kernel."""
    page.set_content(f"<style>{(STATIC / 'widget.css').read_text()}</style>"
                     f"<div id='host' style='width:{host_width}px'></div>")
    state = {"svgs": w.svgs, "narrations": w.narrations, "statements": w.statements, "step": 0}
    if html:
        state.update(changes_html=w.changes_html, state_html=w.state_html)
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
    }""", [w._esm, state])
    return page.locator(".md-widget")


@pytest.mark.parametrize("html", [True, False], ids=["html", "saved-by-an-older-version"])
def test_stepping_needs_no_kernel(browser, html):
    from memdiagram import step_through
    import torch

    w = step_through(["a = torch.ones(3)", "v = a[1:]", "v.add_(1)"], torch=torch)
    page = browser.new_page()
    try:
        root = _bare_widget(page, w, 1000, html)
        root.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert root.get_attribute("data-step") == "3"
        assert page.locator("g.md-counter.md-changed").count() == 1
        assert page.locator(".md-now").inner_text().startswith("Step 3 of 3: v.add_(1)")
        assert "Slots 1, 2 of S1 changed (1 → 2, 1 → 2)" in page.locator(".md-now").inner_text()
        assert page.locator("details.md-state").is_visible() is html
        if html:
            assert page.locator(".md-now code").count() >= 2  # the statement, and code in the prose
            assert page.locator(".md-now").evaluate("(e) => getComputedStyle(e).fontFamily").find("mono") < 0
        page.keyboard.press("Home")
        assert root.get_attribute("data-step") == "1"
    finally:
        page.close()


def test_widget_refits_when_its_width_changes(browser):
    from memdiagram import step_through
    import torch

    w = step_through(DEMO_PROGRAM, torch=torch, start=len(DEMO_PROGRAM))
    page = browser.new_page(viewport={"width": 1600, "height": 900})
    try:
        root = _bare_widget(page, w, 1500)
        seen = []
        for width in (1500, 1000, 700, 400, 300, 1200):
            page.evaluate(f"document.getElementById('host').style.width = '{width}px'")
            page.wait_for_timeout(150)  # ResizeObserver runs before the next frame
            p = root.evaluate("""(root) => {
                const figure = root.querySelector('.md-figure');
                const svg = figure.querySelector('svg.md-diagram');
                return [Number(svg.dataset.fitWidth), svg.dataset.arrangement, Number(svg.getAttribute('width')),
                        JSON.parse(svg.dataset.arrangements), root.clientWidth];
            }""")
            inner, arrangement, svg_width, options, outer = p
            assert outer - 4 <= inner <= outer  # fitted to the widget's width, less the figure's border
            assert arrangement == fit(options, inner).name and svg_width <= inner
            seen.append(arrangement)
        assert seen[0] == "wide" and seen[-2] == "stacked" and len(set(seen)) >= 3
    finally:
        page.close()


# Course diagrams at the widths of JupyterLab's output area (1400, 1100 and 800 px with the file
# browser open) and wide; the harder programs (very long names) wide and at 700 px: narrower, their
# tensor boxes shrink below 6 px text, where Chromium rounds font sizes and no layout stays exact.
COURSE_WIDTHS, HARD_WIDTHS = (2000, 966, 666, 366), (2000, 700)


def _programs():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "diagram_programs", REPO / "tests" / "diagrams" / "diagram_programs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    programs = {name: (statements, namespace, library, COURSE_WIDTHS)
                for name, (statements, namespace, library) in module.course_programs().items()}
    programs.update({name: (statements, None, "torch", HARD_WIDTHS) for name, statements in module.HARD.items()})
    return programs


def test_real_label_boxes_never_overlap_or_spill(browser):
    """Every step of every course diagram and of the harder programs, measured with getBBox()
    on the fonts Chromium really uses, at several widths."""
    import reftorch
    import torch

    from memdiagram import build_steps
    from memdiagram._svg import fit_svg

    page = browser.new_page(viewport={"width": 2100, "height": 1200})
    checked = 0
    try:
        for name, (statements, namespace, library, widths) in _programs().items():
            lib = {"torch": torch, "reftorch": reftorch}[library]
            # every step at every width, one figure under the other in one page, each measured alone
            shown = [(step, width, svg) for step, svg in enumerate(build_steps(statements, lib, namespace)[2], 1)
                     for width in widths]
            page.set_content("".join(f"<div class='md-widget'><div class='md-figure'>{fit_svg(svg, width)}"
                                     "</div></div>" for _, width, svg in shown))
            measured = page.locator(".md-widget").evaluate_all(f"(roots) => roots.map({MEASURE})")
            assert len(measured) == len(shown)
            for (step, width, _), items in zip(shown, measured):
                problems = label_problems(items)
                assert not problems, f"{name} step {step} at {width}px: {problems[:3]}"
                checked += 1
        fonts = page.evaluate("() => document.fonts.check('12px \"DejaVu Sans Mono\"')")
        assert fonts, "the diagram's font is not installed: the boxes were measured on another"
    finally:
        page.close()
    assert checked > 100


# Where the parts of the widget are, against what the learner sees: the window, and the notebook's
# own scrolling area (under the toolbar, above the status bar).
# The boxes' text (the labels drawn at the diagram's own font size, not the smaller notes under
# them) as drawn on screen, in pixels: its font size times the scale from the SVG to the screen.
SMALLEST_TEXT_JS = """((root) => {
    const sizes = [...root.querySelectorAll('.md-figure svg.md-diagram text:not([font-size])')]
        .filter((t) => t.getBBox().width > 0)
        .map((t) => parseFloat(getComputedStyle(t).fontSize) * Math.abs(t.getScreenCTM().a));
    return sizes.length ? Math.min(...sizes) : 0;
})"""

# The picture's box is its frame: a tall picture scrolls in it. ``scale``: how much smaller than
# fitted to the width the picture is drawn, to fit the height.
ON_SCREEN = on_screen(".md-figure", """
        scale: Number(root.querySelector('.md-figure svg.md-diagram').dataset.heightScale),
        text: (""" + SMALLEST_TEXT_JS + """)(root),""")


def test_controls_picture_and_narration_are_on_a_laptop_screen_together(lab, browser):
    """1366x768 with the file browser open: the boxes' text is drawn at 12 px at least, and once the
    widget is scrolled into view, stepping needs no page scrolling (a picture taller than the room
    left scrolls in its own frame). Every step of both diagrams of chapter 01, with the buttons, the
    keyboard and the slider."""
    base, token = lab
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    try:
        with _Unchanged(NOTEBOOK):
            _run_notebook(page, base, token, f"course/{NOTEBOOK.name}", 2)
            assert page.locator("#filebrowser").is_visible()
            heights, scales, texts = [], [], []
            for i in range(2):
                widget = page.locator(".md-widget").nth(i)
                scroll_to_top(page, widget, ON_SCREEN)
                count = widget.locator(".md-statements li").count()
                for step in range(1, count + 1):
                    if step > 1:
                        widget.locator(".md-next").click()
                    assert widget.get_attribute("data-step") == str(step)
                    page.wait_for_timeout(50)
                    measured = widget.evaluate(ON_SCREEN)
                    heights.append(measured["widget"][3] - measured["widget"][1])
                    scales.append(measured["scale"])
                    assert measured["text"] >= 12 - 0.05, (f"diagram {i + 1}, step {step}: the boxes' text is "
                                                           f"{measured['text']:.1f} px, too small to read")
                    texts.append(measured["text"])
                    off = off_screen(measured)
                    assert not off, (f"diagram {i + 1}, step {step}: the learner must scroll to see {sorted(off)} "
                                     f"(visible area {[round(v) for v in measured['view']]}, {off})")
                # The keyboard and the slider still step, and what they show is still on screen.
                widget.locator(".md-figure").click()
                page.keyboard.press("Home")
                page.keyboard.press("ArrowRight")
                assert widget.get_attribute("data-step") == "2"
                widget.locator(".md-slider").fill(str(count - 1))
                assert widget.get_attribute("data-step") == str(count)
                after = widget.evaluate(ON_SCREEN)
                assert not off_screen(after), f"diagram {i + 1} after the slider: {off_screen(after)} in {after['view']}"
                page.screenshot(path=str(ARTIFACTS / f"memory-diagram-1366x768-{i + 1}.png"))
            print(f"memory diagram heights at 1366x768: {min(heights):.0f} to {max(heights):.0f} px, "
                  f"picture drawn at {min(scales):.2f} to {max(scales):.2f}, boxes' text at least {min(texts):.1f} px")
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "memory-diagram-failure-1366.png"))
        raise
    finally:
        page.close()


def test_picture_goes_beside_the_narration_only_when_the_window_is_too_low(browser):
    """A tall window: one column, the picture as fitted to the width. A low one: the statements and
    narration beside a smaller picture, or, when the picture is too wide for that with its text at
    12 px, the picture scrolling in its own frame above them; and back when the window is tall again."""
    from memdiagram import step_through
    import torch

    w = step_through(DEMO_PROGRAM, torch=torch, start=len(DEMO_PROGRAM))
    page = browser.new_page(viewport={"width": 1100, "height": 2000})
    try:
        root = _bare_widget(page, w, 1000)
        layout = """(root) => {
            const svg = root.querySelector('.md-figure svg.md-diagram');
            const r = svg.getBoundingClientRect(), n = root.querySelector('.md-narration').getBoundingClientRect();
            return {beside: root.classList.contains('md-beside'), scale: Number(svg.dataset.heightScale),
                    text: (""" + SMALLEST_TEXT_JS + """)(root),
                    width: r.width, attribute: Number(svg.getAttribute('width')), bottom: root.getBoundingClientRect().bottom,
                    narrationLeft: n.left, pictureRight: r.right,
                    frameScrolls: getComputedStyle(root.querySelector('.md-figure')).overflowY === 'auto'};
        }"""
        seen = []
        for height in (2000, 640, 2000):
            page.set_viewport_size({"width": 1100, "height": height})
            page.wait_for_timeout(150)
            seen.append(root.evaluate(layout))
        tall, low, tall_again = seen
        assert not tall["beside"] and tall["scale"] == 1 and abs(tall["width"] - tall["attribute"]) < 1
        assert low["text"] >= 12 - 0.05, f"the boxes' text is {low['text']:.1f} px in a low window"
        if low["beside"]:
            assert low["scale"] <= 1 and low["narrationLeft"] >= low["pictureRight"], low
        else:  # too wide for the narration beside it at readable text: it scrolls in its own frame
            assert low["frameScrolls"], low
        assert low["bottom"] <= 640, f"the widget is {low['bottom']:.0f} px tall in a 640 px window"
        assert tall_again == tall
    finally:
        page.close()
