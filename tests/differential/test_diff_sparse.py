"""Sparse COO tensors: making, reading, converting, copying and printing them."""

import importlib
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from crosscheck.harness import assert_same, assert_same_as_gpu, import_reftorch, load_reftorch, load_torch

from diff_programs import shows

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="module")
def _invariant_warning_already_given():
    """torch warns that sparse invariant checks are off once per process, at the
    first ``sparse_coo_tensor`` call. Spend that warning in both libraries, so
    every case below sees the same (no warning) whatever ran before it; the
    warning itself is checked in fresh processes by
    ``test_the_invariant_warning_comes_once_per_process``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for library in (load_torch(), load_reftorch()):
            library.sparse_coo_tensor([[0]], [1.0], (1,))


MAKE = """
i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([3.0, 4.0, 5.0])
s = torch.sparse_coo_tensor(i, v, (2, 4))
"""


# ---- making one --------------------------------------------------------------


def test_sparse_coo_tensor_prints_indices_values_size_nnz_and_layout():
    assert_same(MAKE + """
print(s)
print(torch.sparse_coo_tensor(i, v))
print(torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3, 4, 5], [2, 4]))
print(torch.sparse_coo_tensor(i, v, size=(2, 4), dtype=torch.float64))
print(torch.sparse_coo_tensor(i, torch.ones(3, 2), (2, 4, 2)))
print(torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.int64), torch.zeros(0), (2, 4)))
print(torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.int64), torch.zeros(0)))
print(torch.sparse_coo_tensor([[0, 1]], [True, False]))
print(torch.sparse_coo_tensor(i.float(), v, (2, 4)))
print(torch.sparse_coo_tensor(torch.tensor([[1]]), 5.0))
""")


def test_sparse_coo_tensor_keeps_the_memory_of_its_int64_indices_and_values():
    assert_same(MAKE + """
si, sv = s._indices(), s._values()
print(si.data_ptr() == i.data_ptr(), sv.data_ptr() == v.data_ptr())
print(si is s._indices(), sv._is_view(), sv._base, sv.requires_grad)
sv.add_(1)                      # an alias: writes reach s, and s's version counter
print(s, s._version, si._version, v._version)
v.mul_(2)                       # v's memory is s's memory, but not its version counter
print(s, s._version, v._version)
f = torch.sparse_coo_tensor(i, v, (2, 4), dtype=torch.float64)
print(f._values().data_ptr() == v.data_ptr(), f._indices().data_ptr() == i.data_ptr())
c = torch.sparse_coo_tensor(i.float(), v, (2, 4))
print(c._indices().data_ptr() == i.data_ptr(), c._indices().dtype)
""")


def test_sparse_coo_tensor_from_values_that_require_grad_records_its_node():
    assert_same("""
i = torch.tensor([[0, 1]])
v = torch.tensor([1.0, 2.0], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (3,))
print(s)
print(s.is_leaf, s.requires_grad, s.grad_fn.next_functions[0][0].variable is v)
s64 = torch.sparse_coo_tensor(i, v, (3,), dtype=torch.float64)
print(s64.grad_fn, s64.grad_fn.next_functions)
kept = torch.sparse_coo_tensor(i, v, (3,), requires_grad=True)
print(kept.is_leaf, kept.grad_fn)
leaf = torch.sparse_coo_tensor(i, torch.tensor([1.0, 2.0]), (3,), requires_grad=True)
print(leaf, leaf.is_leaf, leaf.grad_fn)
""")


@pytest.mark.parametrize("call, error", [
    ("torch.sparse_coo_tensor(torch.tensor([0, 1]), torch.tensor([1.0, 2.0]), (2, 4))", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v, (2, 4, 3))", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v, (2,))", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, torch.tensor([1.0, 2.0]), (2, 4))", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, 5.0, (2, 4))", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, torch.ones(3, 2), (2, 4, 3))", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, torch.ones(3, 2), (2, 4))", "RuntimeError"),
    ("torch.sparse_coo_tensor(torch.tensor([[0, -1, 1], [2, 0, 2]]), v)", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v, (2, 2), check_invariants=True)", "RuntimeError"),
    ("torch.sparse_coo_tensor(-i, v, (2, 4), check_invariants=True)", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v.long(), (2, 4), requires_grad=True)", "RuntimeError"),
    ("torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (2,), dtype=torch.int64, requires_grad=True)",
     "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v, 8)", "TypeError"),
    ("torch.sparse_coo_tensor(i, v, (2, 4.0))", "TypeError"),
    ("torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (2,), dtype=5)", "TypeError"),
    ("torch.sparse_coo_tensor(i, v, (2, -4))", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, 'ab')", "TypeError"),
    ("torch.sparse_coo_tensor(i, v, (2, 4), device='tpu')", "RuntimeError"),
])
def test_sparse_coo_tensor_refuses_inconsistent_arguments(call, error):
    assert_same(MAKE + "bad = " + call, raises=error)


def test_unchecked_indices_outside_the_size_are_kept_as_given():
    assert_same(MAKE + shows("""
