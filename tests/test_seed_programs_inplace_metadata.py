"""The seed tutorials' in-place metadata examples, re-written as programs of our own.

Seed 004 (a Q&A on detach, clone and deepcopy) quotes a note saying that
in-place size, stride or storage changes (``resize_``, ``resize_as_``,
``set_``, ``transpose_``) made to the tensor returned by ``detach()`` used to
change the original too, and now raise an error. In torch 2.13 they neither
change the original nor raise: the detached tensor gets new metadata of its
own, while the memory and the version counter stay shared. Each program
below does one of them and prints both tensors; reftorch must print what
torch prints (on a GPU for the program with cuda lines).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "differential"))

from crosscheck.harness import assert_same, assert_same_as_gpu  # noqa: E402


def test_seed_004_resize_on_a_detached_tensor_leaves_the_original_shape():
    assert_same(
        """
        weights = torch.arange(6.0, requires_grad=True)
        flat_view = weights.detach()
        flat_view.resize_(2, 3)
        print(weights)
        print(flat_view)
        print(weights.shape, flat_view.shape, weights._version)
        """
    )


def test_seed_004_resize_as_on_a_detached_tensor_leaves_the_original_shape():
    assert_same(
        """
        weights = torch.arange(6.0, requires_grad=True)
        template = torch.zeros(3, 2)
        shaped = weights.detach()
        shaped.resize_as_(template)
        print(weights)
        print(shaped)
        shaped[0, 0] = 100.0
        print(weights)
        """
    )


def test_seed_004_set_on_a_detached_tensor_repoints_only_the_detached_tensor():
    assert_same(
        """
        weights = torch.arange(4.0, requires_grad=True)
        other = torch.tensor([9.0, 8.0])
        alias = weights.detach()
        alias.set_(other)
        print(weights)
        print(alias)
        alias.add_(1)
        print(other)
        print(weights)
        """
    )


def test_seed_004_transpose_on_a_detached_tensor_keeps_the_original_layout():
    assert_same(
        """
        weights = torch.arange(6.0).view(2, 3).requires_grad_()
        turned = weights.detach()
        turned.transpose_(0, 1)
        print(weights)
        print(turned)
        print(weights.stride(), turned.stride())
        turned[0, 1] = -1.0
        print(weights)
        """
    )


def test_seed_004_metadata_changes_through_data_behave_the_same():
    assert_same(
        """
        weights = torch.arange(6.0, requires_grad=True)
        raw = weights.data
        raw.resize_(3, 2)
        raw.transpose_(0, 1)
        print(weights)
        print(raw)
        loss = (weights * 2).sum()
        loss.backward()
        print(weights.grad)
        """
    )


def test_seed_004_growing_a_detached_tensor_moves_the_shared_memory():
    assert_same(
        """
        weights = torch.arange(4.0, requires_grad=True)
        alias = weights.detach()
        alias.resize_(6)
        alias[4:] = 0.0
        print(weights)
        print(alias)
        print(weights.untyped_storage().data_ptr() == alias.untyped_storage().data_ptr())
        """
    )


def test_seed_004_detached_cuda_tensor_transposed_and_resized():
    assert_same_as_gpu(
        """
        w = torch.ones(2, 3, device="cuda", requires_grad=True)
        w_det = w.detach()
        w_det.transpose_(0, 1)
        print(w_det)
        w_det.resize_(6)
        print(w)
        print(w_det)
        """,
        expect_cuda=["w", "w_det"],
    )
