"""Execute every course notebook once per test session (two kernels at a time), in warm kernels.

The notebooks run are git's copies (tests/support/stored.py): a learner who filled the
stubs and saved the chapters in place does not change what the tests see.
"""

from __future__ import annotations

import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from asked_fixtures import asked_for
from build_it_cells import build_it_chapters, filled
from coursebook.execution import execute_all
from course_paths import NOTEBOOKS, ZH_NOTEBOOKS
from stored import stored_notebook

# The fixtures below that execute chapters. Each runs git's copy of a notebook, never the file on
# disk, so a learner who saved their chapters in place does not change what they run: the
# learner's clone (test_learning_keeps_tests_green.py) leaves out the tests that take one of them,
# marked ``runs_chapters`` here, and test_chapter_runs_read_git.py holds the fixtures to that.
CHAPTER_RUNS = ("executed_notebooks", "executed_zh_notebooks", "filled_runs")


def pytest_collection_modifyitems(items):
    """Mark ``runs_chapters`` each test that takes a fixture of CHAPTER_RUNS: by name, or by a
    parameter naming it for ``request.getfixturevalue``."""
    for item in items:
        if set(CHAPTER_RUNS) & asked_for(item):
            item.add_marker("runs_chapters")


@pytest.fixture(scope="session")
def executed_notebooks(warm_kernel_manager):
    """{Path: coursebook.execution.Execution} for every notebook in course/."""
    return execute_all(NOTEBOOKS, workers=2, kernel_manager_class=warm_kernel_manager, read=stored_notebook)


@pytest.fixture(scope="session")
def executed_zh_notebooks(warm_kernel_manager):
    """{Path: Execution} for every Chinese chapter in course/zh/ (their code is the English code)."""
    return execute_all(ZH_NOTEBOOKS, workers=2, kernel_manager_class=warm_kernel_manager, read=stored_notebook)


@pytest.fixture(scope="session")
def filled_runs(tmp_path_factory, warm_kernel_manager):
    """{path: (executed notebook with every stub filled with the reference, error or None, progress
    file)}: one (warm) kernel per build-it chapter."""
    runs = {}
    for path in build_it_chapters():
        progress = tmp_path_factory.mktemp("progress") / "progress.json"
        nb = filled(stored_notebook(path))
        client = NotebookClient(nb, timeout=120, kernel_name="python3", kernel_manager_class=warm_kernel_manager,
                                resources={"metadata": {"path": str(path.parent)}})
        client.km = client.create_kernel_manager()
        error = None
        with pytest.MonkeyPatch.context() as patch:  # the kernel gets the environment of its launch
            patch.setenv("COURSEBOOK_PROGRESS", str(progress))
            try:
                client.execute()
            except CellExecutionError as exc:
                error = str(exc)
        runs[path] = (nb, error, progress)
    return runs