torch.sparse_coo_tensor(i, v, (2, 2))
torch.sparse_coo_tensor(torch.tensor([[0, -1, 1], [2, 0, 2]]), v, (2, 4))
torch.sparse_coo_tensor(i, v, (2, 4), check_invariants=True)
torch.sparse_coo_tensor(i, v, (2, 4), is_coalesced=True).is_coalesced()
torch.sparse_coo_tensor(i, v, torch.Size([2, 4]))
torch.sparse_coo_tensor(i, v, [2, 0])
"""))


def printed_in_fresh_processes(program):
    """What ``program`` prints on torch and on reftorch, each in a new Python process (for what a
    process does once, such as a warning given on the first call only)."""
    outputs = []
    for module in ("torch", "reftorch"):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, "-c", f"import {module} as torch\n" + program],
                              capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    return outputs


def assert_warned_once_per_process(first, later, warning):
    """Run ``first`` then ``later`` (lines of code) in a fresh process of each library: both
    print the same, and ``first`` gives a UserWarning that starts with ``warning``, ``later`` none."""
    first, later = (textwrap.indent(textwrap.dedent(code).strip(), "    ") for code in (first, later))
    program = f"""
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
{first}
    print("first call:", [(w.category.__name__, str(w.message)) for w in caught])
{later}
    print("later calls:", len(caught))
"""
    outputs = printed_in_fresh_processes(program)
    assert f"first call: [('UserWarning', '{warning}" in outputs[0]
    assert outputs[1] == outputs[0]


def test_the_invariant_warning_comes_once_per_process():
    assert_warned_once_per_process(
        """
        torch.sparse_coo_tensor([[0]], [1.0], (2,), check_invariants=False)
        print("after an explicit choice:", [str(w.message)[:40] for w in caught])
        try:
            torch.sparse_coo_tensor([0, 1], [1.0, 2.0], (2, 4))
        except RuntimeError as e:
            print(e)
        """,
        """
        torch.sparse_coo_tensor([[0]], [1.0], (2,))
        torch.zeros(2).to_sparse()
        """,
        "Sparse invariant checks",
    )


# ---- what it is made of ------------------------------------------------------


def test_layouts_are_torch_strided_and_torch_sparse_coo():
    assert_same(MAKE + """
import copy
print(torch.strided, torch.sparse_coo, repr(torch.sparse_coo), type(torch.strided).__name__)
print(s.layout, s.layout is torch.sparse_coo, v.layout is torch.strided, s.layout == torch.strided)
print(s.is_sparse, v.is_sparse, type(s) is torch.Tensor, isinstance(s, torch.Tensor), torch.is_tensor(s))
print(copy.deepcopy(torch.sparse_coo) is torch.sparse_coo, isinstance(torch.strided, torch.layout))
""")


def test_sparse_tensor_metadata_and_what_it_has_no_storage_for():
    assert_same(MAKE + shows("""
