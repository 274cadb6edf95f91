"""In-place operations, __setitem__, augmented assignment, version bumps."""

import pytest

from crosscheck.harness import assert_same
from diff_programs import NON_LEAF


def test_each_in_place_method_bumps_the_version_once_and_returns_self():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0])
        r1 = a.add_(1)
        print(a._version, r1 is a)
        r2 = a.sub_(torch.tensor(0.5))
        print(a._version, r2 is a)
        r3 = a.mul_(2)
        print(a._version, r3 is a)
        r4 = a.div_(torch.tensor([1.0, 2.0, 4.0]))
        print(a._version, r4 is a)
        print(a)
        r5 = a.zero_()
        print(a._version, r5 is a, a)
        r6 = a.fill_(7.5)
        print(a._version, r6 is a, a)
        r7 = a.copy_(torch.tensor([9.0, 8.0, 7.0]))
        print(a._version, r7 is a, a)
        """
    )


def test_in_place_ops_broadcast_the_other_operand_and_keep_the_dtype():
    assert_same(
        """
        a = torch.zeros(2, 3)
        a.add_(torch.tensor([1.0, 2.0, 3.0]))
        a.mul_(torch.tensor([[2.0], [3.0]]))
        print(a)
        i = torch.tensor([1, 2, 3])
        i.add_(2)
        i.mul_(True)
        print(i, i.dtype)
        d = torch.ones(2, dtype=torch.float64)
        d.add_(torch.tensor([1, 2]))
        print(d)
        f = torch.tensor([3.0, 4.0])
        f.fill_(torch.tensor(2))
        print(f)
        """
    )


def test_in_place_result_that_cannot_be_cast_back_raises():
    assert_same(
        """
        i = torch.tensor([1, 2])
        i.add_(1.5)
        """,
        raises="RuntimeError",
    )


def test_in_place_op_whose_broadcast_would_grow_the_destination_raises():
    assert_same(
        """
        a = torch.zeros(3)
        a.add_(torch.ones(2, 3))
        """,
        raises="RuntimeError",
    )


def test_setitem_with_int_and_slice_and_scalar_or_tensor_values():
    assert_same(
        """
        a = torch.zeros(3, 4)
        a[0] = 1.0
        print(a._version)
        a[1, 2] = 5
        print(a._version)
        a[:, 0] = torch.tensor([7.0, 8.0, 9.0])
        print(a._version)
        a[2, 1:] = torch.tensor(3.0)
        print(a._version)
        a[-1, ::2] = torch.tensor([[-1.0, -2.0]])
        print(a._version)
        a[...] = a * 2
        print(a._version)
        print(a)
        i = torch.zeros(3, dtype=torch.int64)
        i[0] = 2.7
        i[1:] = torch.tensor([True, False])
        print(i)
        """
    )


def test_setitem_with_a_wrongly_shaped_value_raises():
    assert_same(
        """
        a = torch.zeros(2, 3)
        a[0] = torch.tensor([1.0, 2.0])
        """,
        raises="RuntimeError",
    )


def test_augmented_assignment_is_in_place_and_keeps_identity():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0])
        alias = a
        view = a[:1]
        a += 1
        a -= torch.tensor([0.5, 0.5])
        a *= 4
        a /= 2
        print(a is alias, a._version, view._version, view, a)
        i = torch.tensor([1, 2])
        i += 3
        i *= 2
        print(i, i._version)
        """
    )


def test_true_division_in_place_on_integers_raises():
    assert_same(
        """
        i = torch.tensor([4, 6])
        i /= 2
        """,
        raises="RuntimeError",
    )


