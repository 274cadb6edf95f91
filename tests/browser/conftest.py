"""The learner's JupyterLab for the browser tests (server and Chromium: tests/conftest.py).

Each lab's settings, workspaces and runtime files live in a scratch folder of
their own, removed afterwards; its log is copied to tests/artifacts/. The
``lab`` fixture runs with the repository as its root, with autosave switched
off in its settings so running the course notebook never writes its outputs
back into the repository. Driving a notebook in the page: lab_page.py.
"""

import contextlib
import functools
import json
import pathlib
import shutil
import tempfile

import pytest

from coursebook.build_it.progress import PROGRESS_ENV
from lab_page import ARTIFACTS, REPO


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


@contextlib.contextmanager
def _learners_lab(start_jupyterlab, root, log_name, *, our_settings=True, progress=None, language=None, unset=()):
    """The learner's lab on ``root``: yields (base_url, token); stops it afterwards and copies its
    log to tests/artifacts/``log_name``.

    ``our_settings``: the user settings of ``_write_settings`` (else only what ``make lab``
    applies: binder/lab-settings). ``progress``: the progress file the kernels keep.
    ``language`` ("zh"): the lab ``python -m coursebook.lab --lang`` starts. ``unset``: variables
    of the tests' environment the lab and its kernels must not see.
    """
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="learners-lab-"))
    if our_settings:
        _write_settings(scratch / "settings")
    environ = {} if progress is None else {PROGRESS_ENV: str(progress)}
    try:
        with start_jupyterlab(root, scratch, f"--LabApp.user_settings_dir={scratch / 'settings'}",
                              language=language, environ=environ, unset=unset) as served:
            yield served
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if (scratch / "lab.log").exists():
            shutil.copy(scratch / "lab.log", ARTIFACTS / log_name)
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def learners_lab_on(start_jupyterlab):
    """``with learners_lab_on(root, log_name, our_settings=True, progress=None, language=None)
    as (base_url, token): ...``: the learner's lab on ``root`` (see ``_learners_lab``)."""
    return functools.partial(_learners_lab, start_jupyterlab)


@pytest.fixture(scope="module")
def course_copy():
    """A folder holding a copy of course/, for a lab that may save there; removed afterwards."""
    root = pathlib.Path(tempfile.mkdtemp(prefix="course-copy-"))
    shutil.copytree(REPO / "course", root / "course")
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def lab(learners_lab_on):
    """A running JupyterLab on the repository: yields (base_url, token); stops it afterwards."""
    with learners_lab_on(REPO, "jupyterlab.log") as server:
        yield server


@pytest.fixture(scope="session")
def start_instructors_lab(tmp_path_factory, start_server):
    """``start_instructors_lab(config, name)``: a context giving ``(base URL, token, log path)`` of the
    instructor's lab (``python -m autograder lab``'s command and environment) on the course of
    ``config``, with Jupyter's folders in a scratch folder of its own."""
    from autograder.term.lab import lab_command, lab_environment

    @contextlib.contextmanager
    def started(config, name):
        scratch = tmp_path_factory.mktemp(name)
        env = lab_environment(config)
        env.update(JUPYTER_CONFIG_DIR=str(scratch / "config"), JUPYTER_RUNTIME_DIR=str(scratch / "runtime"),
                   IPYTHONDIR=str(scratch / "ipython"))
        log_path = scratch / "lab.log"
        with start_server(lambda port, token: lab_command(config, port, token), config.CourseDirectory.root,
                          env, log_path) as (base, token):
            yield base, token, log_path
    return started
