"""The rebuild rule (autograder/pipeline/rebuild.py) step by step, on a small hand-made release.

No kernel and no nbgrader run: each test hands ``rebuild`` a submission built
from the release and checks which student cell went where, and the notes.
The graded end-to-end cases are in test_careless_students.py.
"""

import copy

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.pipeline.rebuild import rebuild, reference_from_release


def _meta(grade_id, *, locked=False, solution=False, grade=False, points=None):
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def release():
    cells = [
        new_markdown_cell("# Exercise\n\nWrite `f`.", metadata=_meta("intro", locked=True)),
        new_code_cell("def f():\n    raise NotImplementedError()", metadata=_meta("answer", solution=True)),
        new_markdown_cell("Try it:", metadata=_meta("try-md", locked=True)),
        new_code_cell("print(f())"),  # a plain cell: no nbgrader metadata
        new_markdown_cell("## Tests", metadata=_meta("tests-md", locked=True)),
        new_code_cell("assert f() == 1", metadata=_meta("test", locked=True, grade=True, points=2)),
    ]
    for n, cell in enumerate(cells):
        cell.id = "cell%d" % n
    return new_notebook(cells=cells,
                        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}})


ANSWER = "def f():\n    return 1"


def solved():
    nb = copy.deepcopy(release())
    nb.cells[1].source = ANSWER
    nb.cells[3].source = "print(f(), 'mine')"
    return nb


def run(submitted):
    nb, notes = rebuild(submitted, reference_from_release(release()), release().metadata)
    nbformat.validate(nb)
    return [c.source for c in nb.cells], notes


def test_an_untouched_solved_notebook_comes_out_as_it_went_in():
    sources, notes = run(solved())
    assert sources == [c.source for c in solved().cells] and notes == []


def test_locked_cells_come_from_the_reference_whatever_the_student_did():
    nb = solved()
    nb.cells[5].source = "pass"  # a test "fixed"
    nb.cells[5].metadata.nbgrader["points"] = 100
    nb.cells[0].source = "# mine now"
    sources, notes = run(nb)
    assert sources[5] == "assert f() == 1" and sources[0].startswith("# Exercise")
    assert "the locked cell test was edited; the original was restored and run" in notes
    assert "the points of cell test were changed; they were restored" in notes
    rebuilt, _ = rebuild(nb, reference_from_release(release()), {})
    assert rebuilt.cells[5].metadata.nbgrader["points"] == 2


def test_without_metadata_cells_are_matched_by_cell_id():
    nb = solved()
    nb.cells.reverse()  # even out of order
    for cell in nb.cells:
        cell.metadata = {}
    sources, notes = run(nb)
    assert sources[1] == ANSWER and sources[3] == "print(f(), 'mine')"
    assert notes == ["the notebook had lost its nbgrader metadata (saved by another editor?); its "
                     "cells were matched to the assignment by cell id, text and position"]


def test_without_metadata_or_ids_locked_cells_match_by_text_and_answers_by_position():
    nb = solved()
    for cell in nb.cells:
        cell.metadata = {}
        cell.id = "other-" + cell.id
    sources, notes = run(nb)
    assert sources[1] == ANSWER and sources[3] == "print(f(), 'mine')" and len(notes) == 1


def test_an_answer_written_in_a_duplicate_is_the_one_graded():
    nb = copy.deepcopy(release())
    twin = copy.deepcopy(nb.cells[1])
    twin.id = "twin"
    twin.source = ANSWER
    nb.cells.insert(2, twin)
    sources, notes = run(nb)
    assert sources[1] == ANSWER
    assert notes == ["your answer cell answer appeared 2 times; cell 3 was graded and the other "
                     "copies were left out"]


def test_deleted_cells_are_put_back_and_an_empty_answer_is_named():
    nb = solved()
    del nb.cells[5], nb.cells[1]
    sources, notes = run(nb)
    assert sources[5] == "assert f() == 1" and sources[1] == release().cells[1].source
    assert "the test cell test was missing (deleted, or its metadata removed); it was put back and run" in notes
    assert ("your answer cell answer was not found; the empty cell from the release was graded in "
            "its place") in notes


def test_a_new_cell_in_place_of_a_deleted_answer_is_taken_by_position():
    nb = solved()
    nb.cells[1] = new_code_cell(ANSWER)  # deleted the answer cell and typed into a new one
    sources, notes = run(nb)
    assert sources[1] == ANSWER and notes == []


def test_added_cells_are_left_out_and_named():
    nb = solved()
    nb.cells.insert(2, new_code_cell("helper = 3\nmore"))
    nb.cells.append(new_markdown_cell("<b>notes</b>"))
    sources, notes = run(nb)
    assert "helper = 3\nmore" not in sources and len(sources) == 6
    assert notes == ["cells you added are not part of the assignment and were not run: cell 3 "
                     "('helper = 3'), cell 8 ('<b>notes</b>'); code the tests need belongs in the "
                     "answer cells"]


def test_an_answer_turned_into_markdown_is_graded_as_code():
    nb = solved()
    nb.cells[1].cell_type = "markdown"
    del nb.cells[1]["outputs"], nb.cells[1]["execution_count"]
    rebuilt, notes = rebuild(nb, reference_from_release(release()), {})
    assert rebuilt.cells[1].cell_type == "code" and rebuilt.cells[1].source == ANSWER
    assert "your answer cell answer had been changed to a markdown cell; it was graded as a code cell" in notes


def test_only_the_graders_own_bounded_metadata_is_carried_over():
    nb = solved()
    nb.metadata["autograder"] = {"messages": ["m" * 5000] + ["x"] * 100, "unreadable": "why",
                                 "evil": "<script>"}
    nb.metadata["widgets"] = {"huge": "y" * 1000}
    rebuilt, _ = rebuild(nb, reference_from_release(release()), release().metadata)
    state = rebuilt.metadata["autograder"]
    assert set(state) == {"messages", "unreadable"} and len(state["messages"]) == 50
    assert len(state["messages"][0]) == 2000 and "widgets" not in rebuilt.metadata


def test_sources_that_cannot_be_written_as_utf8_are_repaired():
    nb = solved()
    nb.cells[1].source = "def f():\n    return 1  # \ud800"
    sources, _ = run(nb)
    assert sources[1].endswith("\ufffd") and sources[1].encode("utf-8")


def test_a_notebook_of_the_wrong_shape_is_rebuilt_from_the_release():
    nb = nbformat.from_dict({"cells": [{"cell_type": "code", "source": ANSWER, "metadata": [],
                                        "id": ["not", "a", "string"]}, "junk", 3],
                             "metadata": {"autograder": "not a dict"}})
    rebuilt, notes = rebuild(nb, reference_from_release(release()), release().metadata)
    nbformat.validate(rebuilt)
    assert rebuilt.cells[1].source == ANSWER  # by position, under the exercise's heading
    assert "autograder" not in rebuilt.metadata
