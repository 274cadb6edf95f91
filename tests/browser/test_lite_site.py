"""The JupyterLite site (``make lite``), opened in headless Chromium from a server on loopback.

The session fixture runs what ``make lite`` runs: ``python -m lite download``
(npm and PyPI, skipped for what ``.lite-cache/`` already holds), then ``python
-m lite build`` in a network namespace that has only loopback (``unshare -n``).
The site is served from ``_build/lite`` on 127.0.0.1 and opened in one page;
each test opens its notebook there with a new kernel, the one before closed and
its kernel shut down. Every request to any other host fails in Chromium and is
recorded, and so is every failed request or error status. Chapters 00, 01, 08
and 09, English and Chinese, run whole in Pyodide, where numpy is not (chapter
09's numpy cell says so, and its cross-check leaves that cell out by name); on the way a prediction is answered (torch's answer, computed here with real
torch), a diagram is stepped, and a wrong build-it piece switched in with
``use_mine`` turns the chapter's cross-check red. The clone exercise, in both
languages, is written with the course's solution and then a wrong clone: its
practice self-check gives full marks, then a named failure.
"""

import json
import os
import subprocess
import sys
import time

import pytest

from autograder.learner.practice_record import CACHE_VARIABLE

from coursebook.predict.diagnose import right_answer
from coursebook.predict.questions import normalise, questions
from lab_page import ARTIFACTS, REPO
from static_site import local_only_context, loopback_only, serving

pytestmark = pytest.mark.browser

SITE = REPO / "_build" / "lite"
CHAPTERS = ["00_index", "01_reading_memory_diagrams", "08_clone", "09_detach_and_data"]
FOLDERS = {"en": "course", "zh": "course/zh"}
# Pyodide starts, loads its wheels, then the chapter's imports: minutes on a loaded 2-core machine.
BOOT = 240_000
RUN = 400_000


@pytest.fixture(scope="session")
def lite_site(practice_answers_cache):
    """``make lite``'s two steps; the build's time is printed, not asserted. The practice answers
    it records are kept in this run's ``practice_answers_cache`` (by what they are made from)."""
    download = subprocess.run([sys.executable, "-m", "lite", "download"], cwd=REPO, capture_output=True,
                              text=True, timeout=900)
    assert download.returncode == 0, f"python -m lite download failed:\n{download.stderr[-3000:]}"
    offline = loopback_only()
    if offline is None and os.environ.get("CI") == "true":
        pytest.fail("CI must build the Lite site with only loopback, but `unshare -n` cannot run here")
    start = time.perf_counter()
    build = subprocess.run((offline or []) + [sys.executable, "-m", "lite", "build"], cwd=REPO,
                           capture_output=True, text=True, timeout=900,
                           env={**os.environ, CACHE_VARIABLE: practice_answers_cache})
    assert build.returncode == 0, f"python -m lite build failed:\n{build.stdout[-2000:]}\n{build.stderr[-3000:]}"
    print(f"Lite site built in {time.perf_counter() - start:.0f} s{', with only loopback' if offline else ''}")
    assert build.stdout.strip().splitlines()[-1] == str(SITE / "index.html")
    if offline is None:
        pytest.skip("unshare -n (util-linux, as root) is not available: the site was built with the network on")
    return SITE


def _bytecode_of(archive):
    """``{each .py of a wheel or of the standard library's zip: (its .pyc's magic number, flags, listed
    in the wheel's RECORD) or None}``: the .pyc where the import system looks for it."""
    import zipfile

    wheel = archive.suffix == ".whl"

    def pyc(name):
        folder, _, module = name.rpartition("/")
        return f"{folder}/__pycache__/{module[:-3]}.cpython-314.pyc".lstrip("/") if wheel else name[:-3] + ".pyc"

    with zipfile.ZipFile(archive) as opened:
        names = set(opened.namelist())
        record = next((opened.read(n).decode() for n in names if n.endswith(".dist-info/RECORD")), None)
        return {n: (opened.read(pyc(n))[:4], opened.read(pyc(n))[4:8], record is None or f"\n{pyc(n)}," in record)
                if pyc(n) in names else None for n in names if n.endswith(".py")}