def test_requires_grad_and_detach_in_place_change_the_tensor_itself():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0])
        r = a.requires_grad_()
        print(r is a, a.requires_grad, a.is_leaf, a._version)
        a.requires_grad_(False)
        print(a.requires_grad)
        b = torch.tensor([3.0], requires_grad=True)
        c = b * 2
        r2 = c.detach_()
        print(r2 is c, c.requires_grad, c.grad_fn, c.is_leaf, c._version)
        """
    )


def test_requires_grad_false_on_a_non_leaf_raises():
    assert_same(NON_LEAF + "b.requires_grad_(False)\n", raises="RuntimeError")


def test_item_and_tolist():
    assert_same(
        """
        f = torch.tensor(2.5)
        i = torch.tensor([7])
        b = torch.tensor(True)
        print(f.item(), type(f.item()).__name__, i.item(), type(i.item()).__name__, b.item())
        g = torch.tensor([[1.0, 2.0]], requires_grad=True)
        print(g.tolist(), g[0, 1].item(), torch.tensor([[1, 2], [3, 4]]).t().tolist())
        print(torch.tensor(3).tolist(), torch.tensor([True]).tolist(), torch.zeros(0).tolist())
        print(torch.tensor(0.1).item())
        """
    )


def test_in_place_on_a_view_updates_base_and_all_views_versions():
    assert_same(
        """
        a = torch.zeros(4)
        v1 = a[:2]
        v2 = a.view(2, 2)
        v1 += 1
        v2[1].fill_(3.0)
        print(a, a._version, v1._version, v2._version)
        """
    )


@pytest.mark.parametrize("write", ["add_", "copy_"])
def test_in_place_op_with_an_operand_requiring_grad_makes_the_destination_require_grad(write):
    # copy_ records CopyBackwards: the gradient flows back to the source.
    assert_same(
        f"""
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        x = torch.zeros(2)
        x.{write}(w)
        print(x, x.is_leaf, x.requires_grad, x._version, x.grad_fn)
        print(x.grad_fn.next_functions)
        (x * 3).sum().backward()
        print(w.grad)
        """
    )


def test_setitem_of_a_value_requiring_grad_makes_the_destination_part_of_the_graph():
    assert_same(
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        buf = torch.zeros(3)
        buf[0] = w[0] * 2
        buf[1:] = w
        print(buf, buf.is_leaf, buf.requires_grad, buf._version)
        print(buf.grad_fn.next_functions)
        buf.sum().backward()
        print(w.grad)
        """
    )


def test_requires_grad_true_on_a_non_leaf_is_allowed():
    assert_same(
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        h = w * 2
        r = h.requires_grad_()
        print(r is h, h.requires_grad, h.is_leaf)
        """
    )


def test_detach_in_place_on_a_view_raises():
    assert_same(
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        h = w * 2
        h[1:].detach_()
        """,
        raises="RuntimeError",
    )


# float16: torch computes in float32 and rounds once, with a number operand
# taken in float32 as it is (h.mul_(0.1) multiplies by 0.1f, not by 0.1 rounded
# to float16) and alpha * other rounded to float16 first; in place as out of place.
F16_CASES = [
    "h.mul_(0.1)", "h.mul_(3.3)", "h.div_(0.001)", "h.div_(123.456)", "h.mul_(torch.tensor(3.3))",
    "h.div_(torch.tensor(0.001, dtype=torch.float64))", "h.add_(0.3, alpha=0.1)", "h.sub_(7, alpha=0.1)",
    "h.add_(torch.tensor(0.1), alpha=-3)", "h.sub_(torch.tensor([0.3, -0.3, 0.1, 2.0], dtype=torch.float16), alpha=0.1)",
    "h.mul_(torch.tensor([3.3, -3.3, 1.1, 2.0], dtype=torch.float16))", "h *= 0.1", "h /= 3.3",
]


@pytest.mark.parametrize("op", F16_CASES)
def test_float16_in_place_arithmetic_rounds_as_out_of_place(op):
    out_of_place = op.replace("_(", "(").replace("h *= ", "h * ").replace("h /= ", "h / ")
    assert_same(f"""
values = [0.1, 1 / 3, -59.601738240109285, 10000.0]
h = torch.tensor(values, dtype=torch.float16)
r = {out_of_place}
{op}
print(h, r, h._version)
print(h.tolist() == r.tolist())
""")


@pytest.mark.parametrize("call", [
    "torch.tensor([1, 2]).sub(3, alpha=0.5)", "torch.tensor([1, 2]).add_(3, alpha=0.5)",
    "torch.tensor([1.0, 2.0]).add(3, alpha=True)", "torch.tensor([1.0, 2.0]).sub_(3, alpha=True)",
    "torch.tensor([1, 2], dtype=torch.int32).add_(torch.tensor([1, 1], dtype=torch.int32), alpha=2.0)",
])
def test_alpha_must_suit_the_result_dtype(call):
    assert_same(call, raises="RuntimeError")


def test_alpha_that_suits_the_result_dtype():
    assert_same("""
print(torch.tensor([1, 2]).add(3.0, alpha=0.5), torch.tensor([True]).add(torch.tensor([True]), alpha=2))
print(torch.tensor([True]).add(torch.tensor([False]), alpha=True), torch.tensor([1, 2]).add(3, alpha=2))
""")


