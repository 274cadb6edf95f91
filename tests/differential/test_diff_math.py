"""Arithmetic with broadcasting, reductions, matmul, comparisons, promotion."""

from crosscheck.harness import assert_same
from diff_programs import program


def test_binary_operators_broadcast():
    assert_same(
        """
        a = torch.tensor([[1.0], [2.0], [3.0]])
        b = torch.tensor([10.0, 20.0])
        print(a + b)
        print(a - b)
        print(a * b)
        print(b / a)
        print(a ** torch.tensor([2.0, 0.5]))
        print((a + b).shape, (a + b).stride())
        """
    )


def test_unary_minus_exp_and_sigmoid():
    assert_same(
        """
        a = torch.tensor([0.0, 1.0, -2.0])
        print(-a)
        print(a.exp(), torch.exp(a))
        print(a.sigmoid(), torch.sigmoid(a))
        i = torch.tensor([1, -2])
        print(-i)
        """
    )


def test_sum_over_everything_and_over_dims():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        print(a.sum(), torch.sum(a))
        print(a.sum(0), a.sum(1), a.sum(-1))
        print(a.sum(dim=0, keepdim=True), a.sum(1, keepdim=True).shape)
        print(a.sum((0, 1)))
        i = torch.tensor([[1, 2], [3, 4]])
        b = torch.tensor([True, True, False])
        print(i.sum(), i.sum().dtype, b.sum(), b.sum().dtype)
        """
    )


def test_mean_over_everything_and_over_dims():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        print(a.mean(), a.mean(0), a.mean(1, keepdim=True), torch.mean(a))
        d = torch.tensor([1.0, 2.0], dtype=torch.float64)
        print(d.mean())
        """
    )


def test_matmul_of_1d_and_2d_operands():
    assert_same(
        """
        m = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        n = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
        v = torch.tensor([1.0, -1.0])
        w = torch.tensor([2.0, 0.0, 1.0])
        print(m @ n)
        print(m.matmul(v), torch.matmul(w, m))
        print(v @ v, (v @ v).shape)
        i = torch.tensor([[1, 2], [3, 4]])
        print(i @ i)
        """
    )


def test_comparisons_give_bool_tensors_and_broadcast():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0])
        b = torch.tensor([[2.0], [1.0]])
        print(a == b)
        print(a != 2)
        print(a < b, a <= 2.0)
        print(a > b, a >= torch.tensor(2))
        print((a == 2).dtype)
        """
    )


def test_type_promotion_between_tensors():
    assert_same(
        """
        i = torch.tensor([1, 2])
        f = torch.tensor([0.5, 0.5])
        d = torch.tensor([1.0, 2.0], dtype=torch.float64)
        b = torch.tensor([True, False])
        for x, y in [(i, f), (f, d), (i, d), (b, i), (b, f), (b, b)]:
            print((x + y).dtype, (x * y).dtype)
        print(i / i, (i / i).dtype)
        print(b + b)
        """
    )


def test_python_scalars_do_not_upcast_tensors():
    assert_same(
        """
        f = torch.tensor([1.0, 2.0])
        i = torch.tensor([1, 2])
        b = torch.tensor([True, False])
        d = torch.tensor([1.0], dtype=torch.float64)
        print(f + 1, (f + 1).dtype)
        print(i + 1, (i + 1).dtype)
        print(i + 1.5, (i + 1.5).dtype)
        print(i * True, (i * True).dtype)
        print(b + 1, b + 1.0, b * True)
        print((d * 2.5).dtype, (f * 2.5).dtype)
        print(i ** 2, f ** 2, i ** 0.5)
        """
    )


def test_zero_dim_tensors_promote_like_scalars():
    assert_same(
        """
        f = torch.tensor([1.0, 2.0])
        i = torch.tensor([1, 2])
        d0 = torch.tensor(2.0, dtype=torch.float64)
        i0 = torch.tensor(3)
        f0 = torch.tensor(1.5)
        print((f + d0).dtype, (i + i0).dtype, (i + f0).dtype, (i + d0).dtype)
        print((d0 + i0).dtype, (f0 * i0).dtype)
        print(f + d0, i + f0)
        """
    )


def test_reversed_operators_with_python_numbers():
    assert_same(
        """
        t = torch.tensor([1.0, 2.0, 4.0])
        print(2 * t)
        print(1 - t)
        print(3 + t)
        print(8 / t)
        print(2 ** t)
        i = torch.tensor([1, 2])
        print(10 - i, 1.5 * i, 6 / i)
        """
    )


def test_numpy_numbers_are_scalars_like_python_numbers():
    assert_same(
        """
        import numpy as np
        i = torch.tensor([1, 2])
        u = torch.tensor([1, 2], dtype=torch.uint8)
        print(i + np.int64(1), (u + np.int64(1)).dtype, (i + np.float32(0.5)).dtype)
        print(np.int64(2) + i, np.int64(2) * i, np.int64(2) - i, i > np.int64(1))
        print(i + np.bool_(True))
        i += np.int64(1)
        i *= np.int32(3)
        print(i)
        try:
            i += np.float64(0.5)
        except RuntimeError as error:
            print("RuntimeError:", error)
        """
    )


def test_in_place_arithmetic_refuses_what_is_not_a_number_with_type_error():
    assert_same(
        """
        import numpy as np
        i = torch.tensor([1, 2])
        for other in (None, "a", [1, 2], np.array(1)):
            for write in (i.add_, i.mul_, i.sub_):
                try:
                    result = write(other)
                    print(result is NotImplemented or result)
                except TypeError:
                    print("TypeError")
        try:
            i += None
        except TypeError:
            print("TypeError")
        print(i, i._version)
        """
    )


def test_math_results_are_new_tensors_with_fresh_storage():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0])
        b = a + 0
        c = a * 1
        d = a.sum()
        print(b is a, b.data_ptr() == a.data_ptr(), c._version, d.shape)
        """
    )


