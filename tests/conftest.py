"""Fixtures every test folder shares, and how ``make test`` splits the suite over two workers.

A real JupyterLab on loopback and a real headless Chromium, for every browser test.

Used by tests/browser/ (the memory diagram in a course notebook) and by
tests/autograder/ (the learner's self-check cell clicked in JupyterLab).

Without /usr/bin/chromium (or the playwright package) browser tests are
skipped, saying so, except when CI=true: then they fail, because CI must run
them.  Chromium's flags are the ones memdiagram's PNG export uses.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import secrets
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from autograder.kernels.sandbox import why_unavailable
from coursebook.lab import lab_command, lab_environment
from memdiagram._export import CHROMIUM_ARGS

CHROMIUM = "/usr/bin/chromium"

# --- two workers ---------------------------------------------------------------
# `make test` runs pytest-xdist with two workers and `--dist loadgroup`: each group
# runs whole, on one worker (its module or session fixtures are set up once).
#   exercises   the mutant bank, graded once per session for every test of tests/exercises/
#   course      the chapters, executed once per session for every test of tests/course/
#   hub         one real JupyterHub with the same Unix users for every test of tests/hub/
#   any other module is a group of its own.
# Groups are handed out in the order below (`--no-loadscope-reorder`): the longest
# first, so that the two workers end at about the same time.  Two gradings may run
# at once; the hostile suite's "no kernel left" check counts only kernels whose
# grader has ended (tests/autograder/hostile.py).
# Without xdist (a plain `pytest tests/x.py`) none of this matters.
LONGEST_FIRST = [
    "exercises", "course", "hub", "tests/book/test_book_site.py",
    "tests/autograder/test_autograder_pipeline.py", "tests/autograder/test_hostile_submissions.py",
    "tests/autograder/test_term.py", "tests/autograder/test_careless_students.py",
    "tests/autograder/test_autograder_robustness.py", "tests/binder/test_binder.py",
    "tests/browser/test_learners_lab.py", "tests/browser/test_formgrader.py",
    "tests/browser/test_memory_diagram_in_lab.py",
]


def _group(item) -> str:
    folder = pathlib.Path(str(item.fspath)).parent.name
    if folder in ("exercises", "course", "hub"):
        return folder
    return item.nodeid.split("::")[0]


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which writes the groups into the node ids
def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):  # only the xdist workers' collections are scheduled
        return
    rank = {group: i for i, group in enumerate(LONGEST_FIRST)}
    groups = {id(item): _group(item) for item in items}
    items.sort(key=lambda item: rank.get(groups[id(item)], len(rank)))  # stable: file order otherwise
    for item in items:
        item.add_marker(pytest.mark.xdist_group(groups[id(item)]))


@pytest.hookimpl(optionalhook=True)  # an xdist hook: `pytest -p no:xdist` must still run
def pytest_xdist_node_collection_finished(node, ids):
    """Stop at once if xdist did not take the groups into the node ids.

    It would then schedule every test alone, and both workers would set up the
    same session fixtures: the graded bank twice, side by side (pytest 9.2 with
    xdist 3.8 did that).
    """
    ungrouped = [nodeid for nodeid in ids if "@" not in nodeid]
    if node.config.getoption("dist") == "loadgroup" and ungrouped:
        raise pytest.UsageError(
            f"pytest-xdist's --dist loadgroup did not group {len(ungrouped)} tests (first: {ungrouped[0]}); "
            f"pytest {pytest.__version__} may not suit the installed pytest-xdist: see constraints.txt")


# --- system tools a user's machine may lack ----------------------------------------
# Without them `make test` skips what needs them (never under CI=true) and ends with one
# line that names the command installing them.
SANDBOX_SKIP = "sandboxed grading skipped"
BROWSER_SKIP = "browser test skipped"
NEEDS = {SANDBOX_SKIP: ("grading", "bubblewrap"), BROWSER_SKIP: ("browser", "chromium")}  # kind of test, package


def pytest_terminal_summary(terminalreporter):
    """One line for the tests skipped for a missing system tool, one per other reason.

    (pyproject's addopts leave skips out of pytest's own short summary, which under xdist
    would print one line per skipped test.)
    """
    for_tools, others = {}, {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        prefix = next((p for p in NEEDS if reason.startswith(p)), None)
        counted = for_tools if prefix else others
        key = prefix or reason
        counted[key] = counted.get(key, 0) + 1
    if for_tools:
        what = " and ".join(f"{n} {NEEDS[prefix][0]} tests" for prefix, n in for_tools.items())
        packages = " ".join(NEEDS[prefix][1] for prefix in for_tools)
        terminalreporter.write_line(
            f"Skipped {what}: this machine lacks {packages}. Install with "
            f"`sudo apt-get install -y {packages}` (Debian/Ubuntu), then run `make test` again.",
            yellow=True, bold=True)
    for reason, n in others.items():
        terminalreporter.write_line(f"Skipped {n} tests: {reason}", yellow=True)


@pytest.fixture(scope="session")
def needs_sandbox():
    """Grading runs every kernel in a bubblewrap sandbox: skip without one, except in CI."""
    why = why_unavailable()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail("sandboxed grading must run in CI, but " + why)
        pytest.skip(f"{SANDBOX_SKIP}: {why} (install bubblewrap and run as root)")


def _missing_browser() -> str | None:
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is not installed"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed"
    return None


@pytest.fixture(scope="session")
def needs_chromium():
    missing = _missing_browser()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run in CI, but {missing}")
        pytest.skip(f"{BROWSER_SKIP}: {missing} (install Debian's chromium to run it)")


@pytest.fixture(scope="module")
def browser(needs_chromium):
    """Headless Chromium for one test module (PNG export starts its own, so never both at once)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _serving(command, cwd, env, log_path: pathlib.Path):
    """Run the Jupyter server whose argv ``command(port, token)`` builds, on a free port with a new
    token; yield (base_url, token) once it answers; stop it afterwards. Its output goes to
    ``log_path``."""
    port, token = _free_port(), secrets.token_hex(16)
    with open(log_path, "w") as log:
        process = subprocess.Popen(command(port, token), cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer within 120 s:\n{log_path.read_text()}")
            time.sleep(0.5)
        yield base, token
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def _jupyterlab(root_dir, scratch: pathlib.Path, *extra_args: str, language: str | None = None,
                environ: dict | None = None, unset: tuple = ()):
    """Run the learner's ``jupyter lab`` on ``root_dir``; yield (base_url, token); stop it afterwards.

    Its config, runtime files, IPython profile and workspaces live in
    ``scratch``, and its log in ``scratch/lab.log``. With ``language`` ("zh") it
    is the lab ``python -m coursebook.lab --lang`` starts: its command line and
    its environment (``coursebook.lab.lab_environment``). ``environ``: more
    variables for the server and the kernels it starts; ``unset``: variables of
    this process's environment they must not see (``LANG``, ``COURSEBOOK_LANG``).
    """
    if language is None:
        env = dict(os.environ)
        env["PATH"] = str(pathlib.Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    else:
        env = lab_environment(language, os.environ)
    env.update(environ or {})
    for name in unset:
        env.pop(name, None)
    env.update(JUPYTER_CONFIG_DIR=str(scratch / "config"), JUPYTER_RUNTIME_DIR=str(scratch / "runtime"),
               IPYTHONDIR=str(scratch / "ipython"))
    env.pop("NBGRADER_EXECUTION", None)

    def command(port, token):
        # the learner's lab, exactly as `make lab` starts it, plus test-only switches
        return [*lab_command(port, token, pathlib.Path(root_dir), language=language or "en"),
                "--LabApp.expose_app_in_browser=True", f"--LabApp.workspaces_dir={scratch / 'workspaces'}",
                *extra_args]
    with _serving(command, root_dir, env, scratch / "lab.log") as served:
        yield served


@pytest.fixture(scope="session")
def start_jupyterlab(needs_chromium):
    """``with start_jupyterlab(root_dir, scratch, *args, language=None, environ=None, unset=()) as (base_url, token):
    ...``"""
    return _jupyterlab


@pytest.fixture(scope="session")
def start_learners_lab():
    """The same lab for tests that only talk to its REST API (no browser needed)."""
    return _jupyterlab


@pytest.fixture(scope="session")
def start_server():
    """``with start_server(command, cwd, env, log_path) as (base_url, token): ...``, where
    ``command(port, token)`` is the server's argv (see ``_serving``)."""
    return _serving
