"""Views: indexing, view/reshape, transposes, expand, squeeze, _base."""

from diff_programs import program
from crosscheck.harness import assert_same


def test_int_and_negative_int_indexing_gives_views():
    assert_same(
        """
        a = torch.arange(12.).view(3, 4)
        r = a[1]
        rn = a[-1]
        e = a[2, 3]
        en = a[-2, -4]
        print(r, rn, e, en)
        print(r._is_view(), e._is_view(), e.shape, e.storage_offset())
        """
    )


def test_stepped_slices_and_open_ends():
    assert_same(
        """
        a = torch.arange(20).view(4, 5)
        s1 = a[1:3]
        s2 = a[:, ::2]
        s3 = a[::3, 1::2]
        s4 = a[-3:-1, :-2]
        s5 = a[5:]
        s6 = a[:, 3:1]
        print(s1, s2, s3, s4, s5, s6)
        for s in (s1, s2, s3, s4, s5, s6):
            print(s.shape, s.stride(), s.storage_offset(), s.is_contiguous())
        """
    )


def test_none_and_ellipsis_in_indices():
    assert_same(
        """
        a = torch.arange(24).view(2, 3, 4)
        n1 = a[None]
        n2 = a[:, None, 1]
        e1 = a[..., 0]
        e2 = a[1, ...]
        e3 = a[..., None]
        e4 = a[..., 1:3, None, ::2]
        e5 = a[...]
        for t in (n1, n2, e1, e2, e3, e4, e5):
            print(t.shape, t.stride(), t.storage_offset())
        print(e1, e4)
        print(e5 is a, e5._base is a)
        """
    )


def test_index_combinations_on_a_view_of_a_view():
    assert_same(
        """
        a = torch.arange(60.).view(3, 4, 5)
        v = a[1:, ::2]
        w = v[-1, :, 1::3]
        x = w[None, 0, ...]
        print(w, x)
        print(w._base is a, x._base is a, w.storage_offset(), x.stride())
        """
    )


def test_view_shares_storage_and_accepts_minus_one_and_tuples():
    assert_same(
        """
        a = torch.arange(6.)
        v1 = a.view(2, 3)
        v2 = a.view(-1, 2)
        v3 = a.view((3, 2))
        v4 = a.view(torch.Size([6]))
        v5 = v1.view(6)
        print(v1, v2, v3, v4)
        print(v5._base is a, v1._base is a, v4.shape)
        """
    )


def test_reshape_is_a_view_when_possible_and_a_copy_only_when_it_must():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        r_view = a.reshape(3, 2)
        t = a.t()
        r_copy = t.reshape(6)
        r_same = t.reshape(3, 2)
        r_flat_ok = a[:, :2].reshape(2, 1, 2)
        print(r_view._is_view(), r_copy._is_view(), r_same._is_view(), r_flat_ok._is_view())
        print(r_copy, r_copy.stride())
        print(r_same is t)
        """
    )


def test_reshape_of_a_tensor_that_requires_grad_records_its_graph():
    assert_same(
        """
        a = torch.arange(6., requires_grad=True)
        m = a * 1
        r1 = m.reshape(2, 3)
        r2 = r1.t().reshape(6)
        print(r1.grad_fn, r2.grad_fn)
        """
    )


def test_t_transpose_and_permute():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        t = a.t()
        tr = a.transpose(0, 1)
        trn = a.transpose(-1, -2)
        b = torch.arange(24).view(2, 3, 4)
        p = b.permute(2, 0, 1)
        p2 = b.permute((1, 2, 0))
        one = torch.arange(3.)
        t1 = one.t()
        print(t, tr, trn)
        print(p.shape, p.stride(), p2.shape, p2.stride(), t1.shape, t1._is_view())
        """
    )


def test_expand_uses_zero_strides():
    assert_same(
        """
        a = torch.tensor([[1.0], [2.0]])
        e = a.expand(2, 3)
        e2 = a.expand(4, 2, -1)
        s = torch.tensor(5.0).expand(3)
        print(e, e.stride(), e2.shape, e2.stride(), s, s.stride())
        print(e.is_contiguous(), e.untyped_storage().nbytes())
        """
    )