s.shape
s.size()
s.dim()
s.numel()
s.dtype
s.device
s.stride()
s.storage_offset()
s.is_contiguous()
s.element_size()
s.type()
s.requires_grad
s.is_leaf
s._version
s._is_view()
s._base
s.sparse_dim()
s.dense_dim()
s._nnz()
s.is_coalesced()
s.is_cuda
s.untyped_storage()
s.data_ptr()
s.tolist()
s.numpy()
s.item()
len(s)
bool(s)
torch.sparse_coo_tensor([[0]], [7.0], (1,)).item()
torch.sparse_coo_tensor([[0, 0]], [7.0, 1.0], (1,)).item()
torch.sparse_coo_tensor([[0, 0]], [True, True], (1,)).item()
torch.sparse_coo_tensor([[0]], [True], (1,)).item()
torch.sparse_coo_tensor(torch.zeros(1, 0, dtype=torch.int64), torch.zeros(0), (1,)).item()
float(torch.sparse_coo_tensor([[0]], [7.0], (1,)))
torch.sparse_coo_tensor([[0]], [7.0], (1,)).is_contiguous()
torch.sparse_coo_tensor(i, torch.ones(3, 2), (2, 4, 2)).dense_dim()
v.sparse_dim()
v.dense_dim()
v.indices()
v.values()
v.coalesce()
v.is_coalesced()
"""))


def test_underscore_indices_and_values_of_a_strided_tensor_are_not_implemented():
    # torch's dispatcher then lists every backend it has a kernel for; reftorch
    # says the first sentence only, so the comparison stops at "backend".
    assert_same("""
d = torch.ones(2, 3)
for name in ("_values", "_indices", "_nnz"):
    try:
        getattr(d, name)()
    except NotImplementedError as e:
        print(name, str(e).split(" backend")[0])
print(d._version, d)
""")


def test_indices_and_values_need_a_coalesced_tensor_and_values_is_a_view():
    assert_same(MAKE + """
for name in ("indices", "values"):
    try:
        getattr(s, name)()
    except RuntimeError as e:
        print(e)
c = s.coalesce()
ci, cv = c.indices(), c.values()
print(ci, cv, ci._is_view(), ci._base, cv._is_view(), cv._base is c)
cv.add_(1)
print(c, c._version, ci._version)
""")


def test_values_of_a_sparse_tensor_that_requires_grad_records_values_backward():
    assert_same(MAKE + """
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
c = r.coalesce()
cv, ci, raw = c.values(), c.indices(), r._values()
print(c.grad_fn, cv, ci, raw, raw.requires_grad)
""")


# ---- coalescing and converting ---------------------------------------------


def test_coalesce_sorts_adds_duplicates_and_uses_new_memory():
    assert_same("""
i = torch.tensor([[1, 0, 1, 0], [0, 1, 0, 3]])
v = torch.tensor([1.0, 2.0, 3.0, 4.0])
s = torch.sparse_coo_tensor(i, v, (2, 4))
c = s.coalesce()
print(c, c.is_coalesced(), s.is_coalesced(), c.coalesce() is c)
print(c._values().data_ptr() == v.data_ptr(), c._indices().data_ptr() == i.data_ptr(), c._version)
one = torch.sparse_coo_tensor(torch.tensor([[0]]), torch.tensor([7.0]), (2,))
oc = one.coalesce()
print(oc, oc._values().data_ptr() == one._values().data_ptr())
h = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1]]), torch.tensor([[1, 2], [3, 4], [5, 6]]), (2, 2))
print(h.coalesce(), h.to_dense())
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True).coalesce()
print(r.grad_fn, r)
""")


def test_to_dense_writes_every_entry_into_new_memory():
    assert_same("""
i = torch.tensor([[0, 0, 1], [1, 1, 3]])
v = torch.tensor([1.5, 2.0, -1.0])
s = torch.sparse_coo_tensor(i, v, (2, 4))
d = s.to_dense()
print(d, d.stride(), d.is_contiguous())
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
rd = r.to_dense()
print(rd, rd.grad_fn)
dense = torch.ones(3)
print(dense.to_dense() is dense)
e = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.int64), torch.zeros(0, dtype=torch.int64), (2, 3))
print(e.to_dense())
""")


def test_to_sparse_keeps_the_nonzero_entries_coalesced():
    assert_same("""
a = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]])
s = a.to_sparse()
print(s, s.is_coalesced(), s._values().data_ptr() == a.data_ptr(), s.to_sparse() is s)
print(a.t().to_sparse())
print(torch.tensor([[0, 1], [2, 0]]).to_sparse(), torch.tensor([True, False]).to_sparse())
print(torch.tensor([[0.0, 1.0]], dtype=torch.float64).to_sparse())
print(torch.tensor(3.0).to_sparse(), torch.tensor(0.0).to_sparse(), torch.zeros(2, 3).to_sparse())
g = torch.tensor([1.0, 0.0, 2.0], requires_grad=True)
gs = g.to_sparse()
print(gs, gs.to_sparse() is gs, gs.to_dense())
""")


# ---- clone and detach --------------------------------------------------------


def test_clone_keeps_the_sparse_layout_in_new_memory():
    assert_same(MAKE + """
