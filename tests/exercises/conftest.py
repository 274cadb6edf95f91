"""The graded bank, shared by the tests of this folder: graded once per test session.

The sandboxed class (``graded_class``) holds the cheats, the stubs, a sample of the honest and
wrong answers, the references and two probes; every honest and wrong answer is also graded by
the judge in this process (``bank_in_process``). ``BANK_ONLY=clone,detach`` grades only those
assignments (``graded_bank.selected_assignments``) and deselects the tests of the others.
"""

import os
import time
from pathlib import Path

import pytest

from graded_bank import SANDBOXED, grade_bank, make_course, probe_entries, selected_assignments

TIMES = {}


@pytest.fixture(scope="session")
def graded_class(tmp_path_factory, needs_sandbox, grading_cluster):
    """The course config of a class where every entry of ``graded_bank.SANDBOXED`` (and each
    reference, and two probes) is one student, graded by ``python -m autograder autograde``'s
    machinery."""
    started = time.perf_counter()
    assignments = selected_assignments()
    config = make_course(tmp_path_factory.mktemp("graded-bank"))
    probes = probe_entries() if "clone" in assignments else []
    grade_bank(config, SANDBOXED + probes, scheduler=grading_cluster, assignments=assignments)
    TIMES["grading the bank"] = time.perf_counter() - started
    return config


@pytest.fixture(scope="session")
def bank_in_process():
    """{entry name: {test: (score, max score, errors)}} for every honest and wrong answer of the
    selected assignments, judged in this process (``graded_in_process``)."""
    from graded_bank import IN_PROCESS
    from graded_in_process import Judge

    started = time.perf_counter()
    with Judge() as judge:
        graded = {entry.name: judge.grade(entry) for entry in IN_PROCESS}
    TIMES["judging the bank in process"] = time.perf_counter() - started
    return graded


# Modules whose tests read these assignments' students from the graded class whatever they are
# parametrized by; under BANK_ONLY they are deselected unless all of them are graded.
NEEDS = {"test_variants.py": ("clone",)}


def pytest_collection_modifyitems(config, items):
    """Under ``BANK_ONLY``, deselect the tests of this folder that read an assignment left out."""
    if not os.environ.get("BANK_ONLY", "").strip():
        return
    chosen, here = set(selected_assignments()), Path(__file__).parent
    kept, dropped = [], []
    for item in items:
        if Path(str(item.fspath)).parent != here or _needs(item) <= chosen:
            kept.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _needs(item):
    """The assignments a test reads from the graded bank (none for one that reads no grade)."""
    uses = set(getattr(item, "fixturenames", ()))
    if not uses & {"graded_class", "bank_in_process", "plain_path", "exported", "reported"}:
        return set()
    params = getattr(getattr(item, "callspec", None), "params", {})
    needed = set(NEEDS.get(item.fspath.basename, ()))
    if isinstance(params.get("assignment"), str):
        needed.add(params["assignment"])
    if "entry" in params:   # an empty parametrization (no cheat selected) holds no entry: deselected
        needed.add(getattr(params["entry"], "assignment", None))
    return needed
