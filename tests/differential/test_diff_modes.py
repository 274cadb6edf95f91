"""Autograd modes: inference_mode, inference tensors, and views made under no_grad.

Every program runs on torch 2.13 and on reftorch; the harness also compares
each tensor's ``_version`` (torch's error text for an inference tensor),
``requires_grad``, ``is_leaf``, ``grad_fn`` and ``_base``.
"""

import textwrap

import pytest

from crosscheck.harness import assert_same

REFUSED = """
def refused(write):
    try:
        write()
    except RuntimeError as e:
        print(e)
"""


# A view made under no_grad of a non-leaf that requires grad.
NO_GRAD_VIEW_OF_B = """
b = torch.ones(3, requires_grad=True) * 1
with torch.no_grad():
    v = b[0:2]
"""


def program(*parts):
    """The parts (each dedented) one after the other: ``REFUSED`` defines ``refused(write)``,
    which calls ``write`` and prints the RuntimeError it raises."""
    return "\n".join(textwrap.dedent(part) for part in parts)


# --- the switch ----------------------------------------------------------------

def test_inference_mode_turns_grad_mode_off_and_restores_both_on_exit():
    assert_same(
        """
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        with torch.inference_mode():
            print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        """
    )


def test_nesting_with_no_grad_enable_grad_and_inference_mode_false():
    assert_same(
        """
        with torch.inference_mode():
            print("A", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            with torch.inference_mode(False):
                print("B", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
                normal = torch.ones(2)
                with torch.no_grad():
                    print("C", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
                with torch.enable_grad():
                    print("D", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            with torch.enable_grad():
                print("E", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
                q = torch.ones(2, requires_grad=True)
                r = q * 2
            print("F", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        with torch.no_grad():
            with torch.inference_mode():
                print("G", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            print("H", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            with torch.inference_mode(False):
                print("I", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        with torch.inference_mode(mode=False):
            print("J", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        print(normal.is_inference(), q.is_inference(), r.is_inference(), r.requires_grad, r.grad_fn)
        """
    )


def test_an_exception_inside_the_block_still_restores_the_modes():
    assert_same(
        """
        try:
            with torch.inference_mode():
                raise ValueError("boom")
        except ValueError:
            pass
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        """
    )


def test_inference_mode_as_decorator_with_and_without_parentheses():
    assert_same(
        """
        x = torch.ones(2, requires_grad=True)

        @torch.inference_mode()
        def doubled(t):
            return t * 2, torch.is_inference_mode_enabled()

        @torch.inference_mode
        def tripled(t):
            return t * 3

        @torch.inference_mode(False)
        def plain(t):
            return t * 4, torch.is_inference_mode_enabled(), torch.is_grad_enabled()

        d, on = doubled(x)
        t3 = tripled(x)
        with torch.inference_mode():
            p, off, grad = plain(x)
        print(on, off, grad, torch.is_inference_mode_enabled())
        print(d.is_inference(), d.requires_grad, t3.is_inference(), p.is_inference(), p.grad_fn)
        print(doubled.__name__, tripled.__name__)
        """
    )


def test_the_same_decorator_object_can_wrap_and_run_twice():
    assert_same(
        """
        mode = torch.inference_mode()

        @mode
        def f(t):
            return t + 1

        a = f(torch.ones(1))
        b = f(torch.ones(1))
        with mode:
            c = torch.ones(1)
        print(a.is_inference(), b.is_inference(), c.is_inference(), torch.is_inference_mode_enabled())
        """
    )


# --- inference tensors ---------------------------------------------------------

def test_result_of_inference_mode_is_an_inference_tensor_without_grad():
    assert_same(
        """
        x = torch.ones(2, 3, requires_grad=True)
        with torch.inference_mode():
            y = x * x
            fresh = torch.zeros(3)
        print(y.requires_grad, y.grad_fn, y.is_leaf, y.is_inference(), fresh.is_inference())
        print(x.is_inference(), torch.is_inference(y), torch.is_inference(x))
        print(y)
        """
    )


def test_version_of_an_inference_tensor_raises():
    assert_same(
        """
        with torch.inference_mode():
            y = torch.ones(3)
        y._version
        """,
        raises="RuntimeError",
    )


def test_torch_is_inference_needs_a_tensor():
    assert_same("torch.is_inference(3)", raises="TypeError")


def test_inplace_write_inside_the_mode_is_allowed_and_not_counted():
    assert_same(
        """
        with torch.inference_mode():
            i = torch.ones(3)
            i.add_(1)
            i[0] = 5
            i.mul_(i)
        print(i)
        """
    )


