"""In-place metadata ops: t_, transpose_, unsqueeze_, squeeze_, as_strided_,
resize_, resize_as_, set_; and as_strided's own rules.

Memory that torch leaves uninitialised (a storage grown by ``resize_`` or
``set_``) is always filled before the program ends, because the harness
compares every tensor's values.
"""

import textwrap

import pytest

from crosscheck.harness import assert_same
from diff_programs import program

# ``v``: a view (row 0) of ``y``, a non-leaf that requires grad.
VIEW_OF_A_NON_LEAF = "x = torch.ones(2, 3, requires_grad=True)\ny = x * 1\nv = y[0]\n"


# --- version counter -------------------------------------------------------------

def test_view_like_inplace_ops_bump_the_version_once_without_writing_memory():
    assert_same(
        """
        b = torch.arange(6.).view(2, 3)
        alias = b.detach()
        versions = []
        for op in (lambda: b.t_(), lambda: b.transpose_(0, 1), lambda: b.unsqueeze_(0),
                   lambda: b.squeeze_(), lambda: b.squeeze_(0), lambda: b.unsqueeze_(-1),
                   lambda: b.squeeze_(2), lambda: b.unsqueeze_(0).squeeze_((0,)),
                   lambda: b.as_strided_((3,), (1,), 1), lambda: b.t_()):
            out = op()
            versions.append((out is b, b._version, tuple(b.shape), b.stride(), b.storage_offset()))
        print(versions)
        print(alias, alias._version)
        """
    )


def test_resize_bumps_only_when_the_size_changes():
    assert_same(
        """
        a = torch.arange(6.)
        a.resize_(2, 2)
        v1 = a._version
        a.resize_(2, 2)
        a.resize_((2, 2))
        a.resize_([2, 2])
        v2 = a._version
        a.resize_(4)
        t = torch.ones(2, 3).t()
        t.resize_(3, 2)
        kept = t.stride()
        t.resize_(2, 3)
        r = torch.ones(2, 3)
        r.resize_as_(torch.ones(3, 2).t())
        s = torch.ones(4)
        s.resize_(())
        z = torch.ones(2)
        z.resize_(0)
        print(v1, v2, kept, t.stride(), r.stride(), r._version)
        """
    )


def test_resize_with_a_memory_format_restrides_even_at_the_same_size():
    """``memory_format`` gives the strides of that format after the resize, also when the size
    stays (then without a version bump); ``resize_as_(..., preserve_format)`` takes the template's
    format. A format torch refuses raises after the size changed, with no bump."""
    assert_same(
        """
        t = torch.ones(3, 2).t()
        t.resize_(2, 3, memory_format=torch.contiguous_format)
        print(t.stride(), t._version)
        c = torch.zeros(1, 2, 3, 4)
        c.resize_(1, 2, 3, 4, memory_format=torch.channels_last)
        print(c.stride(), c._version)
        c.resize_(1, 2, 3, 4)
        print(c.stride(), c._version)
        g = torch.zeros(2, 3)
        g.resize_(1, 2, 3, 4, memory_format=torch.channels_last)
        print(g.stride(), g._version)
        g.fill_(1)
        f = torch.zeros(2, 3)
        f.resize_(1, 2, 3, 4, 5, memory_format=torch.channels_last_3d)
        print(f.stride(), f._version)
        f.fill_(2)
        r = torch.zeros(1, 2, 2, 2)
        r.resize_as_(torch.ones(1, 2, 2, 2).contiguous(memory_format=torch.channels_last),
                     memory_format=torch.preserve_format)
        print(r.stride(), r._version)
        for program in ("x = torch.zeros(2, 3); x.resize_(6, memory_format=torch.preserve_format)",
                        "x = torch.zeros(2, 3); x.resize_(4, 5, memory_format=torch.channels_last); x.fill_(0)",
                        "x = torch.zeros(2, 3); x.resize_(1, 2, 3, 4, memory_format=torch.channels_last_3d); x.fill_(0)",
                        "x = torch.zeros(2, 3); x.resize_(2, 3, memory_format='x')",
                        "x = torch.zeros(2, 3); x.resize_as_(x, memory_format=1)",
                        "x = torch.zeros(2, requires_grad=True); x.resize_(2, memory_format=torch.preserve_format)"):
            try:
                exec(program)
            except (RuntimeError, TypeError) as error:
                print(program, type(error).__name__, error, tuple(x.shape), x.stride(), x._version)
        """
    )


