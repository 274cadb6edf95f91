"""Adversarial submissions: each is graded (0 for what it broke) with a clear message,
and no other student's grade moves.

One class is collected from an inbox of zips and folders and graded in two
rounds with real nbgrader, real kernels and a real SQLite gradebook:
round 1 grades two honest students; round 2 grades only the adversarial ones.
The honest students' rows must come out of round 2 exactly as round 1 left them.
"""

import os
import re
import zipfile

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.term.collect import collect
from autograder.term.feedback import generate_feedback
from autograder.grade import autograde
from synthetic_course import grade_id, messages, scores, student_notebook, write_submission

CORRECT = "def make_copy(t):\n    return t.detach().clone()"
WRONG = "def make_copy(t):\n    return t"  # passes test_values and the warning test: 2 of 5
FAST_TIMEOUTS = {"Execute.timeout": 2, "Execute.iopub_timeout": 1, "GuardedExecute.notebook_timeout": 40}

ADVERSARIAL = {
    "loops_forever": {"make_copy": "while True:\n    pass"},
    "ignores_interrupt": {"make_copy": ("import time\nwhile True:\n    try:\n        time.sleep(0.1)\n"
                                        "    except KeyboardInterrupt:\n        pass")},
    "kills_kernel_late": {"make_copy": ("import os\nimport torch\n\ndef make_copy(t):\n"
                                        "    if not isinstance(t, torch.Tensor):\n"
                                        "        os.kill(os.getpid(), 9)\n"
                                        "    return t.detach().clone()")},
    "prints_megabytes": {"make_copy": CORRECT + "\n\nprint('x' * 5_000_000)"},
}
# (A wrong answer that monkeypatches torch, reftorch or builtins to fake a pass: the fixture
# assignment is not judged, so its tests run in the kernel as stock nbgrader runs them and nothing
# guards their verdict. The course's assignments are all judged: tests/autograder/hostile_cheats.py
# has those cheats on clone, where they gain nothing.)


