"""The diagram model against facts read from the libraries themselves.

Every claim the diagram draws is checked against an independent reading:
which storage slots a view covers (against ``as_strided`` on the whole
storage), which tensors share memory (against storage addresses), which share
a version counter (against an in-place write made *here*, in the test, after
the diagram was taken), and the graph (against ``grad_fn.next_functions``).
"""

import copy

import pytest
import reftorch
import torch
from hypothesis import given, settings, strategies as st

from memdiagram import show, snapshot, step_through
from memdiagram._model import take_snapshot
from memdiagram._choose_adapter import adapter_for

VIEWS = {
    "slice": lambda a: a[1:],
    "step": lambda a: a[::2],
    "transpose": lambda a: a.t(),
    "column": lambda a: a[:, 1],
    "row": lambda a: a[1],
    "expand": lambda a: a[0:1, 0].expand(3),
    "unsqueeze": lambda a: a.unsqueeze(0),
    "view": lambda a: a.view(6),
    "as_strided": lambda a: a.as_strided((2, 2), (1, 2), 1),
}


def whole_storage(lib, t):
    """The storage as a flat tensor of t's dtype, read independently of memdiagram."""
    if lib is torch:
        n = t.untyped_storage().nbytes() // t.element_size()
        return t.detach().as_strided((n,), (1,), 0)
    n = t._storage.nbytes() // t._dtype.itemsize
    return t.detach().as_strided((n,), (1,), 0)


@pytest.mark.parametrize("view", VIEWS)
def test_covered_slots_are_what_as_strided_reads(lib, view):
    a = lib.arange(6.0).reshape(2, 3) * 10
    v = VIEWS[view](a)
    snap = snapshot(a=a, v=v)
    info = snap.tensors[snap.names["v"]]
    flat = whole_storage(lib, v)
    # The values at the covered slots, in index order, are exactly the view's elements...
    read = flat.as_strided(tuple(v.shape), tuple(v.stride()), v.storage_offset())
    assert [flat.tolist()[p] for p in info.positions] == read.reshape(-1).tolist()
    assert list(info.values) == v.reshape(-1).tolist()
    # ...and the covered set is every slot as_strided can reach with this geometry.
    marked = lib.zeros(flat.shape[0])
    marked.as_strided(tuple(v.shape), tuple(v.stride()), v.storage_offset()).fill_(1)
    assert [i for i, x in enumerate(marked.tolist()) if x == 1] == list(info.slots)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(0, 4)), min_size=1, max_size=3),
       st.integers(0, 3))
def test_random_geometries_match_torch_as_strided(dims, offset):
    shape = tuple(n for n, _ in dims)
    stride = tuple(s for _, s in dims)
    span = offset + sum((n - 1) * s for n, s in dims) + 1
    base = torch.arange(float(span))
    v = base.as_strided(shape, stride, offset)
    info = snapshot(v=v).tensors[snapshot(v=v).names["v"]]
    assert list(info.values) == v.reshape(-1).tolist()
    assert set(info.slots) == {int(x) for x in v.reshape(-1).tolist()}  # value == slot number here


def shares_counter(x, y):
    """Ground truth, for the test only: write through x, see whether y's version moves."""
    before = y._version
    with (torch if isinstance(x, torch.Tensor) else reftorch).no_grad():
        x.add_(0)
    return y._version != before


COPIES = {
    "assignment": (lambda a: a, True, True),
    "detach": (lambda a: a.detach(), True, True),
    "data": (lambda a: a.data, True, False),
    "view": (lambda a: a[1:], True, True),
    "view_of_detach": (lambda a: a.detach()[1:], True, True),
    "view_of_data": (lambda a: a.data[1:], True, False),
    "clone": (lambda a: a.clone(), False, False),
    "detach_clone": (lambda a: a.detach().clone(), False, False),
    "new_tensor": (lambda a: a.new_tensor([1.0, 2.0, 3.0]), False, False),
    "deepcopy": (lambda a: copy.deepcopy(a), False, False),
}


@pytest.mark.parametrize("how", COPIES)
def test_shared_memory_and_counter_match_the_library(lib, how):
    make, same_memory, same_counter = COPIES[how]
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = make(a)
    snap = snapshot(a=a, b=b)
    ta, tb = snap.tensors[snap.names["a"]], snap.tensors[snap.names["b"]]
    versions = (a._version, b._version)
    assert (ta.storage == tb.storage) is same_memory
    assert (ta.counter == tb.counter) is same_counter
    # The diagram changed nothing...
    assert (a._version, b._version) == versions
    # ...and the library agrees with what was drawn (checked by writing, here in the test).
    assert shares_counter(b, a) is same_counter


def test_torch_counter_is_read_not_guessed():
    from memdiagram import _torch_counter

    assert _torch_counter.find_counter_slot() is not None
    a = torch.ones(3)
    _, how = _torch_counter.counter_key(a, [a])
    assert "read" in how


def test_rules_fallback_only_claims_what_base_shows():
    from memdiagram._torch_counter import _counter_key_by_rules

    a = torch.ones(3)
    assert _counter_key_by_rules(a[1:]) == _counter_key_by_rules(a)
    assert _counter_key_by_rules(a.t()) == _counter_key_by_rules(a[0:2])
    # detach() shares the counter in torch, but nothing visible from Python says so:
    assert shares_counter(a, a.detach())
    assert _counter_key_by_rules(a.detach()) != _counter_key_by_rules(a)