def test_detach_and_requires_grad_do_not_bump():
    assert_same(
        """
        x = torch.ones(2, 3, requires_grad=True)
        y = x * 2
        y.detach_()
        x.requires_grad_(False)
        x.requires_grad_(True)
        print(x._version, y._version, y.requires_grad, y.is_leaf)
        """
    )


def test_indexed_augmented_assignment_adds_two_to_the_version():
    # a[0] += 1 is: v = a[0]; v += 1 (one bump); a[0] = v (a second bump).
    assert_same(
        """
        a = torch.zeros(3)
        a[0] += 1
        b = torch.zeros(2, 2)
        b[0] *= 2
        b[:, 1] += torch.ones(2)
        x = torch.ones(3, requires_grad=True)
        y = x * 1
        y[0] += 1
        r = y[1]
        r += 1
        print(a._version, b._version, y._version, r._version)
        """
    )


# --- only this tensor's metadata changes -----------------------------------------

@pytest.mark.parametrize(
    "op",
    ["t_()", "transpose_(0, 1)", "unsqueeze_(1)", "squeeze_()", "as_strided_((2,), (2,), 1)",
     "resize_(3)", "resize_as_(torch.ones(6))", "set_()", "set_(torch.zeros(2))",
     "set_(src.untyped_storage(), 1, (2,), (1,))"],
)
@pytest.mark.parametrize("alias", ["x.detach()", "x.data", "x[:]", "x.view(2, 3)", "x"])
def test_metadata_change_leaves_other_tensors_on_the_memory_alone(op, alias):
    assert_same(
        f"""
        src = torch.arange(10., 14.)
        x = torch.arange(6.).view(2, 3)
        other = {alias}
        other.{op}
        print(x.shape, x.stride(), other.shape, other.stride(), other.storage_offset())
        print(x._version, other._version)
        """
    )


def test_metadata_ops_on_detach_and_data_of_a_leaf_that_requires_grad():
    assert_same(
        """
        w = torch.arange(6., requires_grad=True)
        d = w.detach()
        d.resize_(2, 3)
        e = w.detach()
        e.transpose_(0, 0)
        f = w.data
        f.set_(torch.zeros(2))
        g = w.detach()
        g.resize_as_(torch.ones(3))
        loss = (w * 2).sum()
        loss.backward()
        print(w, d, e, f, g, w.grad)
        """
    )


# --- resize_ and storage -----------------------------------------------------------

def test_growing_through_a_detached_alias_reallocates_the_shared_storage():
    assert_same(
        """
        z = torch.arange(6.)
        d = z.detach()
        before = z.untyped_storage().data_ptr()
        d.resize_(10)
        d[6:] = 0
        moved = z.untyped_storage().data_ptr() != before
        same = z.untyped_storage().data_ptr() == d.untyped_storage().data_ptr()
        dd = z.data
        dd.resize_(20)
        dd[6:] = 1
        print(moved, same, z.untyped_storage().nbytes(), z, d.shape, z._version, dd._version)
        """
    )


def test_shrinking_keeps_the_storage_and_growing_a_view_grows_its_base_storage():
    assert_same(
        """
        a = torch.arange(6.)
        ptr = a.untyped_storage().data_ptr()
        a.resize_(2)
        kept = a.untyped_storage().data_ptr() == ptr
        b = torch.arange(6.)
        v = b[1:3]
        v.resize_(2, 2)
        v.resize_(4, 4)
        v.fill_(7)
        print(kept, a, a.untyped_storage().nbytes(), v._is_view(), v._base is b, b.untyped_storage().nbytes())
        """
    )


def test_resize_with_an_offset_grows_the_storage_to_fit():
    assert_same(
        """
        a = torch.arange(6.)[2:]
        a.resize_(6)
        a[4:] = 0
        e = torch.empty(0)
        e.resize_(2)
        e.fill_(1)
        print(a, a.untyped_storage().nbytes(), e.untyped_storage().nbytes())
        """
    )


def test_growing_a_tensor_on_numpy_memory_fails():
    # torch changes the size before it finds out and leaves a tensor that reads
    # past its memory; reftorch keeps the old size. Only the error is compared.
    assert_same(
        """
        import numpy as np
        n = torch.from_numpy(np.ones(3))
        n.resize_(2)
        shrunk = (tuple(n.shape), n._version)
        try:
            n.resize_(5)
        except RuntimeError as e:
            print(e)
        del n
        print(shrunk)
        """
    )


