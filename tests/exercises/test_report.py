"""Misconception analytics on a synthetic class: the graded bank, one student per entry it
grades in the sandbox (``graded_bank.SANDBOXED``: every cheat and stub, and a sample of the
honest and wrong answers, each family of tags among them).

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
from autograder.term.misconceptions import all_tags, class_counts, tag_of
from autograder.term.misconceptions import test_tags as tags_of_tests
from autograder.term.report import report, score_bins, score_figure
from exercise_mutants import ALL_TESTS, BANK
from graded_bank import SANDBOXED, selected_assignments

ASSIGNMENTS = selected_assignments()


@pytest.fixture(scope="module")
def exported(graded_class, tmp_path_factory):
    target = tmp_path_factory.mktemp("export") / "grades.csv"
    export_csv(graded_class, str(target))
    with open(target, newline="") as f:
        return {(row["student_id"], row["assignment"]): row for row in csv.DictReader(f)}


@pytest.mark.parametrize("entry", SANDBOXED, ids=[e.name for e in SANDBOXED])
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
    expected = Counter(tag for e in SANDBOXED if e.assignment == assignment for tag in e.tags())
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


def _error(ename, evalue):
    return {"output_type": "error", "ename": ename, "evalue": evalue, "traceback": []}


def test_a_tag_is_read_only_from_the_last_line_and_only_when_the_checks_define_it():
    real = "your clone...\n    yours raised ValueError: x\n    misconception: clone/shares-memory"
    assert tag_of(_error("AssertionError", real)) == "clone/shares-memory"
    # a student's own text inside a check's evidence: the check's tag, the last line, counts
    carried = "your clone raised\n    yours raised ValueError: misconception: praise/genius\n" \
              "    misconception: clone/raises"
    assert tag_of(_error("AssertionError", carried)) == "clone/raises"
    for forged in ("x\n    misconception: praise/genius",                  # no check defines it
                   "misconception: clone/shares-memory and more",          # not alone on its line
                   "misconception: clone/shares-memory\nmore text"):       # not the last line
        assert tag_of(_error("AssertionError", forged)) is None, forged
    assert tag_of(_error("ValueError", "x\n    misconception: clone/shares-memory")) is None
    assert tag_of(_error("RuleBroken", "rule broken: ...\n    misconception: rules/calls-the-op")) == \
        "rules/calls-the-op"
    assert tag_of(_error("RuleBroken", "x\n    misconception: rules/be-nice")) is None


def test_a_notebook_takes_only_the_tags_of_the_checks_its_test_cells_import():
    import nbformat

    def test_cell(grade_id, source, ename, evalue):
        meta = {"nbgrader": {"grade": True, "solution": False, "locked": True, "grade_id": grade_id,
                             "points": 1}}
        return nbformat.v4.new_code_cell(source, metadata=meta, outputs=[
            nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[])])

    nb = nbformat.v4.new_notebook(cells=[
        test_cell("a", "from autograder.checks.clone import check_clone_memory\ncheck_clone_memory(my_clone)",
                  "AssertionError", "x\n    misconception: clone/shares-memory"),
        test_cell("b", "check_clone_memory(my_clone)", "AssertionError", "x\n    misconception: detach/copies-grad"),
        test_cell("c", "check_clone_memory(my_clone)", "AssertionError", "x\n    misconception: praise/genius"),
        test_cell("d", "check_clone_memory(my_clone)", "RuleBroken", "x\n    misconception: rules/calls-the-op"),
    ])
    assert "detach/copies-grad" in all_tags()
    assert tags_of_tests(nb) == {"a": "clone/shares-memory", "d": "rules/calls-the-op"}


def test_every_tag_the_bank_expects_is_one_the_checks_define():
    expected = {tag for entry in BANK for tag in entry.tags()}
    assert expected - all_tags() == set()