@pytest.mark.parametrize(
    "write",
    ["i.add_(1)", "i.zero_()", "i[0] = 7.0", "i.copy_(torch.zeros(3))", "i += 1", "i.mul_(2)",
     "i[1:].fill_(4)", "i.div_(2)"],
)
def test_inplace_write_outside_the_mode_raises_after_writing(write):
    # torch checks where it would bump the version counter: the numbers are
    # already written when the error comes.
    assert_same(
        f"""
        with torch.inference_mode():
            i = torch.ones(3)
        try:
            {write}
        except RuntimeError as e:
            print(e)
        print(i)
        """
    )


def test_requires_grad_cannot_be_switched_on_outside_the_mode():
    assert_same(program(REFUSED, """
        with torch.inference_mode():
            i = torch.ones(3)
            inside = torch.ones(2, requires_grad=True)
            later = torch.ones(2)
            later.requires_grad_()
        for attempt in (lambda: i.requires_grad_(), lambda: setattr(i, "requires_grad", True)):
            refused(attempt)
        i.requires_grad_(False)
        i.requires_grad = False
        print(i.requires_grad, inside.requires_grad, inside.is_leaf, later.requires_grad)
        """)
    )


def test_ops_on_inference_tensors_outside_the_mode_give_normal_tensors():
    assert_same(
        """
        with torch.inference_mode():
            i = torch.arange(6.).view(2, 3)
        doubled = i * 2
        summed = i + i
        expd = i.exp()
        prod = i @ i.t()
        compared = i == 1
        neg = -i
        print(doubled.is_inference(), summed.is_inference(), prod.is_inference(), compared.is_inference())
        """
    )


def test_clone_of_an_inference_tensor_is_normal_and_starts_at_version_one():
    # torch's clone is empty_like + copy_; without an autograd layer on the
    # input, that copy_ into the new (normal) tensor is counted.
    assert_same(
        """
        with torch.inference_mode():
            i = torch.arange(6.).view(2, 3)
        c = i.clone()
        ct = i.t().clone()
        cc = i.t().contiguous()
        same = i.contiguous()
        c.add_(1)
        print(c.is_inference(), ct.is_inference(), same is i)
        """
    )


def test_conversions_and_reductions_of_inference_tensors_count_their_inner_writes():
    assert_same(
        """
        with torch.inference_mode():
            i = torch.arange(6.).view(2, 3)
            n = torch.arange(6).view(2, 3)
            v = torch.ones(3)
        f64 = i.to(torch.float64)
        same = i.float()
        as_long = i.long()
        n_float = n.float()
        s = i.sum()
        s0 = i.sum(0)
        sn = n.sum()
        m = i.mean()
        m1 = i.mean(1, keepdim=True)
        rp = 2 ** i
        dot = v @ v
        mv = i @ v
        vm = v[:2] @ i
        mm = i @ i.t()
        mixed = i.sum() + torch.ones(1).sum()
        print(same is i)
        """
    )


def test_copies_of_inference_tensors_made_by_factories_and_copy_module():
    assert_same(
        """
        import copy
        with torch.inference_mode():
            i = torch.arange(3.)
        t = torch.tensor(i)
        nt = i.new_tensor(i)
        nz = i.new_zeros(2)
        no = i.new_ones(2)
        nf = i.new_full((2,), 3.0)
        zl = torch.zeros_like(i)
        fl = torch.full_like(i, 2.0)
        nl = i.new_tensor([1.0, 2.0])
        dc = copy.deepcopy(i)
        sc = copy.copy(i)
        """
    )


def test_views_of_inference_tensors_are_inference_tensors_and_not_views():
    assert_same(
        """
        with torch.inference_mode():
            i = torch.arange(6.).view(2, 3)
            inside = i[0]
        row = i[1]
        tr = i.t()
        flat = i.view(6)
        ex = i[:1].expand(3, 3)
        st = i.as_strided((2,), (2,), 1)
        print(row.is_inference(), row._is_view(), row._base, inside._is_view())
        """
    )


def test_detach_and_data_of_an_inference_tensor_outside_the_mode_get_counters():
    assert_same(
        """
        with torch.inference_mode():
            i = torch.ones(3)
        d1 = i.detach()
        d2 = d1.detach()
        dd = i.data
        d1.add_(1)
        with torch.inference_mode():
            d1.add_(1)
            dd.add_(1)
            inside = i.detach()
        row = d1[0]
        print(d1.is_inference(), dd.is_inference(), i)
        """
    )


def test_normal_tensors_written_inside_the_mode_count_the_write():
    assert_same(
        """
        x = torch.ones(3, requires_grad=True)
        y = torch.zeros(3)
        with torch.inference_mode():
            i = torch.ones(3)
            x.add_(1)
            y.add_(i)
            y[0] = 4
            dx = x.detach()
            datx = x.data
            cl = x.clone()
        print(x, y, dx.is_inference(), datx.is_inference(), cl.is_inference())
        """
    )