def test_math_on_strided_views_reads_the_right_elements():
    assert_same(
        """
        a = torch.arange(12.).view(3, 4)
        t = a.t()
        s = a[::2, 1::2]
        print(t + 1)
        print(s * t[1::2, ::2])
        print(t.sum(0), s.mean(1))
        print(a[:, 0] @ a[:, 1])
        e = torch.tensor([1.0, 2.0]).expand(3, 2)
        print(e * e, (e * e).stride())
        """
    )


def test_elementwise_results_follow_the_memory_layout_of_their_inputs():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        t = torch.arange(6.).view(3, 2).t()
        e = torch.arange(3.).expand(2, 3)
        col = torch.ones(2, 1)
        print((t + t).stride(), (t + a).stride(), (a + t).stride(), (t * 2).stride())
        print(t.exp().stride(), (-t).stride(), (t == 1).stride(), t.sigmoid().stride())
        print((e + t).stride(), (t + e).stride(), (e * 2).stride(), (t + col).stride(), (col + t).stride())
        s = torch.arange(12.).view(2, 6)[:, ::2]
        print((s + 1).stride())
        p = torch.zeros(2, 3, 4).permute(2, 0, 1)
        print((p + 1).stride(), (p + torch.ones(3)).stride())
        """
    )


def test_division_by_zero_gives_inf_and_nan_without_any_warning():
    assert_same(
        """
        a = torch.tensor([1.0, 0.0, -1.0])
        q = a / torch.tensor(0.0)
        print(q)
        w = torch.tensor([1.0, 0.0], requires_grad=True)
        (w / torch.tensor(0.0)).sum().backward()
        print(w.grad)
        print(torch.tensor([0.0]).exp(), 1 / torch.tensor([0.0, -0.0]))
        """
    )


def test_float32_sum_rounds_like_torch():
    assert_same(
        """
        p = torch.tensor([[0.5, -1.0], [2.0, 1.5]])
        q = torch.tensor([[1.0, 0.25], [-0.5, 3.0]])
        r = (2 * p) / (p + q)
        print(r.sum().item(), r.sum(0).tolist(), r.mean().item())
        """
    )


def test_gradient_of_a_quotient_uses_torchs_formula():
    assert_same(
        """
        p = torch.tensor([[0.5, -1.0], [2.0, 1.5]], requires_grad=True)
        q = torch.tensor([[1.0, 0.25], [-0.5, 3.0]], requires_grad=True)
        (p / q / q).sum().backward()
        print(p.grad.tolist(), q.grad.tolist())
        """
    )


def test_a_python_int_no_c_integer_holds_is_refused_as_an_operand_a_fill_value_an_alpha_or_an_item():
    assert_same(
        """
        for dtype in (torch.float32, torch.int64, torch.uint8):
            t = torch.tensor([1, 2], dtype=dtype)
            for n in (2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 70, -2 ** 63, -2 ** 63 - 1):
                for name, op in (("+", lambda: t + n), ("r-", lambda: n - t), ("*", lambda: t * n),
                                 ("==", lambda: t == n), ("add_", lambda: t.clone().add_(n)),
                                 ("fill_", lambda: t.clone().fill_(n)), ("alpha", lambda: t.add(1, alpha=n)),
                                 ("full", lambda: torch.full((2,), n, dtype=dtype)),
                                 ("t[0] =", lambda: t.clone().__setitem__(0, n))):
                    try:
                        print(dtype, n, name, op())
                    except (OverflowError, RuntimeError, ValueError) as error:
                        print(dtype, n, name, type(error).__name__, error)
        for dtype in (torch.uint8, torch.int8, torch.int32):
            for alpha in (-1, 127, 128, -128, -200, 300, 2 ** 40):
                try:
                    print(dtype, alpha, torch.tensor([1, 2], dtype=dtype).add(1, alpha=alpha))
                except RuntimeError as error:
                    print(dtype, alpha, error)
        """
    )


def test_a_float_beyond_the_dtype_is_refused_by_fill_and_alpha_and_by_full_and_item_writes_except_into_float16():
    assert_same(
        """
        for dtype, v in ((torch.float16, 65505.0), (torch.float16, 1e6), (torch.float16, 65504.0),
                         (torch.float32, 1e39), (torch.float32, 3.4028235e38), (torch.float32, float("inf")),
                         (torch.float16, float("nan")), (torch.float16, 100000), (torch.float64, 1e308)):
            for name, write in (("fill_", lambda t: t.fill_(v)), ("alpha", lambda t: t.add(t, alpha=v)),
                                ("full", lambda t: torch.full((1,), v, dtype=dtype)), ("+", lambda t: t + v),
                                ("t[0] =", lambda t: t.__setitem__(0, v)), ("t[:] =", lambda t: t.__setitem__(slice(None), v)),
                                ("t[[0]] =", lambda t: t.__setitem__([0], v))):
                t = torch.zeros(2, dtype=dtype)
                try:
                    result = write(t)
                    print(dtype, v, name, t if result is None else result)
                except RuntimeError as error:
                    print(dtype, v, name, error)
        """
    )


def test_sum_and_mean_read_dim_and_keepdim_as_torchs_parser_does():
    """An empty tuple of dims reduces every dimension (it did nothing); a bool is no dim and an int
    no keepdim; a one-element integer tensor is a dim, ``axis``/``keepdims`` are numpy's names for
    them; the node is ``SumBackward1`` whenever dim is given, even as None; a call of more than one
    argument gets the error of torch's second signature."""
    assert_same(program("""
        g = torch.arange(6.0).reshape(2, 3).requires_grad_()
        e = torch.zeros(0, 3)
        for args, kw in (((), {}), (((),), {}), (([],), {}), ((-1,), {}), ((-3,), {}), (((0, 1),), {}), (((0, 0),), {}),
                         ((0, True), {}), ((), {"dim": 1, "keepdim": True}), ((), {"axis": 1}),
                         ((), {"axis": 0, "keepdims": True}), ((0,), {"keepdims": True}), ((None,), {}),
                         ((None, True), {}), ((), {"dim": None}), ((1.0,), {}), ((True,), {}), ((True, True), {}),
                         ((), {"dim": True, "keepdim": True}), (((True,),), {}), (((0, True),), {}),
                         ((torch.tensor(1),), {}), ((torch.tensor([0]),), {}), ((0,), {"keepdim": 1}),
                         ((0, 1), {}), ((0, None), {}), ((), {"keepdim": True}), ((0, True, 1), {}),
                         ((0,), {"foo": 1}), ((0,), {"dim": 1}), (((0, 5),), {}), ((), {"dtype": torch.float64}),
                         ((0,), {"dtype": torch.float64}), ((), {"foo": 1})):
            for name in ("sum", "mean"):
                attempt(lambda: (name, args, kw, getattr(g, name)(*args, **kw), getattr(g, name)(*args, **kw).grad_fn.name()))
                attempt(lambda: (name, args, kw, getattr(e, name)(*args, **kw)))
        attempt(lambda: torch.tensor(3.0).sum(()))
        attempt(lambda: torch.sum(g).grad_fn.name())
        attempt(lambda: torch.sum(g, 0, True))
        attempt(lambda: torch.mean(g, dim=None).grad_fn.name())
        attempt(lambda: torch.sum(input=g, dim=0))
        """))


