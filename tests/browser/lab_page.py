"""Driving a notebook in the learner's JupyterLab page, for the browser tests.

The lab runs with ``--LabApp.expose_app_in_browser`` (tests/conftest.py), so the
page holds ``window.jupyterapp``; through it these open a notebook, wait for its
kernel and run every cell. The lab itself is started by the fixtures of
tests/browser/conftest.py.
"""

import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"  # screenshots and the labs' logs

# Wait until the notebook in front is loaded and its kernel connected and idle.
WAIT_IDLE = """async (timeout) => {
    const panel = window.jupyterapp.shell.currentWidget;
    await panel.context.ready;
    await panel.sessionContext.ready;
    const started = Date.now();
    for (;;) {
        const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
        if (kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle') return;
        if (Date.now() - started > timeout) throw new Error('the kernel never became idle');
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
}"""

# Run every cell of the notebook in front and wait until the run ends. The command finds its
# notebook through the notebook tracker, which may not have caught up with a page that has
# just loaded: it then does nothing and returns nothing, and is asked again. (Its true or false
# is not a verdict on the cells: a run that meets a kernel still settling can say false. The
# tests read the outputs.)
RUN_ALL = """async (timeout) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    const started = Date.now();
    for (;;) {
        app.shell.activateById(panel.id);
        const ran = await app.commands.execute('notebook:run-all-cells');
        if (ran !== undefined) return;
        if (Date.now() - started > timeout) throw new Error('run-all never started');
        await new Promise((resolve) => setTimeout(resolve, 500));
    }
}"""

def on_screen(picture, more=""):
    """JS ``(root) => {...}`` that measures a memory-diagram widget: ``view``, the part of the
    window the notebook shows, the ``widget``'s box, ``more`` (fields of JS) and the boxes of its
    ``parts`` (the controls, the picture at the selector ``picture``, the narration), each
    ``[left, top, right, bottom]`` in the window."""
    return """(root) => {
    const notebook = root.closest('.jp-WindowedPanel-outer') || root.closest('.jp-Notebook');
    const n = notebook.getBoundingClientRect();
    const view = [Math.max(0, n.left), Math.max(0, n.top),
                  Math.min(window.innerWidth, n.right), Math.min(window.innerHeight, n.bottom)];
    const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    return {
        view, widget: box(root),""" + more + """
        parts: {
            controls: box(root.querySelector('.md-controls')),
            picture: box(root.querySelector('""" + picture + """')),
            narration: box(root.querySelector('.md-narration')),
        },
    };
}"""


# Wait until the kernel of the notebook in front is connected and idle, then run every cell once.
RUN_ALL_WHEN_IDLE = """async (timeout) => {
    await (""" + WAIT_IDLE + """)(timeout);
    await window.jupyterapp.commands.execute('notebook:run-all-cells');
}"""



def scroll_to_top(page, widget, on_screen_js):
    """Scroll the notebook until the widget's top is at the top of what the learner sees (cells above
    it may change height as the windowed notebook renders them: scroll again until it stays).
    ``on_screen_js``: what ``on_screen`` made, measuring ``widget``."""
    for _ in range(10):
        widget.evaluate("(root) => root.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        measured = widget.evaluate(on_screen_js)
        if abs(measured["widget"][1] - measured["view"][1]) < 2:
            return
    raise AssertionError(f"the widget never stayed scrolled into view: {measured}")


def open_notebook(page, base, token, path):
    """Load the lab in the page with ``path`` (relative to the lab's root) the only notebook open
    (an empty workspace: no chapter of an earlier page is restored, nor its kernel asked for), and
    wait until it is the notebook in front and its kernel is idle."""
    page.goto(f"{base}/lab/tree/{path}?reset&token={token}")
    _wait_in_front(page, path)


def open_in_lab(page, path):
    """Open ``path`` in the lab the page already shows, as the file browser opens a file (the lab
    is not loaded again), and wait until it is the notebook in front and its kernel is idle."""
    page.evaluate("async (path) => { await window.jupyterapp.commands.execute('docmanager:open', {path}); }", path)
    _wait_in_front(page, path)


def _wait_in_front(page, path):
    page.wait_for_function(
        """(path) => { const app = window.jupyterapp; const w = app && app.shell.currentWidget;
                       return !!(w && w.context && w.context.path === path); }""",
        arg=path, timeout=90_000)
    page.evaluate(WAIT_IDLE, 90_000)


# Whether an output of the notebook in front holds ``text``: in its model, what the kernel sent,
# drawn in the page or not yet.
OUTPUTS_HOLD = """(text) => {
    const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
    for (let i = 0; i < cells.length; i++) {
        const cell = cells.get(i);
        if (cell.type === 'code' && JSON.stringify(cell.outputs.toJSON()).includes(text)) return true;
    }
    return false;
}"""


def show_notebook(page, base, token, path):
    """Open ``path`` alone (an empty workspace) and wait until it is shown and the execution
    indicator of its toolbar says idle."""
    page.goto(f"{base}/lab/tree/{path}?reset&token={token}")
    page.wait_for_selector(".jp-Notebook:visible", timeout=90_000)
    # (narrow windows fold the toolbar, hiding the indicator: attached is enough)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", state="attached",
                           timeout=90_000)


def off_screen(measured):
    """The parts of a measured widget (``{"view": box, "parts": {name: box}}``, boxes as left, top,
    right, bottom) that stick out of the view, by name, rounded to pixels."""
    left, top, right, bottom = measured["view"]
    return {name: [round(v) for v in box] for name, box in measured["parts"].items()
            if box[0] < left - 0.5 or box[1] < top - 0.5 or box[2] > right + 0.5 or box[3] > bottom + 0.5}
