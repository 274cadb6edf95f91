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
import logging
import os
import pathlib
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from asked_fixtures import asked_for
from autograder.kernels.sandbox import why_unavailable
from coursebook.lab import lab_command, lab_environment
from memdiagram._export import CHROMIUM_ARGS
from run_processes import RUN_MARK
from warmkernels.frozen_imports import collect_and_freeze

CHROMIUM = "/usr/bin/chromium"

# --- three tiers -------------------------------------------------------------------
# Every test gets one of three markers (pyproject.toml registers them):
#   unit      in this process: no kernel, server, sandbox or program of its own (`make test-fast`)
#   grading   the grader at work: nbgrader, sandboxed kernels, the grading cluster, the mutant bank
#   e2e       whole programs: chapters executed in kernels, JupyterLab in Chromium, JupyterHub,
#             the book, Binder, and tools run as commands of their own (pip, python -m ...)
# A new test file needs no marker: its folder gives its tier (FOLDER_TIERS, else unit), an entry
# of TIERS_BY_ID (a module, or one test function of it) another one, and a test that asks for a
# fixture of FIXTURE_TIERS is raised to that fixture's tier at least (a unit-folder test that
# opens a browser is e2e).  A marker written on the test or its module (pytestmark) wins.
TIERS = ("unit", "grading", "e2e")
FOLDER_TIERS = {"autograder": "grading", "exercises": "grading",
                "browser": "e2e", "hub": "e2e", "book": "e2e", "binder": "e2e"}
TIERS_BY_ID = {
    # grading folders' modules that run in this process
    "tests/autograder/test_grader_messages_zh.py": "unit",
    "tests/autograder/test_inert_outputs.py": "unit",
    "tests/autograder/test_layout_rules.py": "unit",
    "tests/autograder/test_no_private_api.py": "unit",
    "tests/autograder/test_quick_ready_client.py": "unit",
    "tests/autograder/test_rebuild_rule.py": "unit",
    "tests/exercises/test_static_rules.py": "unit",
    # unit folders' tests that start kernels, servers or commands of their own
    "tests/course/test_lab_git_pull.py": "e2e",
    "tests/course/test_learning_keeps_tests_green.py": "e2e",
    "tests/course/test_sharing.py": "e2e",
    "tests/course/test_shut_down_closed.py": "e2e",
    "tests/course/test_warm_kernels.py": "e2e",
    "tests/course/test_translation.py::test_changing_one_english_paragraph_turns_the_catalog_check_red_naming_the_cell_until_it_is_translated": "e2e",
    "tests/course/test_translation.py::test_a_cell_moved_to_another_chapter_keeps_its_translation": "e2e",
    "tests/differential/test_diff_portable_rounding.py::test_each_bound_is_needed_and_enough_on_every_kernel_family": "e2e",
    "tests/differential/test_diff_sparse.py::test_the_invariant_warning_comes_once_per_process": "e2e",
    "tests/differential/test_diff_sparse_csr.py::test_the_beta_warning_comes_once_per_process": "e2e",
    "tests/reftorch/test_warning_locations.py": "e2e",
    "tests/test_install_plan.py": "e2e",
}
FIXTURE_TIERS = {
    "needs_sandbox": "grading", "graded_class": "grading", "grading_cluster": "grading",
    "warm_kernel_manager": "e2e", "needs_chromium": "e2e", "start_jupyterlab": "e2e",
    "start_learners_lab": "e2e", "start_server": "e2e",
}


def _tier(item) -> str:
    written = [m.name for m in item.iter_markers() if m.name in TIERS]
    if written:
        return written[0]  # the closest: the test's own, else its class's, else its module's
    module = item.nodeid.split("::")[0]  # relative to the repository, as TIERS_BY_ID writes it
    function = module + "::" + getattr(item, "originalname", item.name)
    folder = pathlib.Path(str(item.fspath)).parent.name
    tier = TIERS_BY_ID.get(function) or TIERS_BY_ID.get(module) or FOLDER_TIERS.get(folder, "unit")
    needed = [FIXTURE_TIERS[name] for name in getattr(item, "fixturenames", ()) if name in FIXTURE_TIERS]
    return max([tier, *needed], key=TIERS.index)