def test_the_sites_wheels_and_standard_library_carry_bytecode(lite_site):
    """Every module of every wheel, and of the standard library's zip, has an unchecked-hash ``.pyc``
    where the import system looks (``lite.bytecode``), which a wheel's RECORD lists; all of one magic
    number (chapter 00's test checks in the browser that it is Pyodide's). The lock's sha256 are
    those of the wheels served."""
    import hashlib

    folder = lite_site / "static" / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text())["packages"]
    magic = set()
    for archive in [folder / entry["file_name"] for entry in lock.values()] + [folder / "python_stdlib.zip"]:
        found = _bytecode_of(archive)
        assert found and None not in found.values(), (archive.name, [n for n, b in found.items() if b is None][:5])
        assert {(flags, listed) for _, flags, listed in found.values()} == {((1).to_bytes(4, "little"), True)}
        magic |= {number for number, _, _ in found.values()}
    assert len(magic) == 1, magic
    assert all(hashlib.sha256((folder / e["file_name"]).read_bytes()).hexdigest() == e["sha256"] for e in lock.values())


@pytest.fixture(scope="module")
def server(lite_site):
    with serving(lite_site) as url:
        yield url


@pytest.fixture(scope="module")
def lab(browser, server):
    """One JupyterLite page for the module, whose requests may reach only the test server: each test
    opens its notebook in it with a kernel of its own (``_open``), as a learner opens one chapter
    after another, and Chromium's cache serves what the site's front end and Pyodide fetched before.
    Yields the page, the URLs asked for elsewhere and the failed requests."""
    context, elsewhere = local_only_context(browser, server, 1366)
    failed = []
    context.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))
    context.on("response", lambda r: failed.append(f"{r.url} ({r.status})") if r.status >= 400 else None)
    page = context.new_page()
    page.goto(f"{server}lab/index.html")
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.evaluate("() => window.jupyterapp.restored")
    yield page, elsewhere, failed
    context.close()


@pytest.fixture()
def page(lab):
    """The module's page; what it asked of other hosts, and what failed, during the test are checked
    after the test."""
    page, elsewhere, failed = lab
    elsewhere.clear()
    failed.clear()
    yield page
    assert not elsewhere, f"requests to other hosts: {elsewhere}"
    assert not failed, f"failed requests: {failed}"


# Close the notebook in front (if any), shutting its kernel down, and open ``path``: JupyterLab
# starts a new kernel for it.
OPEN = """async (path) => {
    const app = window.jupyterapp;
    for (const widget of Array.from(app.shell.widgets('main'))) {
        if (widget.sessionContext) await widget.sessionContext.shutdown();
        if (widget.context) widget.context.model.dirty = false;   // a test's cells are not saved
        widget.dispose();
    }
    await app.commands.execute('docmanager:open', {path});
}"""


OPENED = """async ([path, timeout]) => {
    const started = Date.now();
    for (;;) {
        const app = window.jupyterapp;
        const panel = app && app.shell.currentWidget;
        if (panel && panel.context && panel.context.path === path && panel.sessionContext) {
            await panel.context.ready;
            await panel.sessionContext.ready;
            const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
            if (kernel && kernel.status === 'idle') return;
        }
        if (Date.now() - started > timeout) throw new Error('the notebook or its kernel never became ready');
        await new Promise((resolve) => setTimeout(resolve, 500));
    }
}"""

# Run all (or, given a cell index, every cell below it), then wait until every code cell has run
# or one has stopped the run with an error.
RUN_ALL = """async ([timeout, after]) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    app.shell.activateById(panel.id);
    if (after === null) {
        await app.commands.execute('notebook:run-all-cells');
    } else {
        panel.content.activeCellIndex = after + 1;
        await app.commands.execute('notebook:run-all-below');
    }
    const started = Date.now();
    const errors = () => panel.content.widgets.slice(after === null ? 0 : after + 1).some((c) => c.model.type === 'code'
        && Array.from({length: c.model.outputs.length}, (_, k) => c.model.outputs.get(k).type).includes('error'));
    for (;;) {
        const cells = panel.content.widgets.filter((c) => c.model.type === 'code');
        const idle = panel.sessionContext.session.kernel.status === 'idle';
        if (idle && (errors() || cells.every((c) => c.model.executionCount !== null))) return;
        if (Date.now() - started > timeout) throw new Error('Run all did not finish');
        await new Promise((resolve) => setTimeout(resolve, 500));
    }
}"""

