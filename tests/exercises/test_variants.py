"""A variant per student: hidden inputs drawn from "<student>/<assignment>".

Property tests (in this process, no kernel): the reference solutions pass the
inputs drawn for many seeds, and every honest answer, wrong answer and stub of
the bank keeps its verdict over a sample of seeds (it never fails a test it
should pass, and the tests it fails, it fails on an input every student gets).
Then, under real grading: the kernel draws from the graded student's seed,
two students face different inputs, and a regrade draws the same ones.
"""

import pytest

from autograder.witness import variants as _variants
from autograder.checks.copy_into import _drawn as drawn_pairs
from autograder.checks.model_snapshot import _drawn_models
from autograder.checks.new_tensor import _drawn_owners
from autograder.grade import autograde
from exercise_mutants import BANK, NEW_BANK, Entry
from graded_bank import PROBE_CODE, outcome, printed_inputs, probe_entries
from inprocess import run
from nbgrader_course import ASSIGNMENTS

SEEDS = [f"student{i:03d}" for i in range(20)]
SAMPLE = ["alice", "bob", "carol"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_reference_solution_passes_the_inputs_drawn_for_many_students(assignment):
    reference = Entry("reference", assignment, "honest", "the instructor's solution", {})
    for student in SEEDS:
        with _variants.seeded(f"{student}/{assignment}"):
            failed = {t: m for t, m in run(reference, battery="drawn").items() if m is not None}
        assert not failed, f"seed {student}/{assignment}: {failed}"


ENTRIES = [e for e in BANK if e.kind != "cheat"]   # cheats would patch this very process


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_each_entry_keeps_its_verdict_over_a_sample_of_seeds(entry):
    for student in SAMPLE:
        with _variants.seeded(f"{student}/{entry.assignment}"):
            results = run(entry, battery="drawn", tests=None)
        lost = {t: m for t, m in results.items() if t not in entry.fails and m is not None}
        assert not lost, f"seed {student}: tests it should keep fail on drawn inputs: {lost}"
    if entry.fails:
        with _variants.seeded(f"{SAMPLE[0]}/{entry.assignment}"):
            results = run(entry, battery="full", tests=set(entry.fails))
        for test, expected in entry.fails.items():
            assert results[test] is not None and expected in results[test], (test, results[test])
            given = [line for line in results[test].splitlines() if line.strip().startswith("input:")]
            assert not any("drawn" in line for line in given), (
                f"{test} fails only on a drawn input: its verdict would depend on the student\n{results[test]}")


NEW_WRONG = [e for e in NEW_BANK if e.kind == "wrong"]


@pytest.mark.parametrize("entry", NEW_WRONG, ids=[e.name for e in NEW_WRONG])
def test_the_visible_battery_names_every_misconception_of_the_newer_exercises(entry):
    """The self-check is a real signal: each wrong answer fails the visible tests with its own tag."""
    results = run(entry, battery="visible", tests=set(entry.fails))
    for test, expected in entry.fails.items():
        assert results[test] is not None and expected in results[test], (test, results[test])


def _labels(seed):
    with _variants.seeded(seed):
        return ([c.label() for c in _variants.tensor_cases("clone")]
                + [c.label() for c in drawn_pairs("copy_/values", refusals=True)]
                + [o.name for o in _drawn_owners("new_tensor/copy")]
                + [m.name for m in _drawn_models("snapshot/survives")])


def test_two_students_draw_different_inputs_and_one_student_always_the_same():
    assert _labels("alice/clone") == _labels("alice/clone")
    assert _labels("alice/clone") != _labels("bob/clone")
    assert _labels("alice/clone") != _labels("alice/detach")
    assert len({tuple(_labels(f"{s}/clone")) for s in SEEDS}) == len(SEEDS)


def test_without_a_grader_the_seed_is_the_default(monkeypatch):
    monkeypatch.setenv("AUTOGRADER_VARIANT", "alice/clone")  # the old channel is read no more
    with _variants.seeded("x"):
        pass
    saved = dict(_variants._state)
    _variants._state.clear()
    try:
        assert _variants.current_seed() == _variants.DEFAULT_SEED
    finally:
        _variants._state.clear()
        _variants._state.update(saved)


def _expected_inputs(student):
    namespace = {}
    probe = [p for p in probe_entries() if p.name == student][0]
    with _variants.seeded(f"{student}/clone"):
        run(probe, namespace=namespace)
    return namespace["SEEN"]


def test_the_grading_kernel_draws_from_the_graded_students_seed(graded_class):
    a, b = printed_inputs(graded_class, "probe-a"), printed_inputs(graded_class, "probe-b")
    assert a is not None and b is not None
    assert a == _expected_inputs("probe-a")
    assert b == _expected_inputs("probe-b")
    assert a != b
    assert "SEEN.append" in PROBE_CODE


def test_a_regrade_draws_the_same_inputs_and_gives_the_same_grades(graded_class, grading_cluster):
    students = ["probe-a", "clone-keeps-offset", "clone-patches-torch-clone", "clone-calls-clone"]
    before = {s: outcome(graded_class, s, "clone") for s in students}
    inputs = printed_inputs(graded_class, "probe-a")
    run_ = autograde(graded_class, "clone", students, workers=1, progress=False, scheduler=grading_cluster)
    assert sorted(run_.graded) == sorted(students) and not run_.failed
    assert printed_inputs(graded_class, "probe-a") == inputs
    for student in students:
        assert outcome(graded_class, student, "clone") == before[student], student
