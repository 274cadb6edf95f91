"""The copy operations: clone, detach, .data, new_tensor, copy_, copy.copy, copy.deepcopy."""

from crosscheck.harness import assert_same, assert_same_as_gpu
from diff_programs import NON_LEAF, program


# ---- clone -----------------------------------------------------------------


def test_clone_copies_memory_and_records_clone_backward():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        c = a.clone()
        print(c, c.is_leaf, c.requires_grad, c._is_view(), c._base)
        print(c.data_ptr() == a.data_ptr(), c._version)
        p = torch.tensor([1, 2])
        pc = p.clone()
        pc[0] = 10
        print(p, pc, pc.grad_fn)
        """
    )


def test_clone_preserves_the_strides_of_transposed_and_permuted_inputs():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        t = a.t()
        c = t.clone()
        cp = t.clone(memory_format=torch.preserve_format)
        cc = t.clone(memory_format=torch.contiguous_format)
        print(c.stride(), cp.stride(), cc.stride(), c.is_contiguous(), cc.is_contiguous())
        p = torch.arange(24.).view(2, 3, 4).permute(2, 0, 1)
        pc = p.clone()
        print(pc.stride(), pc.tolist() == p.tolist())
        print(torch.preserve_format, torch.contiguous_format)
        """
    )


def test_clone_of_a_stepped_view_is_compact():
    assert_same(
        """
        s = torch.arange(10.)[::2]
        c = s.clone()
        m = torch.arange(12.).view(3, 4)[:, 1::2]
        mc = m.clone()
        print(c.stride(), c.untyped_storage().nbytes(), c.storage_offset())
        print(mc.stride(), mc.untyped_storage().nbytes(), mc)
        """
    )


def test_clone_of_an_expanded_tensor_materialises_every_element():
    assert_same(
        """
        e = torch.tensor([1.0, 2.0]).expand(3, 2)
        c = e.clone()
        cc = e.clone(memory_format=torch.contiguous_format)
        c[0, 0] = 9.0
        print(c.stride(), cc.stride(), c.untyped_storage().nbytes(), c, e)
        col = torch.tensor([[1.0], [2.0]]).expand(2, 3)
        print(col.clone().stride())
        """
    )


def test_clone_of_non_dense_permuted_views_sorts_the_strides():
    assert_same(
        """
        x = torch.zeros(4, 6)[:, ::2].t()
        y = torch.arange(24.).view(2, 3, 4).permute(1, 2, 0)[:, ::2]
        xc = x.clone()
        yc = y.clone()
        print(x.stride(), xc.stride(), y.stride(), yc.stride())
        print(yc.tolist() == y.tolist())
        """
    )


def test_clone_of_a_view_is_not_a_view():
    assert_same(
        """
        a = torch.arange(4.)
        v = a[1:3]
        c = v.clone()
        a.add_(100)
        print(c, c._base, c._is_view(), c._version, v._version)
        """
    )


# ---- detach and .data --------------------------------------------------------


def test_detach_shares_storage_and_version_counter():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        d = a.detach()
        print(d, d.requires_grad, d.is_leaf, d.grad_fn, d._is_view(), d._base)
        print(d.data_ptr() == a.data_ptr(), d is a, d._version, a._version)
        d[0] = 10.0
        print(a, a._version, d._version)
        """
    )


def test_detach_of_a_view_keeps_the_view_geometry():
    assert_same(
        """
        a = torch.arange(6., requires_grad=True)
        v = a.view(2, 3).t()
        d = v.detach()
        print(d.shape, d.stride(), d.storage_offset(), d._base is a, d._is_view())
        """
    )


def test_data_is_a_detached_alias_with_its_own_version_counter():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        dat = a.data
        print(dat, dat.requires_grad, dat.is_leaf, dat is a, dat.data_ptr() == a.data_ptr())
        dat.mul_(3)
        print(a, a._version, dat._version)
        a.data.add_(1)
        print(a, a._version)
        y = a * a
        a.data.zero_()
        y.sum().backward()
        print(a.grad)
        """
    )