def test_normal_tensor_may_be_written_with_inference_values_outside_the_mode():
    assert_same(
        """
        with torch.inference_mode():
            i = torch.arange(3.)
        z = torch.zeros(3)
        z.add_(i)
        z.copy_(i)
        x = torch.ones(3, requires_grad=True)
        y = x * 1
        y.add_(i)
        w = x * 1
        w.copy_(i)
        f = x * 1
        f.fill_(i[0])
        s = x * 1
        s[0] = i[2]
        total = (x + i).sum()
        total.backward()
        print(x.grad)
        """
    )


@pytest.mark.parametrize(
    "use",
    ["x * i", "i * x", "x / i", "i / x", "x ** i", "i ** x", "x @ i", "i @ x",
     "x.sigmoid() * i", "(x * 1).mul_(i)", "(x * 1).div_(i)"],
)
def test_inference_tensors_cannot_be_saved_for_backward(use):
    assert_same(
        f"""
        with torch.inference_mode():
            i = torch.arange(1., 4.)
        x = torch.ones(3, requires_grad=True)
        out = {use}
        """,
        raises="RuntimeError",
    )


def test_inference_output_of_a_model_cannot_feed_a_trained_layer():
    assert_same(program(REFUSED, """
        from torch import nn
        torch.manual_seed(0)
        frozen = nn.Linear(2, 2)
        head = nn.Linear(2, 1)
        with torch.no_grad():
            for p in list(frozen.parameters()) + list(head.parameters()):
                p.fill_(0.5)
        with torch.inference_mode():
            features = frozen(torch.ones(1, 2))
        print(features.is_inference(), features.requires_grad)
        refused(lambda: head(features))
        out = head(features.clone())
        out.sum().backward()
        print(head.weight.grad)
        """)
    )


def test_adding_an_inference_tensor_records_no_saved_tensor_and_backward_works():
    assert_same(
        """
        with torch.inference_mode():
            i = torch.arange(3.)
        x = torch.ones(3, requires_grad=True)
        y = (x + i) - i
        y.sum().backward()
        print(x.grad, y.grad_fn)
        """
    )


# --- views made in no_grad or in inference mode ---------------------------------

def test_no_grad_view_of_a_leaf_keeps_requires_grad_and_refuses_a_tracked_write():
    assert_same(
        """
        a = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            v = a[0:2]
        print(v.requires_grad, v.is_leaf, v.grad_fn, v._is_view(), v._base is a)
        v.add_(1)
        """,
        raises="RuntimeError",
    )


def test_no_grad_view_of_a_non_leaf_refuses_a_tracked_write_before_writing():
    assert_same(program(REFUSED, NO_GRAD_VIEW_OF_B, """
        refused(lambda: v.mul_(2))
        print(b)
        """)
    )


def test_no_grad_view_written_under_no_grad_breaks_its_grad_fn_later():
    # The write is allowed, but afterwards reading the view's grad_fn (or
    # printing it) raises: its history cannot be rebuilt.
    assert_same(
        program(NO_GRAD_VIEW_OF_B, """
            v.mul_(2)
        print(b)
        print(v.requires_grad)
        v.grad_fn
        """),
        raises="RuntimeError",
    )


@pytest.mark.parametrize(
    "write",
    ["b.add_(1)", "b.detach().add_(1)", "b[2:].zero_()", "v.detach().mul_(2)"],
)
def test_writing_the_base_of_a_no_grad_view_is_noticed_when_the_view_is_used(write):
    assert_same(
        program(NO_GRAD_VIEW_OF_B, f"""
        {write}
        print(b._version)
        out = v * 2
        """),
        raises="RuntimeError",
    )


def test_data_write_does_not_share_the_counter_so_the_no_grad_view_survives():
    assert_same(
        program(NO_GRAD_VIEW_OF_B, """
        b.data.add_(1)
        out = v * 2
        print(v, out)
        """)
    )


@pytest.mark.parametrize(
    "mode,then",
    [
        # Printing shows grad_fn=<Invalid>; reading is_leaf raises.
        ("no_grad", "print(v)\nprint(v.requires_grad)\nv.is_leaf"),
        ("inference_mode", "v.grad_fn"),
    ],
    ids=["no_grad", "inference_mode"],
)
def test_writing_a_leaf_inside_the_mode_breaks_the_view_made_there(mode, then):
    assert_same(
        program(f"""
        a = torch.ones(3, requires_grad=True)
        with torch.{mode}():
            v = a[0:2]
            a.add_(1)
        print(a)
        """, then),
        raises="RuntimeError",
    )


