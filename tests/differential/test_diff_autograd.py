"""Autograd: leaves, grad_fn graphs, backward, grad modes, autograd.grad."""

from crosscheck.harness import assert_same


def test_leaves_and_non_leaves():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([1.0, 2.0])
        c = a * 2
        d = b * 2
        print(a.requires_grad, a.is_leaf, a.grad, a.grad_fn)
        print(b.requires_grad, b.is_leaf, b.grad_fn)
        print(c.requires_grad, c.is_leaf, c.grad_fn)
        print(d.requires_grad, d.is_leaf, d.grad_fn)
        """
    )


def test_grad_fn_names_of_common_ops():
    assert_same(
        """
        a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = torch.tensor([[0.5, 1.5], [2.5, 3.5]], requires_grad=True)
        ops = [a + b, a - b, a * b, a / b, a ** 2, -a, a.sum(), a.sum(0), a.mean(), a.mean(1),
               a.exp(), a.sigmoid(), a @ b, a[0] @ b[1], a.clone(), a.t(), a[0], a[:, 1:],
               a.view(4), a.expand(2, 2, 2), a.unsqueeze(1), a.flatten(), 2 * a, 1 - a, a + 1,
               a.to(torch.float64), a.double(), a.reshape(4), a.transpose(0, 1).reshape(4),
               a.permute(1, 0), a.squeeze(), a.t().contiguous(), a ** b, 2 ** a,
               a / 2, 3 / a]
        for r in ops:
            print(type(r.grad_fn).__name__, r.grad_fn.name())
        print(a.contiguous() is a, a.contiguous().grad_fn)
        """
    )


def test_next_functions_and_accumulate_grad_variable():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0])
        c = a * b
        d = c + a
        print(c.grad_fn.next_functions)
        acc = c.grad_fn.next_functions[0][0]
        print(acc, acc.variable is a, acc.next_functions)
        print(d.grad_fn.next_functions[0][0] is c.grad_fn)
        print(d.grad_fn.next_functions[1][0] is acc)
        """
    )


def test_backward_accumulates_into_grad():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (a * a).sum().backward()
        print(a.grad)
        g1 = a.grad
        (a * 3).sum().backward()
        print(a.grad, a.grad is g1, g1)
        """
    )


def test_backward_with_an_explicit_gradient():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        y = a * torch.tensor([3.0, 4.0])
        y.backward(torch.tensor([1.0, 0.5]))
        print(a.grad)
        z = a * 2
        z.backward(gradient=torch.tensor([1.0, 1.0]))
        print(a.grad)
        """
    )


def test_backward_twice_without_retain_graph_raises():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (a * a).sum()
        y.backward()
        print(a.grad)
        y.backward()
        """,
        raises="RuntimeError",
    )


def test_backward_twice_with_retain_graph_accumulates():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (a * a).sum()
        y.backward(retain_graph=True)
        y.backward()
        print(a.grad)
        """
    )


def test_backward_through_ops_that_save_nothing_can_run_twice():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (a + 1).sum()
        y.backward()
        y.backward()
        print(a.grad)
        """
    )


def test_a_tensor_used_twice_gets_both_contributions():
    assert_same(
        """
        x = torch.tensor(3.0, requires_grad=True)
        y = x * x + x
        y.backward()
        print(x.grad, y)
        """
    )


def test_diamond_graph_is_processed_in_topological_order():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        h.retain_grad()
        left = h * 3
        right = h ** 2
        out = (left + right).sum()
        out.backward()
        print(x.grad, h.grad)
        """
    )


def test_gradients_flow_through_views_and_broadcasting():
    assert_same(
        """
        w = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        b = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
        y = (w[:, 1:] * w.t()[1:, 0]).sum() + (w + b).sum() + w.view(6)[::2].sum() + w.expand(3, 2, 3).mean()
        y.backward()
        print(w.grad)
        print(b.grad)
        """
    )