def test_data_setter_swaps_the_storage_in_place():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        alias = a
        a.data = torch.tensor([5.0, 6.0, 7.0])
        print(a, a is alias, a.shape, a.requires_grad, a.is_leaf, a._version)
        b = torch.ones(2)
        new = torch.zeros(3, dtype=torch.float64)
        b.data = new
        print(b, b.dtype, b.data_ptr() == new.data_ptr(), b._version)
        """
    )


def test_data_setter_refuses_meta_and_takes_the_inference_flag():
    assert_same(
        """
        x = torch.ones(2)
        try:
            x.data = torch.empty(2, device="meta")
        except RuntimeError as err:
            print("RuntimeError:", err)
        leaf = torch.ones(2, requires_grad=True)
        try:  # two kinds of tensor is checked before the dtype
            leaf.data = torch.empty(2, dtype=torch.int64, device="meta")
        except RuntimeError as err:
            print("RuntimeError:", err)
        with torch.inference_mode():
            made_inside = torch.ones(2)
        plain = torch.ones(2)
        plain.data = made_inside
        print(plain.is_inference(), plain._version)
        made_inside.data = torch.zeros(2)
        print(made_inside.is_inference())
        """
    )


def test_data_of_a_view_is_not_a_view():
    assert_same(
        """
        a = torch.arange(4.)
        v = a[1:]
        dv = v.data
        print(dv._is_view(), dv._base, dv.storage_offset(), dv.data_ptr() == v.data_ptr())
        """
    )


def test_clone_detach_and_detach_clone_give_equal_independent_copies():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        cd = a.clone().detach()
        dc = a.detach().clone()
        print(cd, dc, cd.requires_grad, dc.requires_grad, cd.is_leaf, dc.is_leaf)
        print(cd.grad_fn, dc.grad_fn, cd._version, dc._version)
        cd[0] = 7.0
        dc[1] = 8.0
        print(a, cd, dc)
        """
    )


def test_detach_then_requires_grad_makes_a_new_leaf():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        d = a.detach().clone().requires_grad_(True)
        print(d, d.is_leaf)
        (d * 2).sum().backward()
        print(d.grad, a.grad)
        """
    )


# ---- new_tensor -----------------------------------------------------------


def test_new_tensor_copies_and_never_requires_grad_by_default():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        n = a.new_tensor([3, 4])
        m = a.new_tensor(a)
        k = a.new_tensor(a, dtype=torch.float32, requires_grad=True)
        a.data.add_(10)
        print(n, m, k)
        print(m.is_leaf, k.is_leaf, k.requires_grad, m.data_ptr() == a.data_ptr())
        """
    )


def test_new_tensor_with_a_positional_dtype_raises():
    assert_same(
        """
        a = torch.tensor([1.0])
        a.new_tensor([1, 2], torch.float64)
        """,
        raises="TypeError",
    )


# ---- copy_ ---------------------------------------------------------------------


def test_copy_writes_into_the_destination_and_bumps_its_version():
    assert_same(
        """
        dst = torch.zeros(3)
        alias = dst
        src = torch.tensor([1.0, 2.0, 3.0])
        r = dst.copy_(src)
        print(dst, r is dst, dst is alias, dst._version, src._version)
        print(dst.data_ptr() == src.data_ptr())
        src[0] = 100.0
        print(dst)
        """
    )


def test_copy_broadcasts_the_source():
    assert_same(
        """
        dst = torch.zeros(2, 3)
        dst.copy_(torch.tensor([1.0, 2.0, 3.0]))
        print(dst)
        dst.copy_(torch.tensor(7.0))
        print(dst)
        dst.copy_(torch.tensor([[4.0], [5.0]]))
        print(dst, dst._version)
        """
    )


def test_copy_casts_to_the_destination_dtype():
    assert_same(
        """
        i = torch.zeros(3, dtype=torch.int64)
        i.copy_(torch.tensor([1.9, -2.7, 3.5]))
        print(i, i.dtype)
        f = torch.zeros(2)
        f.copy_(torch.tensor([1, 2]))
        print(f, f.dtype)
        b = torch.zeros(3, dtype=torch.bool)
        b.copy_(torch.tensor([0.0, 2.0, -1.0]))
        print(b)
        d = torch.zeros(2, dtype=torch.float64)
        d.copy_(torch.tensor([0.1, 0.2]))
        print(d)
        """
    )


def test_copy_into_a_strided_view_writes_through_to_the_base():
    assert_same(
        """
        a = torch.zeros(3, 4)
        a[:, ::2].copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
        a.t()[1].copy_(torch.tensor([7.0, 8.0, 9.0]))
        print(a, a._version)
        """
    )


