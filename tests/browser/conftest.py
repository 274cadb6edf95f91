"""A real JupyterLab on loopback and a real headless Chromium, for the browser tests.

The server runs from this checkout's Python with the repository as its root,
a random token and a free port, and with its settings, workspaces and runtime
files in a temporary directory. Autosave is switched off in those settings so
running the course notebook never writes its outputs back into the repository.

Without ``/usr/bin/chromium`` the tests are skipped, saying so, except when
``CI=true``: then they fail, because CI must run them.
"""

import json
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def _require_browser():
    missing = None
    if not os.path.exists(CHROMIUM):
        missing = f"{CHROMIUM} is not installed"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "the playwright Python package is not installed"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run in CI, but {missing}")
        pytest.skip(f"browser test skipped: {missing} (install Debian's chromium to run it)")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_settings(settings_dir):
    """Lab user settings: no autosave, no news or update pop-ups."""
    files = {
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
    }
    for name, content in files.items():
        path = settings_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))


@pytest.fixture(scope="session")
def lab():
    """A running JupyterLab: yields (base_url, token); stops it afterwards."""
    _require_browser()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="memdiagram-lab-"))
    _write_settings(scratch / "settings")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    env["PATH"] = str(pathlib.Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(JUPYTER_CONFIG_DIR=str(scratch / "config"), JUPYTER_RUNTIME_DIR=str(scratch / "runtime"),
               IPYTHONDIR=str(scratch / "ipython"))
    log = open(scratch / "lab.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--allow-root", "--no-browser", "--ip=127.0.0.1",
         f"--port={port}", f"--ServerApp.token={token}", f"--ServerApp.root_dir={REPO}",
         "--LabApp.expose_app_in_browser=True",
         f"--LabApp.user_settings_dir={scratch / 'settings'}",
         f"--LabApp.workspaces_dir={scratch / 'workspaces'}"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited early:\n{(scratch / 'lab.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("jupyter lab did not answer within 120 s")
            time.sleep(0.5)
        yield base, token
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.copy(scratch / "lab.log", ARTIFACTS / "jupyterlab.log")
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture
def needs_chromium():
    _require_browser()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for one test module (PNG export starts its own, so never both at once)."""
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