def test_gradients_of_matmul_exp_sigmoid_division_and_power():
    assert_same(
        """
        m = torch.tensor([[1.0, 2.0], [0.5, -1.0]], requires_grad=True)
        v = torch.tensor([0.25, 0.5], requires_grad=True)
        y = ((m @ v).exp().sum() + (v @ m).sigmoid().sum() + (m / (v + 1)).sum()
             + (v ** 3).sum() + (2 ** v).sum() + (m[0] @ v) * 0.5)
        y.backward()
        print(m.grad)
        print(v.grad)
        """
    )


def test_gradient_of_a_float64_leaf_is_float64_and_int_inputs_get_none():
    assert_same(
        """
        d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        f = torch.tensor([3.0, 4.0], requires_grad=True)
        (d * f).sum().backward()
        print(d.grad, f.grad)
        """
    )


def test_retain_grad_keeps_the_gradient_of_a_non_leaf():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a * 3
        print(b.retains_grad, a.retains_grad)
        b.retain_grad()
        print(b.retains_grad)
        c = b * b
        c.sum().backward()
        print(b.grad, a.grad)
        a.retain_grad()
        print(a.retains_grad)
        """
    )


def test_reading_grad_of_a_non_leaf_warns_and_gives_none():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a * 3
        b.sum().backward()
        print(b.grad)
        print(b.grad)
        """
    )


def test_no_grad_context_and_decorator():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            b = a * 2
            print(torch.is_grad_enabled(), b.requires_grad, b.grad_fn, b.is_leaf)
            with torch.enable_grad():
                c = a * 2
                print(torch.is_grad_enabled(), c.requires_grad)
        print(torch.is_grad_enabled())

        @torch.no_grad()
        def double(t):
            return t * 2

        d = double(a)
        print(d.requires_grad)
        """
    )


def test_set_grad_enabled_as_context_manager_and_as_function():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.set_grad_enabled(False):
            b = a * 2
            print(torch.is_grad_enabled(), b.requires_grad)
        print(torch.is_grad_enabled())
        torch.set_grad_enabled(False)
        c = a * 2
        print(torch.is_grad_enabled(), c.requires_grad)
        torch.set_grad_enabled(True)
        d = a * 2
        print(torch.is_grad_enabled(), d.requires_grad)
        with torch.set_grad_enabled(True):
            e = a + 1
        print(e.requires_grad)
        """
    )


def test_views_made_under_no_grad_do_not_require_grad():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with torch.no_grad():
            v = a[1:]
            c = a.clone()
        print(v.requires_grad, v._is_view(), v._base is a, v.grad_fn, c.requires_grad)
        """
    )


def test_autograd_grad_returns_gradients_without_touching_grad():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        w = torch.tensor([3.0, 4.0], requires_grad=True)
        y = (x * w).sum()
        gx, gw = torch.autograd.grad(y, [x, w], retain_graph=True)
        print(gx, gw, x.grad, w.grad)
        (g,) = torch.autograd.grad(y, x)
        print(g)
        z = (x ** 2).sum()
        (gz,) = torch.autograd.grad(z, (x,), grad_outputs=torch.tensor(2.0))
        print(gz, gz.requires_grad)
        """
    )


def test_autograd_grad_of_an_unused_input_raises():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        u = torch.tensor([1.0], requires_grad=True)
        y = (x * 2).sum()
        torch.autograd.grad(y, [x, u])
        """,
        raises="RuntimeError",
    )


def test_saved_tensor_modified_in_place_raises_at_backward():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a * 1
        c = b * b
        b.add_(1)
        print(b._version, b.grad_fn)
        c.sum().backward()
        """,
        raises="RuntimeError",
    )


def test_saved_output_modified_in_place_raises_at_backward():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        e = a.exp()
        e.mul_(2)
        print(e.grad_fn)
        e.sum().backward()
        """,
        raises="RuntimeError",
    )


def test_in_place_on_a_non_leaf_that_is_not_saved_is_fine():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a + 1
        b.mul_(3)
        print(b.grad_fn, b._version)
        b.sum().backward()
        print(a.grad)
        """
    )


def test_in_place_on_a_leaf_requiring_grad_raises():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        a.add_(1)
        """,
        raises="RuntimeError",
    )


def test_in_place_on_a_view_of_a_leaf_requiring_grad_raises():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        v = a[:1]
        v.mul_(2)
        """,
        raises="RuntimeError",
    )


