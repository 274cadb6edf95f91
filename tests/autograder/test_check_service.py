"""The self-check service: the grader's verdict, as data, in a new sandboxed kernel every time.

``self_check()`` asks ``autograder.learner.check_service`` (started on first use; here on
a socket of the test's own, stopped afterwards). Each check must give exactly
what ``learner_check.check`` gives run on its own with a fresh kernel, whatever
was checked before it (a kernel is never reused), and the score reaches the
progress file as numbers, not by reading the printout.
"""

import json
import time

import pytest

from autograder.learner.check_service import SOCKET_ENV, check_saved, stop
from autograder.learner.learner_check import check
from autograder.learner.self_check import self_check
from synthetic_course import student_notebook, write_submission


@pytest.fixture
def service(tmp_path, monkeypatch):
    socket = tmp_path / "service.sock"
    monkeypatch.setenv(SOCKET_ENV, str(socket))
    yield socket
    stop(str(socket))


def _verdict(result):
    return [(t.grade_id, t.points, t.max_points, t.message) for t in result.tests], result.problems


def test_each_check_equals_a_fresh_kernels_whatever_ran_before(fixture_course, tmp_path, service):
    solved = write_submission(str(tmp_path / "solved"), student_notebook(fixture_course, "fixture", solved="all"),
                              "fixture.ipynb")
    wrong = write_submission(str(tmp_path / "wrong"), student_notebook(
        fixture_course, "fixture", replace={"make_copy": "def make_copy(t):\n    return t"}), "fixture.ipynb")
    cold = {path: _verdict(check(path)) for path in (solved, wrong)}
    assert cold[solved] != cold[wrong]
    seconds = []
    for path in (solved, wrong, solved, wrong):
        start = time.perf_counter()
        assert _verdict(check_saved(path)) == cold[path]
        seconds.append(time.perf_counter() - start)
    assert service.exists(), "no service answered: every check ran in a process of its own"
    print("self-check by the service: " + ", ".join(f"{s:.2f} s" for s in seconds))


def test_self_check_records_the_score_it_was_given_as_data(fixture_course, tmp_path, service, monkeypatch, capsys):
    progress = tmp_path / "progress.json"
    monkeypatch.setenv("COURSEBOOK_PROGRESS", str(progress))
    path = write_submission(str(tmp_path / "ex"), student_notebook(
        fixture_course, "fixture", replace={"make_copy": "def make_copy(t):\n    return t"}), "fixture.ipynb")
    self_check(path)
    assert "Score: 2/5" in capsys.readouterr().out
    recorded = json.loads(progress.read_text())["exercises"]["fixture"]
    assert (recorded["score"], recorded["max_score"]) == (2, 5)