def test_unsqueeze_squeeze_and_flatten():
    assert_same(
        """
        a = torch.arange(6.).view(2, 1, 3)
        u0 = a.unsqueeze(0)
        u_last = a.unsqueeze(-1)
        sq = a.squeeze()
        sq1 = a.squeeze(1)
        sq0 = a.squeeze(0)
        f = a.flatten()
        ft = a.transpose(0, 2).flatten()
        f1 = torch.arange(3.).flatten()
        for t in (u0, u_last, sq, sq1, sq0, f, ft, f1):
            print(t.shape, t.stride(), t._is_view())
        print(f1 is f1.flatten(), ft)
        """
    )


def test_contiguous_returns_self_or_a_fresh_copy():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        same = a.contiguous()
        t = a.t()
        c = t.contiguous()
        print(same is a, c is t, c.stride(), c._is_view(), c.is_contiguous())
        """
    )


def test_base_always_points_at_the_tensor_that_owns_the_memory():
    assert_same(
        """
        a = torch.arange(8.)
        v = a.view(2, 4)
        w = v[1]
        x = w[1:]
        d = x.detach()
        print(a._base, v._base is a, w._base is a, x._base is a, d._base is a)
        print(a._is_view(), v._is_view(), w._is_view(), x._is_view(), d._is_view())
        """
    )


def test_writes_through_a_view_are_seen_by_the_base_and_other_views():
    assert_same(
        """
        a = torch.zeros(3, 3)
        col = a[:, 1]
        row = a[1]
        col.fill_(2.0)
        row[0] = 5.0
        print(a)
        print(col, row, a._version, col._version)
        """
    )


def test_views_of_tensors_requiring_grad_have_view_backward_nodes():
    assert_same(
        """
        a = torch.arange(6., requires_grad=True)
        v = a.view(2, 3)
        s = v[1]
        sl = v[:, 1:]
        t = v.t()
        tr = v.transpose(0, 1)
        p = v.permute(1, 0)
        e = a[:1].expand(3)
        u = a.unsqueeze(0)
        sq = u.squeeze(0)
        print(v.grad_fn, s.grad_fn, sl.grad_fn, t.grad_fn, tr.grad_fn)
        print(p.grad_fn, e.grad_fn, u.grad_fn, sq.grad_fn)
        """
    )


def test_squeeze_of_a_dimension_that_is_not_one_is_a_no_op_view():
    assert_same(
        """
        a = torch.zeros(2, 3)
        s = a.squeeze(0)
        s1 = a.squeeze(-1)
        print(s.shape, s1.shape, s is a, s._is_view(), s._base is a)
        """
    )


def test_expand_gives_a_new_leading_dimension_of_size_1_the_stride_over_the_rest():
    assert_same(
        """
        row, col, scalar = torch.zeros(3), torch.zeros(2, 1), torch.tensor(1.0)
        for name, e in [("row (1, 3)", row.expand(1, 3)), ("row (2, 1, 3)", row.expand(2, 1, 3)),
                        ("col (1, 2, 4)", col.expand(1, 2, 4)), ("col (1, 1, 2, 1)", col.expand(1, 1, 2, 1)),
                        ("col (2, -1)", col.expand(2, -1)), ("scalar (1, 3)", scalar.expand(1, 3)),
                        ("t (1, 1, 3, 2)", torch.zeros(2, 3).t().expand(1, 1, 3, 2))]:
            print(name, e.shape, e.stride(), e.is_contiguous(), e.clone().stride())
        """
    )


def test_a_minus_one_next_to_a_zero_in_the_shape_of_an_empty_tensor_is_called_ambiguous():
    """Chapter 03 shows ``reshape``: with no elements and a 0 in the shape, any size would do for the
    ``-1``, and torch says so in its own words; with elements, the plain "is invalid" message."""
    assert_same(
        """
        for t in (torch.zeros(0, 3), torch.zeros(0), torch.ones(6), torch.zeros(2, 0, 3).transpose(0, 2)):
            for shape in ((0, -1), (-1, 0), (3, -1, 0), (-1,), (0,), (0, 0, -1), (-1, 3), (2, -1), (-1, -1),
                          (0, -2), (1, -1, 1)):
                for name in ("reshape", "view"):
                    try:
                        print(name, shape, tuple(getattr(t, name)(shape).shape))
                    except RuntimeError as error:
                        print(name, shape, "RuntimeError", error)
        """
    )


def test_narrow_is_a_slice_view_with_torchs_checks():
    """``narrow(dim, start, length)``: the view ``slice`` makes (``SliceBackward0``, the base's
    storage and version counter), ``start`` counted from the end if negative, or a 0-d tensor."""
    assert_same(
        """
        a = torch.arange(6.0, requires_grad=True)
        b = a * 1
        v = b.narrow(0, 1, 2)
        w = b.reshape(2, 3).narrow(-1, -2, 2)
        whole = b.narrow(0, 0, 6)
        by_tensor = b.narrow(0, torch.tensor(1), 2)
        f = torch.narrow(b, 0, 4, 2)
        (v.sum() + w.sum() * 2).backward()
        print(v._base is b, v.storage_offset(), w.storage_offset(), whole._base is b)
        x = torch.arange(6.0)
        for args in ((0, 6, 0), (0, 7, 0), (0, -7, 0), (0, 4, 3), (0, 1, -1), (1, 0, 1), (0, 1.0, 2), (0, 1, 2.0),
                     (0.0, 1, 2), (0, True, 2), (0, 1), ()):
            try:
                print(args, x.narrow(*args).tolist())
            except (TypeError, RuntimeError, IndexError) as error:
                print(args, type(error).__name__, error)
        try:
            torch.tensor(1.0).narrow(0, 0, 1)
        except RuntimeError as error:
            print(error)
        """
    )


def test_narrow_by_keyword_and_its_refusals_read_as_torchs_parser_words_them():
    """Keywords bind as in torch; a call neither of torch's two signatures takes lists both, with
    the keywords a signature does not know or the arguments whose type it does not take."""
    assert_same(program("""
        a = torch.arange(6.0).reshape(2, 3)
        for args, keywords in (((), {"dim": 1, "start": 0, "length": 2}), ((1,), {"start": 0, "length": 2}),
                               ((1, 0), {"length": 2}), ((1, 0), {}), ((1,), {}), ((), {}), ((1, 0, 1, 1), {}),
                               ((1, 0), {"foo": 1}), ((1, 0), {"length": 1.5}),
                               ((), {"dim": 1.0, "start": 0, "length": 1}), ((1, 0, 1), {"dim": 1}),
                               ((1,), {"dim": 1, "length": 1}), ((1,), {"foo": 2}),
                               ((1, 0, 1), {"foo": 2, "bar": 3}), ((1, 0, 1), {"input": a}),
                               ((None, 0, 1), {}), ((True, 0, 1), {}), ((1, [0], 1), {}), ((1, (0,), 1), {})):
            attempt(lambda: a.narrow(*args, **keywords))
            attempt(lambda: torch.narrow(a, *args, **keywords))
        attempt(lambda: torch.narrow(input=a, dim=1, start=0, length=2))
        attempt(lambda: torch.narrow(input=a))
        attempt(lambda: torch.narrow())
        attempt(lambda: torch.narrow(None, 1, 0, 1))
        attempt(lambda: torch.narrow([1, 2], 0, 0, 1))
        attempt(lambda: torch.narrow(a, 1, 0, length=None))
        """))


def test_expand_as_is_expand_to_the_other_tensors_size():
    assert_same(
        """
        a = torch.ones(2, 1, requires_grad=True)
        e = a.expand_as(torch.ones(2, 3))
        e3 = a.expand_as(torch.ones(3, 2, 3, dtype=torch.int64))
        em = a.expand_as(other=torch.ones(2, 3, device="meta"))
        (e.sum() + e3.sum()).backward()
        for other in (torch.ones(2, 2).t(), torch.ones(2), 3, None):
            try:
                torch.ones(2, 2).expand_as(other)
            except (TypeError, RuntimeError) as error:
                print(type(error).__name__, error)
        """
    )


def test_select_permute_squeeze_reshape_and_view_take_their_arguments_as_torch_does():
    """select refuses a 0-d tensor and a bool or float index; permute needs its dims and takes
    them by keyword; squeeze takes a tuple of dims (``SqueezeBackward2``); reshape and view take
    their shape by keyword; ``nbytes`` and ``itemsize`` count bytes as torch does."""
    assert_same(program("""
        a = torch.arange(6.0).reshape(2, 3).requires_grad_()
        s = torch.tensor(2.0)
        z = torch.zeros(1, 2, 1, requires_grad=True)
        for f in (lambda: a.select(True, 0), lambda: a.select(0.0, 0), lambda: a.select(0, 1.0), lambda: a.select(0),
                  lambda: a.select(0, True), lambda: a.select(0, torch.tensor(1)), lambda: a.select(dim=0, index=-1),
                  lambda: s.select(0, 0), lambda: torch.zeros(0, 3).select(1, 0), lambda: a.select(1, 3),
                  lambda: z.squeeze((0, 2)), lambda: z.squeeze([0]), lambda: z.squeeze(()), lambda: z.squeeze((0, 1)),
                  lambda: z.squeeze((0, 0)), lambda: z.squeeze((0, True)), lambda: z.squeeze(dim=(0, 2)),
                  lambda: z.squeeze((0, 5)), lambda: z.squeeze((0.0,)), lambda: s.squeeze((0,)),
                  lambda: a.permute(), lambda: s.permute(), lambda: a.permute(dims=[1, 0]), lambda: a.permute([1, 0], 0),
                  lambda: a.permute((1, 0), dims=(1, 0)), lambda: a.view(size=(3, 2)), lambda: a.reshape(shape=[3, 2]),
                  lambda: a.reshape((3, 2), 1), lambda: a.t().reshape(shape=(6,)), lambda: a.reshape(),
                  lambda: a.nbytes, lambda: a.itemsize, lambda: torch.zeros(2, dtype=torch.float16).nbytes,
                  lambda: a.t().nbytes, lambda: torch.zeros(4).expand(3, 4).nbytes, lambda: torch.zeros(0, 3).nbytes,
                  lambda: torch.tensor([True]).itemsize):
            attempt(lambda: (f(), getattr(f(), "grad_fn", None) and f().grad_fn.name()))
        """))


def test_view_and_reshape_hand_back_a_view_of_the_gradient_so_a_sums_grad_is_copied_into_the_leaf():
    # ViewBackward0 is grad.reshape(input size): of a sum's expanded gradient that is a view with
    # stride 0, which the leaf's AccumulateGrad copies in with copy_ (version 1)
    assert_same(
        """
        for use in (lambda m: m.reshape(6), lambda m: m.view(3, 2), lambda m: m.t().reshape(6),
                    lambda m: m.reshape(6) * 2, lambda m: m.view(6)[1:], lambda m: m.reshape(3, 2).t(),
                    lambda m: m.view(1, 6)):
            m = torch.arange(6.0).reshape(2, 3).requires_grad_()
            use(m).sum().backward()
            print(m.grad, m.grad.stride(), m.grad._version)
        m = torch.arange(6.0).reshape(3, 2).t().requires_grad_()
        (m.reshape(6) * torch.arange(6.0)).sum().backward()
        print(m.grad, m.grad.stride(), m.grad._version)
        """
    )


def test_view_as_another_dtype_reinterprets_the_bytes_off_the_graph_with_the_version_counter_shared():
    assert_same(program("""
        x = torch.arange(6.).reshape(2, 3)
        for dt in (torch.int32, torch.float64, torch.int16, torch.uint8, torch.float32, torch.bool, torch.int64, torch.float16):
            def f(dt=dt):
                v = x.view(dt)
                return (v.dtype, tuple(v.shape), v.stride(), v.storage_offset(), v is x, v._base is None, v._is_view(),
                        v.grad_fn, v.data_ptr() == x.data_ptr())
            attempt(f)
        attempt(lambda: x.view(dtype=torch.int32).dtype)
        attempt(lambda: torch.tensor(1.).view(torch.int32))
        attempt(lambda: torch.tensor(1.).view(torch.int16))
        attempt(lambda: x.t().view(torch.float64))
        attempt(lambda: x.t().view(torch.int16))
        attempt(lambda: x[:, 1:].view(torch.float64))
        attempt(lambda: (x[:, 1:].view(torch.int16).stride(), torch.arange(3.)[1:].view(torch.int16).storage_offset()))
        attempt(lambda: torch.ones(3, 3, dtype=torch.int8)[:, :2].view(torch.int16))
        attempt(lambda: torch.ones(4, dtype=torch.int8)[::2].view(torch.int16))
        attempt(lambda: torch.ones(4, 2, dtype=torch.float64)[:, :1].view(torch.float32).stride())
        attempt(lambda: torch.zeros(0, 4).view(torch.float64).shape)
        attempt(lambda: torch.ones(4, device="meta").view(torch.int16).shape)
        attempt(lambda: x.view(torch.int32, 2))
        g = torch.ones(4, requires_grad=True)
        h = g * 1
        for v in (g.view(torch.float32), g.view(torch.int32), h.view(torch.float32)):
            print(v.requires_grad, v.grad_fn, v.is_leaf, v._base is None)
        b = torch.ones(4)
        v = b.view(torch.int32)
        v.add_(1)
        print(b._version, v._version, b[0].item(), v.tolist())
        with torch.inference_mode():
            print(torch.ones(2).view(torch.int32).is_inference())
        """))