# The error outputs of the notebook in front: [cell index, its source, "Type: message", all its outputs].
ERRORS = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const found = [];
    panel.content.widgets.forEach((cell, i) => {
        if (cell.model.type !== 'code') return;
        for (let k = 0; k < cell.model.outputs.length; k++) {
            const output = cell.model.outputs.get(k);
            if (output.type !== 'error') continue;
            const error = output.toJSON();
            found.push([i, cell.model.sharedModel.getSource().slice(0, 200), error.ename + ': ' + error.evalue,
                        JSON.stringify(cell.model.outputs.toJSON())]);
        }
    });
    return found;
}"""

# A new last cell with this code, run; resolves when the kernel is idle again.
RUN_NEW_CELL = """async (code) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    const notebook = panel.content;
    notebook.activeCellIndex = notebook.widgets.length - 1;
    await app.commands.execute('notebook:insert-cell-below');
    notebook.activeCell.model.sharedModel.setSource(code);
    await app.commands.execute('notebook:run-cell');
    const started = Date.now();
    const cell = notebook.widgets[notebook.widgets.length - 1];
    while (cell.model.executionCount === null || panel.sessionContext.session.kernel.status !== 'idle') {
        if (Date.now() - started > 120000) throw new Error('the new cell did not finish');
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return cell.node.innerText;
}"""


# Pyodide has no numpy (no wasm build of it is on PyPI or npm): chapter 09's one key cell that
# calls .numpy() says so in a line, with torch's printout recorded when the site was built, and
# Run all goes on; the closing cross-check leaves that cell out, names it, and agrees on the rest.
# (coursebook.key_cells and its catalog, in each language)
WITHOUT_NUMPY = {"en": ("This cell needs numpy, which has no build for the browser: it stops at {0}.",
                        "What torch {1} printed for this cell when this site was built:",
                        "Left out here: the key cells that stopped for want of numpy, at {0}.",
                        "torch and reftorch agree"),
                 "zh": ("这个单元需要 numpy，而 numpy 没有能在浏览器里运行的版本：它停在了 {0}。",
                        "构建本站时，torch {1} 对这个单元打印的是：",
                        "这里略去了因缺少 numpy 而停下的关键单元，它们停在 {0}。",
                        "torch 与 reftorch 一致")}
NUMPY_LINE = "array = x.detach().cpu().numpy()"


# The kernel imported the standard library (json) and the course (reftorch) from the bytecode the
# build added (lite.bytecode), of this interpreter's magic number.
BYTECODE_USED = ("import importlib.util, json, reftorch\n"
                 "with open(reftorch.__spec__.cached, 'rb') as pyc:\n"
                 "    print('from bytecode:', json.__file__.endswith('.pyc'), pyc.read(4) == importlib.util.MAGIC_NUMBER)")


def _open(page, path):
    """``path`` in front, alone, its kernel new and idle."""
    page.evaluate(OPEN, path)
    page.evaluate(OPENED, [path, BOOT])


def _open_and_run(page, path):
    _open(page, path)
    page.evaluate(RUN_ALL, [RUN, None])
    errors = page.evaluate(ERRORS)
    if errors:
        page.screenshot(path=str(ARTIFACTS / f"lite-{path.replace('/', '-')}-error.png"), full_page=True)
    assert not errors, f"{path}: Run all stopped with an error in {errors}"


def _without_numpy(page, language):
    """Chapter 09 in the browser: the numpy cell's line and torch's recorded printout of it, and the
    closing cross-check that names the cell it left out and agrees on the rest."""
    import torch

    says, printed, left_out, agree = (t.format(NUMPY_LINE, torch.__version__.split("+")[0])
                                      for t in WITHOUT_NUMPY[language])
    outputs = page.locator(".jp-Cell-outputArea").all_inner_texts()   # each cell's outputs
    numpy_cell = [t for t in outputs if says in t]
    assert len(numpy_cell) == 1, outputs
    assert printed in numpy_cell[0] and "Traceback" not in numpy_cell[0], numpy_cell[0]
    torch_part = numpy_cell[0].split(printed, 1)[1]
    assert "tensor([100.,   2.,   3.], requires_grad=True) 0" in torch_part, torch_part   # torch's own printout
    assert "tensor([200.,   4.,   6.])" in torch_part, torch_part
    closing = [t for t in outputs if left_out in t]
    assert len(closing) == 1 and agree in closing[0] and "\u2717" not in closing[0], closing


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_chapter_runs_whole_in_the_browser(page, language, chapter):
    path = f"{FOLDERS[language]}/{chapter}.ipynb"
    _open_and_run(page, path)
    if chapter == "00_index":
        said = page.evaluate(RUN_NEW_CELL, BYTECODE_USED)
        assert "from bytecode: True True" in said, said[-2000:]
    if chapter == "01_reading_memory_diagrams":
        widget = page.locator(".md-widget").first
        widget.scroll_into_view_if_needed()
        assert widget.get_attribute("data-step") == "1"
        widget.locator(".md-next").click()
        page.wait_for_function("(e) => e.dataset.step === '2'", arg=widget.element_handle(), timeout=10_000)
    if chapter == "09_detach_and_data":
        _without_numpy(page, language)
        asked = [q for q in questions() if q.chapter == f"{chapter}.ipynb"]
        box = page.locator(".coursebook-predict").first
        box.scroll_into_view_if_needed()
        box.locator(".coursebook-predict-answer textarea").fill(right_answer(asked[0]))
        box.locator(".coursebook-predict-check").click()
        printout = box.locator(".coursebook-predict-printout")
        page.wait_for_function("(e) => e.innerText.trim().length > 0", arg=printout.element_handle(), timeout=60_000)
        assert normalise(printout.inner_text()) == normalise(right_answer(asked[0]))
    if chapter == "08_clone":
        said = page.evaluate(RUN_NEW_CELL, "def everything_is_dense(shape, strides):\n    return True\n\n"
                                           "use_mine(is_non_overlapping_and_dense=everything_is_dense)\n"
                                           "cross_check_key_cells()")
        assert "CrossCheckFailed" in said and "\u2717" in said, said[-2000:]
    page.screenshot(path=str(ARTIFACTS / f"lite-{language}-{chapter}.png"))


EXERCISES = {"en": "exercises/clone/clone.ipynb", "zh": "course/zh/exercises/clone/clone.ipynb"}
# what the practice self-check prints, in each language (coursebook.practice and its catalog)
PRACTICE = {"en": ("Practice score, against torch {0}'s answers", "nothing is graded", "Practice score: {1} of {1} points",
                   "\u2717 clone-graph: failed", "input: a float32 leaf that requires grad\n    "
                   "is_leaf: torch gives False, yours gives True"),
            "zh": ("练习得分，对照的是构建本站时记录的 torch {0} 的答案", "也不评分", "练习得分：{1} / {1} 分",
                   "\u2717 clone-graph：未通过", "输入：一个需要梯度的 float32 叶子张量\n    "
                   "is_leaf：torch 给出 False，你的给出 True")}
WRONG_CLONE = "my_clone = lambda self, **kw: self.detach().clone().requires_grad_()"


def _solution_code(name):
    """The course's solution to an exercise: its solution cells, as a learner would write them."""
    notebook = json.loads((REPO / "solutions" / name / f"{name}.ipynb").read_text(encoding="utf-8"))
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code" and c["metadata"].get("nbgrader", {}).get("solution")]
    return "\n\n".join("".join(c["source"]) for c in cells)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_exercise_self_checks_in_the_browser_for_practice(page, language):
    """Writing the exercise works in the browser, and its last cell is a practice self-check: full marks
    for the course's solution, a named failure for a wrong clone, headed by what it is and is not."""
    import torch

    path = EXERCISES[language]
    notebook = json.loads((REPO / path).read_text(encoding="utf-8"))
    points = sum(c["metadata"].get("nbgrader", {}).get("points", 0) for c in notebook["cells"])
    header, ungraded, full, failed, why = (t.format(torch.__version__.split("+")[0], points) for t in PRACTICE[language])
    _open(page, path)
    page.evaluate(RUN_ALL, [RUN, None])
    errors = page.evaluate(ERRORS)
    # the stubs are not written yet: the first cell that calls one stops Run all, as anywhere
    assert len(errors) == 1 and "NotImplementedError" in errors[0][2], errors
    said = page.evaluate(RUN_NEW_CELL, _solution_code("clone"))
    assert "Error" not in said, said
    page.evaluate(RUN_ALL, [RUN, errors[0][0]])
    assert page.evaluate(ERRORS)[1:] == []
    outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
    told = [t for t in outputs if "mybinder.org" in t]
    assert len(told) == 1 and "/v2/gh/" in told[0] and path in told[0], told   # the first check cell
    practice = [t for t in outputs if header in t]
    assert len(practice) == 1, outputs[-3:]   # the self-check, the notebook's last cell
    assert ungraded in practice[0] and full in practice[0] and "\u2717" not in practice[0], practice[0]
    said = page.evaluate(RUN_NEW_CELL, f"{WRONG_CLONE}\npractice_check('clone', globals(), lang={language!r})")
    assert header in said and failed in said and why in said and full not in said, said
    page.screenshot(path=str(ARTIFACTS / f"lite-{language}-exercise-practice.png"))
