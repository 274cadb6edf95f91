"""split, chunk and unbind: several views from one call, sharing one node.

The harness compares every piece's metadata, storage sharing, version
counter, ``_base``, ``grad_fn`` (and whether two pieces share it) and graph.
"""

import pytest

from crosscheck.harness import assert_same

# ``p``: the pieces of ``y.split(2)``, ``y`` a non-leaf that requires grad.
PIECES = "x = torch.arange(6., requires_grad=True)\ny = x * 1\np = y.split(2)\n"


@pytest.mark.parametrize(
    "call",
    ["a.split(2)", "a.split([1, 4])", "a.split((2, 3))", "a.split(1, dim=1)", "a.split(2, -2)",
     "a.split(5)", "a.split(7)", "torch.split(a, 3)", "torch.split(a, [2, 3], dim=0)",
     "a.split_with_sizes([2, 3])", "a.chunk(2)", "a.chunk(3)", "a.chunk(2, 1)", "a.chunk(7)",
     "torch.chunk(a, 4)", "a.unbind()", "a.unbind(1)", "a.unbind(-1)", "torch.unbind(a, 1)",
     "a.t().split(1)", "a[1:].chunk(2, 1)", "a[::2].unbind(0)"],
)
def test_pieces_are_views_sharing_storage_and_version_counter(call):
    assert_same(
        f"""
        a = torch.arange(10.).reshape(5, 2)
        pieces = {call}
        print(type(pieces).__name__, len(pieces))
        for p in pieces:
            print(p, p.shape, p.stride(), p.storage_offset(), p._is_view(), p._base is a, p.output_nr)
        """
    )


def test_chunk_sizes_round_up_and_may_give_fewer_pieces():
    assert_same(
        """
        six = torch.arange(6)
        four = six.chunk(4)
        five = six.chunk(5)
        empty = torch.zeros(0, 2).chunk(2)
        empty_split = torch.zeros(0, 2).split(2)
        zero = torch.zeros(0, 2).split(0)
        print([p.shape for p in four], [p.shape for p in five], len(empty), len(empty_split), len(zero))
        """
    )


def test_writing_a_piece_outside_autograd_shows_in_the_source():
    assert_same(
        """
        a = torch.zeros(4)
        first, second = a.split(2)
        first.add_(1)
        second[0] = 5
        rows = torch.zeros(2, 2).unbind()
        rows[1].fill_(3)
        print(a, first, second, rows)
        """
    )


def test_pieces_share_one_node_with_one_output_number_each():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        p = x.split(2)
        w = x.split([1, 5])
        c = x.chunk(3)
        u = x.view(2, 3).unbind(1)
        print(p[0].grad_fn is p[2].grad_fn, [t.output_nr for t in p], p[1].is_leaf, p[1].requires_grad)
        print(p[0].grad_fn.name(), w[1].grad_fn.name(), c[0].grad_fn.name(), u[2].grad_fn.name())
        print(p[0].grad_fn.next_functions[0][0].variable is x, u[0].grad_fn.next_functions)
        print(p)
        """
    )


def test_gradients_from_several_pieces_land_where_the_pieces_came_from():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        p = x.split(2)
        (p[0].sum() * 2 + p[2].sum()).backward()
        g_split = x.grad.clone()
        x.grad = None
        w = x.split([1, 5])
        w[1].backward(torch.ones(5))
        g_sizes = x.grad.clone()
        x.grad = None
        u = x.reshape(2, 3).unbind(1)
        (u[2] * u[0]).sum().backward()
        g_unbind = x.grad.clone()
        x.grad = None
        c = (x * 1).chunk(3)
        (c[1] * 1).sum().backward()
        print(g_split, g_sizes, g_unbind, x.grad)
        """
    )


def test_autograd_grad_through_a_piece_and_retain_grad_on_a_piece():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        p = x.split([1, 5])
        g = torch.autograd.grad(p[1].sum(), x)
        q = (x * 1).split(3)
        q[1].retain_grad()
        (q[1] * 2).sum().backward()
        print(g, q[1].grad, x.grad)
        """
    )


def test_one_piece_split_is_still_a_multi_output_view():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        (only,) = (x * 1).split(6)
        print(only.grad_fn, only.output_nr)
        only.add_(1)
        """,
        raises="RuntimeError",
    )