def _zip(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


@pytest.fixture(scope="module")
def graded_class(fixture_course, tmp_path_factory):
    config = fixture_course
    inbox = str(tmp_path_factory.mktemp("inbox"))
    honest = {"honest_right": {"make_copy": CORRECT}, "honest_wrong": {"make_copy": WRONG}}
    for student, replace in list(honest.items()) + list(ADVERSARIAL.items()):
        nb = student_notebook(config, "fixture", replace=replace)
        _zip(os.path.join(inbox, student + ".zip"), {"work/fixture.ipynb": nbformat.writes(nb)})
    # edits a locked test cell (and the restored test must still fail the wrong solution)
    nb = student_notebook(config, "fixture", replace={"make_copy": WRONG, "test_new_memory": "pass",
                                                     "test_reftorch": "assert True"})
    write_submission(os.path.join(inbox, "edits_tests"), nb, "fixture.ipynb")
    # deletes two locked test cells, one of them together with its metadata
    nb = student_notebook(config, "fixture", replace={"make_copy": WRONG})
    nb.cells = [c for c in nb.cells if grade_id(c) != "test_new_memory"]
    for cell in nb.cells:
        if grade_id(cell) == "test_reftorch":
            cell.metadata.pop("nbgrader")
            cell.source = "print('no test here')"
    write_submission(os.path.join(inbox, "deletes_tests"), nb, "fixture.ipynb")
    # a correct notebook saved under another name
    nb = student_notebook(config, "fixture", replace={"make_copy": CORRECT})
    write_submission(os.path.join(inbox, "renamed"), nb, "fixture (1).ipynb")
    # not JSON at all
    _zip(os.path.join(inbox, "not_json.zip"), {"fixture.ipynb": '{"cells": [ oops'})

    report = collect(config, inbox, "fixture")
    assert len(report.collected) == 9, report.lines()
    assert [entry for entry, _ in report.rejected] == ["not_json.zip: fixture.ipynb"], report.lines()

    round1 = autograde(config, "fixture", ["honest_right", "honest_wrong"], workers=1,
                       progress=False, shard_config=FAST_TIMEOUTS)
    assert round1.graded == ["honest_right", "honest_wrong"] and not round1.failed
    before = _rows(config, ["honest_right", "honest_wrong"])
    adversaries = sorted(set(s for s, _, _ in report.collected) - {"honest_right", "honest_wrong"})
    round2 = autograde(config, "fixture", adversaries, workers=2, progress=False,
                       shard_config=FAST_TIMEOUTS)
    return config, before, round2


def _rows(config, students):
    """Every gradebook value of these students' submissions, for an exact comparison."""
    rows = {}
    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        for student in students:
            sub = gb.find_submission("fixture", student)
            rows[student] = (str(sub.timestamp), sub.score, sub.late_submission_penalty, [
                (g.name, g.auto_score, g.manual_score, g.needs_manual_grade, g.id)
                for nb in sub.notebooks for g in nb.grades])
    return rows


def test_every_adversarial_submission_is_graded(graded_class):
    config, _, run = graded_class
    assert run.failed == {}
    assert set(run.graded) == set(ADVERSARIAL) | {"edits_tests", "deletes_tests", "renamed"}


def test_other_students_grades_are_untouched(graded_class):
    config, before, _ = graded_class
    assert _rows(config, ["honest_right", "honest_wrong"]) == before
    assert before["honest_right"][1] == 5 and before["honest_wrong"][1] == 2


def test_infinite_loops_score_zero_with_a_message(graded_class):
    config, _, _ = graded_class
    assert sum(scores(config, "fixture")["loops_forever"].values()) == 0
    assert "ran longer than 2 s and was interrupted" in messages(config, "loops_forever", "fixture")
    assert sum(scores(config, "fixture")["ignores_interrupt"].values()) == 0
    assert "did not stop when interrupted" in messages(config, "ignores_interrupt", "fixture")


def test_a_killed_kernel_costs_only_the_tests_after_it(graded_class):
    config, _, _ = graded_class
    got = scores(config, "fixture")["kills_kernel_late"]
    assert got == {"test_values": 1, "test_new_memory": 2, "test_warning_is_not_an_error": 1,
                   "test_reftorch": 0}
    said = messages(config, "kills_kernel_late", "fixture")
    # named as the student sees it (the test's grade id and heading), never by an index
    assert 'the kernel died in the test "test_reftorch' in said, said
    assert not re.search(r"cell \d", said), said


def test_megabytes_of_output_are_cut_without_changing_the_score(graded_class):
    config, _, _ = graded_class
    assert sum(scores(config, "fixture")["prints_megabytes"].values()) == 5
    assert "printed more than 100000 characters" in messages(config, "prints_megabytes", "fixture")
    graded = os.path.join(config.CourseDirectory.root, "autograder", "state", "autograded",
                          "prints_megabytes", "fixture", "fixture.ipynb")
    assert os.path.getsize(graded) < 300_000


def test_edited_or_deleted_tests_are_put_back_and_run(graded_class):
    config, _, _ = graded_class
    table = scores(config, "fixture")
    assert sum(table["edits_tests"].values()) == 2  # as the honest wrong solution: no gain
    assert sum(table["deletes_tests"].values()) == 2
    assert "locked cell test_new_memory was edited" in messages(config, "edits_tests", "fixture")
    text = messages(config, "deletes_tests", "fixture")
    assert "test_new_memory was missing" in text and "test_reftorch was missing" in text


def test_renamed_notebook_is_graded_with_a_note(graded_class):
    config, _, _ = graded_class
    assert sum(scores(config, "fixture")["renamed"].values()) == 5
    assert "submitted under another name ('fixture (1).ipynb')" in messages(config, "renamed", "fixture")


def test_invalid_json_is_reported_by_collect_and_not_graded(graded_class):
    config, _, _ = graded_class
    assert "not_json" not in scores(config, "fixture")
    assert not os.path.exists(os.path.join(config.CourseDirectory.root, "autograder", "state", "submitted",
                                           "not_json"))


def test_feedback_for_the_whole_class_hides_hidden_tests(graded_class):
    config, _, _ = graded_class
    assert generate_feedback(config, ["fixture"]) == {"fixture": True}
    folder = os.path.join(config.CourseDirectory.root, "autograder", "state", "feedback")
    for student in ("honest_wrong", "prints_megabytes", "loops_forever"):
        with open(os.path.join(folder, student, "fixture", "fixture.html")) as f:
            html = f.read()
        assert "data_ptr() != a.data_ptr()" not in html  # the hidden test's code
        assert "HIDDEN TESTS" not in html
        assert "hidden tests ran here" in html
    with open(os.path.join(folder, "honest_wrong", "fixture", "fixture.html")) as f:
        assert "the copy must not require grad" in f.read()  # the visible message stays
