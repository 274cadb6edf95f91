"""Misconception analytics on a synthetic class: the graded bank, one student per entry.

Each entry's expected failures say which tags its graded notebook must show, so
the class's counts are known in advance: ``export`` must write each student's
tags, ``report`` must count them per assignment (and draw them), list the tests
in notebook order, and draw the score histogram with integer bins and ticks.
"""

import csv
import re
from collections import Counter

import pytest

from autograder.term.export import export_csv
from autograder.term.misconceptions import class_counts, tag_of
from autograder.term.report import report, score_bins, score_figure
from exercise_mutants import ALL_TESTS, BANK
from nbgrader_course import ASSIGNMENTS


@pytest.fixture(scope="module")
def exported(graded_class, tmp_path_factory):
    target = tmp_path_factory.mktemp("export") / "grades.csv"
    export_csv(graded_class, str(target))
    with open(target, newline="") as f:
        return {(row["student_id"], row["assignment"]): row for row in csv.DictReader(f)}


@pytest.mark.parametrize("entry", BANK, ids=[e.name for e in BANK])
def test_export_writes_each_students_misconception_tags(exported, entry):
    row = exported[entry.name, entry.assignment]
    assert (row["misconceptions"].split("; ") if row["misconceptions"] else []) == entry.tags()
    for other in ASSIGNMENTS:
        if other != entry.assignment:
            assert exported[entry.name, other]["misconceptions"] == ""


@pytest.fixture(scope="module")
def reported(graded_class, tmp_path_factory):
    plots = tmp_path_factory.mktemp("plots")
    return report(graded_class, None, str(plots)), plots


def _section(text, assignment):
    lines = text.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"== {assignment} ")))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("== ")), len(lines))
    return lines[start:end]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_report_counts_the_classes_misconceptions(reported, assignment):
    text, plots = reported
    section = _section(text, assignment)
    expected = Counter(tag for e in BANK if e.assignment == assignment for tag in e.tags())
    start = section.index("   most common misconceptions (students):")
    counted = {}
    for line in section[start + 1:]:
        match = re.fullmatch(r"\s+(\d+)\s+(\S+)", line)
        if not match:
            break
        counted[match.group(2)] = int(match.group(1))
    assert counted == dict(expected)
    assert list(counted.values()) == sorted(counted.values(), reverse=True), "most common first"
    assert (plots / f"{assignment}_misconceptions.png").stat().st_size > 0
    assert (plots / f"{assignment}_scores.png").stat().st_size > 0


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_report_lists_the_tests_in_notebook_order(reported, assignment):
    section = _section(reported[0], assignment)
    header = next(i for i, line in enumerate(section) if line.split()[:1] == ["test"])
    listed = [line.split()[0] for line in section[header + 1:header + 1 + len(ALL_TESTS[assignment])]]
    assert listed == list(ALL_TESTS[assignment])


def test_the_histogram_has_a_bar_per_whole_point_and_integer_ticks():
    assert score_bins(9) == [-0.5 + i for i in range(11)]
    assert score_bins(7.5) == [-0.5 + i for i in range(10)]
    figure = score_figure({"name": "x", "max_score": 9, "scores": [0, 3, 3, 9, 7]})
    axes = figure.axes[0]
    assert len(axes.patches) == 10
    assert [p.get_height() for p in axes.patches][3] == 2
    for ticks in (axes.get_xticks(), axes.get_yticks()):
        assert all(float(t).is_integer() for t in ticks)


def test_counts_and_tags_on_a_hand_made_class():
    assert class_counts({"a": ["x/1", "y/2"], "b": ["x/1"], "c": [], "d": ["x/1", "x/1"]}) == [("x/1", 3), ("y/2", 1)]
    assert tag_of({"output_type": "error", "ename": "AssertionError",
                   "evalue": "your clone...\n    misconception: clone/shares-memory"}) == "clone/shares-memory"
    assert tag_of({"output_type": "error", "ename": "TamperingDetected", "evalue": "x"}) == "integrity/tampering"
    assert tag_of({"output_type": "stream", "text": "misconception: a/b"}) is None
