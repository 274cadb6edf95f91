"""Build-it cells: every piece's battery, the misconceptions it names, use_mine, progress.

Generic over the registry (``coursebook.build_it.pieces_*``), so a chapter's
new pieces are tested as soon as they are registered.
"""

from __future__ import annotations

import hashlib
import json
import sys
import types
from pathlib import Path

import nbformat
import pytest

import reftorch
from reftorch import overrides
from coursebook.build_it import check, progress_table, reveal, use_mine, use_reference
from coursebook.build_it.registry import piece, pieces
from coursebook.cross_check import CrossCheck
from course_paths import CHAPTERS

PIECES = pieces()
ID = lambda p: p.name  # noqa: E731
REFTORCH = Path(reftorch.__file__).resolve().parent
# chapters that must have build-it pieces (add a chapter here when its cells are written)
CHAPTERS_WITH_BUILD_IT = ["02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15",
                          "16", "17", "18", "19", "20", "21", "22", "23"]
# pieces that reftorch itself runs (the others are course-only logic, referenced in coursebook)
IN_REFTORCH = [p for p in PIECES if p.reference.__module__.startswith("reftorch")]
# chapters where a wrong piece is shown to turn the cross-check red
CHAPTERS_TURNED_RED = ["02", "03", "04", "05", "06", "07", "12", "18", "20"]


