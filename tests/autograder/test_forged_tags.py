"""A student cannot choose their own misconception tag: only the checks' tags reach the export and report.

The tag of a failed test is read from the error that decided its score, and
that error is raised in the student's own kernel. Two students of ``clone``
hand in a ``my_clone`` that raises an error whose text carries a tag line of
their choosing, graded by the real grader (real nbgrader, sandboxed warm
kernels, a real gradebook) with an honest student:

* ``in-evidence`` raises a ``ValueError`` whose last line is a tag no check
  defines;
* ``look-alike`` raises an exception of its own named ``AssertionError``, whose
  message is shaped as a check's failure, ending with a tag the clone checks
  do define (``clone/shares-memory``).

The checks report each with their own tag last (``clone/raises``), quoting the
student's text in the evidence, where it must not count. ``export`` and
``report`` must show ``clone/raises`` for both, and neither student's tag.
(An exception the checks would not catch, derived from ``BaseException``,
breaks the rule ``subclasses``; ``autograder.term.misconceptions`` would not
take its tag either: see ``tests/exercises/test_report.py``.)
"""

import csv
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))

from graded_bank import make_course, outcome, student_notebook, submit  # noqa: E402
from hostile_cheats import ALL, MY_CLONE, SOLUTION  # noqa: E402

from autograder.grade import autograde_all  # noqa: E402

HEAD = "def my_clone(self, *, memory_format=torch.preserve_format):\n"
FORGED = {
    "in-evidence": HEAD + '    raise ValueError("not today\\n    misconception: praise/genius")\n',
    "look-alike": ("class AssertionError(Exception):\n    pass\n\n\n" + HEAD
                   + '    raise AssertionError("your clone is right\\n    misconception: clone/shares-memory")\n'),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory, needs_sandbox, grading_cluster):
    config = make_course(tmp_path_factory.mktemp("forged"), ["clone"])
    submit(config, "honest", "clone", student_notebook(config, "clone"))
    for name, code in FORGED.items():
        submit(config, name, "clone", student_notebook(config, "clone", {SOLUTION: code}))
    runs = autograde_all(config, ["clone"], {"clone": ["honest"] + list(FORGED)}, workers=2, warm=True,
                         progress=False, scheduler=grading_cluster)
    assert not runs["clone"].failed, runs["clone"].failed
    return config


def test_each_forger_fails_the_tests_that_call_my_clone(graded):
    for name in FORGED:
        results, _ = outcome(graded, name, "clone")
        assert set(results) == set(ALL)
        assert {test for test, (score, points, _) in results.items() if score != points} == set(MY_CLONE), results
    for name, forged in (("in-evidence", "praise/genius"), ("look-alike", "clone/shares-memory")):
        results, _ = outcome(graded, name, "clone")
        assert "misconception: " + forged in results["clone-memory"][2]   # quoted as evidence, shown
        assert results["clone-memory"][2].rstrip().endswith("misconception: clone/raises")


def test_the_export_and_the_report_count_only_the_checks_tags(graded, tmp_path):
    from autograder.term.export import export_csv
    from autograder.term.misconceptions import student_tags
    from autograder.term.report import report

    assert student_tags(graded, "in-evidence", "clone") == ["clone/raises"]
    assert student_tags(graded, "look-alike", "clone") == ["clone/raises"]
    assert student_tags(graded, "honest", "clone") == []
    target = tmp_path / "grades.csv"
    export_csv(graded, str(target))
    with open(target, newline="") as f:
        rows = {row["student_id"]: row["misconceptions"] for row in csv.DictReader(f)}
    assert rows == {"honest": "", "in-evidence": "clone/raises", "look-alike": "clone/raises"}, rows
    text = report(graded, plots=str(tmp_path / "plots"))
    assert "praise/genius" not in text and "clone/shares-memory" not in text
    assert re.search(r"^\s+2\s+clone/raises$", text, re.M), text
