"""The Chinese learner's lab (`make lab LANG=zh`) in headless Chromium.

The lab is started as ``python -m coursebook.lab --lang zh`` starts it (its
command line, settings and environment), on a copy of course/: it opens the
Chinese index with JupyterLab's menus in Chinese (jupyterlab-language-pack-zh-CN),
a Chinese chapter runs top to bottom without an error, and its build-it check
speaks Chinese.
"""

import pytest

from coursebook.lab import INDEXES
from lab_page import ARTIFACTS, RUN_ALL, open_notebook

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chinese_lab(course_copy, learners_lab_on):
    """The lab as `make lab LANG=zh` starts it (no settings of ours), on a copy of course/."""
    root = course_copy
    with learners_lab_on(root, "zh-lab.log", our_settings=False, progress=root / "progress.json",
                         language="zh") as (base, token):
        yield root, base, token


def test_the_chinese_lab_opens_the_chinese_index_with_chinese_menus(chinese_lab, browser):
    root, base, token = chinese_lab
    assert INDEXES["zh"].endswith("/course/zh/00_index.ipynb")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        open_notebook(page, base, token, "course/zh/00_index.ipynb")
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
        open_notebook(page, base, token, "course/zh/08_clone.ipynb")
        page.locator(".jp-Notebook .jp-RenderedMarkdown h1", has_text="一份留在计算图里的副本").first.wait_for(
            timeout=30_000)
        page.evaluate(RUN_ALL, 120_000)
        # the last cell's cross-check, in Chinese (its table holds torch's and reftorch's printouts)
        page.get_by_text("torch 与 reftorch 一致").first.wait_for(timeout=180_000)
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']").count()
        assert errors == 0, "a cell of the Chinese chapter raised"
        check = page.get_by_text("还没有写（它仍然抛出 NotImplementedError）")
        assert check.count() >= 1, "the build-it check did not print its message in Chinese"
        page.screenshot(path=str(ARTIFACTS / "zh-lab-chapter.png"), full_page=True)
    finally:
        page.close()
