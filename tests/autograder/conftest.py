"""pytest fixtures for the autograder tests (the builders are in synthetic_course.py)."""

import os

import pytest

from autograder.sandbox import why_unavailable
from synthetic_course import FIXTURES, make_course


@pytest.fixture(scope="session")
def needs_sandbox():
    """Grading runs every kernel in a bubblewrap sandbox: skip without one, except in CI."""
    why = why_unavailable()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail("sandboxed grading must run in CI, but " + why)
        pytest.skip("sandboxed grading skipped: %s (install bubblewrap and run as root)" % why)


@pytest.fixture(scope="session")
def fixture_course(tmp_path_factory, needs_sandbox):
    """A course with the tiny fixture assignment (5 points, one hidden test, one warning)."""
    root = str(tmp_path_factory.mktemp("fixture-course"))
    return make_course(root, {"fixture": os.path.join(FIXTURES, "fixture")})
