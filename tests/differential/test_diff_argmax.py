"""argmax and argmin: new int64 tensors holding positions, outside the graph even when
their input requires grad; ties, NaN, keepdim, empty inputs and torch's errors."""

from crosscheck.harness import assert_same
from diff_programs import torchs_errors_test


def test_positions_are_new_int64_tensors_that_record_nothing():
    assert_same(
        """
        x = torch.tensor([[1.0, 3.0, 3.0], [4.0, 0.0, -1.0]], requires_grad=True)
        whole, rows, cols = x.argmax(), x.argmax(1), torch.argmin(x, 0, True)
        print(whole, rows, cols, x.argmax(keepdim=True), x.argmin(dim=-1))
        for t in (whole, rows, cols):
            print(t.dtype, t.requires_grad, t.grad_fn, t.is_leaf, t._version)
        mask, whole_numbers = x > 1, x.long()
        print(mask.grad_fn, whole_numbers.grad_fn, (x * 2).argmax().grad_fn)
        picked = x[0, x[0].argmax()]
        print(picked, picked.grad_fn)
        """
    )


def test_nan_ties_zero_dim_and_integer_inputs():
    assert_same(
        """
        print(torch.tensor([1.0, float("nan"), 2.0, float("nan")]).argmax(),
              torch.tensor([1.0, float("nan"), 2.0]).argmin())
        print(torch.tensor([2, 7, 7, 1]).argmax(), torch.tensor(5.0).argmax(0), torch.tensor(5.0).argmax())
        print(torch.tensor([[float("nan"), 1.0], [0.0, 1.0]]).argmax(dim=1))
        print(torch.zeros(2, 0).argmax(0), torch.zeros(3, 2).t().argmin(1))
        """
    )


test_torchs_errors = torchs_errors_test([
    ("torch.zeros(0).argmax()", "IndexError"),
    ("torch.zeros(2, 0).argmin(1)", "IndexError"),
    ("torch.zeros(2, 3).argmax(2)", "IndexError"),
    ("torch.tensor([True, False]).argmax()", "RuntimeError"),
    ("torch.zeros(2).argmax(dim=1.5)", "TypeError"),
])


def test_the_positions_of_an_inference_tensor_start_at_version_0_outside_the_mode():
    assert_same(
        """
        with torch.inference_mode():
            f = torch.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]])
        for result in (f.argmax(), f.argmax(0), f.argmin(1, keepdim=True), f[0, 0].argmax(0)):
            print(result, result._version, result.is_inference())
        """
    )