c = s.clone()
print(c, c.layout, c.is_coalesced(), c._version)
print(c._values().data_ptr() == s._values().data_ptr(), c._indices().data_ptr() == s._indices().data_ptr())
c._values().mul_(10)
print(s, c)
cc = s.coalesce().clone()
print(cc.is_coalesced(), torch.clone(s).layout)
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
rc = r.clone()
print(rc, rc.is_leaf, rc.grad_fn.next_functions[0][0].variable is r)
""")


def test_detach_shares_indices_values_and_the_version_counter():
    assert_same(MAKE + """
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
d = r.detach()
print(d, d.requires_grad, d.is_leaf, d._is_view(), d._base)
print(d._values().data_ptr() == r._values().data_ptr(), d._indices().data_ptr() == r._indices().data_ptr())
d._values()[0] = 30.0
print(r, r._version, d._version)
print(s.coalesce().detach().is_coalesced(), s.detach().is_coalesced())
""")


# ---- in place on a detached sparse tensor -------------------------------


@pytest.mark.parametrize("op", [
    "zero_()",
    "add_(other)",
    "add_(other, alpha=2)",
    "add_(other.coalesce())",
    "copy_(other)",
    "copy_(torch.sparse_coo_tensor(torch.tensor([[0], [0]]), torch.tensor([9.0]), (3, 5)))",
])
def test_in_place_on_a_detached_sparse_tensor_gives_it_new_memory_and_leaves_the_original(op):
    assert_same(MAKE + f"""
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
other = torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 0]]), torch.tensor([10.0, 20.0]), (2, 4))
d = r.detach()
old_values, old_indices = d._values(), d._indices()
out = d.{op}
print(out is d, d, d.is_coalesced(), d._nnz())
print(r, r.is_coalesced(), r._version, d._version, old_values._version)
print(d._values().data_ptr() == old_values.data_ptr(), d._indices().data_ptr() == old_indices.data_ptr())
print(old_values, old_indices)
""")


def test_data_of_a_sparse_tensor_shares_memory_with_a_new_version_counter():
    assert_same(MAKE + """
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
a = r.data
print(a, a.requires_grad, a._version, a._values().data_ptr() == r._values().data_ptr())
a.zero_()
print(r, r._version, a)
""")


def test_assigning_data_between_sparse_tensors_keeps_the_version_counter():
    assert_same(MAKE + """
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
other = torch.sparse_coo_tensor([[1], [3]], [7.0], (3, 5), dtype=torch.float64).coalesce()
r.data = other
print(r, r._version, r.is_coalesced(), r.requires_grad)
print(r._values().data_ptr() == other._values().data_ptr())
""")


def test_assigning_integer_data_to_a_sparse_tensor_that_requires_grad_is_refused():
    assert_same(MAKE + """
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
r.data = torch.sparse_coo_tensor([[1], [3]], [7], (3, 5))
""", raises="RuntimeError")


@pytest.mark.parametrize("assignment", ["s.data = torch.zeros(2, 4)", "w = torch.zeros(2, 4); w.data = s"])
def test_data_cannot_switch_between_sparse_and_strided(assignment):
    assert_same(MAKE + assignment, raises="RuntimeError")


def test_add_merges_columns_as_torch_does():
    assert_same("""
a = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [2, 0, 2]]), torch.tensor([1.0, 2.0, 3.0]), (2, 4))
b = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1], [0, 3, 3]]), torch.tensor([10.0, 20.0, 30.0]), (2, 4))
print(a.clone().add_(b), b.clone().add_(a, alpha=-1))
print(a.coalesce().add_(b.coalesce()), a.coalesce().add_(b.coalesce()).is_coalesced())
print(a.clone().add_(a), a.clone().add_(a).is_coalesced())
e = a.clone().zero_()
print(e.add_(b.coalesce(), alpha=2), e.is_coalesced(), a.clone().add_(e.zero_()))
d64 = a.double().add_(b)
print(d64, a.clone().add_(b.double()))
h = torch.sparse_coo_tensor(torch.tensor([[1, 0]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), (2, 2))
print(h.clone().add_(h.coalesce()))
n = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1.0, 9.0, 2.0, 9.0])[::2], (2,))
print(n.add_(torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([3.0, 4.0]), (2,))), n.is_coalesced())
m = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [2, 0, 2]]), torch.tensor([1.0, 9.0, 2.0, 9.0, 3.0, 9.0])[::2], (2, 4))
print(m.add_(a), m.is_coalesced())
""")


@pytest.mark.parametrize("op, error", [
    ("s.add_(torch.ones(2, 4))", "RuntimeError"),
    ("s.add_(2)", "RuntimeError"),
    ("s.add_(torch.sparse_coo_tensor(i, v, (3, 4)))", "RuntimeError"),
    ("s.long().add_(s)", "RuntimeError"),
    ("s.copy_(torch.ones(2, 4))", "RuntimeError"),
    ("s.copy_(2)", "RuntimeError"),
    ("s.copy_(2.5)", "RuntimeError"),
    ("s.copy_('a')", "TypeError"),
    ("torch.ones(2, 4).copy_(s)", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True).zero_()", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True).add_(s)", "RuntimeError"),
    ("torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True).copy_(s)", "RuntimeError"),
])
def test_in_place_errors_on_sparse_tensors(op, error):
    assert_same(MAKE + op, raises=error)


def test_in_place_on_a_sparse_non_leaf_records_the_op():
    assert_same(MAKE + """
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
z, a, c = r.clone(), r.clone(), r.clone()
z.zero_()
a.add_(s)
c.copy_(s)
print(z, a, c)
print(a.grad_fn.next_functions, c.grad_fn.next_functions, z._version)
f = s.clone()
f.add_(r)
g = s.clone()
g.copy_(r)
print(f, g, f.is_leaf, g.requires_grad)
with torch.no_grad():
    r.zero_()
print(r, r._version, r.is_leaf)
""")


@pytest.mark.parametrize("source", [
    "torch.sparse_coo_tensor([[0]], [1.0], (4,))",
    "torch.sparse_coo_tensor([[0], [0]], [1.0], (1, 3))",
    "torch.sparse_coo_tensor([[0], [0]], [1.0], (2, 2))",
    "torch.sparse_coo_tensor([[0], [0]], [[1.0, 2.0]], (2, 4, 2))",
])
def test_copy_cannot_shrink_or_reshape_a_sparse_tensor_that_stores_entries(source):
    assert_same(MAKE + f"s.copy_({source})", raises="RuntimeError")


def test_copy_into_a_sparse_tensor_takes_the_source_size_and_keeps_the_dtype():
    assert_same(MAKE + """
big = torch.sparse_coo_tensor(torch.tensor([[2], [3]]), torch.tensor([7.0]), (3, 4)).coalesce()
t = s.clone()
t.copy_(big)
print(t, t.is_coalesced(), t._values().data_ptr() == big._values().data_ptr())
n = s.long()
n.copy_(s)
print(n, s.clone().copy_(s.double()), s.clone().copy_(s))
same = s.clone()
before = same._values()
print(same.copy_(same), same._version, same._values().data_ptr() == before.data_ptr())
h = torch.sparse_coo_tensor([[0, 1]], [[1.0, 2.0], [3.0, 4.0]], (2, 2))
print(s.clone().zero_().copy_(h), h.clone().copy_(torch.sparse_coo_tensor([[0]], [[5.0, 6.0, 7.0]], (3, 3))))
""")


# ---- other copies --------------------------------------------------------------


def test_to_converts_sparse_tensors_into_new_memory():
    assert_same(MAKE + """
d = s.double()
print(d, s.float() is s, s.to("cpu") is s, s.to(torch.float32) is s)
print(d._indices().data_ptr() == s._indices().data_ptr(), d.is_coalesced(), s.coalesce().long().is_coalesced())
print(s.long(), s.bool(), s.to(torch.float64, copy=True), s.cpu() is s)
cp = s.to("cpu", copy=True)
print(cp._values().data_ptr() == s._values().data_ptr())
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
print(r.double(), r.double().grad_fn.next_functions[0][0].variable is r, r.long())
""")


def test_copy_and_deepcopy_of_a_sparse_tensor():
    assert_same(MAKE + """