def test_in_place_on_a_leaf_is_allowed_under_no_grad():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            a.add_(1)
            a[0] = 5.0
            a *= 2
        print(a, a._version, a.is_leaf, a.grad_fn)
        """
    )


def test_in_place_on_a_view_of_a_non_leaf_rebases_the_graph():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = a * 1
        v = b[1:]
        v.mul_(10)
        print(b.grad_fn, v.grad_fn)
        print(b.grad_fn.next_functions)
        b.sum().backward()
        print(a.grad)
        """
    )


def test_setitem_on_a_non_leaf_makes_copy_slices():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        s = torch.tensor(5.0, requires_grad=True)
        b = a.clone()
        b[0] = s * 2
        b[1:] = 0.0
        print(b, b.grad_fn)
        b.sum().backward()
        print(a.grad, s.grad)
        """
    )


def test_backward_of_a_non_scalar_without_gradient_raises():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        (a * 2).backward()
        """,
        raises="RuntimeError",
    )


def test_backward_of_a_tensor_that_does_not_require_grad_raises():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0])
        a.sum().backward()
        """,
        raises="RuntimeError",
    )


def test_backward_of_a_leaf_itself_accumulates_ones():
    assert_same(
        """
        a = torch.tensor(2.0, requires_grad=True)
        a.backward()
        print(a.grad)
        """
    )


def test_grad_can_be_set_and_cleared_by_hand():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        a.grad = torch.tensor([5.0, 5.0])
        (a * 2).sum().backward()
        print(a.grad)
        a.grad = None
        print(a.grad)
        """
    )


def test_a_grad_set_by_hand_must_have_the_tensor_s_dtype_device_type_and_size():
    """torch checks, in this order: a tensor, not the tensor itself, its dtype, its device type, its size
    (a float64 gradient put on a float32 Parameter would otherwise reach the optimizer's step)."""
    assert_same(
        """
        p = torch.nn.Parameter(torch.ones(2))
        for grad in (p, torch.ones(2, dtype=torch.float64), torch.ones(3, dtype=torch.int64, device="meta"),
                     torch.ones(3, device="meta"), torch.ones(3), torch.ones(2, dtype=torch.float16),
                     torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.uint8)):
            try:
                p.grad = grad
            except RuntimeError as e:
                print(e)
        m = torch.ones(2, device="meta", requires_grad=True)
        for grad in (torch.ones(2), torch.ones(2, dtype=torch.int8, device="meta")):
            try:
                m.grad = grad
            except RuntimeError as e:
                print(e)
        i = torch.ones(2, dtype=torch.int16)
        i.grad = torch.ones(4, dtype=torch.int16)[::2]
        p.grad = torch.ones(1).expand(2)
        print(i.grad, p.grad, p.grad.stride())
        """
    )


def test_requires_grad_propagates_from_any_input():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0])
        c = b + a
        d = b * b
        e = torch.tensor(2.0) * a
        print(c.requires_grad, d.requires_grad, e.requires_grad)
        print(c.grad_fn.next_functions, e.grad_fn.next_functions)
        """
    )


def test_matmul_of_vectors_and_matrices_has_mv_dot_and_squeeze_nodes():
    assert_same(
        """
        m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        v = torch.tensor([1.0, -1.0], requires_grad=True)
        vm = v @ m
        mv = m @ v
        vv = v @ v
        print(vm.grad_fn, mv.grad_fn, vv.grad_fn)
        (vm.sum() + mv.sum() + vv).backward()
        print(m.grad, v.grad)
        """
    )


def test_autograd_grad_with_respect_to_an_intermediate():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        y = (h * h).sum()
        (gh,) = torch.autograd.grad(y, h)
        print(gh, x.grad, h.grad)
        """
    )


def test_saved_view_invalidated_through_its_base_names_as_strided_in_the_error():
    assert_same(
        """
        w = torch.ones(3, requires_grad=True)
        h = w * 1
        v = h[0:2]
        y = (v * v).sum()
        h.add_(1)
        print(v.grad_fn, h.grad_fn)
        y.backward()
        """,
        raises="RuntimeError",
    )