@pytest.mark.parametrize(
    "write",
    ["p[0].add_(1)", "p[1].mul_(2)", "p[2].zero_()", "p[1][0] = 5.0", "p[0].copy_(torch.ones(2))",
     "p[1].view(2).zero_()", "p[2].t_()", "p[0].squeeze_()", "p[1].set_()", "p[0] += 1"],
)
def test_writing_a_piece_in_place_while_autograd_records_raises(write):
    assert_same(
        PIECES + write,
        raises="RuntimeError",
    )


@pytest.mark.parametrize("source", ["x", "x * 1"])
@pytest.mark.parametrize("make", ["s.chunk(3)", "s.unbind()", "s.split([4, 2])"])
def test_error_names_the_operation_and_the_output(source, make):
    assert_same(
        f"""
        x = torch.arange(6., requires_grad=True)
        s = {source}
        pieces = {make}
        for i, piece in enumerate(pieces):
            try:
                piece.add_(1)
            except RuntimeError as e:
                print(i, e)
        print(x, s)
        """
    )


def test_piece_of_a_piece_inherits_the_multi_output_rule():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        c = (x * 1).chunk(3)
        row = c[2][0]
        print(row.grad_fn)
        c[2][0] = 5.0
        """,
        raises="RuntimeError",
    )


def test_piece_written_under_no_grad_cannot_give_its_grad_fn_later():
    assert_same(
        PIECES + "with torch.no_grad():\n    p[0].add_(1)\nprint(y, p[1].requires_grad)\nprint(p[0])\np[1].grad_fn\n",
        raises="RuntimeError",
    )


def test_writing_the_base_of_pieces_breaks_the_pieces_grad_fn():
    assert_same(
        PIECES + "y.add_(1)\nprint(y, p[0].requires_grad)\nout = p[0] * 2\n",
        raises="RuntimeError",
    )


def test_pieces_of_a_tensor_without_grad_refuse_only_a_tracked_write():
    assert_same(
        """
        n = torch.zeros(4)
        k = torch.ones(2, requires_grad=True)
        ns = n.split(2)
        ns[0].add_(1)
        try:
            ns[1].add_(k)
        except RuntimeError as e:
            print(e)
        print(n, ns)
        """
    )


def test_pieces_made_under_no_grad_get_the_no_grad_rule():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        y = x * 1
        with torch.no_grad():
            q = y.split(3)
            q[1].add_(1)
        print(q[1].requires_grad, y)
        r = (x * 1).unbind()
        with torch.no_grad():
            r2 = (x * 1).unbind()
        try:
            r2[0].add_(1)
        except RuntimeError as e:
            print(e)
        """
    )