@pytest.mark.parametrize(
    "target",
    ["torch.ones(2, 3, requires_grad=True)", "torch.ones(2, 3, requires_grad=True) * 1",
     "(torch.ones(2, 3, requires_grad=True) * 1)[0:1]"],
)
@pytest.mark.parametrize("call", ["resize_(3)", "resize_(2, 3)", "resize_as_(torch.ones(3))"])
def test_resize_refuses_anything_that_requires_grad_even_under_no_grad(target, call):
    assert_same(
        f"""
        t = {target}
        for mode in (torch.enable_grad, torch.no_grad):
            with mode():
                try:
                    t.{call}
                except RuntimeError as e:
                    print(e)
        print(t.shape)
        """
    )


@pytest.mark.parametrize(
    "call",
    ["resize_(-1)", "resize_(2, -1)", "resize_(2.5)", "resize_([2, 1.0])", "resize_()",
     "resize_((2,), 3)", "resize_as_([1])", "resize_(2, memory_format=torch.preserve_format)"],
)
def test_resize_bad_arguments(call):
    assert_same(f"torch.ones(2).{call}", raises="*")


def test_resize_accepts_a_size_object_and_contiguous_format():
    assert_same(
        """
        a = torch.ones(4)
        a.resize_(torch.Size([2, 2]))
        a.resize_(4, memory_format=torch.contiguous_format)
        print(a.shape, a._version)
        """
    )


# --- set_ ---------------------------------------------------------------------

def test_set_forms_point_the_tensor_at_other_memory():
    assert_same(
        """
        c = torch.arange(4.)
        d = torch.zeros(3)
        d.set_(c)
        e = torch.zeros(3)
        e.set_(c.untyped_storage(), 1, (2,), (1,))
        f = torch.zeros(3)
        f.set_(c.untyped_storage())
        g = torch.zeros(3)
        g.set_(c.untyped_storage(), 0, (2,))
        h = torch.zeros(3)
        h.set_(source=c.untyped_storage(), storage_offset=1, size=(3,), stride=(1,))
        k = torch.zeros(3)
        k.set_(c, 1, (2,), (2,))
        m = torch.zeros(1)
        m.set_(c[1:], 0, (2,))
        n = torch.ones(2)
        n.set_()
        s = torch.ones(2)
        s.set_(s)
        c[0] = 10
        print(d, e, f, g, h, k, m, n, s)
        """
    )


def test_set_to_a_layout_past_the_end_grows_the_storage():
    assert_same(
        """
        src = torch.ones(3)
        t = torch.zeros(2)
        t.set_(src.untyped_storage(), 1, (4,), (1,))
        t[2:] = 5
        print(src.untyped_storage().nbytes(), t, src)
        """
    )


@pytest.mark.parametrize(
    "call",
    ["set_(3)", "set_(None)", "set_(s, 1)", "set_(torch.ones(3), 1)", "set_(s, 1, 2)",
     "set_(s, 1.0, (2,))", "set_(torch.ones(2, dtype=torch.float64))",
     "set_(torch.ones(2, dtype=torch.long))", "set_(s, 0, (2, 2), (1,))", "set_(s, -1, (2,))",
     "set_(s, 0, (-2,))", "set_(s, 0, (2,), (-1,))"],
)
def test_set_bad_arguments(call):
    assert_same(
        f"""
        s = torch.ones(3).untyped_storage()
        torch.ones(2).{call}
        """,
        raises="*",
    )


def test_set_dtype_message_names_c_types():
    assert_same(
        """
        for dst, src in ((torch.long, torch.bool), (torch.float64, torch.float32), (torch.bool, torch.long)):
            try:
                torch.ones(2, dtype=dst).set_(torch.ones(2, dtype=src))
            except RuntimeError as e:
                print(e)
        """
    )


def test_set_records_not_implemented_and_backward_through_it_raises():
    assert_same(
        """
        x = torch.ones(2, 3, requires_grad=True)
        y = x * 2
        y.set_()
        z = x * 3
        z.set_(torch.ones(6))
        o = torch.ones(6, requires_grad=True)
        w = x * 4
        w.set_(o)
        print(y, z, w.grad_fn.next_functions)
        w.sum().backward()
        """,
        raises="RuntimeError",
    )


def test_set_on_a_view_rewrites_the_base_history():
    assert_same(VIEW_OF_A_NON_LEAF + "v.set_()\nprint(v, y.grad_fn, v._is_view(), v._base is y)\n")