def test_in_place_on_a_view_created_under_no_grad_raises_with_grad_enabled():
    assert_same(
        """
        w = torch.ones(3, requires_grad=True)
        h = w * 1
        with torch.no_grad():
            v = h[:1]
        print(v.requires_grad, v._is_view())
        v.mul_(2)
        """,
        raises="RuntimeError",
    )


def test_gradient_of_a_transposed_leaf_has_the_leafs_strides():
    assert_same(
        """
        leaf = torch.zeros(3, 2).t().requires_grad_()
        print(leaf.is_leaf, leaf._is_view(), leaf.stride())
        (leaf * 2).sum().backward()
        print(leaf.grad, leaf.grad.stride())
        """
    )


def test_a_number_saved_for_backward_is_freed_with_the_graph():
    assert_same(
        """
        for make in (lambda a: a * 2, lambda a: 2 * a, lambda a: a / 2, lambda a: a + 2, lambda a: a - 2):
            a = torch.tensor([1.0, 2.0], requires_grad=True)
            y = make(a).sum()
            y.backward()
            try:
                y.backward()
                print("second backward ran", a.grad)
            except RuntimeError as err:
                print(str(err)[:60], a.grad)
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (a * 2).sum()
        y.backward(retain_graph=True)
        y.backward()
        print(a.grad)
        """
    )


def test_the_first_grad_is_handed_over_copied_or_cloned_and_its_version_says_which():
    # AccumulateGrad keeps a gradient the engine made when its layout fits (version as made);
    # otherwise it copies it with copy_ into the leaf's dense layout (version 1), or clones
    # it contiguous for a leaf that is not dense (version 0).
    assert_same(
        """
        cases = {
            "made for it": (lambda: torch.zeros(2, 3), lambda x: (x * 1).backward(torch.ones(2, 3))),
            "sum: an expanded gradient": (lambda: torch.zeros(2, 3), lambda x: x.sum().backward()),
            "the caller's own gradient": (lambda: torch.zeros(2, 3), lambda x: x.backward(torch.ones(2, 3))),
            "transposed leaf": (lambda: torch.zeros(2, 3).t(), lambda x: (x * 1).backward(torch.ones(3, 2))),
            "transposed leaf, sum": (lambda: torch.zeros(2, 3).t(), lambda x: x.sum().backward()),
            "transposed leaf, x + x": (lambda: torch.zeros(2, 3).t(), lambda x: (x + x).sum().backward()),
            "leaf with gaps": (lambda: torch.zeros(2, 6)[:, ::2].detach(), lambda x: (x * 1).backward(torch.ones(2, 3))),
            "leaf with gaps, sum": (lambda: torch.zeros(2, 6)[:, ::2].detach(), lambda x: x.sum().backward()),
            # x * w.t(): the gradient is laid out like w.t(), not like x, so it is copied (version 1)
            "made for it, laid out like the other factor": (
                lambda: torch.zeros(2, 3), lambda x: (x * torch.ones(3, 2).t()).sum().backward()),
            # contiguous, though its size-1 dimension has stride 12 (row-major would say 3): kept
            "leaf with gaps, a gradient contiguous but not row-major": (
                lambda: torch.zeros(4, 6)[:, ::2].unsqueeze(1).detach(),
                lambda x: (x.transpose(0, 1) * 1).sum().backward()),
        }
        for name, (make, run) in cases.items():
            x = make().requires_grad_()
            run(x)
            print(name, x.grad.stride(), x.grad._version)
            run(x)
            print("  again", x.grad._version, x.grad)
        """
    )


