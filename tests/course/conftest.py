"""Execute every course notebook once per test session (two kernels at a time), in warm kernels."""

from __future__ import annotations

import pytest

from coursebook.execution import execute_all
from course_paths import NOTEBOOKS
from warm_kernels import WarmKernelManager, start_zygote, stop_zygote


@pytest.fixture(scope="session")
def warm_kernel_manager():
    """nbclient's ``kernel_manager_class`` for kernels forked from the zygote (see warm_kernels.py).

    The zygote starts here, in the main thread, so that it dies with the test process.
    """
    start_zygote()
    yield WarmKernelManager
    stop_zygote()


@pytest.fixture(scope="session")
def executed_notebooks(warm_kernel_manager):
    """{Path: coursebook.execution.Execution} for every notebook in course/."""
    return execute_all(NOTEBOOKS, workers=2, kernel_manager_class=warm_kernel_manager)
