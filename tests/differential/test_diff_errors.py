"""Misuse: the same exception class and message as torch, and warnings.

Each program prints something first, so the comparison also proves that what
was observed before the error is kept.
"""

import pytest

from crosscheck.harness import assert_same, assert_same_as_gpu


def _check(body: str, raises: str):
    assert_same("t = torch.arange(6.).view(2, 3)\nprint('before')\n" + body, raises=raises)


# ---- shapes ----------------------------------------------------------------


def test_view_to_a_size_with_another_element_count_raises():
    _check("t.view(4)", "RuntimeError")


def test_view_with_an_impossible_minus_one_raises():
    _check("t.view(4, -1)", "RuntimeError")


def test_view_with_two_minus_ones_raises():
    _check("t.view(-1, -1)", "RuntimeError")


def test_view_on_incompatible_strides_raises_and_suggests_reshape():
    _check("t.t().view(6)", "RuntimeError")


def test_view_on_a_stepped_slice_that_cannot_be_merged_raises():
    _check("t[:, ::2].view(4)", "RuntimeError")


def test_reshape_to_a_size_with_another_element_count_raises():
    _check("t.reshape(5)", "RuntimeError")


def test_broadcasting_mismatch_in_a_binary_op_raises():
    _check("t + torch.ones(2)", "RuntimeError")


def test_broadcasting_mismatch_in_a_comparison_raises():
    _check("torch.ones(3) == torch.ones(2)", "RuntimeError")


def test_matmul_of_mismatched_matrices_raises():
    _check("t @ t", "RuntimeError")


def test_matmul_of_mismatched_vectors_raises():
    _check("torch.ones(3) @ torch.ones(2)", "RuntimeError")


def test_expand_of_a_non_singleton_dimension_raises():
    _check("t.expand(3, 3)", "RuntimeError")


def test_copy_with_an_unbroadcastable_source_raises():
    _check("t.copy_(torch.ones(3, 2))", "RuntimeError")


def test_copy_with_a_source_bigger_than_the_destination_raises():
    _check("t[0].copy_(torch.ones(2, 3))", "RuntimeError")


def test_ragged_nested_list_raises():
    _check("torch.tensor([[1, 2], [3]])", "ValueError")


# ---- requires_grad on non-float tensors -------------------------------------


@pytest.mark.parametrize("dtype", ["torch.int64", "torch.bool"])
def test_requires_grad_constructor_kwarg_on_non_float_raises(dtype):
    _check(f"torch.tensor([1, 0], dtype={dtype}, requires_grad=True)", "RuntimeError")


@pytest.mark.parametrize("dtype", ["torch.int64", "torch.bool"])
def test_requires_grad_in_place_method_on_non_float_raises(dtype):
    _check(f"torch.tensor([1, 0], dtype={dtype}).requires_grad_()", "RuntimeError")


@pytest.mark.parametrize("dtype", ["torch.int64", "torch.bool"])
def test_requires_grad_attribute_set_on_non_float_raises(dtype):
    _check(f"i = torch.tensor([1, 0], dtype={dtype})\ni.requires_grad = True", "RuntimeError")


def test_requires_grad_false_on_an_int_tensor_is_fine():
    assert_same(
        """
        i = torch.tensor([1, 2])
        i.requires_grad_(False)
        i.requires_grad = False
        z = torch.zeros(2, dtype=torch.int64, requires_grad=False)
        print(i.requires_grad, z.requires_grad)
        """
    )


def test_factory_with_requires_grad_on_int_dtype_raises():
    _check("torch.zeros(2, dtype=torch.int64, requires_grad=True)", "RuntimeError")


# ---- indexing ----------------------------------------------------------------


@pytest.mark.parametrize(
    "index",
    ["t[2]", "t[-3]", "t[0, 3]", "t[:, -4]", "t[1][5]", "torch.tensor(5.0)[0]"],
    ids=["row_past_end", "negative_past_start", "second_dim", "negative_second_dim", "chained", "zero_dim"],
)
def test_index_out_of_range_raises_index_error(index):
    _check(index, "IndexError")


def test_too_many_indices_raise():
    _check("t[0, 0, 0]", "IndexError")


def test_too_many_indices_with_none_and_ellipsis_raise():
    _check("t[None, 0, ..., 0, 0]", "IndexError")


def test_float_index_raises():
    _check("t[1.0]", "IndexError")


def test_float_index_in_a_tuple_raises():
    _check("t[0, 1.5]", "IndexError")


def test_setitem_out_of_range_raises():
    _check("t[2] = 1.0", "IndexError")


def test_slice_past_the_end_is_empty_not_an_error():
    assert_same(
        """
        t = torch.arange(6.).view(2, 3)
        a = t[5:]
        b = t[:, 10:20]
        print(a, b, a.shape, b.shape)
        """
    )