def test_set_on_a_leaf_that_requires_grad():
    assert_same(
        """
        x = torch.ones(2, 3, requires_grad=True)
        with torch.no_grad():
            x.set_(torch.zeros(2))
        print(x, x.is_leaf)
        x.set_()
        """,
        raises="RuntimeError",
    )


# --- t_ and friends with autograd ------------------------------------------------

@pytest.mark.parametrize(
    "op",
    ["t_()", "transpose_(0, 1)", "unsqueeze_(1)", "unsqueeze_(0).squeeze_()",
     "unsqueeze_(0).squeeze_(0)", "unsqueeze_(0).squeeze_((0,))", "as_strided_((2, 2), (1, 2), 1)",
     "as_strided_((3,), (0,))"],
)
def test_view_like_inplace_op_records_its_node_and_backward_puts_gradients_back(op):
    assert_same(
        f"""
        x = torch.ones(2, 3, requires_grad=True)
        y = x * torch.arange(6.).view(2, 3)
        r = y.{op}
        print(r is y, r.grad_fn, r.grad_fn.next_functions)
        (r * torch.arange(float(r.numel())).view(r.shape)).sum().backward()
        print(x.grad)
        """
    )


@pytest.mark.parametrize(
    "op", ["t_()", "transpose_(0, 1)", "unsqueeze_(0)", "squeeze_()", "as_strided_((2,), (1,))"],
)
def test_view_like_inplace_op_on_a_leaf_that_requires_grad(op):
    assert_same(
        f"""
        x = torch.ones(2, 3, requires_grad=True)
        with torch.no_grad():
            x.{op}
        print(x.shape, x._version, x.is_leaf, x.grad_fn)
        x.{op}
        """,
        raises="RuntimeError",
    )


def test_view_like_inplace_op_on_a_view_gives_the_view_its_own_node():
    assert_same(VIEW_OF_A_NON_LEAF + textwrap.dedent(
        """
        v.t_()
        first = (v.grad_fn, v.grad_fn.next_functions)
        v.unsqueeze_(0)
        print(first, v.grad_fn.next_functions, y.grad_fn, v._base is y, y._version)
        v.sum().backward()
        print(x.grad)
        """
    ))


@pytest.mark.parametrize("op", ["t_()", "unsqueeze_(0)", "set_()", "resize_(3)", "squeeze_(0)"])
def test_view_like_inplace_op_on_a_no_grad_view(op):
    assert_same(
        f"""
        x = torch.ones(2, 3, requires_grad=True)
        y = x * 1
        with torch.no_grad():
            v = y[0]
        v.{op}
        """,
        raises="RuntimeError",
    )


@pytest.mark.parametrize(
    "call",
    ["t_()", "unsqueeze_(0)", "squeeze_()", "transpose_(0, 1)", "as_strided_((2,), (1,))", "set_()",
     "resize_(3)"],
)
def test_metadata_op_on_an_inference_tensor_outside_the_mode_raises_after_changing_it(call):
    assert_same(
        f"""
        with torch.inference_mode():
            i = torch.ones(2, 3)
        try:
            i.{call}
        except RuntimeError as e:
            print(e)
        print(i.shape, i.stride())
        with torch.inference_mode():
            j = torch.ones(2, 3)
            j.{call}
        print(j.shape)
        """
    )


@pytest.mark.parametrize(
    "call",
    ["torch.ones(1, 2, 3).t_()", "torch.ones(3).t_()", "torch.tensor(1.).t_()",
     "torch.ones(2, 3).transpose_(0, 5)", "torch.ones(2, 3).transpose_(0, 1.0)",
     "torch.ones(2, 3).unsqueeze_(4)", "torch.ones(2, 3).unsqueeze_(1.0)",
     "torch.ones(2, 3).squeeze_(4)", "torch.ones(1, 2, 1).squeeze_((0, 2))",
     "torch.ones(1, 2, 1).squeeze_(None)", "torch.ones(1, 2).squeeze_(1.0)",
     "torch.tensor(1.).squeeze_()", "torch.tensor(1.).unsqueeze_(0)"],
)
def test_view_like_inplace_op_arguments(call):
    assert_same(
        f"""
        out = {call}
        print(out.shape, out.stride(), out._version)
        """,
        raises="*",
    )


# --- as_strided ------------------------------------------------------------------

