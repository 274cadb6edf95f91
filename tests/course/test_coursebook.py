"""The course's support code can fail: it reports disagreements and refuses misuse."""

from __future__ import annotations

import time

import pytest

import reftorch
from coursebook import cross_check, show_source
from coursebook.cross_check import CrossCheck, CrossCheckFailed
from coursebook.execution import EXPLAINED_WARNING_TAG, stderr_outputs
from coursebook.timing import compare, measure
import nbformat


def test_cross_check_agrees_on_a_clone():
    result = cross_check("a = torch.arange(4.)\nb = a.clone()\nprint(b.data_ptr() == a.data_ptr())")
    assert result.agree
    assert "False" in repr(result)


def test_cross_check_raises_when_the_two_disagree():
    # the module names differ, so this program prints differently on each
    with pytest.raises(AssertionError, match="disagree"):
        cross_check("print(torch.__name__)")


def test_a_printed_tensor_stays_whole_in_one_row_of_the_table():
    result = CrossCheck("print(torch.arange(6.).reshape(2, 3))\nprint('after')")
    rows = list(result._rows())
    assert [a.splitlines()[0] for a, _, _ in rows] == ["tensor([[0., 1., 2.],", "after"]
    html = result._repr_html_()
    assert html.count("<tr") == 3  # the header and two printed values
    assert "text-align: left" in html and "word-break: normal" in html and "overflow-wrap: normal" in html


def test_a_disagreement_is_shown_as_its_summary_not_a_traceback_into_the_course():
    with pytest.raises(CrossCheckFailed) as raised:
        cross_check("print(torch.__name__)")
    shown = raised.value._render_traceback_()
    assert shown[0].startswith("CrossCheckFailed: reftorch and torch disagree")
    assert len(shown) < 10 and not any("File " in line for line in shown), shown


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


def test_show_source_names_the_file_of_a_decorated_function_not_the_decorators():
    # reftorch's grad-mode decorators wrap with functools.wraps, as torch's do
    decorated = reftorch.no_grad()(reftorch._clone.clone)
    assert decorated is not reftorch._clone.clone
    shown = show_source(decorated)
    plain = show_source(reftorch._clone.clone)
    assert shown.header == plain.header
    assert shown.file == "reftorch/_clone.py", shown.file
    assert shown.text == plain.text


def test_measure_takes_turns_and_keeps_every_batch():
    order = []
    namespace = {"order": order}
    timings = measure(["order.append('a')", "order.append('b')"], namespace, number=1, rounds=4)
    # one warm-up call each, then a, b / b, a / a, b / b, a
    assert order == ["a", "b"] + ["a", "b", "b", "a", "a", "b", "b", "a"]
    assert [len(t.per_call) for t in timings.values()] == [4, 4]
    for t in timings.values():
        assert 0 < t.min <= t.median


def test_compare_finds_a_real_difference_and_says_how_often():
    namespace = {"time": time}
    slow, fast = "time.sleep(0.002)", "pass"
    timings = measure([slow, fast], namespace, number=1, rounds=5)
    result = compare(timings[slow], timings[fast])
    assert result.second_faster == result.rounds == 5
    assert result.median_gap > 0.0015
    assert result.best_gap == timings[slow].min - timings[fast].min > 0.0015
    assert result.best_share == result.best_gap / timings[fast].min > 10


def test_compare_refuses_timings_of_different_runs():
    a = measure(["pass"], {}, number=1, rounds=3)["pass"]
    b = measure(["pass"], {}, number=1, rounds=4)["pass"]
    with pytest.raises(ValueError, match="same measure"):
        compare(a, b)


def test_a_failing_cross_check_keeps_unmade_predictions_folded_and_says_its_differences_once(capsys):
    """Rows and differences quote torch's printout: while a prediction is open they stay folded,
    even when the two disagree; the error raised after the display does not repeat them."""
    program = "print('the answer is 42')\nprint(torch.__name__)"
    result = CrossCheck(program, folded=1)
    assert not result.agree
    shown, _, folded = result._repr_html_().partition("<details>")
    assert "the answer is 42" not in shown and "the answer is 42" in folded
    assert "DISAGREE" in shown
    assert "the answer is 42" not in repr(result)
    with pytest.raises(CrossCheckFailed) as raised:
        cross_check(program, folded=1)
    printed = capsys.readouterr().out
    assert "the answer is 42" not in printed + str(raised.value)
    with pytest.raises(CrossCheckFailed) as raised:
        cross_check(program)
    printed = capsys.readouterr().out
    assert printed.count("stdout differs") == 1 and "stdout differs" not in str(raised.value)


def test_copy_costs_for_one_size_print_its_columns_and_summary_once():
    from coursebook.copy_costs import OPERATIONS, measure_copy_costs

    one = str(measure_copy_costs([10], rounds=3)).splitlines()
    assert one[0].count("µs at 10") == 1 and one[0].count("median") == 1
    assert len(one) == 1 + len(OPERATIONS) + 1
    assert all(len(row.split()) == len(one[1].split()) for row in one[1:1 + len(OPERATIONS)] if "(" not in row)
    two = str(measure_copy_costs([10, 100], rounds=3)).splitlines()
    assert two[0].count("median") == 2 and len(two) == 1 + len(OPERATIONS) + 2
    assert [line.split()[0] for line in two[-2:]] == ["10", "100"]