def test_writing_into_an_expanded_tensor_is_refused_unless_one_number_fills_it():
    assert_same(
        """
        def attempt(name, f):
            e = torch.tensor([1.0, 2.0]).expand(3, 2)
            try:
                f(e)
                print(name, "ok", e.tolist(), e._version)
            except RuntimeError as err:
                print(name, err, e.tolist(), e._version)
        attempt("add_", lambda e: e.add_(1))
        attempt("mul_", lambda e: e.mul_(2))
        attempt("iadd", lambda e: e.__iadd__(1))
        attempt("copy_", lambda e: e.copy_(torch.ones(3, 2)))
        attempt("copy_ 0-d", lambda e: e.copy_(torch.tensor(4.0)))
        attempt("fill_ number", lambda e: e.fill_(4.0))
        attempt("fill_ tensor", lambda e: e.fill_(torch.tensor(4.0)))
        attempt("zero_", lambda e: e.zero_())
        attempt("setitem all", lambda e: e.__setitem__(slice(None), 4.0))
        attempt("setitem ...", lambda e: e.__setitem__(Ellipsis, 4.0))
        attempt("setitem row", lambda e: e.__setitem__(0, 4.0))
        attempt("setitem column", lambda e: e.__setitem__((slice(None), 0), 4.0))
        x = torch.ones(3, requires_grad=True)
        try:
            x.expand(2, 3).add_(1)
        except RuntimeError as err:
            print(err)
        c = torch.tensor([1.0, 2.0]).expand(3, 2).clone()
        c.add_(1)
        print(c, c.stride())
        """
    )


def test_floor_division_and_bitwise_or_in_place():
    """``a //= b`` is ``floor_divide_`` (rounded down; a float by zero is inf or nan, an integer one
    torch's error; no derivative), ``a |= b`` is ``bitwise_or_`` (bool and integer tensors only):
    both write ``a``'s own memory and bump its version, with in-place's dtype and overlap rules."""
    assert_same(
        """
        import numpy as np

        i = torch.tensor([5, -5, 7]); i //= torch.tensor([2, 2, -2])
        u = torch.tensor([5, 6], dtype=torch.uint8); u //= 2
        f = torch.tensor([5.0, -5.0, 7.5, 0.0, float("inf")]); f //= -0.5
        z = torch.tensor([5.0, -5.0, 0.0]); z //= 0
        h = torch.tensor([4.0, 3.0], dtype=torch.float16); h //= 3
        n = torch.tensor([4, 3]); n //= np.int64(2)
        o = torch.tensor([1, 2]); o |= 4
        ob = torch.tensor([True, False]); ob |= torch.tensor([False, True])
        o8 = torch.tensor([1, 2], dtype=torch.uint8); o8 |= 256
        wrapped = torch.tensor([1, 2], dtype=torch.uint8); wrapped |= -1
        same = o; same |= True
        base = torch.ones(3); piece = base[1:]; piece //= 2
        for program in ("x = torch.tensor([5, -5]); x //= 0", "x = torch.tensor([5, -5]); x //= 2.5",
                        "x = torch.tensor([True]); x //= True", "x = torch.tensor([True]); x //= 2",
                        "x = torch.ones(2); x |= 1", "x = torch.ones(2, dtype=torch.float16); x |= 1",
                        "x = torch.tensor([1, 2]); x |= 1.5", "x = torch.tensor([1, 2]); x |= None",
                        "x = torch.ones(2); x //= 'a'", "x = torch.tensor([1, 2]).expand(2, 2); x |= 2",
                        "x = torch.tensor([1.0, 2.0]).expand(2, 2); x //= 2",
                        "x = torch.tensor([1, 2]); x |= torch.tensor([1, 2, 3])"):
            try:
                exec(program)
            except (RuntimeError, TypeError, NotImplementedError) as error:
                print(program, type(error).__name__, error)
        """
    )


def test_floor_division_in_place_records_a_node_whose_backward_raises():
    assert_same(
        """
        a = torch.ones(3, requires_grad=True)
        b = a * 3
        b //= 2
        v = (a * 1)[1:]
        v //= 2
        by_tensor = a * 3
        by_tensor //= torch.tensor([2.0, 2.0, 2.0])
        by_itself = a * 3
        by_itself //= a
        plain = torch.ones(3)
        plain //= a
        try:
            b.sum().backward()
        except RuntimeError as error:
            print(error)
        try:
            a //= 2
        except RuntimeError as error:
            print(error)
        """
    )


