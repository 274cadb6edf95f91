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
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from synthetic_course import student_notebook, write_submission

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def _require_browser():
    missing = None
    if not os.path.exists(CHROMIUM):
        missing = CHROMIUM + " is not installed"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "the playwright Python package is not installed"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail("the self-check browser test must run in CI, but " + missing)
        pytest.skip("self-check browser test skipped: %s (install Debian's chromium)" % missing)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab_with_exercise(fixture_course):
    _require_browser()
    scratch = tempfile.mkdtemp(prefix="selfcheck-lab-")
    folder = os.path.join(scratch, "course", "exercises", "fixture")
    write_submission(folder, student_notebook(fixture_course, "fixture", solved="all"), "fixture.ipynb")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=os.path.join(scratch, "config"),
               JUPYTER_RUNTIME_DIR=os.path.join(scratch, "runtime"),
               IPYTHONDIR=os.path.join(scratch, "ipython"))
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.pop("NBGRADER_EXECUTION", None)
    log = open(os.path.join(scratch, "lab.log"), "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--allow-root", "--no-browser", "--ip=127.0.0.1",
         "--port=%d" % port, "--ServerApp.token=" + token,
         "--ServerApp.root_dir=" + os.path.join(scratch, "course"),
         "--LabApp.expose_app_in_browser=True",
         "--LabApp.workspaces_dir=" + os.path.join(scratch, "workspaces")],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    base = "http://127.0.0.1:%d" % port
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, open(os.path.join(scratch, "lab.log")).read()
            try:
                with urllib.request.urlopen("%s/api/status?token=%s" % (base, token), timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline, "jupyter lab did not start in 120 s"
                time.sleep(0.5)
        yield "%s/lab/tree/exercises/fixture/fixture.ipynb?token=%s" % (base, token)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.mark.browser
def test_self_check_cell_prints_the_score_in_jupyterlab(lab_with_exercise):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
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
            browser.close()
    assert "Score: 5/5  (all tests pass)" in text.replace("\u00a0", " "), text
    assert "test_warning_is_not_an_error" in text
