"""Sparse CSR tensors: to_sparse_csr, what they hold, their copies and their printing."""

import warnings

import pytest

from crosscheck.harness import assert_same, load_reftorch, load_torch

from diff_programs import shows
from test_diff_sparse import assert_warned_once_per_process


@pytest.fixture(autouse=True, scope="module")
def _beta_warning_already_given():
    """torch warns once per process that CSR support is in beta. Spend that
    warning in both libraries, so every case below sees the same whatever ran
    before it; ``test_the_beta_warning_comes_once_per_process`` checks it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for library in (load_torch(), load_reftorch()):
            library.ones(1, 1).to_sparse_csr()


MAKE = """
dense = torch.tensor([[0.0, 2.0, 0.0, 0.0], [1.0, 0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
csr = dense.to_sparse_csr()
"""


def test_the_beta_warning_comes_once_per_process():
    assert_warned_once_per_process("torch.ones(2, 2).to_sparse_csr()", "torch.zeros(3, 1).to_sparse_csr()",
                                   "Sparse CSR tensor support is in beta")


def test_a_csr_tensor_holds_row_starts_columns_and_values_in_new_memory():
    assert_same(MAKE + """
print(csr.layout, csr.is_sparse_csr, csr.is_sparse, dense.is_sparse_csr, torch.sparse_csr)
print(csr.crow_indices(), csr.col_indices(), csr.values())
print(csr.shape, csr.dtype, csr.device, csr._nnz(), csr.sparse_dim(), csr.dense_dim(), csr.dim())
print(csr.requires_grad, csr.is_leaf, csr.grad_fn, csr._version)
dense[0, 1] = 50.0
print(csr.values(), csr.to_sparse_csr() is csr)
""")


@pytest.mark.parametrize("make", [
    "torch.tensor([[0.0, 2.0], [1.0, 0.0]])",
    "torch.tensor([[0, 7, 0], [0, 0, -3]])",
    "torch.tensor([[True, False], [False, True]])",
    "torch.tensor([[1.5, 0.0]], dtype=torch.float64)",
    "torch.tensor([[1.5, 0.0]], dtype=torch.float16)",
    "torch.zeros(2, 3)",
    "torch.zeros(0, 3)",
    "torch.ones(12, 12)",
    "torch.arange(40.0).view(4, 10).t()",
    "torch.tensor([[123456.5, 0.0, 1e-6], [0.0, 3.0, 0.0]])",
    "torch.tensor([[1.0, 0.0], [0.0, 2.0]], requires_grad=True)",
    "torch.tensor([[1.0, 0.0], [0.0, 2.0]], dtype=torch.float64, requires_grad=True)",
])
def test_a_csr_tensor_prints_as_torch_prints_it(make):
    assert_same(f"""
s = ({make}).to_sparse_csr()
print(s)
print(s.clone())
print(s.detach())
print(s.to_dense())
""")


def test_clone_gives_new_memory_and_a_write_into_its_values_leaves_the_source():
    assert_same(MAKE + """
twin = csr.clone()
print(twin.layout, twin._version, csr._version)
twin.values()[0] = 100.0
print(csr.values(), twin.values())
print(twin._version, csr._version, twin.values()._version, twin.crow_indices()._version)
print(twin.to_dense())
print(csr.to_dense())
""")


def test_detach_shares_memory_and_version_counter():
    assert_same(MAKE + """
d = csr.detach()
d.values()[1] = -1.0
print(csr.values(), csr._version, d._version)
print(csr)
""")


def test_values_is_a_view_of_the_csr_tensor_and_records_history():
    assert_same("""
leaf = torch.tensor([[1.0, 0.0], [0.0, 2.0]], requires_grad=True)
s = leaf.to_sparse_csr()
v = s.values()
print(s.grad_fn, s.is_leaf, s.requires_grad)
print(v, v._base is s, v.is_leaf)
c = s.clone()
print(c.grad_fn, c.grad_fn.next_functions[0][0] is s.grad_fn)
""")


def test_what_a_csr_tensor_cannot_do_raises_as_in_torch():
    assert_same(MAKE + shows("""
csr.stride()
csr.is_contiguous()
csr.data_ptr()
csr.numpy()
csr.untyped_storage()
csr.clone(memory_format=torch.contiguous_format)
dense.crow_indices()
dense.col_indices()
"""))


def test_a_coo_matrix_converts_coalesced_and_keeps_its_stored_zeros():
    assert_same("""
u = torch.sparse_coo_tensor([[1, 0, 1, 0], [2, 1, 2, 0]], [1.0, 2.0, 3.0, 0.0], (3, 4))
c = u.to_sparse_csr()
print(c)
c.values()[0] = 7.0
print(u._values(), u.is_coalesced(), c._version, u._version)
""")


def test_a_csr_tensor_made_from_a_coalesced_coo_matrix_shares_its_memory():
    assert_same("""
s = torch.sparse_coo_tensor([[0, 1, 1], [1, 0, 2]], [1.0, 2.0, 3.0], (2, 3)).coalesce()
c = s.to_sparse_csr()
c.values()[0] = 9.0
c.col_indices()[0] = 2
print(s.values(), s.indices())
print(c)
print(c._version, s._version)
g = torch.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2), requires_grad=True).to_sparse_csr()
print(g)
""")


def test_to_sparse_csr_beyond_a_matrix_is_a_clear_limit_of_reftorch():
    reftorch = load_reftorch()
    for make in (lambda: reftorch.ones(3).to_sparse_csr(), lambda: reftorch.ones(2, 2, 2).to_sparse_csr(),
                 lambda: reftorch.ones(2).to_sparse().to_sparse_csr(),
                 lambda: reftorch.sparse_coo_tensor([[0]], [[1.0, 2.0]], (1, 2)).to_sparse_csr(),
                 lambda: reftorch.ones(2, 2).to_sparse_csr(dense_dim=0)):
        with pytest.raises(NotImplementedError, match="reftorch converts only a matrix"):
            make()
    with pytest.raises(NotImplementedError, match="reftorch does not implement exp\\(\\) for sparse CSR tensors"):
        reftorch.ones(2, 2).to_sparse_csr().exp()