def test_power_in_place_writes_the_tensor_itself_like_the_other_augmented_assignments():
    """``a **= e`` is ``a.pow_(e)``: the same object and memory, one version bump, and the
    in-place rules (a leaf that requires grad, an expanded tensor, a dtype that cannot hold the
    result, a shape that would grow). Not ``a = a ** e``, which leaves ``a``'s other names alone."""
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0])
        b = a
        a **= 2
        print(a is b, b, a._version)
        row = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        row[0] **= 3
        print(row, row._version)
        t = torch.tensor([2.0, 3.0])
        r = t.pow_(torch.tensor([2, 3]))
        print(r is t, t, t._version)
        t.pow_(t)
        u = torch.tensor([2, 3], dtype=torch.uint8)
        u **= 8
        h = torch.tensor([1.0, 2.0], dtype=torch.float16)
        h.pow_(1 / 3)
        n = torch.tensor([1.0, 2.0])
        n.pow_(exponent=True)
        for program in ("x = torch.tensor([1, 2]); x **= 0.5", "x = torch.tensor([1, 2]); x **= -1",
                        "x = torch.tensor([1, 2]); x **= torch.tensor(2.0)", "x = torch.tensor([True]); x **= 2",
                        "x = torch.ones(2); x **= torch.ones(2, 2)", "x = torch.ones(1).expand(3); x **= 2",
                        "x = torch.ones(2, requires_grad=True); x **= 2", "x = torch.ones(2); x **= None",
                        "x = torch.ones(2); x **= [1, 2]", "x = torch.ones(2); x.pow_(None)",
                        "x = torch.arange(4.0); x[1:].pow_(x[:3])"):
            try:
                exec(program)
            except (RuntimeError, TypeError) as error:
                print(program, type(error).__name__, error)
        """
    )


def test_power_in_place_records_pow_nodes_with_the_old_values():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        e = torch.tensor([2.0, 3.0], requires_grad=True)
        by_number = x * 1
        by_number **= 2
        by_tensor = x * 1
        by_tensor **= e
        whole = x * 1
        piece = whole[:1]
        piece **= 3
        (by_number.sum() + by_tensor.sum() + whole.sum()).backward()
        print(x.grad, e.grad)
        y = x * 1
        z = y * y
        y **= 2  # z saved y
        w = x * 1
        w **= torch.tensor([2.0, 2.0])
        w.add_(1)  # w's node saved w as written
        for loss in (z, w):
            try:
                loss.sum().backward()
            except RuntimeError as error:
                print(error)
        """
    )


def test_integer_powers_with_negative_tensor_exponents_round_as_c_does():
    """A negative *number* exponent of an integer tensor is refused; a tensor of negative exponents
    is computed: 1 stays 1, -1 alternates, every other base gives 0. A bool result has a kernel for
    a number exponent only."""
    assert_same(
        """
        b = torch.tensor([2, -1, 1, 0, -1, 3])
        p = b ** torch.tensor([-1, -3, -2, -1, -2, 2])
        q = torch.tensor([2, 3]) ** torch.tensor(-1)
        r = torch.tensor([2, 3], dtype=torch.uint8) ** torch.tensor([-1, 2], dtype=torch.int8)
        s = 0 ** torch.tensor([-1, 2])
        kept = torch.tensor([True, False]) ** True  # a bool tensor to a number keeps its dtype
        for program in ("torch.tensor([2, 3]) ** -1", "torch.tensor([True]) ** torch.tensor([True])",
                        "False ** torch.tensor([True])", "torch.tensor([True]).pow_(torch.tensor(False))"):
            try:
                exec(program)
            except (RuntimeError, NotImplementedError) as error:
                print(program, type(error).__name__, error)
        """
    )


def test_powers_round_a_number_operand_to_the_result_dtype_where_torch_does():
    """``2.7 ** t`` rounds the base 2.7 to ``t``'s dtype (float32, float16) before the power; a
    float16 ``t ** 2.7`` (and ``t **= 2.7``) rounds the exponent to float16. A float32 ``t ** 2.7``
    keeps the exponent as it is."""
    assert_same(
        """
        bases = [0.37, 1.1, 2.3, 3.9, 7.25, 12.6, 31.4]
        exponents = [-2.9, -0.7, 0.45, 1.3, 2.7, 3.3]
        for dtype in (torch.float16, torch.float32):
            t = torch.tensor(bases, dtype=dtype)
            e = torch.tensor(exponents, dtype=dtype)
            print([(t ** x).tolist() for x in exponents])
            print([(b ** e).tolist() for b in bases])
            h = t.clone()
            h **= 2.7
            print(h.tolist())
        """
    )


def test_power_gradients_take_torchs_values_at_zero_and_round_as_torch():
    """The exponent 0 gives the gradient 0 (not 0 * x ** -1, nan at x = 0); d(t ** u)/du and
    d(0 ** u)/du are 0 where the base is 0 and u >= 0; 2 ** t saves t, so a write into t raises in
    backward; float16 gradients are computed as grad * (n * t ** (n - 1)), in that order."""
    assert_same(
        """
        x = torch.tensor([0.0, 2.0], requires_grad=True)
        (x ** 0).sum().backward()
        u = torch.tensor([[0.0], [2.0]], requires_grad=True)
        e = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
        (u ** e).sum().backward()
        z = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
        (0 ** z).sum().backward()
        h = torch.tensor([0.37, 1.1, 2.3, 3.9, 7.25], dtype=torch.float16, requires_grad=True)
        (h ** 2.7).sum().backward()
        (h ** -1.3).sum().backward()
        w = x * 1
        w **= 0
        w.sum().backward()
        t = torch.tensor([1.0, 2.0], requires_grad=True)
        t2 = t * 1
        r = 2 ** t2
        t2.add_(1)
        try:
            r.sum().backward()
        except RuntimeError as error:
            print(error)
        """
    )
