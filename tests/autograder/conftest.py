"""pytest fixtures for the autograder tests (the builders are in synthetic_course.py)."""

import os

import pytest

from synthetic_course import FIXTURES, make_course


@pytest.fixture(scope="session")
def fixture_course(tmp_path_factory, needs_sandbox):
    """A course with the tiny fixture assignment (5 points, one hidden test, one warning)."""
    root = str(tmp_path_factory.mktemp("fixture-course"))
    return make_course(root, {"fixture": os.path.join(FIXTURES, "fixture")})
