"""The narration: what this step changed, in prose; the full state one click away."""

import pathlib
import re

import pytest

from memdiagram import build_steps, step_through
from memdiagram._narration import Narration

STATIC = pathlib.Path(__file__).parents[2] / "src" / "memdiagram" / "static"

PROGRAM = [
    "a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)",
    "b = a",
    "v = a[1:3]",
    "y = (a * a).sum()",
    "with torch.no_grad():\n    v.mul_(10)",
    "k = a.clone()",
    "d = a.detach()",
    "y.backward()",
]


@pytest.fixture
def steps(lib):
    snapshots, changes, svgs, narrations = build_steps(PROGRAM, lib)
    return snapshots, changes, narrations


def test_a_view_is_told_as_what_it_made_and_shares(steps):
    snaps, _, told = steps
    snap = snaps[2]
    v, a = snap.tensors[snap.names["v"]], snap.tensors[snap.names["a"]]
    assert told[2].changes[0] == (
        f"`v = a[1:3]` made a new tensor object {v.label} (`v`), a view of {a.label} (`a`, `b`) that looks "
        f"into {v.storage} from slot 1; it shares the version counter {v.counter} of {a.label} (`a`, `b`); "
        f"its `grad_fn` is SliceBackward0 ({v.grad_fn_label})."
    )
    assert v.storage == a.storage and v.counter == a.counter and v.offset == 1


def test_two_copies_on_one_new_storage_are_told_sharing_it_not_each_with_memory_of_its_own(lib):
    import copy

    program = ["base = torch.arange(6.0)", "v1, v2 = base[:3], base[3:]", "c1, c2 = copy.deepcopy([v1, v2])"]
    snaps, _, _, told = build_steps(program, lib, namespace={"copy": copy})
    snap = snaps[2]
    c1, c2 = snap.tensors[snap.names["c1"]], snap.tensors[snap.names["c2"]]
    assert c1.storage == c2.storage  # what the library did: one new storage for both copies
    first, second = told[2].changes
    assert f"with new memory {c1.storage} (24 bytes)" in first
    assert f"with the same new memory {c1.storage} as {c1.label} (`c1`)" in second
    assert "with new memory" not in second


def test_each_step_tells_only_its_changes(steps):
    snaps, _, told = steps
    assert told[1].changes == [f"`b` is a new name for {snaps[1].names['a']}, the tensor `a` already names: "
                               "no new object, no new memory."]
    for n in told:
        assert not any(s.startswith(("Tensor ", "Storage ", "Graph:")) for s in n.changes)
        assert any(s.startswith("Tensor ") for s in n.state)  # the full state is kept apart
    # The in-place step: the bump with old and new values, who sees the write, the saved tensor.
    snap = snaps[4]
    c1, s1 = snap.tensors[snap.names["a"]].counter, snap.tensors[snap.names["a"]].storage
    text = " ".join(told[4].changes)
    assert f"Version counter {c1} of" in text and "went from 0 to 1" in text
    assert f"Slots 1, 2 of {s1} changed (2 → 20, 3 → 30)" in text and "both see the new values" in text
    assert "had saved a tensor that this step modified in place" in text
    # detach(): same memory, same counter, not a view.
    d = snaps[6].tensors[snaps[6].names["d"]]
    assert f"that looks into the same memory {s1}" in told[6].changes[0]
    assert "not a view: its `_base` is None" in told[6].changes[0]
    assert f"it shares the version counter {c1}" in told[6].changes[0]
    assert d.counter == c1


def test_plain_text_has_no_marks_and_keeps_the_full_state_after_the_changes(steps):
    _, _, told = steps
    text = told[2].text()
    assert text.startswith("Step 3 of 8: v = a[1:3]\nv = a[1:3] made a new tensor object")
    assert "`" not in text
    changes, state = text.split("\n\nFull state:\n")
    assert "Tensor T1 (a, b): shape [4]" in state and "Tensor T1" not in changes