def pytest_ignore_collect(collection_path, config):
    """Under ``-m unit`` alone (`make test-fast`), a test file none of whose tests can be unit is not
    even imported: its folder or TIERS_BY_ID make it grading or e2e, no entry of TIERS_BY_ID takes
    one of its tests back to unit, and it writes no unit marker of its own: each xdist worker then
    imports no nbgrader, JupyterHub or Playwright test module only to deselect it."""
    if config.getoption("markexpr", "") != "unit" or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    try:
        module = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    tier = TIERS_BY_ID.get(module) or FOLDER_TIERS.get(collection_path.parent.name, "unit")
    if tier == "unit" or any(key.startswith(module + "::") and value == "unit" for key, value in TIERS_BY_ID.items()):
        return None
    if "mark.unit" in collection_path.read_text(encoding="utf-8", errors="replace"):
        return None
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_itemcollected(item):
    tier = _tier(item)
    if not any(m.name == tier for m in item.iter_markers()):
        item.add_marker(tier)


# --- two workers ---------------------------------------------------------------
# `make test` runs pytest-xdist with two workers and `--dist loadgroup`: each group
# runs whole, on one worker (its module or session fixtures are set up once).
#   exercises   the mutant bank, graded once per session for the modules of tests/exercises/ that use it
#   course      the chapters, executed once per session for the modules of tests/course/ that use them
#   hub         one real JupyterHub with the same Unix users for every test of tests/hub/
#               but those of HUB_ALONE, each a group of its own
#   any other module is a group of its own: so is a module of tests/exercises/ or tests/course/
#   that asks for none of its folder's session fixtures (SHARED_BY_FOLDER), and can then run on
#   the other worker while its folder's group runs.
# Groups are handed out in the order below (`--no-loadscope-reorder`): the longest
# first (as measured in CI), so that the workers end at about the same time.  Gradings may run
# at once; the hostile suite's "no kernel left" check counts only kernels whose
# grader has ended (tests/autograder/hostile.py).
# Without xdist (a plain `pytest tests/x.py`) none of this matters.
LONGEST_FIRST = [
    "tests/hub/test_hub_start_stop.py",
    "exercises", "course", "hub", "tests/browser/test_lite_site.py", "tests/book/test_book_site.py",
    "tests/binder/test_binder.py", "tests/autograder/test_careless_students.py",
    "tests/autograder/test_hostile_submissions.py", "tests/exercises/test_agreement.py",
    "tests/browser/test_memory_diagram_in_lab.py", "tests/autograder/test_resource_attackers.py",
    "tests/autograder/test_autograder_pipeline.py", "tests/browser/test_zh_screens.py",
    "tests/course/test_misconception_coverage.py", "tests/browser/test_learners_lab.py",
    "tests/autograder/test_farm.py", "tests/autograder/test_check_extension.py", "tests/autograder/test_term.py",
    "tests/autograder/test_autograder_robustness.py", "tests/exercises/test_practice_agreement.py",
    "tests/browser/test_formgrader.py",
]


# Modules of tests/hub/ that start hubs of their own, for people of their own, and ask for no
# fixture of the hub group (hub_class): run on the other worker while that group runs.
# The fifty starts and stops are the longest module of the suite.
HUB_ALONE = {"tests/hub/test_hub_start_stop.py"}

# The session fixtures a folder's group exists to set up once (on one worker).
SHARED_BY_FOLDER = {
    "exercises": {"graded_class", "bank_in_process", "grading_cluster"},
    "course": {"executed_notebooks", "executed_zh_notebooks", "filled_runs", "warm_kernel_manager"},
}


# Modules that run the same cached computation as another module, and run in its group: the worker
# computes it once (coursebook.predict.diagnose keeps every misconception model's run of every chapter).
RUN_WITH = {"tests/course/test_misconception_models.py": "tests/course/test_misconception_coverage.py"}


def _group(item, sharing=None) -> str:
    """``sharing``: the modules of SHARED_BY_FOLDER's folders that ask for one of their fixtures."""
    folder = pathlib.Path(str(item.fspath)).parent.name
    module = item.nodeid.split("::")[0]
    if module in RUN_WITH:
        return RUN_WITH[module]
    if folder == "hub" and module not in HUB_ALONE:
        return folder
    if folder in SHARED_BY_FOLDER and (sharing is None or module in sharing):
        return folder
    return module


def _sharing(items) -> set:
    """The modules of SHARED_BY_FOLDER's folders with a test that asks for one of the folder's fixtures
    (by name, or through ``request.getfixturevalue``: tests/course/test_answers_after_questions.py)."""
    found = set()
    for item in items:
        shared = SHARED_BY_FOLDER.get(pathlib.Path(str(item.fspath)).parent.name, set())
        if shared & asked_for(item):
            found.add(item.nodeid.split("::")[0])
    return found


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which writes the groups into the node ids
def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):  # only the xdist workers' collections are scheduled
        return
    rank = {group: i for i, group in enumerate(LONGEST_FIRST)}
    sharing = _sharing(items)
    groups = {id(item): _group(item, sharing) for item in items}
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