@pytest.fixture(autouse=True)
def private_progress(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    monkeypatch.setenv("COURSEBOOK_PROGRESS", str(path))
    yield path
    use_reference()


def _copy(fn):
    """The same code as a new function object: a learner's correct answer."""
    clone = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    clone.__kwdefaults__ = fn.__kwdefaults__
    return clone


def _chapter(number: str) -> Path:
    return next(p for p in CHAPTERS if p.name.startswith(number + "_"))


def _key_program(number: str) -> str:
    nb = nbformat.read(_chapter(number), as_version=4)
    cells = [c.source.split("\n", 1)[1] for c in nb.cells
             if c.cell_type == "code" and c.source.startswith("%%key")]
    return "\n\n".join(cells)


def _package_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(REFTORCH.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def test_every_chapter_from_02_has_pieces():
    registered = {p.chapter for p in PIECES}
    assert set(CHAPTERS_WITH_BUILD_IT) <= registered, set(CHAPTERS_WITH_BUILD_IT) - registered


@pytest.mark.parametrize("piece", PIECES, ids=ID)
def test_the_reference_passes_its_battery(piece, private_progress):
    report = check(piece.name, _copy(piece.reference))
    assert report.passed, report.text()
    assert piece.name in json.loads(private_progress.read_text())["pieces"]


@pytest.mark.parametrize("piece", PIECES, ids=ID)
def test_each_wrong_answer_is_named_by_its_misconception(piece, private_progress):
    assert piece.wrong, f"{piece.name} has no wrong answer to test its messages"
    for wrong in piece.wrong:
        report = check(piece.name, wrong.fn)
        assert not report.passed, f"{piece.name}: {wrong.fn.__name__} passes the battery"
        assert any(wrong.misconception in m for m in report.misconceptions), (
            f"{piece.name}: {wrong.fn.__name__} should be told {wrong.misconception!r}:\n{report.text()}")
        assert wrong.misconception in report.text()
    assert not private_progress.exists(), "a failing check must not be recorded as done"


def test_an_unwritten_stub_is_reported_and_nothing_raises():
    def my_contiguous_strides(shape):
        raise NotImplementedError

    report = check(my_contiguous_strides)
    assert report.status == "not written yet"
    assert "not written yet" in repr(report) and "Traceback" not in repr(report)


def test_an_exception_is_shown_with_its_input_and_line():
    def my_contiguous_strides(shape):
        return tuple(1 // (n - 1) for n in shape)  # divides by zero on a size of 1

    text = check(my_contiguous_strides).text()
    assert "FAIL  contiguous_strides((3, 1, 2))" in text
    assert "your code raised ZeroDivisionError: integer division or modulo by zero" in text
    assert "return tuple(1 // (n - 1) for n in shape)" in text
    assert "Traceback" not in text


def test_reveal_shows_the_package_source_folded():
    bundle, metadata = reveal(reftorch._strides.contiguous_strides)._repr_mimebundle_()
    assert bundle["text/html"].startswith("<details><summary>Reference answer")
    assert "def contiguous_strides(shape):" in bundle["text/html"]
    assert metadata["coursebook"]["object"] == "reftorch._strides.contiguous_strides"


def test_progress_table_marks_passed_pieces(private_progress):
    first = PIECES[0]
    assert first.name not in progress_table().done
    check(first.name, _copy(first.reference))
    table = progress_table()
    assert table.done == [first.name]
    assert f"[x] {first.chapter}  {first.name}" in repr(table)
    assert "&#10003; done" in table._repr_html_()


def _in_use(piece):
    """What reftorch runs for ``piece`` now: the learner's function switched in, or None."""
    return overrides.overridden().get(overrides.qualified_name(piece.reference))


def _counted_copy(fn):
    """A learner's correct answer that counts its calls (``.calls``)."""
    copy = _copy(fn)

    def mine(*args, **kwargs):
        mine.calls += 1
        return copy(*args, **kwargs)

    mine.__name__, mine.calls = fn.__name__, 0
    return mine


@pytest.mark.parametrize("piece", IN_REFTORCH, ids=ID)
def test_use_mine_runs_the_chapter_on_the_learners_piece(piece):
    before = _package_hash()
    program = _key_program(piece.chapter)
    mine = _counted_copy(piece.reference)
    assert overrides.is_overridable(piece.reference)
    with use_mine(**{piece.name: mine}) as switch:
        assert switch.switched[piece.name] >= 1
        assert _in_use(piece) is mine
        mine.calls = 0
        result = CrossCheck(program)
        assert result.agree, result.differences
        # the swap reached a place reftorch runs: the chapter ran the learner's function
        assert mine.calls > 0, (
            f"use_mine({piece.name}=...) never reaches reftorch: chapter {piece.chapter} ran its own")
    assert _in_use(piece) is None
    breaking = [w for w in piece.wrong if w.breaks]
    for wrong in breaking:
        with pytest.warns(UserWarning, match="fails"):  # a wrong piece is switched in loudly
            use_mine(**{piece.name: wrong.fn})
        result = CrossCheck(program)
        use_reference()
        assert not result.agree, f"{piece.name}: {wrong.fn.__name__} keeps chapter {piece.chapter} green"
        assert any(wrong.breaks in d for d in result.differences), result.differences
    assert _in_use(piece) is None
    assert _package_hash() == before


def test_use_mine_reaches_the_setter_a_property_holds():
    """``x.data = new`` runs the setter of the strided table's property ``Tensor.data``."""
    set_data = piece("set_data")
    storage_only = next(w.fn for w in set_data.wrong if w.fn.__name__ == "_points_at_storage_only")
    x, new = reftorch.ones(2), reftorch.zeros(3, dtype=reftorch.float64)
    with pytest.warns(UserWarning, match="fails"), use_mine(set_data=storage_only):
        # the property is reftorch's own; the setter it holds runs the learner's
        assert overrides.original(reftorch._detach.data.fset) is set_data.reference
        assert _in_use(set_data) is storage_only
        x.data = new  # the learner's setter: x takes new's memory and keeps its own metadata
        assert (tuple(x.shape), x.dtype) == ((2,), reftorch.float32)
        assert x.untyped_storage().data_ptr() == new.untyped_storage().data_ptr()
    assert _in_use(set_data) is None
    y = reftorch.ones(2)
    y.data = new  # reftorch's own again
    assert (tuple(y.shape), y.dtype) == ((3,), reftorch.float64)


def test_some_wrong_piece_turns_each_chapter_red():
    for chapter in CHAPTERS_TURNED_RED:
        assert any(w.breaks for p in pieces(chapter) for w in p.wrong), (
            f"chapter {chapter}: no wrong piece is shown to break its cross-check")


def test_use_mine_skips_an_unwritten_stub():
    def my_contiguous_strides(shape):
        raise NotImplementedError

    switch = use_mine(contiguous_strides=my_contiguous_strides)
    assert switch.skipped == ["contiguous_strides"]
    assert _in_use(piece("contiguous_strides")) is None
    assert overrides.original(reftorch._strides.contiguous_strides) is piece("contiguous_strides").reference
    assert "not written yet" in repr(switch)


def test_use_mine_warns_about_a_failing_piece_and_the_cross_check_does_not_vouch_for_it():
    """A wrong is_non_overlapping_and_dense that leaves chapter 08's key cells green must not make
    the chapter's cross-check say that torch and reftorch agree."""
    dense = piece("is_non_overlapping_and_dense")
    wrong = next(w for w in dense.wrong if not w.breaks)
    failing_cases = [f"{dense.name}{r.case.label}" for r in check(dense.name, wrong.fn).results if not r.ok]
    assert failing_cases
    with pytest.warns(UserWarning, match=f"fails {len(failing_cases)} of its {len(dense.cases)} cases"):
        switch = use_mine(**{dense.name: wrong.fn})
    assert all(case in repr(switch) for case in failing_cases), repr(switch)
    result = CrossCheck(_key_program(dense.chapter))
    assert not result.differences, "this wrong piece was meant to keep the key cells green"
    assert not result.agree
    assert "agree" not in repr(result).lower() and "agree" not in result._repr_html_().lower()
    assert failing_cases[0] in repr(result)
    use_reference(dense.name)
    assert CrossCheck(_key_program(dense.chapter)).agree


def test_a_piece_done_earlier_is_not_done_after_a_wrong_rewrite(private_progress):
    dense = piece("is_non_overlapping_and_dense")
    assert check(_copy(dense.reference)).passed
    assert dense.name in progress_table().done
    assert not check(dense.name, dense.wrong[0].fn).passed
    assert dense.name not in progress_table().done


def test_failing_a_piece_in_chinese_leaves_its_english_done_mark(private_progress):
    """Each language keeps its own progress file: the Chinese course is a second run through the
    same pieces, and a rewrite that fails there does not un-mark the piece in the English one."""
    from coursebook.language import use  # noqa: PLC0415

    dense = piece("is_non_overlapping_and_dense")
    try:
        use("en")
        assert check(_copy(dense.reference)).passed
        use("zh")
        assert dense.name not in progress_table().done, "the Chinese course shares the English progress"
        assert check(_copy(dense.reference)).passed
        assert not check(dense.name, dense.wrong[0].fn).passed
        assert dense.name not in progress_table().done
        assert private_progress.with_name("progress.zh.json").exists()
        use("en")
        assert dense.name in progress_table().done, "failing in Chinese un-marked the English piece"
    finally:
        use("en")


def test_chapter_02_names_the_mistake_made_and_labels_what_it_compares(private_progress):
    """Returning None and returning a new tensor are two mistakes: each is told its own, never the
    other's, and the expected and the learner's outcome say which part is which."""
    iadd = piece("__iadd__")
    assert len(iadd.wrong) >= 2
    for wrong in iadd.wrong:
        report = check(iadd.name, wrong.fn)
        others = [w.misconception for w in iadd.wrong if w is not wrong]
        told = [m for m in report.misconceptions if any(other in m for other in others)]
        assert not told, f"{wrong.fn.__name__} is told about a mistake it did not make: {told}"
        assert "returns: self; self holds: (2.0, 3.0, 4.0)" in report.text(), report.text()


@pytest.mark.parametrize("piece", PIECES, ids=ID)
def test_the_use_mine_warning_names_the_function_the_chapter_defines(piece):
    """A piece switched in while failing is named by the learner's own function in the chapter
    (``check(my_iadd)``, not ``check(my___iadd__)``)."""
    from coursebook.build_it.switch import failing_text  # noqa: PLC0415

    wrong = piece.wrong[0].fn
    report = check(piece.name, wrong)
    text = failing_text(piece.name, report)
    named = text.split("until check(", 1)[1].split(")", 1)[0]
    cells = "\n".join(c.source for c in nbformat.read(_chapter(piece.chapter), as_version=4).cells)
    assert f"def {named}(" in cells, f"the warning says check({named}), which chapter {piece.chapter} never defines"


def test_use_mine_refuses_an_unknown_piece():
    with pytest.raises(LookupError, match="no build-it piece is called 'strides'"):
        use_mine(strides=lambda shape: shape)


def test_the_graded_self_check_records_its_score(tmp_path, monkeypatch, capsys, private_progress, needs_sandbox):
    """The index's progress table shows the score the self-check printed: the score travels as
    data from the check (here, with no Jupyter server, a process of its own) to the progress file."""
    import pathlib
    import re
    import shutil

    from autograder.learner.self_check import self_check

    monkeypatch.delenv("JPY_PARENT_PID", raising=False)
    notebook = tmp_path / "clone.ipynb"
    shutil.copy(pathlib.Path(__file__).parents[2] / "exercises" / "clone" / "clone.ipynb", notebook)
    self_check(str(notebook))
    printed = capsys.readouterr().out
    score, out_of = re.search(r"Score: (\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", printed).groups()
    assert float(out_of) > 0, printed
    assert "not written yet" in printed and "did not answer" not in printed, printed  # judged, not timed out
    assert json.loads(private_progress.read_text())["exercises"]["clone"]["score"] == float(score)
    assert "clone: %s/%s" % (score, out_of) in repr(progress_table()), (printed, repr(progress_table()))




def test_is_basic_index_reads_a_numpy_array_as_torch_does():
    """Chapter 21's reference against torch itself: a 0-d integer or float array is read as an integer
    (a view); a 0-d uint8 or bool array is a mask, and an array with dimensions a list (copies)."""
    import numpy as np
    import torch

    from coursebook.build_it.pieces_21 import is_basic_index

    m = torch.arange(24.0).reshape(2, 3, 4)
    for index in (np.array(1), np.array(1, dtype=np.int8), np.array(1.0), np.array(1, dtype=np.uint8),
                  np.array(True), np.array([1]), (0, np.array(2)), (np.array(1), slice(None)), np.int64(1)):
        shares = m[index].untyped_storage().data_ptr() == m.untyped_storage().data_ptr()
        assert is_basic_index(index) == shares, f"m[{index!r}]: torch {'views' if shares else 'copies'}"


def test_is_basic_index_refuses_what_torch_refuses_with_torchs_error():
    """An index torch refuses is neither a view nor a copy: the reference raises torch's IndexError."""
    import numpy as np
    import torch

    import reftorch
    from coursebook.build_it.pieces_21 import is_basic_index

    m = torch.arange(24.0).reshape(2, 3, 4)
    for make in (lambda mod: np.True_, lambda mod: (0, np.False_), lambda mod: np.float64(1.0), lambda mod: 1.0,
                 lambda mod: 1j, lambda mod: mod.tensor(1.0), lambda mod: (0, mod.tensor([1.0])),
                 lambda mod: mod.tensor(1.0, dtype=mod.float16), lambda mod: ([0, 1], 1.0),
                 lambda mod: (mod.tensor([True, False]), np.float64(0.5))):
        with pytest.raises(IndexError) as by_torch:
            m[make(torch)]
        with pytest.raises(IndexError) as by_reference:
            is_basic_index(make(reftorch))
        assert str(by_reference.value) == str(by_torch.value)

