"""Every mutant of the bank loses points on the right test cells, with the right message.

The mutants of one assignment are graded together in one kernel (see
mutant_runner), with the unchanged solution graded alongside as a baseline;
two assignments' kernels run at once.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest

from exercise_mutants import MUTANTS
from mutant_runner import run_mutants
from nbgrader_course import ASSIGNMENTS


def _grade_bank(assignment):
    """{mutant name: {test grade_id: CellResult}}, plus the baseline under the name None."""
    bank = [m for m in MUTANTS if m.assignment == assignment]
    results = run_mutants(assignment, [{}] + [{m.replaces: m.code} for m in bank])
    return {None: results[0], **{m.name: r for m, r in zip(bank, results[1:])}}


@pytest.fixture(scope="module")
def graded():
    """Every assignment's bank, two kernels at a time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(ASSIGNMENTS, pool.map(_grade_bank, ASSIGNMENTS)))


def test_the_bank_is_big_enough():
    assert len(MUTANTS) >= 20
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)
    for assignment in ASSIGNMENTS:
        assert any(m.assignment == assignment for m in MUTANTS), f"no mutant for {assignment}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_solution_passes_every_test_cell(graded, assignment):
    failed = {g: r.message for g, r in graded[assignment][None].items() if r.failed}
    assert not failed, failed


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_the_mutant_fails_exactly_the_right_cells(graded, mutant):
    cells = graded[mutant.assignment][mutant.name]
    unknown = set(mutant.fails) - set(cells)
    assert not unknown, f"the bank names test cells that do not exist: {unknown}"
    assert mutant.fails, "a mutant must make at least one test cell fail"
    for grade_id, result in cells.items():
        if grade_id in mutant.fails:
            assert result.failed, f"{grade_id} let the misconception pass: {mutant.misconception}"
            assert mutant.fails[grade_id] in result.message, (
                f"{grade_id} failed with the wrong message for '{mutant.misconception}':\n{result.message}"
            )
        else:
            assert not result.failed, f"{grade_id} fails too, with: {result.message}"
