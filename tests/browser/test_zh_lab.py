"""The Chinese learner's lab (`make lab LANG=zh`) in headless Chromium.

The lab is started as ``python -m coursebook.lab --lang zh`` starts it (its
command line, settings and environment), on a copy of course/: it opens the
Chinese index with JupyterLab's menus in Chinese (jupyterlab-language-pack-zh-CN),
a Chinese chapter runs top to bottom without an error, and its build-it check
speaks Chinese.
"""

import os
import pathlib
import shutil
import sys
import tempfile

import pytest

from coursebook.lab import INDEXES, lab_command, lab_environment

pytestmark = pytest.mark.browser

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"

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


@pytest.fixture(scope="module")
def chinese_lab(start_server, needs_chromium):
    root = pathlib.Path(tempfile.mkdtemp(prefix="zh-lab-"))
    shutil.copytree(REPO / "course", root / "course")
    scratch = root / "scratch"
    scratch.mkdir()
    env = lab_environment("zh", os.environ)
    env.update(JUPYTER_CONFIG_DIR=str(scratch / "config"), JUPYTER_RUNTIME_DIR=str(scratch / "runtime"),
               IPYTHONDIR=str(scratch / "ipython"), COURSEBOOK_PROGRESS=str(root / "progress.json"))
    env.pop("NBGRADER_EXECUTION", None)

    def command(port, token):
        return [*lab_command(port, token, root, language="zh"), "--LabApp.expose_app_in_browser=True",
                f"--LabApp.workspaces_dir={scratch / 'workspaces'}",
                f"--LabApp.user_settings_dir={scratch / 'settings'}"]
    try:
        with start_server(command, root, env, scratch / "lab.log") as (base, token):
            yield root, base, token
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if (scratch / "lab.log").exists():
            shutil.copy(scratch / "lab.log", ARTIFACTS / "zh-lab.log")
        shutil.rmtree(root, ignore_errors=True)


def _open(page, base, token, path):
    page.goto(f"{base}/lab/tree/{path}?reset&token={token}")
    page.wait_for_function(
        """(path) => { const app = window.jupyterapp; const w = app && app.shell.currentWidget;
                       return !!(w && w.context && w.context.path === path); }""",
        arg=path, timeout=90_000)
    page.evaluate(WAIT_IDLE, 90_000)


def test_the_chinese_lab_opens_the_chinese_index_with_chinese_menus(chinese_lab, browser):
    root, base, token = chinese_lab
    assert INDEXES["zh"].endswith("/course/zh/00_index.ipynb")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        _open(page, base, token, "course/zh/00_index.ipynb")
        page.wait_for_selector("#jp-menu-panel", timeout=30_000)
        menus = page.locator("#jp-menu-panel").inner_text()
        assert "文件" in menus and "运行" in menus and "内核" in menus, menus
        assert "File" not in menus and "Kernel" not in menus, menus
        page.locator(".jp-Notebook .jp-RenderedMarkdown h2", has_text="四个问题").first.wait_for(timeout=30_000)  # the index's own text, in Chinese
        page.screenshot(path=str(ARTIFACTS / "zh-lab-index.png"))
    finally:
        page.close()


def test_a_chinese_chapter_runs_without_error_and_its_build_it_check_speaks_chinese(chinese_lab, browser):
    root, base, token = chinese_lab
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        _open(page, base, token, "course/zh/08_clone.ipynb")
        page.locator(".jp-Notebook .jp-RenderedMarkdown h1", has_text="一份留在计算图里的副本").first.wait_for(
            timeout=30_000)
        page.evaluate(RUN_ALL, 120_000)
        # the last cell's cross-check (its report is torch's and reftorch's outputs, in English)
        page.get_by_text("torch and reftorch agree").first.wait_for(timeout=180_000)
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']").count()
        assert errors == 0, "a cell of the Chinese chapter raised"
        check = page.get_by_text("还没有写（它仍然抛出 NotImplementedError）")
        assert check.count() >= 1, "the build-it check did not print its message in Chinese"
        page.screenshot(path=str(ARTIFACTS / "zh-lab-chapter.png"), full_page=True)
    finally:
        page.close()