import copy
r = torch.sparse_coo_tensor(i, v, (2, 4), requires_grad=True)
r.note = "hi"
shallow = copy.copy(r)
deep = copy.deepcopy(r)
print(shallow, shallow.note, shallow._version, shallow.requires_grad, shallow.is_coalesced())
print(shallow._values().data_ptr() == r._values().data_ptr())
print(deep, deep.note, deep._version, deep.is_leaf)
print(deep._values().data_ptr() == r._values().data_ptr(), deep._indices().data_ptr() == r._indices().data_ptr())
c = s.coalesce()
print(copy.copy(c).is_coalesced(), copy.deepcopy(c).is_coalesced())
both = copy.deepcopy([r, r])
print(both[0] is both[1])
try:
    copy.deepcopy(r.clone())
except RuntimeError as e:
    print(e)
""")


# ---- printing --------------------------------------------------------------


def test_printing_puts_the_suffixes_where_torch_puts_them():
    assert_same("""
i = torch.tensor([[0, 1], [1, 0]])
print(torch.sparse_coo_tensor(i, torch.tensor([1.0, 2.5]), (2, 2), dtype=torch.float64))
print(torch.sparse_coo_tensor(i, torch.tensor([1, 2]), (2, 2)))
print(torch.sparse_coo_tensor(i, torch.tensor([True, False]), (2, 2)))
r = torch.sparse_coo_tensor(i, torch.tensor([1.0, 2.5]), (2, 2), requires_grad=True)
print(r, r.clone(), r.double())
print(torch.sparse_coo_tensor(i, torch.tensor([1e-8, 2e5]), (2, 2)))
print(torch.sparse_coo_tensor(i, torch.tensor([[1.5, 2.0, 3.0]] * 2), (2, 2, 3)))
print(torch.sparse_coo_tensor(torch.zeros(1, 0, dtype=torch.int64), torch.zeros(0, 2, dtype=torch.float64), (3, 2)))
print(repr(torch.sparse_coo_tensor(i, torch.tensor([1.0, 2.5]), (2, 2))), str(torch.tensor(0.0).to_sparse()))
""")


def test_printing_long_and_large_sparse_tensors():
    assert_same("""
