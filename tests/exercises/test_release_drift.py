"""exercises/ is exactly what nbgrader generates from solutions/: no hand edits, no stale copy.

Regenerate every assignment with nbgrader's generate_assignment in a temporary
course and compare the bytes with the committed student notebooks. To refresh
exercises/ after editing a solution, run from autograder/ (with .venv/bin first
on PATH): ``nbgrader generate_assignment <assignment> --force``.
"""

import pytest

from nbgrader_course import ASSIGNMENTS, EXERCISES, TempCourse
from stored import stored_bytes, stored_files


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    course = TempCourse(tmp_path_factory.mktemp("drift"), drop_self_check=False)
    return {assignment: course.generate(assignment) for assignment in ASSIGNMENTS}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_committed_release_matches_nbgrader_output(regenerated, assignment):
    fresh = regenerated[assignment] / f"{assignment}.ipynb"
    committed = EXERCISES / assignment / f"{assignment}.ipynb"
    assert stored_bytes(committed) == fresh.read_bytes(), (
        f"exercises/{assignment} drifted from solutions/{assignment}: regenerate it with "
        f"`nbgrader generate_assignment {assignment} --force` (run from autograder/)"
    )


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_release_holds_only_the_notebook(assignment):
    files = stored_files(EXERCISES / assignment)
    assert files == [f"{assignment}.ipynb"], files