@pytest.mark.parametrize(
    "call",
    ["as_strided((2,), (-1,), 3)", "as_strided((2, 2), (1,))", "as_strided((2,), (1,), -1)",
     "as_strided((-2,), (1,))", "as_strided((2, -1), (1, 1))", "as_strided((2, -2), (1, -1), -1)",
     "as_strided((2, 2), (1,), -1)", "as_strided(2, 1)", "as_strided((2,), 1)",
     "as_strided((2.0,), (1,))", "as_strided((2,), (1,), 1.0)", "as_strided_((2,), (-1,), 3)",
     "as_strided_((2, 2), (1,))", "as_strided_(2, (1,))"],
)
def test_as_strided_argument_checks(call):
    assert_same(f"torch.ones(4).{call}", raises="*")


def test_as_strided_defaults_to_the_tensors_own_offset_and_views_the_base():
    assert_same(
        """
        a = torch.arange(8.)
        v = a[2:]
        s = v.as_strided((2, 2), (1, 2))
        s0 = v.as_strided([3], [2], 0)
        sk = v.as_strided(size=(2,), stride=(1,), storage_offset=5)
        n = v.as_strided((2,), (1,), None)
        scalar = v.as_strided((), (), 3)
        f = torch.as_strided(a, (2, 3), (3, 1))
        print(s, s0, sk, n, scalar, f)
        print(s._base is a, s.storage_offset(), s0.storage_offset(), sk.storage_offset())
        """
    )


def test_as_strided_with_overlapping_elements_sums_gradients():
    assert_same(
        """
        x = torch.arange(4., requires_grad=True)
        y = x * 1
        s = y.as_strided((3, 2), (1, 1))
        s2 = x.as_strided((3,), (0,), 1)
        (s * torch.arange(6.).view(3, 2)).sum().backward(retain_graph=True)
        first = x.grad.clone()
        s2.sum().backward()
        print(s.grad_fn, s2.grad_fn, first, x.grad)
        """
    )


def test_as_strided_inplace_keeps_the_storage_and_shares_the_counter():
    assert_same(
        """
        a = torch.arange(6.)
        d = a.detach()
        d.as_strided_((2, 2), (1, 2), 1)
        d.mul_(10)
        print(a, d, a._version)
        """
    )


# --- generated programs -------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

METADATA_OPS = st.sampled_from(
    ["t_()", "transpose_(0, -1)", "unsqueeze_(0)", "unsqueeze_(-1)", "squeeze_()", "squeeze_(0)",
     "resize_(2, 3)", "resize_(4)", "resize_(3, 1)", "resize_as_(torch.ones(2, 2))", "set_()",
     "set_(src)", "set_(src.untyped_storage(), 1, (2, 2), (1, 2))", "as_strided_((2, 2), (2, 1), 1)",
     "as_strided_((3,), (1,))"]
)


@given(ops=st.lists(METADATA_OPS, min_size=1, max_size=4), alias=st.sampled_from(["b", "b.detach()", "b[1:]", "b.data"]))
@SETTINGS
def test_generated_chains_of_metadata_ops_on_aliases(ops, alias):
    # Every op here stays within 8 elements of storage, and the last line fills
    # the target so that memory a grown storage holds is never compared unset.
    chain = "".join(f".{op}" for op in ops)
    assert_same(
        f"""
        src = torch.arange(10., 18.)
        b = torch.arange(8.).view(2, 4)
        target = {alias}
        try:
            target{chain}
        except RuntimeError as e:
            print(e)
        target.fill_(-1)
        print(b, src, target.shape, target.stride(), target.storage_offset(), target._version, b._version)
        """
    )


def test_resize_takes_its_size_by_keyword_and_lays_out_channels_last():
    assert_same(program("""
        a = torch.arange(6.0).reshape(2, 3)
        for f in (lambda: a.clone().resize_(size=(2,)), lambda: a.clone().resize_(1, 2, 3, 1, memory_format=torch.channels_last),
                  lambda: a.clone().resize_(2, memory_format=torch.channels_last),
                  lambda: a.clone().resize_(2, memory_format=torch.preserve_format),
                  lambda: a.clone().resize_(2, memory_format=torch.contiguous_format), lambda: a.clone().resize_(2, memory_format=1),
                  lambda: a.clone().resize_(size=(2,), memory_format=None), lambda: a.clone().resize_(2, foo=1)):
            attempt(lambda: (f(), f().stride()))
        """))
