"""The course's support code can fail: it reports disagreements and refuses misuse."""

from __future__ import annotations

import pytest

import reftorch
from coursebook import cross_check, show_source
from coursebook.cross_check import CrossCheck
from coursebook.execution import EXPLAINED_WARNING_TAG, stderr_outputs
import nbformat


def test_cross_check_agrees_on_a_clone():
    result = cross_check("a = torch.arange(4.)\nb = a.clone()\nprint(b.data_ptr() == a.data_ptr())")
    assert result.agree
    assert "False" in repr(result)


def test_cross_check_raises_when_the_two_disagree():
    # the module names differ, so this program prints differently on each
    with pytest.raises(AssertionError, match="disagree"):
        cross_check("print(torch.__name__)")


def test_cross_check_compares_tensors_not_only_printing():
    result = CrossCheck("a = torch.ones(2)\nb = a if torch.__name__ == 'torch' else a.clone()")
    assert not result.agree
    assert any("a vs b" in d for d in result.differences)


def test_show_source_shows_the_package_text():
    shown = show_source(reftorch._clone.clone)
    data, meta = shown._repr_mimebundle_()
    assert meta["coursebook"]["object"] == "reftorch._clone.clone"
    assert "def clone(" in data["text/markdown"]
    assert data["text/plain"].split("\n", 1)[1] == shown.text


def test_show_source_refuses_code_outside_reftorch():
    import copy

    with pytest.raises(TypeError, match="reftorch code only"):
        show_source(copy.deepcopy)


def test_stderr_outside_explained_cells_is_found():
    nb = nbformat.v4.new_notebook()
    warned = nbformat.v4.new_code_cell("x")
    warned.outputs = [nbformat.v4.new_output("stream", name="stderr", text="UserWarning: boo")]
    explained = nbformat.v4.new_code_cell("y", metadata={"tags": [EXPLAINED_WARNING_TAG]})
    explained.outputs = [nbformat.v4.new_output("stream", name="stderr", text="UserWarning: ok")]
    nb.cells = [warned, explained]
    assert stderr_outputs(nb) == [(0, "UserWarning: boo")]