def test_view_of_a_no_grad_view_names_its_own_node_in_the_message():
    assert_same(program(REFUSED, """
        b = torch.ones(4, requires_grad=True) * 1
        with torch.no_grad():
            v = b[0:3]
        for make in (lambda: v[0:2], lambda: v.view(3), lambda: v[0], lambda: v.t()):
            w = make()
            print(w.grad_fn, w.requires_grad)
            refused(lambda: w.add_(1))
        v[0] = 5.0
        """),
        raises="RuntimeError",
    )


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_view_made_in_the_mode_of_a_tensor_without_grad_refuses_only_a_tracked_write(mode):
    # An untracked write works before and after the refused tracked one.
    assert_same(program(REFUSED, f"""
        n = torch.zeros(3)
        x = torch.ones(2, requires_grad=True)
        with torch.{mode}():
            nv = n[1:]
        nv.add_(1)
        print(n, nv.grad_fn)
        refused(lambda: nv.add_(x))
        nv.add_(1)
        print(n)
        """)
    )


def test_no_grad_views_of_detach_and_data_refuse_a_tracked_write_too():
    assert_same(program(REFUSED, """
        b = torch.ones(3, requires_grad=True) * 1
        x = torch.ones(2, requires_grad=True)
        with torch.no_grad():
            vd = b.detach()[0:2]
            vdata = b.data[0:2]
            dv = b[0:2].detach()
        for view in (vd, vdata):
            refused(lambda: view.add_(x))
        dv.add_(x)
        print(b, dv)
        """)
    )


def test_view_made_with_set_grad_enabled_false_counts_as_no_grad():
    assert_same(
        """
        b = torch.ones(3, requires_grad=True) * 1
        torch.set_grad_enabled(False)
        v = b[1:]
        torch.set_grad_enabled(True)
        v.zero_()
        """,
        raises="RuntimeError",
    )


def test_view_made_under_enable_grad_inside_no_grad_is_an_ordinary_view():
    assert_same(
        """
        b = torch.ones(3, requires_grad=True) * 1
        with torch.no_grad():
            with torch.enable_grad():
                v = b[0:2]
        v.add_(1)
        print(v.grad_fn, b.grad_fn)
        """
    )


def test_views_of_normal_tensors_made_in_inference_mode_stay_normal_views():
    assert_same(
        """
        a = torch.ones(3, requires_grad=True)
        b = a * 1
        with torch.inference_mode():
            v = b[0:2]
            va = a[0:2]
            d = b.detach()
            f = b.float()
        print(v.is_inference(), v.requires_grad, v.is_leaf, v.grad_fn, va._base is a, f is b)
        """
    )


@pytest.mark.parametrize("target", ["v", "va"])
def test_inference_mode_view_refuses_a_write_in_normal_mode(target):
    assert_same(
        f"""
        a = torch.ones(3, requires_grad=True)
        b = a * 1
        with torch.inference_mode():
            v = b[0:2]
            va = a[0:2]
        {target}.add_(1)
        """,
        raises="RuntimeError",
    )


def test_inference_mode_view_written_later_under_no_grad_breaks_its_grad_fn():
    assert_same(
        """
        b = torch.ones(3, requires_grad=True) * 1
        with torch.inference_mode():
            v = b[0:2]
        with torch.no_grad():
            v.add_(1)
        print(b)
        print(v.requires_grad)
        print(v.is_leaf)
        """,
        raises="RuntimeError",
    )


@pytest.mark.parametrize("first, second", [("inference_mode", "no_grad"), ("no_grad", "inference_mode")])
def test_view_of_a_view_made_in_the_other_mode_gets_the_inference_message(first, second):
    # Either order: a view chain that passed through inference mode is
    # refused a write with the inference-mode message.
    assert_same(
        f"""
        b = torch.ones(4, requires_grad=True) * 1
        with torch.{first}():
            v = b[0:3]
        with torch.{second}():
            w = v[0:2]
        w.add_(1)
        """,
        raises="RuntimeError",
    )


def test_an_advanced_index_write_into_an_inference_tensor_counts_nothing_inside_and_raises_outside():
    assert_same(
        """
        with torch.inference_mode():
            t = torch.zeros(3)
            t[[0]] = 1.0
            t[t > 0] = 5.0
        print(t)
        for write in (lambda: t.__setitem__([1], 2.0), lambda: t.index_put_((torch.tensor([2]),), torch.tensor(7.0))):
            try:
                write()
            except RuntimeError as err:
                print("RuntimeError:", str(err)[:70])
        print(t)
        """
    )