# ---- dims ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    ["t.sum(2)", "t.sum(-3)", "t.mean(5)", "t.transpose(0, 2)", "t.unsqueeze(3)", "t.squeeze(2)",
     "t.permute(0, 2)", "t.sum(dim=2, keepdim=True)"],
    ids=["sum", "sum_negative", "mean", "transpose", "unsqueeze", "squeeze", "permute", "sum_keepdim"],
)
def test_dimension_out_of_range_raises_index_error(call):
    _check(call, "IndexError")


def test_permute_with_duplicate_dims_raises():
    _check("t.permute(0, 0)", "RuntimeError")


def test_mean_of_an_int_tensor_raises():
    _check("torch.tensor([1, 2]).mean()", "RuntimeError")


# ---- devices ---------------------------------------------------------------------


def test_unknown_device_type_raises():
    _check('torch.zeros(2, device="gpu")', "RuntimeError")


def test_malformed_device_index_raises():
    _check('torch.device("cuda:x")', "RuntimeError")


def test_unknown_device_in_to_raises():
    _check('t.to("banana")', "RuntimeError")


def test_unknown_device_string_raises_on_gpu_too():
    assert_same_as_gpu(
        """
        g = torch.ones(2, device="cuda")
        print(g)
        torch.ones(2, device="cuda:banana")
        """,
        expect_cuda=["g"],
        raises="RuntimeError",
    )


# ---- conversions -----------------------------------------------------------------


def test_item_on_many_elements_raises():
    _check("t.item()", "RuntimeError")


def test_item_on_an_empty_tensor_raises():
    _check("torch.zeros(0).item()", "RuntimeError")


def test_numpy_of_a_tensor_requiring_grad_raises():
    _check("torch.ones(2, requires_grad=True).numpy()", "RuntimeError")


def test_numpy_of_a_non_leaf_requiring_grad_raises():
    _check("(torch.ones(2, requires_grad=True) * 2).numpy()", "RuntimeError")


def test_numpy_of_a_detached_tensor_works():
    assert_same(
        """
        a = torch.ones(2, requires_grad=True)
        n = a.detach().numpy()
        print(n, type(n).__name__)
        """
    )


def test_new_tensor_with_positional_dtype_raises():
    _check("t.new_tensor([1.0], torch.float64)", "TypeError")


# ---- autograd misuse ----------------------------------------------------------------


def test_in_place_on_a_leaf_requiring_grad_raises():
    _check("w = torch.ones(2, requires_grad=True)\nw.mul_(2)", "RuntimeError")


def test_setitem_on_a_leaf_requiring_grad_raises():
    _check("w = torch.ones(2, requires_grad=True)\nw[0] = 5.0", "RuntimeError")


def test_augmented_assignment_on_a_leaf_requiring_grad_raises():
    _check("w = torch.ones(2, requires_grad=True)\nw += 1", "RuntimeError")


def test_zero_on_a_view_of_a_leaf_requiring_grad_raises():
    _check("w = torch.ones(2, 2, requires_grad=True)\nw[0].zero_()", "RuntimeError")


def test_backward_through_nothing_raises():
    _check("torch.ones(2).sum().backward()", "RuntimeError")


def test_backward_of_a_non_scalar_raises():
    _check("w = torch.ones(2, requires_grad=True)\n(w * 2).backward()", "RuntimeError")


def test_backward_with_a_gradient_of_the_wrong_shape_raises():
    _check("w = torch.ones(2, requires_grad=True)\n(w * 2).backward(torch.ones(3))", "RuntimeError")


def test_backward_after_a_saved_tensor_was_modified_raises():
    _check(
        "w = torch.ones(2, requires_grad=True)\nh = w * 1\ny = (h * h).sum()\nh.zero_()\ny.backward()",
        "RuntimeError",
    )


def test_backward_after_a_saved_leaf_was_modified_under_no_grad_raises():
    _check(
        "w = torch.ones(2, requires_grad=True)\ny = (w * w).sum()\nwith torch.no_grad():\n    w.add_(1)\ny.backward()",
        "RuntimeError",
    )


def test_second_backward_without_retain_graph_raises():
    _check(
        "w = torch.ones(2, requires_grad=True)\ny = (w.exp()).sum()\ny.backward()\ny.backward()",
        "RuntimeError",
    )


def test_deepcopy_of_a_non_leaf_raises():
    _check("import copy\nw = torch.ones(2, requires_grad=True)\ncopy.deepcopy(w.clone())", "RuntimeError")


def test_requires_grad_false_on_a_non_leaf_raises():
    _check("w = torch.ones(2, requires_grad=True)\n(w * 2).requires_grad_(False)", "RuntimeError")


def test_non_leaf_grad_read_warns_each_time():
    assert_same(
        """
        w = torch.ones(2, requires_grad=True)
        h = w * 2
        print(h.grad)
        print(h.grad)
        h.retain_grad()
        print(h.grad)
        """
    )


def test_torch_tensor_of_a_tensor_warns_each_time():
    assert_same(
        """
        w = torch.ones(2, requires_grad=True)
        a = torch.tensor(w)
        b = torch.tensor(w)
        c = w.new_tensor(w)
        print(a, b, c)
        """
    )
