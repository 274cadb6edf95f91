"""A grading worker lends its open gradebook to the rebuild step (``sanitize.lend_gradebook``).

No kernel and no nbgrader run: a small gradebook made with nbgrader's API, the rebuild step
(``RebuildFromRelease``) run on one submission with its own gradebook and with a lent one.
"""

import contextlib
import copy

from nbformat.v4 import new_code_cell, new_notebook
from nbgrader.api import Gradebook
from traitlets.config import Config

from autograder.pipeline.sanitize import RebuildFromRelease, lend_gradebook


def _course(tmp_path):
    url = "sqlite:///%s" % (tmp_path / "gradebook.db")
    with Gradebook(url) as gb:
        gb.add_assignment("a")
        gb.add_notebook("nb", "a")
        gb.add_source_cell("answer", "nb", "a", cell_type="code", source="def f():\n    pass",
                           locked=False, checksum="answer")
        gb.add_solution_cell("answer", "nb", "a")
        gb.add_source_cell("test", "nb", "a", cell_type="code", source="assert f() == 1",
                           locked=True, checksum="test")
        gb.add_grade_cell("test", "nb", "a", max_score=2, cell_type="code")
    return url


def _submission():
    meta = {"nbgrader": {"grade_id": "answer", "solution": True, "grade": False, "locked": False,
                         "task": False, "schema_version": 3}}
    answer = new_code_cell("def f():\n    return 1", metadata=meta)
    answer.id = "answer"
    return new_notebook(cells=[answer])


def _rebuilt(step, url):
    nb, _ = step.preprocess(copy.deepcopy(_submission()),
                            {"nbgrader": {"assignment": "a", "notebook": "nb", "db_url": url}})
    return nb


@contextlib.contextmanager
def _released(gb):
    """What a grading worker lends (``Workspace.released``): its open gradebook, the session
    closed on leaving."""
    try:
        yield gb
    finally:
        gb.db.remove()


def _test_source(nb):
    return [c.source for c in nb.cells]


def _set_test(url, source):
    with Gradebook(url) as gb:   # nbgrader writes between two submissions
        gb.update_or_create_source_cell("test", "nb", "a", source=source)


def test_a_lent_gradebook_rebuilds_as_the_steps_own_one(tmp_path):
    url = _course(tmp_path)
    step = RebuildFromRelease(config=Config({"CourseDirectory": {"root": str(tmp_path)}}))
    own = _rebuilt(step, url)
    assert _test_source(own) == ["def f():\n    return 1", "assert f() == 1"]
    lent = Gradebook(url)
    try:
        with lend_gradebook(url, lambda: _released(lent)):
            assert _rebuilt(step, url) == own
    finally:
        lent.close()


def test_the_step_reads_the_lent_gradebook_while_it_is_lent_and_what_was_written_to_it_since(tmp_path):
    url = _course(tmp_path)
    (tmp_path / "other").mkdir()
    other = _course(tmp_path / "other")
    _set_test(other, "assert f() == 3")
    step = RebuildFromRelease(config=Config({"CourseDirectory": {"root": str(tmp_path)}}))
    lent = Gradebook(other)
    try:
        with lend_gradebook(url, lambda: _released(lent)):
            assert _test_source(_rebuilt(step, url))[1] == "assert f() == 3"
            _set_test(other, "assert f() == 4")
            assert _test_source(_rebuilt(step, url))[1] == "assert f() == 4"
    finally:
        lent.close()
    assert _test_source(_rebuilt(step, url))[1] == "assert f() == 1"   # lent no more
