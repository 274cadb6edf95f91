"""One grading asks a test cell's fixed cases once (issue 38, decision 0075).

A graded test cell holds a visible line (every fixed case: what the learner's self-check runs too)
and, between nbgrader's hidden-test marks, a hidden line that asks only the inputs drawn for the
student (``battery="drawn"``). The hidden line runs only after the visible one passed, so asking the
fixed cases again would cost a second round of questions and change no verdict of a function
without state. Here each solution notebook's test cells run whole, as graded, with the solution in
the witness's place, and every question is written down: none may be asked twice in one cell.
"""

import json
from pathlib import Path

import nbformat
import pytest

from autograder.judge.test_cell import TestNames, run_instructor_cell, run_test_cell
from autograder.learner.practice_record import RecordingWitness, solution_namespace

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
BEGIN = "### BEGIN HIDDEN TESTS"
SEEDS = ("student-a", "student-b")
ASSIGNMENTS = sorted(p.name for p in SOLUTIONS.iterdir() if (p / f"{p.name}.ipynb").exists())


def questions(witness):
    """The single questions the witness was asked (``observe_all`` bundles several), in order."""
    return [json.dumps(q, sort_keys=True)
            for request, _ in witness.asked for q in (request.get("observe_all") or [request])]


def asked(source, namespace, names, seed):
    witness = RecordingWitness(namespace)
    outputs = run_test_cell(source, witness, seed=seed, names=names)
    assert not outputs, f"the solution fails its own test: {outputs[0].get('evalue', '')[:300]}"
    return questions(witness)


def battery_asked_again(solution: Path) -> dict:
    """``{grade_id: number of questions}`` of the graded cells whose hidden line asks every question
    its visible line asked, under each of two students' seeds."""
    namespace, names, again = solution_namespace(solution), TestNames(), {}
    for cell in nbformat.read(solution, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        nbgrader = cell.metadata.get("nbgrader", {})
        if not nbgrader.get("grade"):
            run_instructor_cell(cell.source, names)
            continue
        visible, marked, _ = cell.source.partition(BEGIN)
        assert marked, f"{nbgrader['grade_id']} has no hidden line"
        fixed = asked(visible, namespace, names, seed=SEEDS[0])
        hidden = [set(asked(cell.source, namespace, names, seed)[len(fixed):]) for seed in SEEDS]
        if any(set(fixed) <= h for h in hidden):
            again[nbgrader["grade_id"]] = len(set(fixed))
    return again


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_hidden_line_does_not_ask_the_visible_battery_again(assignment):
    again = battery_asked_again(SOLUTIONS / assignment / f"{assignment}.ipynb")
    assert not again, "the hidden line asks its visible line's questions again: " + ", ".join(
        f"{grade_id} ({n} questions)" for grade_id, n in again.items())
