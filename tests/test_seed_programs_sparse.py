"""The seed tutorials' claims about sparse tensors, as programs of our own.

Two places in the seeds touch sparse tensors: one says that ``clone()``
keeps the sparse format (checked for a COO tensor and for a CSR tensor made
by ``to_sparse_csr()``), and a footnote says that in-place changes to the
indices or values of a ``detach()``-ed sparse tensor (``zero_``, ``copy_``,
``add_``) no longer reach the original but raise an error. Each program below
runs the claim; reftorch must print what torch 2.13 prints. (In torch 2.13 the
in-place changes do not raise: the detached tensor gets new indices and values,
and only the shared version counter records the write.)
"""

import warnings

import pytest

from crosscheck.harness import assert_same, load_reftorch, load_torch


@pytest.fixture(autouse=True, scope="module")
def _invariant_warning_already_given():
    """torch warns once per process that sparse invariant checks are off: spend
    that warning in both libraries, so each program sees the same thing
    (tests/differential/test_diff_sparse.py checks the warning itself)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for library in (load_torch(), load_reftorch()):
            library.sparse_coo_tensor([[0]], [1.0], (1,))
            library.ones(1, 1).to_sparse_csr()  # and the once-per-process CSR beta warning


def test_seed_sparse_01_clone_of_a_sparse_coo_tensor_stays_sparse():
    assert_same(
        """
        where = torch.tensor([[0, 1, 2], [2, 0, 1]])
        numbers = torch.tensor([1.0, 2.0, 3.0])
        sp = torch.sparse_coo_tensor(where, numbers, (3, 3))
        twin = sp.clone()
        print(twin)
        print(sp.layout, twin.layout, twin.is_sparse)
        print(twin.to_dense())
        twin._values()[0] = 100.0
        print(sp._values(), twin._values())
        """
    )


def test_seed_sparse_02_clone_of_a_sparse_tensor_that_requires_grad_stays_in_the_graph():
    assert_same(
        """
        sp = torch.sparse_coo_tensor([[0, 1], [1, 0]], [4.0, 5.0], (2, 2), requires_grad=True)
        twin = sp.clone()
        print(twin)
        print(twin.is_leaf, twin.grad_fn.next_functions[0][0].variable is sp)
        """
    )


@pytest.mark.parametrize("change", [
    "det.zero_()",
    "det.copy_(torch.sparse_coo_tensor([[0], [0]], [7.0], (2, 3)))",
    "det.add_(torch.sparse_coo_tensor([[1], [2]], [10.0], (2, 3)))",
])
def test_seed_sparse_03_in_place_change_to_a_detached_sparse_tensor_leaves_the_original(change):
    assert_same(
        f"""
        sp = torch.sparse_coo_tensor([[0, 1], [1, 2]], [1.0, 2.0], (2, 3), requires_grad=True)
        det = sp.detach()
        {change}
        print(det)
        print(sp)
        print(sp._version, det._version)
        """
    )


def test_seed_sparse_04_clone_of_a_sparse_csr_tensor_stays_csr_with_values_of_its_own():
    assert_same(
        """
        grid = torch.tensor([[0.0, 5.0, 0.0], [6.0, 0.0, 7.0], [0.0, 0.0, 0.0]])
        rows = grid.to_sparse_csr()
        copy = rows.clone()
        print(rows)
        print(copy)
        print(rows.layout, copy.layout, copy.is_sparse_csr)
        print(copy.crow_indices(), copy.col_indices(), copy.values())
        copy.values()[2] = -1.0
        print(rows.values(), copy.values())
        print(copy.to_dense())
        print(rows._version, copy._version)
        """
    )
