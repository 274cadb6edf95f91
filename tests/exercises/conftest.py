"""The graded bank, shared by the tests of this folder: graded once per test session."""

import time

import pytest

from exercise_mutants import BANK
from graded_bank import grade_bank, make_course, probe_entries

TIMES = {}


@pytest.fixture(scope="session")
def graded_class(tmp_path_factory, needs_sandbox, grading_cluster):
    """The course config of a class where every bank entry (and each reference, and two probes)
    is one student, graded by ``python -m autograder autograde``'s machinery."""
    started = time.perf_counter()
    config = make_course(tmp_path_factory.mktemp("graded-bank"))
    grade_bank(config, BANK + probe_entries(), scheduler=grading_cluster)
    TIMES["grading the bank"] = time.perf_counter() - started
    return config
