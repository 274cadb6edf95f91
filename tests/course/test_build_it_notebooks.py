"""The build-it cells inside the chapters, unfilled (as a learner opens them) and filled.

Unfilled, as ``executed_notebooks`` runs them (shared with test_notebooks.py),
every check cell says "not written yet" and the chapter still executes.
Both are git's copies of the chapters (tests/support/stored.py), run by the fixtures of
conftest.py. Filled with the reference answers (``build_it_cells.filled``: the source that
``reveal`` shows, in place of the stub's ``def``), every check passes and the
chapter, including any ``use_mine`` cell and its final cross-check, still
executes without an error.
"""

from __future__ import annotations

import json

import pytest

from build_it_cells import build_it_chapters, check_cells, stubs
from coursebook.build_it.registry import pieces
from course_paths import CHAPTERS
from stored import stored_notebook

BUILD_IT_CHAPTERS = build_it_chapters()


def _text(cell) -> str:
    return "".join(o.get("data", {}).get("text/plain", "") + o.get("text", "") for o in cell.get("outputs", []))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_piece_of_a_chapter_has_a_stub_a_check_and_a_reveal(path):
    nb = stored_notebook(path)
    registered = {p.name for p in pieces(path.name[:2])}
    found_stubs, found_checks = stubs(nb), check_cells(nb)
    assert set(found_stubs) == registered, f"{path.name}: stubs {set(found_stubs)}, pieces {registered}"
    for name in registered:
        assert found_checks.get(name, -1) > found_stubs[name], f"{path.name}: no check(my_{name}) below its stub"
        reveals = [c for c in nb.cells[found_stubs[name]:] if c.cell_type == "code" and "reveal(" in c.source
                   and name in c.source]
        assert reveals, f"{path.name}: no reveal(...) of {name} after its stub"


@pytest.mark.parametrize("path", BUILD_IT_CHAPTERS, ids=lambda p: p.name)
def test_unfilled_checks_say_not_written_yet(executed_notebooks, path):
    nb = executed_notebooks[path].notebook
    for name, index in check_cells(nb).items():
        text = _text(nb.cells[index])
        assert f"build it: {name} is not written yet" in text, f"{path.name} cell {index}: {text!r}"


@pytest.mark.parametrize("path", BUILD_IT_CHAPTERS, ids=lambda p: p.name)
def test_filled_with_the_reference_the_chapter_passes(filled_runs, path):
    nb, error, progress = filled_runs[path]
    assert error is None, f"{path.name} filled with the reference answers fails:\n{error}"
    for name, index in check_cells(nb).items():
        text = _text(nb.cells[index])
        assert f"is done" in text and "FAIL" not in text, f"{path.name} cell {index}: {text}"
    done = json.loads(progress.read_text())["pieces"]
    assert set(check_cells(nb)) <= set(done)