# --- nothing left running ------------------------------------------------------------
# A run that ends, fails or is stopped (Ctrl-C, SIGTERM, even SIGKILL) leaves no process behind:
# the self-check service and the kernel zygotes detach from the test process (a session of their
# own), and a stopped run may never tear its fixtures down.  Every process of the run carries
# RUN_MARK in its environment (set here, before the xdist workers start), and a watcher
# (tests/run_processes.py, in a session of its own) ends whatever still carries it once the
# run's pytest has exited.  SIGTERM also becomes a KeyboardInterrupt, so that fixtures tear
# down when they can (nbclient puts SIGTERM's default back after each notebook it runs here).
_SIGTERM = pytest.StashKey()  # the SIGTERM handler before ours, put back at the end
_WATCHER = pytest.StashKey()  # kept while the run lasts (it ends after the run's pytest)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        return
    # One OpenMP thread for each torch of the run: the xdist workers, the commands and grading
    # workers they start, the judge in each (a sandboxed kernel keeps only KEPT_ENVIRONMENT).
    # The workers and their gradings already share the cores; torch's own threads, spinning
    # while they wait for one another, burnt the CPU the other workers needed, for the same
    # answers (docs/decisions/0043-one-torch-thread-per-test-process.md).
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ[RUN_MARK] = f"{os.getpid()}-{secrets.token_hex(4)}"
    watcher = [sys.executable, str(pathlib.Path(__file__).with_name("run_processes.py")), str(os.getpid()),
               os.environ[RUN_MARK]]
    config.stash[_WATCHER] = subprocess.Popen(watcher, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL, start_new_session=True)
    config.stash[_SIGTERM] = signal.signal(signal.SIGTERM, _interrupt)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if _SIGTERM in config.stash:
        signal.signal(signal.SIGTERM, config.stash[_SIGTERM])
    collect_and_freeze()  # the interpreter's exit then walks nothing (see below)


# --- the garbage collector -------------------------------------------------------------
# What collecting the tests imported (torch, Jupyter, nbgrader, every test module) lives as long
# as the run: frozen once collected (warmkernels.frozen_imports), it is no longer walked by the
# collector's full collections while the tests run, nor by the exit.  Garbage the tests make is
# collected as before (docs/decisions/0078-the-suites-processes-freeze-what-they-imported.md).
def pytest_collection_finish(session):
    collect_and_freeze()


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


@pytest.fixture(scope="session")
def grading_cluster(needs_sandbox):
    """The scheduler address of one warm grading cluster for the whole session (one per xdist worker).

    Pass it as ``autograde(..., scheduler=grading_cluster)``: the run then grades on it as on a
    farm (``autograder.engine.cluster``), and its two workers keep their kernel zygotes, with
    torch imported, from one module's class to the next, instead of each run starting a cluster
    and two zygotes of its own.  Its workers are forked from this process, as the grader's own
    local cluster's are; it closes at the end of the session (its zygotes end with their workers).
    Runs that test the cluster itself (cold kernels, the deadline, the cgroups, the farm, an
    unsandboxed grading) still make their own.
    """
    import dask
    from distributed import LocalCluster

    from autograder.engine.cluster import LOCAL_CLUSTER_CONFIG
    from autograder.engine.plugin import GradingPlugin

    with dask.config.set(LOCAL_CLUSTER_CONFIG):  # as the grader starts its own: forked, no profiler
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.CRITICAL, plugins={GradingPlugin(warm=True, sandboxed=True)})
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


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


@pytest.fixture(scope="session")
def warm_kernel_manager():
    """nbclient's ``kernel_manager_class`` for kernels forked from the zygote (coursebook.warm_kernels),
    for tests/course/ and tests/exercises/.

    The zygote starts here, in the main thread, so that it dies with the test process.
    """
    from coursebook.warm_kernels import WarmKernelManager, start_zygote, stop_zygote

    start_zygote()
    yield WarmKernelManager
    stop_zygote()


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
        return [*lab_command(port, token, pathlib.Path(root_dir), language=language or "en",
                             workspaces=scratch / "workspaces"),
                "--LabApp.expose_app_in_browser=True", *extra_args]
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


@pytest.fixture(scope="session")
def practice_answers_cache(request, tmp_path_factory):
    """A folder of this run where the practice self-check's recordings are kept by what they are
    made from (``autograder.learner.practice_record.recorded``), shared by the xdist workers: the
    Lite site's build and tests/exercises/test_practice_agreement.py record each exercise once."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if hasattr(request.config, "workerinput") else base) / "practice-answers"
    folder.mkdir(exist_ok=True)
    return str(folder)