def test_pieces_made_in_inference_mode():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        with torch.inference_mode():
            r = x.split(2)
            s = torch.ones(4).split(2)
        print(r[0].requires_grad, r[0].grad_fn, r[0].is_inference(), s[0].is_inference(), s[0]._is_view())
        r[0].add_(1)
        """,
        raises="RuntimeError",
    )


@pytest.mark.parametrize(
    "call",
    ["a.split(0)", "a.split(-1)", "a.split([1, 2])", "a.split([6, -1])", "a.split(2.0)",
     "a.split([1.0, 4])", "a.split(2, 5)", "a.chunk(0)", "a.chunk(-1)", "a.chunk(2, 3)",
     "a.unbind(3)", "torch.tensor(1.).unbind()", "torch.tensor(1.).split(1)",
     "torch.tensor(1.).chunk(1)", "a.chunk(2.5)"],
)
def test_bad_arguments_get_torchs_errors(call):
    assert_same(
        f"""
        a = torch.arange(10.).reshape(5, 2)
        {call}
        """,
        raises="*",
    )


# --- generated programs -------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def pieces_call(draw, shape):
    """A split/chunk/unbind call on a tensor of ``shape`` (sometimes a bad one)."""
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[dim]
    kind = draw(st.sampled_from(["split", "sizes", "chunk", "unbind"]))
    if kind == "split":
        return f"split({draw(st.integers(1, n + 1))}, {dim})"
    if kind == "sizes":
        cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
        sizes = [b - a for a, b in zip([0] + cuts, cuts + [n])]
        return f"split({sizes}, dim={dim})"
    if kind == "chunk":
        return f"chunk({draw(st.integers(1, n + 2))}, {dim})"
    return f"unbind({dim})"


@given(data=st.data(), shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
       transpose=st.booleans(), grad=st.booleans())
@SETTINGS
def test_generated_pieces_of_strided_tensors_and_their_gradients(data, shape, transpose, grad):
    call = data.draw(pieces_call(shape[::-1] if transpose and len(shape) > 1 else shape))
    numel = 1
    for n in shape:
        numel *= n
    source = f"torch.arange({numel}.{', requires_grad=True' if grad else ''}).view{shape}"
    layout = ".t()" if transpose and len(shape) == 2 else (".permute(2, 1, 0)" if transpose and len(shape) == 3 else "")
    backward = "sum(p.sum() * (i + 1) for i, p in enumerate(pieces)).backward()" if grad else ""
    assert_same(
        f"""
        x = {source}
        a = x{layout}
        pieces = a.{call}
        print(len(pieces), [tuple(p.shape) for p in pieces], [p.stride() for p in pieces])
        {backward}
        """
    )


def test_split_reads_a_one_element_tensor_as_its_int_and_refuses_a_bool_as_torch_parses_it():
    assert_same(
        """
        a = torch.arange(6.0, requires_grad=True)
        for size in (torch.tensor(4), torch.tensor([4]), torch.tensor(4.7), torch.tensor(True)):
            pieces = a.split(size)
            print([tuple(p.shape) for p in pieces], type(pieces[0].grad_fn).__name__)
        for args in ((True,), (2, True), (2, 1.0), (2, "x"), (True, 1.0), ([2, 4], True), ([2, 4], 1.0),
                     (torch.tensor([2, 4]),), (None, True)):
            try:
                a.split(*args)
            except TypeError as error:
                print(error)
        try:
            torch.split(a, True)
        except TypeError as error:
            print(error)
        """
    )


def test_split_takes_no_bool_for_its_size_but_a_later_bool_among_sizes():
    """``split(True)`` is not ``split(1)``: torch's parser refuses a bool where it wants an int (and
    names the dim's type too); in a list of sizes, a bool after the first is read as 0 or 1."""
    assert_same(
        """
        import numpy as np

        x = torch.arange(4.0)
        for args, keywords in (((True,), {}), ((False,), {}), ((True, 0), {}), ((True, np.int64(0)), {}),
                               ((), {"split_size": True}), (([True, 3],), {}), (((1, True, 2),), {}),
                               (((1, False, 3),), {})):
            try:
                pieces = x.split(*args, **keywords)
                print(args, keywords, [p.tolist() for p in pieces])
            except TypeError as error:
                print(args, keywords, "TypeError", error)
        try:
            torch.split(x, True)
        except TypeError as error:
            print("torch.split", error)
        a, b, c = x.split((1, True, 2))
        """
    )


@pytest.mark.parametrize("view", ["b.split(2)[0]", "b.unbind()[1]", "no_grad_view", "inference_view"])
@pytest.mark.parametrize(
    "write",
    ["v.fill_(g0)", "v.add_(g)", "v.mul_(g)", "v.clamp_(min=g)", "v.pow_(g)", "v.copy_(g)", "v.zero_()",
     "v.add_(1)"],
)
@pytest.mark.parametrize("dtype", ["torch.int64", "torch.float32"])
def test_a_view_made_without_a_node_checks_a_gradient_before_the_dtype(view, write, dtype):
    """torch refuses a write that brings a gradient into such a view whatever the view's dtype (an integer
    one too, before the dtype error); only copy_ first drops the gradient an integer tensor cannot take."""
    assert_same(
        f"""
        g, g0 = torch.ones(2, requires_grad=True), torch.tensor(1.5, requires_grad=True)
        b = torch.zeros(2, 2, dtype={dtype})
        with torch.no_grad():
            no_grad_view = b[0]
        with torch.inference_mode():
            inference_view = b[1]
        v = {view}
        try:
            {write}
        except RuntimeError as error:
            print("RuntimeError:", error)
        print(b, b._version, v.requires_grad, v.grad_fn)
        """
    )
