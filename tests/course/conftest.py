"""Execute every course notebook once per test session (two kernels at a time)."""

from __future__ import annotations

import pytest

from coursebook.execution import execute_all
from course_paths import NOTEBOOKS


@pytest.fixture(scope="session")
def executed_notebooks():
    """{Path: coursebook.execution.Execution} for every notebook in course/."""
    return execute_all(NOTEBOOKS, workers=2)
