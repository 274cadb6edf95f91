"""The browser's practice self-check agrees with the checks on the visible tests (issue 35).

``autograder.learner.practice_record`` records, on real torch, what the visible
tests of an exercise ask of the course's solution; ``coursebook.practice``
asks a learner's functions the same questions (through the witness, as in the
browser) and compares the answers. For each honest and wrong answer of the
bank, in three exercises (one observed op, one of two tensors, one story),
a visible test passes in practice exactly when the real check passes it, run
in this process on torch; the stub scores 0 and says "not written yet".
"""

import json

import pytest

from autograder.learner.practice_record import ReplayingWitness, RecordedReply, recorded
from autograder.witness.wire import decode
from coursebook.practice import practice_results
from exercise_mutants import BANK, RELEASE
from inprocess import run
from nbgrader_course import EXERCISES, SOLUTIONS

ASSIGNMENTS = ("clone", "copy_into", "target_network")
WITNESS = "autograder.witness"   # in the browser, the same package under the wheel's name


@pytest.fixture(scope="module")
def answers(tmp_path_factory, practice_answers_cache):
    """The recorded answers, as the Lite site's build records them (kept for this run's other
    recorder, the site's build, in ``practice_answers_cache``)."""
    folder = tmp_path_factory.mktemp("practice_answers")
    for name in ASSIGNMENTS:
        answered = recorded(EXERCISES / name / f"{name}.ipynb", SOLUTIONS / name / f"{name}.ipynb",
                            practice_answers_cache)
        (folder / f"{name}.json").write_text(json.dumps(answered), encoding="utf-8")
    return folder


def _entries():
    return [e for e in BANK if e.assignment in ASSIGNMENTS and e.kind in ("honest", "wrong")]


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e.name)
def test_a_visible_test_passes_in_practice_exactly_when_the_check_passes_it(answers, entry):
    namespace = {"__name__": "__main__"}
    checked = run(entry, battery="visible", namespace=namespace)
    practised = {test: lines for test, _, lines in practice_results(entry.assignment, namespace, answers, WITNESS)}
    assert set(practised) == set(checked)
    disagree = {test: (checked[test], practised[test]) for test in checked
                if (checked[test] is None) != (practised[test] is None)}
    assert not disagree, disagree


def test_the_untouched_stub_scores_zero_and_says_not_written(answers):
    stub = next(e for e in BANK if e.assignment == "clone" and e.cells == RELEASE)
    namespace = {"__name__": "__main__"}
    run(stub, battery="visible", namespace=namespace)
    results = practice_results("clone", namespace, answers, WITNESS)
    assert results and all(lines is not None and any("not written yet" in line for line in lines)
                           for _, _, lines in results), results


def _plain_reply(reply):
    """A reply with its observations (or story) decoded."""
    if "each" in reply:
        return [_plain_reply(one) for one in reply["each"]]
    key = next((k for k in ("seen", "told") if k in reply), None)
    return decode(reply[key]) if key else reply


def test_a_replay_changes_the_one_field_asked_and_nothing_else(answers):
    """How the recording finds what a test compares: the recorded answers replayed with one field of
    every observation changed (``ReplayingWitness``), each reply decoded once for all the replays."""
    for test in json.loads((answers / "clone.json").read_text(encoding="utf-8"))["tests"]:
        replies = [RecordedReply(reply) for _, reply in test["asked"]]
        for field in test["compared"]:
            witness = ReplayingWitness(replies, field, lambda name, value: ("changed", name))
            for _, reply in test["asked"]:
                recorded, replayed = _plain_reply(reply), _plain_reply(witness.ask(None))
                for was, now in zip(recorded, replayed) if isinstance(recorded, list) else [(recorded, replayed)]:
                    assert now == (dict(was, **{field: ("changed", field)}) if field in was else was)
            assert witness.ask(None) == {"refused": "not recorded"}
