"""Step-through: one snapshot per statement, and the right things marked as changed."""

import pytest

from memdiagram import step_through

PROGRAM = [
    "a = torch.ones(3, requires_grad=True)",   # 1 new name, tensor, storage, counter
    "b = a",                                    # 2 new name only
    "c = a * 2",                                # 3 new tensor, storage, graph nodes
    "v = c[1:]",                                # 4 view: same storage, same counter
    "with torch.no_grad():\n    v.mul_(5)",     # 5 version bump + changed values
    "k = c.clone()",                            # 6 new storage, new counter
    "d = c.detach()",                           # 7 new tensor, shares storage and counter
    "b = k",                                    # 8 a name is rebound
]


@pytest.fixture
def steps(lib):
    return step_through(PROGRAM, torch=lib)


def test_one_step_per_statement(steps):
    assert steps.statements == PROGRAM
    assert len(steps.svgs) == len(steps.narrations) == len(steps.snapshots) == len(PROGRAM)


def test_changes_are_marked(steps):
    ch = steps.changes
    snaps = steps.snapshots
    assert ch[0].new_names == ["a"] and len(ch[0].new_tensors) == 1 and len(ch[0].new_storages) == 1
    assert ch[1].new_names == ["b"] and not ch[1].new_tensors and not ch[1].new_storages
    assert [snaps[2].nodes[n].name for n in ch[2].new_nodes] == ["MulBackward0", "AccumulateGrad"]
    assert not ch[3].new_storages and not ch[3].new_counters
    c_label = snaps[4].names["c"]
    counter = snaps[4].tensors[c_label].counter
    assert ch[4].bumped_counters == {counter: (0, 1)}
    assert ch[4].changed_values == {snaps[4].tensors[c_label].storage: [1, 2]}
    assert len(ch[5].new_storages) == 1 and len(ch[5].new_counters) == 1
    d = snaps[6].tensors[snaps[6].names["d"]]
    assert ch[6].new_tensors == [d.label] and not ch[6].new_storages and not ch[6].new_counters
    assert d.counter == counter
    assert ch[7].rebound_names == ["b"] and not ch[7].new_tensors


def test_narration_says_what_changed(steps):
    text = steps.narrations[4]
    assert text.startswith("Step 5 of 8: with torch.no_grad():")
    assert "went from 0 to 1" in text
    c = steps.snapshots[4].tensors[steps.snapshots[4].names["c"]]
    assert f"Slots 1, 2 of {c.storage} changed (2 → 10, 2 → 10)" in text
    k = steps.snapshots[7].names["k"]
    assert f"b now names {k} (b, k) instead of {steps.snapshots[6].names['a']}." in steps.narrations[7]


def test_errors_and_output_are_recorded(lib):
    w = step_through(["a = torch.ones(2, requires_grad=True)", "b = a.sigmoid()",
                      "with torch.no_grad():\n    b.add_(1)", "b.sum().backward()", "print(a.grad)"],
                     torch=lib)
    assert "RuntimeError: one of the variables needed for gradient computation" in w.snapshots[3].error
    assert "It raises RuntimeError" in w.narrations[3]
    assert w.snapshots[4].output.strip() == "None"


def test_multiline_string_is_split_into_statements(lib):
    w = step_through("a = torch.zeros(2)\nfor i in range(2):\n    a[i] = i\nb = a.t()", torch=lib)
    assert w.statements == ["a = torch.zeros(2)", "for i in range(2):\n    a[i] = i", "b = a.t()"]


def test_start_step_is_clamped(lib):
    w = step_through(["a = torch.ones(1)", "b = a"], torch=lib, start=99)
    assert w.step == 1