def test_view_backwards_hand_on_views_and_the_leaf_takes_one_only_in_its_own_layout():
    # t/transpose/permute hand on a transposed view of the gradient. AccumulateGrad keeps it
    # only when its strides are the leaf's (a size-1 dimension's stride does not count): then
    # .grad is the view itself, sharing memory with the gradient it came from.
    assert_same(
        """
        cases = {
            "t of a 2x3": ((2, 3), lambda x: x.t()),
            "transpose of a 2x3": ((2, 3), lambda x: x.transpose(0, 1)),
            "permute of a 2x3x4": ((2, 3, 4), lambda x: x.permute(2, 0, 1)),
            "t of a 1x3": ((1, 3), lambda x: x.t()),
            "t of a 3x1": ((3, 1), lambda x: x.t()),
        }
        for name, (shape, op) in cases.items():
            x = torch.zeros(shape).requires_grad_()
            (op(x) * 1).backward(torch.ones(op(x).shape))
            print(name, "made:", x.grad.stride(), x.grad._version)
            x = torch.zeros(shape).requires_grad_()
            g = torch.ones(op(x).shape)
            op(x).backward(g)
            g.add_(1)
            print(name, "the caller's:", x.grad.stride(), x.grad._version, x.grad)
        """
    )


def test_a_retained_grad_is_a_contiguous_clone_then_a_new_sum_each_backward():
    assert_same(
        """
        b = torch.ones(3, 2, requires_grad=True)
        y = b.t() * 1
        y.retain_grad()
        y.sum().backward(retain_graph=True)
        first = y.grad
        print(y.stride(), first.stride(), first._version)
        y.sum().backward()
        print(y.grad.stride(), y.grad._version, y.grad is first, first, y.grad)
        """
    )


