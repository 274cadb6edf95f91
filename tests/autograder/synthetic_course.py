"""Shared set-up for the autograder tests: throw-away courses and synthetic students.

Every test works in a course root under pytest's tmp folder (never the
repository's gradebook): ``solutions/`` copied from the fixture assignment
(``fixtures/solutions/fixture``) or from the repository's real assignments,
``exercises/`` generated from it by real nbgrader.  Students are built from
those two notebooks: the release with some or all solution cells replaced by
the instructor's solution, or with the edits an adversarial student would make.
"""

import copy
import os
import shutil
import subprocess
import sys

import nbformat

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(HERE, "fixtures", "solutions")

# Tests drive nbgrader, which calls `alembic` and `jupyter` from the venv.
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")

from autograder.course import course_config  # noqa: E402
from autograder.term.generate import generate  # noqa: E402
from empty_gradebook import start_gradebook  # noqa: E402


def real_assignments():
    """Assignments of the repository that have both a source and a release notebook."""
    folder = os.path.join(REPO, "solutions")
    if not os.path.isdir(folder):
        return []
    return sorted(a for a in os.listdir(folder)
                  if os.path.isfile(os.path.join(folder, a, a + ".ipynb")))


def make_course(root, assignments):
    """A course root at ``root`` with ``assignments`` = {name: source folder}, generated."""
    for name, source in assignments.items():
        shutil.copytree(source, os.path.join(root, "solutions", name))
    config = course_config(root)
    start_gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id)
    results = generate(config, list(assignments))
    assert all(results.values()), results
    return config


def read(config, folder, assignment):
    return nbformat.read(os.path.join(config.CourseDirectory.root, folder, assignment,
                                      assignment + ".ipynb"), as_version=4)


def grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def is_solution(cell):
    return cell.metadata.get("nbgrader", {}).get("solution", False)


def student_notebook(config, assignment, solved=None, replace=None):
    """The release notebook as a student would hand it in.

    ``solved``: grade ids of solution cells to fill with the instructor's
    solution (``"all"`` for every one); ``replace``: {grade_id: new source}.
    """
    release = read(config, "exercises", assignment)
    source = {grade_id(c): c for c in read(config, "solutions", assignment).cells}
    nb = copy.deepcopy(release)
    for cell in nb.cells:
        gid = grade_id(cell)
        if is_solution(cell) and (solved == "all" or (solved and gid in solved)):
            cell.source = source[gid].source
        if replace and gid in replace:
            cell.source = replace[gid]
    return nb


def solution_ids(config, assignment):
    return [grade_id(c) for c in read(config, "exercises", assignment).cells if is_solution(c)]


def write_submission(folder, nb_or_text, name):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    if isinstance(nb_or_text, bytes):
        with open(path, "wb") as f:
            f.write(nb_or_text)
    elif isinstance(nb_or_text, str):
        with open(path, "w") as f:
            f.write(nb_or_text)
    else:
        nbformat.write(nb_or_text, path)
    return path


def scores(config, assignment):
    """{student: {test grade id: score}} straight from the gradebook."""
    from nbgrader.api import Gradebook

    out = {}
    with Gradebook(config.CourseDirectory.db_url, config.CourseDirectory.course_id) as gb:
        for sub in gb.assignment_submissions(assignment):
            out[sub.student.id] = {g.name: g.score for nb in sub.notebooks for g in nb.grades}
    return out


def messages(config, student, assignment):
    from autograder.term.export import messages as read_messages

    return " | ".join(read_messages(config, student, assignment))


def run_cli(root, *args, check_status=True, timeout=900):
    """``python -m autograder --root ROOT ARGS...`` as an instructor types it; the finished process
    (its exit status asserted 0 unless ``check_status`` is false, with its output as the message)."""
    result = subprocess.run([sys.executable, "-m", "autograder", "--root", root] + list(args),
                            capture_output=True, text=True, timeout=timeout)
    if check_status:
        assert result.returncode == 0, result.stdout + result.stderr
    return result
