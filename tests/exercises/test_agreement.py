"""The self-check agrees with the grader, and each message names the mistake the answer has.

In this process (``inprocess.run``, no kernel), for every wrong answer of the bank:

* the visible battery (what ``self_check()`` runs) fails a test cell exactly when the graded
  cell (visible then hidden lines, on the inputs drawn for a student) does, for a sample of
  students: the hidden inputs vary the numbers, never the kinds of input;
* the first failing test cell's message carries exactly the misconception tag the entry
  embodies (``Entry.fails``), read the way the class report reads it
  (``autograder.term.misconceptions.TAG``);
* the wrong answers added for the blind spots of issue 21 (``BLIND_SPOT_ENTRIES``) fail under
  every one of 20 students' seeds.
"""

import pytest

from autograder.witness import variants as _variants
from autograder.term.misconceptions import TAG
from exercise_mutants import ALL_TESTS, BANK, BLIND_SPOT_CATEGORIES, BLIND_SPOT_ENTRIES
from inprocess import run
from nbgrader_course import ASSIGNMENTS

WRONG = [e for e in BANK if e.kind == "wrong"]
STUDENTS = ["alice", "bob"]
SEEDS = [f"student{i:03d}" for i in range(20)]


def _failed(results):
    return {test for test, message in results.items() if message is not None}


_SAID = {}


def _self_check(entry):
    """What the self-check says of ``entry`` (``{test: message}``): read by two tests, run once."""
    if entry.name not in _SAID:
        _SAID[entry.name] = run(entry, battery="visible")
    return _SAID[entry.name]


def _tag(message):
    found = TAG.search(message or "")
    return found.group(1) if found else None


def test_every_assignment_has_wrong_answers_for_the_blind_spots_of_issue_21():
    assert {e.assignment for e in WRONG} == set(ASSIGNMENTS)
    covered = {e.blind_spot for e in BLIND_SPOT_ENTRIES}
    assert set(BLIND_SPOT_CATEGORIES) <= covered, set(BLIND_SPOT_CATEGORIES) - covered
    for entry in BLIND_SPOT_ENTRIES:
        assert entry in BANK and entry.kind == "wrong" and entry.fails, entry.name


@pytest.mark.parametrize("entry", WRONG, ids=[e.name for e in WRONG])
def test_the_self_check_fails_a_wrong_answer_exactly_where_the_grader_does(entry):
    visible = _failed(_self_check(entry))
    for student in STUDENTS:
        with _variants.seeded(f"{student}/{entry.assignment}"):
            graded = _failed(run(entry, battery="full"))
        assert visible == graded, (
            f"student {student}: the self-check fails {sorted(visible)}, the grader {sorted(graded)}")


@pytest.mark.parametrize("entry", WRONG, ids=[e.name for e in WRONG])
def test_the_first_failing_message_names_the_misconception_the_answer_embodies(entry):
    results = _self_check(entry)
    order = [t for t in ALL_TESTS[entry.assignment] if results.get(t) is not None]
    assert order, f"{entry.name} passes every visible test: '{entry.about}' goes unnoticed"
    first = order[0]
    assert first in entry.fails, f"{first} fails first, the bank expects {sorted(entry.fails)}:\n{results[first]}"
    assert _tag(results[first]) == entry.fails[first], (
        f"{first} blames {_tag(results[first])!r}, the answer embodies {entry.fails[first]!r}:\n{results[first]}")
    for test in order:
        assert _tag(results[test]) == entry.fails.get(test), (test, results[test])


@pytest.mark.parametrize("entry", BLIND_SPOT_ENTRIES, ids=[e.name for e in BLIND_SPOT_ENTRIES])
def test_each_blind_spot_answer_fails_for_twenty_students(entry):
    for student in SEEDS:
        with _variants.seeded(f"{student}/{entry.assignment}"):
            results = run(entry, battery="full", tests=set(entry.fails))
        for test, tag in entry.fails.items():
            assert results[test] is not None and _tag(results[test]) == tag, (student, test, results[test])