def test_copy_into_a_leaf_requiring_grad_raises():
    assert_same(
        """
        dst = torch.zeros(2, requires_grad=True)
        dst.copy_(torch.tensor([1.0, 2.0]))
        """,
        raises="RuntimeError",
    )


def test_copy_into_a_leaf_is_allowed_under_no_grad():
    assert_same(
        """
        dst = torch.zeros(2, requires_grad=True)
        src = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            dst.copy_(src)
        print(dst, dst.is_leaf, dst.grad_fn, dst._version)
        """
    )


def test_copy_backwards_hands_the_source_the_gradient_itself_when_dtype_and_device_match():
    # torch's CopyBackwards gives the source grad.to(its dtype and device): the very gradient when they
    # match, so the leaf's .grad is a copy of an expanded gradient (version 1), or the one a cast made.
    assert_same(
        """
        for name, make in (("same", lambda x: torch.zeros(3).copy_(x).sum()),
                           ("then mul", lambda x: (torch.zeros(3).copy_(x) * 2).sum()),
                           ("cast", lambda x: torch.zeros(3, dtype=torch.float64).copy_(x).sum()),
                           ("broadcast", lambda x: torch.zeros(2, 3).copy_(x).sum())):
            x = torch.ones(3, requires_grad=True)
            make(x).backward()
            print(name, x.grad, x.grad._version, x.grad.stride(), x.grad.dtype)
        """
    )


def test_copy_with_mismatched_shapes_raises():
    assert_same(
        """
        dst = torch.zeros(2, 3)
        dst.copy_(torch.ones(3, 2))
        """,
        raises="RuntimeError",
    )


def test_copy_keeps_the_destination_device():
    assert_same_as_gpu(
        """
        cpu_dst = torch.zeros(2)
        gpu_src = torch.tensor([1.0, 2.0], device="cuda")
        cpu_dst.copy_(gpu_src)
        gpu_dst = torch.zeros(2, dtype=torch.int64, device="cuda")
        gpu_dst.copy_(torch.tensor([3.5, 4.5]))
        print(cpu_dst)
        print(gpu_dst)
        print(cpu_dst.device, gpu_dst.device, gpu_dst.dtype)
        """,
        expect_cuda=["gpu_src", "gpu_dst"],
    )


# ---- copy.copy and copy.deepcopy --------------------------------------------------


def test_copy_copy_of_a_tensor_shares_storage_but_not_identity():
    assert_same(
        """
        import copy
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        c = copy.copy(a)
        print(c, c is a, c.data_ptr() == a.data_ptr(), c.requires_grad, c.is_leaf, c._version)
        p = torch.arange(4.)
        pc = copy.copy(p)
        pc[0] = 50.0
        print(p, pc._version, p._version)
        """
    )


def test_deepcopy_copies_memory_and_keeps_requires_grad():
    assert_same(
        """
        import copy
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        d = copy.deepcopy(a)
        print(d, d is a, d.data_ptr() == a.data_ptr(), d.requires_grad, d.is_leaf, d._version, d.grad_fn)
        i = torch.tensor([[1, 2], [3, 4]]).t()
        di = copy.deepcopy(i)
        print(di, di.stride(), di.dtype)
        """
    )


def test_deepcopy_copies_grad_and_python_attributes():
    assert_same(
        """
        import copy
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        (a * 2).sum().backward()
        a.note = "hello"
        a.tags = ["x"]
        d = copy.deepcopy(a)
        print(d.grad, d.grad is a.grad, d.grad.data_ptr() == a.grad.data_ptr())
        print(d.note, d.tags, d.tags is a.tags)
        """
    )


def test_deepcopy_of_views_in_one_container_shares_one_new_storage():
    assert_same(
        """
        import copy
        base = torch.arange(6.)
        view = base[2:5]
        both = copy.deepcopy([base, view])
        nb, nv = both
        nv[0] = -1.0
        print(nb, nv, base)
        print(nv.storage_offset(), nv._is_view(), nv._base is nb)
        print(nb.untyped_storage().data_ptr() == base.untyped_storage().data_ptr())
        d = copy.deepcopy({"a": base, "again": base})
        print(d["a"] is d["again"])
        """
    )


def test_deepcopy_with_an_explicit_memo_reuses_copies():
    assert_same(
        """
        import copy
        t = torch.ones(2)
        memo = {}
        first = copy.deepcopy(t, memo)
        second = copy.deepcopy(t, memo)
        print(first is second, first is t, memo[id(t)] is first)
        del memo
        """
    )