def test_retain_grad_follows_the_tensor_to_the_node_an_inplace_write_gives_it():
    # torch moves the retains_grad hook to the new grad_fn (a write into the tensor, through its
    # view, or into its base that renews a view's node): .grad is the gradient of the current value.
    assert_same(
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        y.mul_(2)
        y[0] = 5.0
        (y * 3).sum().backward()
        print(y.grad, x.grad)
        b = x * 2
        b.retain_grad()
        v = b[:2]
        v.retain_grad()
        b.mul_(2)
        (v * 3).sum().backward()
        print(v.grad, b.grad, type(v.grad_fn).__name__)
        c = x * 2
        c.retain_grad()
        c[:2].mul_(10)
        (c * c).sum().backward()
        print(c.grad, type(c.grad_fn).__name__)
        """
    )


def test_a_custom_function_checks_what_save_for_backward_kept_and_not_what_ctx_holds():
    assert_same(
        """
        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, factor):
                ctx.save_for_backward(x, None)
                ctx.factor = factor
                ctx.kept = x
                return x * factor

            @staticmethod
            def backward(ctx, grad):
                x, nothing = ctx.saved_tensors
                print(ctx.needs_input_grad, nothing, ctx.kept is x)
                return grad * ctx.factor * ctx.kept, None

        w = torch.tensor([1.0, 2.0], requires_grad=True)
        y = Scale.apply(w * 1, 3.0)
        print(y, y.requires_grad, y.is_leaf, type(y.grad_fn).__name__, y.grad_fn.name())
        y.sum().backward()
        print(w.grad)
        with torch.no_grad():
            z = Scale.apply(w * 1, 2.0)
        print(z, z.grad_fn, z.requires_grad)
        plain = Scale.apply(torch.tensor([1.0]), 2.0)
        print(plain.requires_grad, plain.grad_fn)
        h = w * 1
        y = Scale.apply(h, 2.0)
        with torch.no_grad():
            h.add_(1)
        try:
            y.sum().backward()
        except RuntimeError as err:
            print(err)
        """
    )


def test_a_custom_function_returns_an_input_as_a_new_view_and_checks_what_backward_returns():
    assert_same(
        """
        class Same(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad * 3, None, None

        class TooFew(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x * y

            @staticmethod
            def backward(ctx, grad):
                return grad

        class TooMany(TooFew):
            @staticmethod
            def backward(ctx, grad):
                return grad, grad, grad

        class SavesANumber(TooFew):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(x, 3)
                return x * y

        for w in (torch.ones(2, requires_grad=True), torch.ones(2), torch.ones(1, requires_grad=True).expand(3)):
            y = Same.apply(w, torch.ones(1))
            print(y is w, y._base is w, w.is_leaf, w.grad_fn, y.grad_fn is None, y.is_leaf, y.data_ptr() == w.data_ptr())
            if y.requires_grad:
                y.sum().backward()
                print(w.grad if w.is_leaf else None)
        try:  # the new view is the input's view_as(input), which a sparse tensor has not
            Same.apply(torch.ones(2, 2).to_sparse(), torch.ones(1))
        except NotImplementedError:
            print("NotImplementedError: no view of a sparse input")
        w = torch.ones(2, requires_grad=True)
        for op in (TooFew, TooMany):
            try:
                op.apply(w, torch.ones(2, requires_grad=True)).sum().backward()
            except RuntimeError as err:
                print("RuntimeError:", err)
        try:
            SavesANumber.apply(w, 2.0)
        except TypeError as err:
            print("TypeError:", err)

        class Number(TooFew):
            @staticmethod
            def forward(ctx, x, y):
                return 3.0

        print(Number.apply(w, w))
        """
    )


def test_a_custom_function_s_gradients_are_fitted_to_their_inputs_or_refused():
    """torch's ``validate_outputs``: a broadcast gradient is summed down, another dtype cast; another
    shape or device, a number, or a tensor for a non-tensor argument is refused; an integer result
    gets no node."""
    assert_same(
        """
        def function(result):  # a Function whose backward returns result(grad)
            class F(torch.autograd.Function):
                forward = staticmethod(lambda ctx, x, k: x * k)
                backward = staticmethod(lambda ctx, grad: result(grad))
            return F

        fits = (lambda g: (torch.ones(3, 2, dtype=torch.float64), None), lambda g: (g.expand(2, 2), None),
                lambda g: (torch.ones(2, dtype=torch.int64), None))
        for result in fits:
            for x in (torch.ones(2, requires_grad=True), torch.ones(2, 1, requires_grad=True)):
                try:
                    function(result).apply(x, 2).sum().backward()
                    print(x.grad, x.grad.dtype, x.grad.stride())
                except RuntimeError as err:
                    print("RuntimeError:", err)
        x = torch.ones(2, requires_grad=True)
        refused = (lambda g: (torch.ones(3), None), lambda g: (g.sum(), None), lambda g: (3.0, None),
                   lambda g: (g, 3.0), lambda g: (g, torch.ones(1)), lambda g: (torch.ones(2, device="meta"), None))
        for result in refused:
            try:
                function(result).apply(x * 1, 2).sum().backward()
            except RuntimeError as err:
                print("RuntimeError:", err)
        print(function(lambda g: (g, torch.ones(5))).apply(x, torch.ones(2)).sum().backward(), x.grad)

        class Rounds(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.to(torch.int64)

            @staticmethod
            def backward(ctx, grad):
                return grad
        y = Rounds.apply(x)
        print(y.requires_grad, y.grad_fn, y.is_leaf)
        """
    )


def test_what_reftorch_s_custom_function_does_not_do_is_refused_with_a_message():
    # torch supports both; reftorch's Function has one tensor output and no mark_dirty
    import pytest
    import reftorch

    class Two(reftorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

    class Dirty(reftorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

    w = reftorch.ones(2, requires_grad=True)
    with pytest.raises(NotImplementedError, match="takes one tensor output: Two.forward returned a tuple"):
        Two.apply(w)
    with pytest.raises(NotImplementedError, match="has no ctx.mark_dirty"):
        Dirty.apply(w * 1)


def test_instantiating_a_custom_function_warns_and_computes_nothing():
    """``F(x)`` is not ``F.apply(x)``: torch makes an object and warns that its methods are static."""
    assert_same(
        """
        class Twice(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        x = torch.ones(2, requires_grad=True)
        obj = Twice(x)
        print(type(obj).__name__, isinstance(obj, torch.autograd.Function))
        y = Twice().apply(x)
        """
    )


def test_backward_and_grad_refuse_an_empty_list_of_inputs():
    assert_same(
        """
        a = torch.ones(2, requires_grad=True)
        for run in (lambda: (a * 2).sum().backward(inputs=[]), lambda: torch.autograd.backward((a * 2).sum(), inputs=()),
                    lambda: torch.autograd.grad((a * 2).sum(), []), lambda: torch.autograd.grad((a * 2).sum(), ())):
            try:
                run()
            except RuntimeError as error:
                print(error)
        print(a.grad)
        """
    )
