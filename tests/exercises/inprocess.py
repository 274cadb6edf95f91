"""Run a bank entry's notebook inside this process, fast: for the property tests over many seeds.

The notebook (the instructor's source with the entry's cells swapped in) is
executed cell by cell in a fresh namespace; each test cell's outcome is
recorded the way nbgrader would score it (an exception is a 0). No kernel, no
nbgrader and no judge: only for honest and wrong answers, never for cheats
(they would patch this very process). ``tests/exercises/test_mutants.py``
grades the bank with the judge instead (``graded_in_process``, and real nbgrader in the sandbox).
"""

import contextlib
import functools
import io
import warnings

from exercise_mutants import APPENDED, RELEASE
from nbgrader_course import EXERCISES, SOLUTIONS, read_notebook
from stored import stored_notebook

BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


@functools.cache
def _solution_cells(assignment):
    """(grade_id or None, source, is_test) for every code cell of the instructor's notebook (read once)."""
    source = read_notebook(SOLUTIONS / assignment / f"{assignment}.ipynb")
    return tuple((_grade_id(cell), cell.source, _is_test(cell)) for cell in source.cells if cell.cell_type == "code")


def _is_test(cell):
    meta = cell.metadata.get("nbgrader", {})
    return bool(meta.get("grade") and not meta.get("solution"))


@functools.cache
def _release_cells(assignment):
    """{grade_id: source} of the released notebook's solution cells, as git holds it (read once)."""
    release = stored_notebook(EXERCISES / assignment / f"{assignment}.ipynb")
    return {_grade_id(c): c.source for c in release.cells if c.metadata.get("nbgrader", {}).get("solution")}


def notebook_cells(entry):
    """(grade_id or None, source, is_test) for every code cell of the entry's notebook."""
    replacements = _release_cells(entry.assignment) if entry.cells == RELEASE else entry.cells
    out = [(grade_id, replacements.get(grade_id, code), is_test)
           for grade_id, code, is_test in _solution_cells(entry.assignment)]
    if APPENDED in replacements:
        out.append((None, replacements[APPENDED], False))
    return out


@functools.lru_cache(maxsize=4096)
def _compiled(code, grade_id):
    """A cell's code object: the same cells run for every entry and seed, compiled once."""
    return compile(code, f"<cell {grade_id}>", "exec")


def test_code(source, battery):
    """The test cell's code for ``battery``: ``"full"`` = visible then hidden (as graded),
    ``"visible"`` = what the learner's self-check runs, ``"drawn"`` = only the hidden line,
    on the inputs drawn for the current seed."""
    visible, _, rest = source.partition(BEGIN)
    hidden = rest.partition(END)[0]
    if battery == "visible":
        return visible
    if battery == "drawn":
        return hidden
    return visible + hidden


def run(entry, battery="full", tests=None, namespace=None):
    """``{test grade_id: message or None}`` (None: the test passed); ``namespace`` (a dict) is
    the notebook's global namespace, to look into afterwards."""
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    results = {}
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        for grade_id, code, is_test in notebook_cells(entry):
            if is_test:
                if tests is not None and grade_id not in tests:
                    continue
                code = test_code(code, battery)
            try:
                exec(_compiled(code, grade_id), namespace)
            except Exception as error:  # noqa: BLE001 - a test's failure is the observation
                if is_test:
                    results[grade_id] = f"{type(error).__name__}: {error}"
                continue
            if is_test:
                results[grade_id] = None
    return results
