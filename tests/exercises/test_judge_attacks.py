"""The judged design attacked from inside the student's kernel, by category (``judge_attacks``).

One course of four assignments, one grading run with real nbgrader, sandboxed witness kernels
and the course's configuration: for each assignment the honest twins and one student per attack.
Each attack must gain nothing (its score no higher than its twin's), reach nothing (no ``FOUND``
report in any output), and leave the run whole (every student graded, no test the grader itself
failed on). The witness kernel holds neither torch nor the checks, and a test cell's code never
reaches it.
"""

import json

import pytest

from graded_bank import make_course, outcome, submit, student_notebook
from exercise_mutants import reference
from judge_attacks import (ATTACKS, SL_ATTACKS, cells, layout_twin_cells, sl_cells, views_cells,
                           views_layout_twin_cells)
from judge_attacks import NT_ATTACKS, new_tensor_cells

from autograder.grade import autograde_all

TWIN, LAYOUT_TWIN = "honest-twin", "honest-layout-twin"
CONFIG = {"Execute.timeout": 10}


def _students():
    """{assignment: {student: solution cells}}: for each judged assignment, its honest twins and one
    student per attack."""
    views = reference(VIEWS, "sv-views-solution")
    return {
        "clone": {TWIN: cells(None), LAYOUT_TWIN: layout_twin_cells(),
                  **{"attack-" + name: cells(name) for name in ATTACKS}},
        VIEWS: {TWIN: views_cells(None, views), LAYOUT_TWIN: views_layout_twin_cells(views),
                **{"attack-" + name: views_cells(name, views) for name in ATTACKS}},
        SL: {TWIN: sl_cells(None), **{"attack-" + name: sl_cells(name) for name in SL_ATTACKS}},
        "new_tensor": {TWIN: new_tensor_cells(None),
                       **{"attack-" + name: new_tensor_cells(name) for name in NT_ATTACKS}},
    }


@pytest.fixture(scope="module")
def attacked(tmp_path_factory, needs_sandbox, grading_cluster):
    """One course of the four attacked assignments, every student of each graded, sandboxed, in one
    run on the session's grading cluster; every notebook graded (none failed).  One run, not one
    per assignment: each student is still graded alone in its own kernel, so what one attack does
    reaches no other student's grade, and the cluster's two workers stay busy to the end."""
    students = _students()
    config = make_course(tmp_path_factory.mktemp("judge-attacks"), list(students))
    for assignment, group in students.items():
        for student, solution in group.items():
            submit(config, student, assignment, student_notebook(config, assignment, solution))
    runs = autograde_all(config, list(students), {a: list(group) for a, group in students.items()}, workers=2,
                         warm=True, progress=False, shard_config=CONFIG, scheduler=grading_cluster)
    failed = {a: run.failed for a, run in runs.items() if run.failed}
    assert not failed, failed
    return config


def _total(config, student):
    results, _ = outcome(config, student, "clone")
    return sum(score for score, _, _ in results.values())


def test_the_twins_score_what_return_self_deserves(attacked):
    assert _total(attacked, TWIN) == 2   # only the strides functions are right
    assert _total(attacked, LAYOUT_TWIN) == 0


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_attack_gains_nothing(attacked, attack):
    twin = LAYOUT_TWIN if attack == "lying_objects" else TWIN
    assert _total(attacked, "attack-" + attack) <= _total(attacked, twin)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_attack_reaches_nothing(attacked, attack):
    results, messages = outcome(attacked, "attack-" + attack, "clone")
    text = json.dumps([results, messages])
    assert "FOUND" not in text
    assert "GraderError" not in text and "could not be judged" not in text


def test_a_replaced_driver_fails_its_tests_with_a_plain_reason(attacked):
    results, _ = outcome(attacked, "attack-driver", "clone")
    reasons = " ".join(errors for _, _, errors in results.values())
    assert "TestNotRun: this test could not run" in reasons


def test_the_witness_holds_no_torch_no_checks_and_no_test_code(attacked):
    """The reflection, deserialisation and frame attacks looked for all three and found nothing:
    their failures are the plain wrong answer's, with no report."""
    for attack in ("reflection", "deserialisation", "frames"):
        results, _ = outcome(attacked, "attack-" + attack, "clone")
        assert "clone/returns-source" in results["clone-memory"][2], (attack, results["clone-memory"])