def test_graph_matches_next_functions(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).sum()
    snap = snapshot(y=y)
    root = snap.nodes[snap.tensors[snap.names["y"]].grad_fn_label]
    assert root.name == type(y.grad_fn).__name__ == "SumBackward0"
    (mul,) = [snap.nodes[n] for n in root.next]
    assert mul.name == "MulBackward0"
    leaves = [snap.nodes[n] for n in mul.next]
    assert [n.name for n in leaves] == ["AccumulateGrad", "AccumulateGrad"]
    # The leaves are drawn even though only y was named, and they are x and w.
    drawn = {snap.tensors[n.variable].values for n in leaves}
    assert drawn == {(1.0, 2.0), (3.0, 4.0)}
    assert all(snap.tensors[n.variable].is_leaf for n in leaves)


def test_show_does_not_modify_anything(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 2
    v = b[1:]
    with lib.no_grad():
        b.add_(1)
    fn = v.grad_fn  # torch makes a view's new grad_fn when it is first read after the write
    state = [(t._version, t.grad_fn, t.requires_grad, t.tolist()) for t in (a, b, v)]
    show(a=a, b=b, v=v)
    assert [(t._version, t.grad_fn, t.requires_grad, t.tolist()) for t in (a, b, v)] == state
    assert v.grad_fn is fn


def test_names_point_to_objects_and_modules_expand(lib):
    a = lib.ones(2)
    b = a
    lin = lib.nn.Linear(2, 1)
    snap = snapshot(a=a, b=b, model=lin, sd=lin.state_dict())
    assert snap.names["a"] == snap.names["b"]
    assert snap.tensors[snap.names["a"]].names == ("a", "b")
    assert "model.weight" in snap.names and "sd['weight']" in snap.names
    # state_dict() values are detached aliases: same memory as the parameter.
    w, sw = snap.tensors[snap.names["model.weight"]], snap.tensors[snap.names["sd['weight']"]]
    assert w.storage == sw.storage and w.label != sw.label


def test_adapters_give_the_same_picture_for_the_same_program():
    program = ["a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)", "b = a",
               "v = a[1:]", "c = a * 2", "d = a.detach()", "e = a.data", "k = a.clone()",
               "with torch.no_grad():\n    d.add_(1)"]

    def shape_of(snap):
        return (snap.names, {k: (t.shape, t.stride, t.offset, t.storage, t.counter, t.version,
                                 t.grad_fn, t.values) for k, t in snap.tensors.items()},
                {k: (n.name, n.next, n.variable) for k, n in snap.nodes.items()})

    on_torch = step_through(program, torch=torch).snapshots
    on_reftorch = step_through(program, torch=reftorch).snapshots
    assert [shape_of(s) for s in on_torch] == [shape_of(s) for s in on_reftorch]


def test_adapters_agree_on_inference_tensors_which_have_no_counter():
    """Chapter 07's diagram, drawn on reftorch too: an inference result has no version counter, a
    view of a normal tensor made in the mode shares its base's."""
    program = ["w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
               "with torch.inference_mode():\n    scores = w * 2",
               "with torch.inference_mode():\n    head = w[:2]",
               "with torch.inference_mode():\n    part = scores[1:]"]
    on_torch, on_reftorch = (step_through(program, torch=library) for library in (torch, reftorch))
    assert list(on_torch.narrations) == list(on_reftorch.narrations)
    scores = on_reftorch.snapshots[-1].tensors[on_reftorch.snapshots[-1].names["scores"]]
    assert scores.counter is None and scores.version is None


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_a_view_autograd_refuses_is_drawn_with_torchs_invalid_grad_fn(mode):
    """Chapter 07's "both inside": a view made and written in the block. torch refuses to read its
    grad_fn and is_leaf afterwards (it prints grad_fn=<Invalid>); the diagram draws it, on both."""
    program = ["w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
               f"with torch.{mode}():\n    head = w[:2]\n    head.mul_(10)",
               "fresh = w[:2] + 1"]
    on_torch, on_reftorch = (step_through(program, torch=library) for library in (torch, reftorch))
    assert list(on_torch.narrations) == list(on_reftorch.narrations)
    last = on_torch.snapshots[-1]
    head = last.tensors[last.names["head"]]
    assert (head.grad_fn, head.is_leaf, head.requires_grad) == ("Invalid", None, True)
    assert "refused by autograd" in on_torch.narrations[-1]


def test_bad_input_gets_clear_errors():
    with pytest.raises(TypeError, match="show\\(\\) draws tensors; 'a' is a int"):
        show(a=1)
    with pytest.raises(TypeError, match="at least one"):
        show()
    with pytest.raises(TypeError, match="cannot mix torch and reftorch"):
        show(a=torch.ones(1), b=reftorch.ones(1))
    with pytest.raises(TypeError, match="torch or the reftorch module"):
        step_through(["a = 1"], torch=copy)
    with pytest.raises(TypeError, match="list of statements"):
        step_through([1, 2])
    with pytest.raises(SyntaxError, match="step 1"):
        step_through(["a = = 1"])
    with pytest.raises(TypeError, match="not list"):
        adapter_for([1])