n = 40
i = torch.arange(n).view(1, n)
print(torch.sparse_coo_tensor(i, torch.arange(n) * 1.5, (n,)))
big = torch.ones(1200).to_sparse()
print(big)
wide = torch.sparse_coo_tensor(torch.tensor([[0, 1], [123456789, 987654321]]), torch.tensor([1.0, 2.0]))
print(wide)
""")


# ---- a simulated GPU ----------------------------------------------------------


def test_sparse_tensors_on_cuda_print_the_device_first():
    assert_same_as_gpu(
        """
        i = torch.tensor([[0, 1, 1], [2, 0, 2]])
        v = torch.tensor([3.0, 4.0, 5.0])
        g = torch.sparse_coo_tensor(i, v, (2, 4), device="cuda")
        print(g)
        gi, gv = g._indices(), g._values()
        print(g.device, gi.device, gv.device)
        gd = g.to_dense()
        gc = g.clone()
        gdet = g.detach()
        print(gd, gc, gdet._values().data_ptr() == gv.data_ptr())
        r = torch.sparse_coo_tensor(i, v, (2, 4), device="cuda", dtype=torch.float64, requires_grad=True)
        print(r)
        del i, v  # on a GPU, a cpu tensor and a cuda sparse one share nothing; the harness
                  # checks such pairs for dense tensors only
        """,
        expect_cuda=["g", "gi", "gv", "gd", "gc", "gdet", "r"],
    )


def test_moving_a_sparse_tensor_to_cuda_copies_it():
    assert_same_as_gpu(
        """
        s = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.tensor([1.0, 2.0]), (3,))
        g = s.cuda()
        print(g, g._values().data_ptr() == s._values().data_ptr())
        d = g.to_dense()
        print(d)
        del s
        """,
        expect_cuda=["g", "d"],
    )


# ---- what reftorch does not do with sparse tensors ---------------------------

UNSUPPORTED = [
    "s + 1", "s * 2", "s.exp()", "s.sum()", "s.view(8)", "s[0]", "s.t()", "s.mul_(2)", "s.fill_(1.0)",
    "s == s", "torch.ones(2, 4) + s", "torch.ones(2, 4).add_(s)", "s @ torch.ones(4, 1)",
    "s.contiguous()", "s.new_zeros(2)", "list(s)", "s.unsqueeze(0)", "s.reshape(8)",
    "torch.zeros_like(s)", "torch.ones_like(s)", "torch.empty_like(s)", "torch.full_like(s, 2.0)",
]


@pytest.mark.parametrize("expression", UNSUPPORTED)
def test_reftorch_names_its_limit_for_other_operations_on_sparse_tensors(expression):
    torch = import_reftorch()
    s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 4))
    with pytest.raises(NotImplementedError, match="reftorch does not implement .* for sparse tensors"):
        eval(expression, {"torch": torch, "s": s})


@pytest.mark.parametrize("expression", [
    "torch.tensor(s)", "nn.Linear(4, 2)(s)", "primitives.copy_elements(torch.zeros(2, 4), s)",
])
def test_strided_code_outside_the_method_table_refuses_a_sparse_tensor(expression):
    torch = import_reftorch()
    s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 4))
    namespace = {"torch": torch, "nn": torch.nn, "primitives": importlib.import_module("reftorch.primitives"),
                 "s": s}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(NotImplementedError, match="reads the numbers in a tensor's memory, and a sparse"):
            eval(expression, namespace)


def test_reftorch_does_not_run_backward_through_a_sparse_tensor():
    torch = import_reftorch()
    r = torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,), requires_grad=True)
    with pytest.raises(RuntimeError, match="reftorch does not implement backward through sparse tensors"):
        r.to_dense().sum().backward()
    with pytest.raises(RuntimeError, match="reftorch does not implement backward through sparse tensors"):
        r.coalesce().values().sum().backward()


def test_reftorch_refuses_to_read_indices_outside_the_size():
    torch = import_reftorch()
    s = torch.sparse_coo_tensor([[0, 5]], [1.0, 2.0], (3,))
    for read in (s.to_dense, s.coalesce):
        with pytest.raises(RuntimeError, match="index 5 in dim 0 is out of bounds for size"):
            read()


# ---- generated sparse tensors ----------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def sparse_source(draw, size=None):
    """Source text of a ``sparse_coo_tensor`` call: random coordinates (repeats and any
    order allowed) inside ``size``, small whole-number values, maybe a dense dim."""
    if size is None:
        size = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    dense = draw(st.sampled_from([(), (2,)]))
    nnz = draw(st.integers(0, 6))
    columns = [[draw(st.integers(0, n - 1)) for n in size] for _ in range(nnz)]
    indices = [[c[d] for c in columns] for d in range(len(size))]
    values = [[draw(st.integers(-9, 9)) for _ in range(dense[0])] if dense else draw(st.integers(-9, 9))
              for _ in range(nnz)]
    dtype = draw(st.sampled_from(["torch.float32", "torch.float64", "torch.int64"]))
    shape = size + dense
    if nnz == 0:
        return (f"torch.sparse_coo_tensor(torch.zeros({len(size)}, 0, dtype=torch.int64), "
                f"torch.zeros((0,) + {dense}), {shape}, dtype={dtype})"), size
    return f"torch.sparse_coo_tensor({indices}, {values}, {shape}, dtype={dtype})", size


@SETTINGS
@given(st.data())
def test_generated_sparse_tensors_coalesce_densify_and_add_like_torch(data):
    first, size = data.draw(sparse_source())
    second, _ = data.draw(sparse_source(size))
    assert_same(f"""
a = {first}
b = {second}
print(a)
c = a.coalesce()
print(c, c.to_dense(), a.to_dense().to_sparse())
try:
    print(a.clone().add_(b), a.coalesce().add_(b.coalesce(), alpha=2))
except RuntimeError as e:
    print(e)
t = a.clone()
try:
    t.copy_(b)
except RuntimeError as e:
    print(e)
print(t, t.is_coalesced(), a.clone().zero_())
""")


@pytest.mark.parametrize("make", [
    "torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 4))",
    "torch.sparse_coo_tensor([[0, 1]], [[1.5, -2.0], [3.0, 1e-6]], (2, 2), dtype=torch.float64)",
    "torch.sparse_coo_tensor([[0, 1]], [1, 2], (2,), requires_grad=False).coalesce()",
    "torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (2,), requires_grad=True).clone()",
    "torch.arange(0.0, 300.0).view(3, 100).to_sparse()",
    "torch.zeros(2, 3).to_sparse()",
])
def test_reftorch_prints_torch_sparse_tensors_as_torch_does(make):
    """The printing rules alone: reftorch's ``_str`` given a real torch tensor."""
    torch = load_torch()
    text = importlib.import_module("reftorch._tensor_str")._str
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = eval(make, {"torch": torch})
    assert text(t) == repr(t)