def test_deepcopy_of_a_non_leaf_raises_with_torchs_message():
    assert_same(NON_LEAF + "import copy\ncopy.deepcopy(b)\n", raises="RuntimeError")


def test_deepcopy_of_a_cuda_tensor_stays_on_cuda():
    assert_same_as_gpu(
        """
        import copy
        g = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
        h = copy.deepcopy(g)
        print(h)
        print(h.device)
        """,
        expect_cuda=["g", "h"],
    )


def test_clone_on_cuda_keeps_dtype_and_device():
    assert_same_as_gpu(
        """
        g = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, device="cuda", requires_grad=True)
        c = g.t().clone()
        d = g.detach()
        print(c)
        print(d)
        print(c.stride(), d.data_ptr() == g.data_ptr())
        """,
        expect_cuda=["g", "c", "d"],
    )


def test_copy_copy_of_a_non_leaf_is_a_leaf_sharing_its_storage():
    assert_same(
        """
        import copy
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        c = copy.copy(b)
        print(c, c.grad_fn, c.requires_grad, c.is_leaf, c.data_ptr() == b.data_ptr())
        """
    )


def test_deepcopy_of_a_view_alone_copies_the_whole_storage():
    assert_same(
        """
        import copy
        base = torch.arange(6.)
        v = base[2:4]
        dv = copy.deepcopy(v)
        print(dv, dv.storage_offset(), dv.untyped_storage().nbytes(), dv._is_view(), dv._base)
        t = torch.arange(6.).view(2, 3).t()
        dt = copy.deepcopy(t)
        print(dt.stride(), dt.is_contiguous())
        """
    )


def test_deepcopy_of_a_tensor_and_its_detach_shares_one_new_storage():
    assert_same(
        """
        import copy
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        pair = copy.deepcopy((a, a.detach()))
        print(pair[0].requires_grad, pair[1].requires_grad, pair[0] is pair[1])
        print(pair[0].data_ptr() == pair[1].data_ptr(), pair[0].data_ptr() == a.data_ptr())
        """
    )


def test_tensor_of_a_tensor_keeps_the_source_layout():
    # torch.tensor(t) and t.new_tensor(t) copy like t.to(copy=True): preserve_format
    assert_same(
        """
        import warnings
        warnings.simplefilter("ignore")
        t = torch.arange(6.).reshape(2, 3).t()
        a = torch.tensor(t)
        b = t.new_tensor(t)
        c = torch.tensor(t, dtype=torch.int64)
        s = torch.arange(12.).reshape(3, 4)[:, ::2]
        d = torch.tensor(s)
        print(a.stride(), b.stride(), c.stride(), d.stride(), a.is_contiguous())
        """
    )


def test_copy_names_its_source_other_as_torchs_parser_does():
    """torch's ``copy_(Tensor other, bool non_blocking=False)``: the keyword is ``other``; ``src=``
    is refused, with the text of a missing ``other``."""
    assert_same(
        """
        d, t = torch.zeros(2), torch.ones(2)
        print(d.copy_(other=t * 2), d.copy_(t, non_blocking=True))
        for call in (lambda: d.copy_(src=t), lambda: d.copy_(t, foo=1), lambda: d.copy_(),
                     lambda: d.copy_(non_blocking=True), lambda: d.copy_(t, src=t), lambda: d.copy_(t, other=t),
                     lambda: d.copy_("a")):
            try:
                call()
            except TypeError as error:
                print("TypeError:", error)
        """
    )


def test_copy_wants_a_bool_for_non_blocking_and_a_real_tensor_is_its_own_conjugate():
    assert_same(program("""
        a = torch.arange(6.0).reshape(2, 3)
        i = torch.arange(6).reshape(2, 3)
        for f in (lambda: a.clone().copy_(i, non_blocking=1), lambda: a.clone().copy_(i, 1), lambda: a.clone().copy_(i, None),
                  lambda: a.clone().copy_(i, True), lambda: a.clone().copy_(i, non_blocking=False), lambda: a.clone().copy_(i, True, 1),
                  lambda: a.is_conj(), lambda: a.conj() is a, lambda: a.resolve_conj() is a, lambda: a.conj().is_conj(),
                  lambda: i.conj()):
            attempt(f)
        """))