def test_subtracting_in_place_from_or_with_a_bool_tensor_is_refused_as_a_minus_b_is():
    """And an in-place op given what is no operand says so in torch's words, before anything else."""
    assert_same(program("""
        b = torch.tensor([True, False])
        i = torch.tensor([1, 2])
        for target, other in ((b, True), (b, b), (b, 1), (i, True), (i, b), (b, None)):
            attempt(lambda: target.clone().sub_(other))
            attempt(lambda: target.clone().__isub__(other))
        for name in ("add_", "sub_", "mul_", "div_", "floor_divide_", "bitwise_or_", "bitwise_and_", "bitwise_xor_"):
            for other in (None, "x", [1]):
                attempt(lambda: getattr(i.clone(), name)(other))
        print(b, i, b._version, i._version)
        """))


def test_torch_multiplies_no_bool_matrices():
    assert_same(program("""
        b = torch.tensor([True, False])
        B = torch.ones(2, 2, dtype=torch.bool)
        for f in (lambda: b @ b, lambda: B @ B, lambda: B @ b, lambda: b @ B, lambda: torch.tensor([1, 2]) @ b,
                  lambda: torch.ones(0, dtype=torch.bool) @ torch.ones(0, dtype=torch.bool), lambda: b.matmul(b),
                  lambda: torch.matmul(B, B), lambda: B @ torch.ones(3, 2, dtype=torch.bool), lambda: B.int() @ B.int()):
            attempt(f)
        """))
