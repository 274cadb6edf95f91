"""The self-check cell, clicked in a real JupyterLab in a real headless Chromium.

A learner opens an exercise notebook in JupyterLab (as after `make lab`),
runs every cell, and the last cell, `from autograder import self_check;
self_check()`, prints the score of the notebook as saved.  The notebook here
is the fixture's release with its solution filled in and saved, so the
expected score is full marks.

Without /usr/bin/chromium the test is skipped, saying so, except when
CI=true: then it fails.
"""

import os
import pathlib
import shutil
import tempfile

import pytest

from coursebook.lab import WARM_SELF_CHECK
from synthetic_course import student_notebook, write_submission


@pytest.fixture
def lab_with_exercise(fixture_course, start_jupyterlab):
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="selfcheck-lab-"))
    folder = os.path.join(scratch, "course", "exercises", "fixture")
    write_submission(folder, student_notebook(fixture_course, "fixture", solved="all"), "fixture.ipynb")
    # the lab's own self-check handler answers the kernel (autograder.learner.check_extension); it
    # warms up as the lab starts, as in `make lab`, while the page loads
    try:
        with start_jupyterlab(scratch / "course", scratch, WARM_SELF_CHECK) as (base, token):
            yield "%s/lab/tree/exercises/fixture/fixture.ipynb?token=%s" % (base, token)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.mark.browser
def test_self_check_cell_prints_the_score_in_jupyterlab(lab_with_exercise, browser):
    page = browser.new_page()
    try:
        page.goto(lab_with_exercise)
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
        page.wait_for_function(
            "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
            " && window.jupyterapp.shell.currentWidget.sessionContext"
            " && window.jupyterapp.shell.currentWidget.sessionContext.session"
            " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel",
            timeout=120_000)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        last = page.locator(".jp-Notebook .jp-Cell").last
        last.locator("text=Score:").wait_for(timeout=240_000)
        text = last.inner_text()
    finally:
        page.close()
    assert "Score: 5/5  (all tests pass)" in text.replace("\u00a0", " "), text
    assert "test_warning_is_not_an_error" in text