def test_html_marks_code_and_wraps_at_spaces(steps):
    _, _, told = steps
    html = told[4].changes_html()
    assert html.startswith('<p class="md-step">Step 5 of 8: <code class="md-stmt">with torch.no_grad():\n'
                           "    v.mul_(10)</code></p><ul class=\"md-changes\"><li>")
    assert "`" not in html and "<code>grad_fn</code>" in html
    state = told[4].state_html()
    assert state.startswith('<ul class="md-state-list"><li>Tensor T1 (<code>a</code>, <code>b</code>)')
    assert Narration("Step 1 of 1: x = y < z", ["`a<b` & c"], []).changes_html() == (
        '<p class="md-step">Step 1 of 1: <code class="md-stmt">x = y &lt; z</code></p>'
        '<ul class="md-changes"><li><code>a&lt;b</code> &amp; c</li></ul>')


def test_widget_sends_changes_and_full_state_separately(lib):
    w = step_through(PROGRAM[:3], torch=lib)
    assert len(w.changes_html) == len(w.state_html) == len(w.narrations) == 3
    assert "Full state" not in w.changes_html[2] and "<li>Tensor" in w.state_html[2]
    assert "Tensor T1" not in w.changes_html[2]


def test_statements_that_change_nothing_or_print_say_so(lib):
    w = step_through(["a = torch.ones(2)", "print(a.sum().item())", "n = 3"], torch=lib)
    assert w.narrations[1].split("\n")[1:3] == ["It prints: 2.0", "Nothing drawn changed."]
    assert w.narrations[2].split("\n")[1] == "Nothing drawn changed."


def test_long_or_multiline_statements_are_called_this_step(lib):
    w = step_through(["a = torch.ones(2)",
                      "for i in range(2):\n    c = a * i",
                      "b = torch.zeros(3, dtype=torch.float64).reshape(3, 1).expand(3, 2)",
                      "e = a + 1"], torch=lib)
    assert w.narrations[1].split("\n")[2].startswith("This step made a new tensor object T2 (c)")
    assert w.narrations[2].split("\n")[1].startswith("This step made a new tensor object")
    assert w.narrations[3].split("\n")[1].startswith("e = a + 1 made a new tensor object")


def test_removed_names_and_tensors_are_told(lib):
    w = step_through(["a = torch.ones(2)", "b = a.clone()", "del b"], torch=lib)
    text = w.narrations[2]
    assert "The name b is gone." in text and "T2 is no longer drawn" not in text
    assert "T2 (b) is no longer drawn: nothing drawn refers to it." in text


def test_narration_css_is_prose_and_code_wraps_only_at_spaces():
    css = (STATIC / "widget.css").read_text()
    rules = dict(re.findall(r"([^{}]+)\{([^}]*)\}", css))
    rules = {k.strip(): v for k, v in rules.items()}
    widget = rules[".md-widget"]
    assert "content-font-family" in widget and "monospace" not in widget
    code = rules[".md-widget code"]
    assert "white-space: normal" in code and "word-break: normal" in code and "overflow-wrap: normal" in code
    assert not re.search(r"break-all|anywhere", css)
    assert "pre" not in rules[".md-narration"] and "font-family" not in rules[".md-narration"]
    assert "pre-wrap" in rules[".md-narration .md-stmt"]  # a statement keeps its indentation
    js = (STATIC / "widget.js").read_text()
    assert 'el("details"' in js and '"Full state"' in js


def test_in_chinese_this_step_runs_on_into_the_verb_and_code_keeps_its_space(lib):
    """"这一步造出了…" (no space between two Chinese words); "`e = a + 1` 造出了…" (code spaced off)."""
    from coursebook.language import use

    use("zh")
    try:
        w = step_through(["a = torch.ones(2)", "b = torch.zeros(3, dtype=torch.float64).reshape(3, 1).expand(3, 2)",
                          "e = a + 1"], torch=lib)
    finally:
        use("en")
    assert w.narrations[1].split("\n")[1].startswith("这一步造出了"), w.narrations[1]
    assert w.narrations[2].split("\n")[1].startswith("e = a + 1 造出了"), w.narrations[2]
