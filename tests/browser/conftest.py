"""The course's JupyterLab for the browser tests (server and Chromium: tests/conftest.py).

The server runs with the repository as its root, and with its settings,
workspaces and runtime files in a temporary directory. Autosave is switched
off in those settings so running the course notebook never writes its outputs
back into the repository.
"""

import json
import pathlib
import shutil
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"


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
def lab(start_jupyterlab):
    """A running JupyterLab on the repository: yields (base_url, token); stops it afterwards."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="memdiagram-lab-"))
    _write_settings(scratch / "settings")
    try:
        with start_jupyterlab(REPO, scratch, f"--LabApp.user_settings_dir={scratch / 'settings'}") as server:
            yield server
    finally:
        shutil.copy(scratch / "lab.log", ARTIFACTS / "jupyterlab.log")
        shutil.rmtree(scratch, ignore_errors=True)