# --- the same attacks on strides_and_views ------------------------------------------------------

VIEWS = "strides_and_views"


def _views_results(config, student):
    results, messages = outcome(config, student, VIEWS)
    return results, messages, sum(score for score, _, _ in results.values())


def test_the_views_twins_score_what_their_wrong_answers_deserve(attacked):
    results, _, total = _views_results(attacked, TWIN)
    assert results["sv-slice"][0] == 0 and "strides_and_views/returns-source" in results["sv-slice"][2]
    assert total == sum(points for _, points, _ in results.values()) - results["sv-slice"][1]
    layout, _, _ = _views_results(attacked, LAYOUT_TWIN)
    assert layout["sv-strides"][0] == 0 and layout["sv-slice"][0] == 0


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_attack_on_views_gains_nothing_and_reaches_nothing(attacked, attack):
    twin = LAYOUT_TWIN if attack == "lying_objects" else TWIN
    results, messages, total = _views_results(attacked, "attack-" + attack)
    assert total <= _views_results(attacked, twin)[2]
    text = json.dumps([results, messages])
    assert "FOUND" not in text
    assert "GraderError" not in text and "could not be judged" not in text
    if attack in ("reflection", "deserialisation", "frames"):   # nothing found: the plain wrong answer's failure
        assert "strides_and_views/returns-source" in results["sv-slice"][2], results["sv-slice"]
    if attack == "driver":
        assert "TestNotRun: this test could not run" in " ".join(errors for _, _, errors in results.values())


# --- the same categories against a judged story: save_and_load's witness plays the story --------------

SL = "save_and_load"


def _story_total(config, student):
    results, _ = outcome(config, student, SL)
    return sum(score for score, _, _ in results.values())


def test_the_story_twin_loses_only_the_bytes_it_counts_wrong(attacked):
    results, _ = outcome(attacked, TWIN, SL)
    assert results["sl-bytes"][0] == 0 and f"{SL}/counts-each-tensor" in results["sl-bytes"][2]
    assert all(score == points for test, (score, points, _) in results.items() if test != "sl-bytes")


@pytest.mark.parametrize("attack", sorted(SL_ATTACKS))
def test_the_attack_on_a_story_gains_nothing_and_reaches_nothing(attacked, attack):
    assert _story_total(attacked, "attack-" + attack) <= _story_total(attacked, TWIN)
    results, messages = outcome(attacked, "attack-" + attack, SL)
    assert results["sl-bytes"][0] == 0, (attack, results["sl-bytes"])
    text = json.dumps([results, messages])
    assert "FOUND" not in text
    assert "GraderError" not in text and "could not be judged" not in text


def test_a_replaced_driver_fails_the_story_with_a_plain_reason(attacked):
    results, _ = outcome(attacked, "attack-driver", SL)
    reasons = [errors for _, _, errors in results.values()]
    assert all("TestNotRun: this test could not run: the witness" in r for r in reasons), reasons


# ---- the same categories against new_tensor: two tensors per input, keyword arguments -------------

def _new_tensor_results(config, student):
    results, messages = outcome(config, student, "new_tensor")
    return results, messages


def test_the_new_tensor_twin_scores_what_returning_the_data_deserves(attacked):
    results, _ = _new_tensor_results(attacked, TWIN)
    assert {test: score for test, (score, _, _) in results.items()} == {
        "new-tensor-copy": 0, "new-tensor-dtype": 0, "new-tensor-graph": 0, "tensor-from-tensor": 2}
    assert "new_tensor/returns-data" in results["new-tensor-copy"][2]


@pytest.mark.parametrize("attack", sorted(NT_ATTACKS))
def test_the_attack_on_new_tensor_gains_nothing_and_reaches_nothing(attacked, attack):
    results, messages = _new_tensor_results(attacked, "attack-" + attack)
    twin, _ = _new_tensor_results(attacked, TWIN)
    assert sum(score for score, _, _ in results.values()) <= sum(score for score, _, _ in twin.values())
    text = json.dumps([results, messages])
    assert "FOUND" not in text
    assert "GraderError" not in text and "could not be judged" not in text
    if attack == "driver":
        assert "TestNotRun: this test could not run" in text
    if attack in ("reflection", "deserialisation", "frames"):
        assert "new_tensor/returns-data" in results["new-tensor-copy"][2], results["new-tensor-copy"]
