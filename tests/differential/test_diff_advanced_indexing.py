"""Advanced indexing: lists, long tensors and bool masks copy when read and write in place.

Every case runs on torch and on reftorch (``assert_same``), which compares the
values, shape, strides, storage sharing, version counters, ``grad_fn`` and
graph of every tensor in the program, and what it prints, warns and raises.
"""

import textwrap

import pytest

from crosscheck.harness import assert_same, assert_same_as_gpu
from diff_programs import program

_SETUP = """
import numpy as np
m = torch.arange(12.).view(3, 4)
b = torch.arange(24.).view(2, 3, 4)
"""


def _same(body, raises=None):
    assert_same(_SETUP + textwrap.dedent(body), raises=raises)


# ---- reading copies ------------------------------------------------------------

READS = {
    "int_list": "m[[0, 2]]",
    "int_list_on_second_dim": "m[:, [0, 2]]",
    "repeated_and_negative": "m[[2, -1, 0, 2]]",
    "long_tensor": "m[torch.tensor([1, 0])]",
    "two_dim_long_tensor": "m[torch.tensor([[0, 1], [1, 2]])]",
    "pairs_of_lists": "m[[0, 1], [1, 2]]",
    "broadcast_lists": "m[[[0], [2]], [1, 3]]",
    "bool_mask": "m[m > 4]",
    "bool_list": "m[[True, False, True]]",
    "mask_on_second_dim": "m[:, m[0] > 1]",
    "mask_and_list": "m[torch.tensor([True, False, True]), [1, 3]]",
    "int_then_list": "m[1, [0, 3]]",
    "list_then_int": "m[[0, 2], 1]",
    "slice_then_list": "m[1:, [0, 0]]",
    "ellipsis_then_list": "m[..., [0]]",
    "none_around_list": "m[None, [0, 1], None]",
    "empty_list": "m[[]]",
    "float_list_truncates": "m[[0.0, 1.7]]",
    "numpy_array": "m[np.array([2, 0])]",
    "numpy_bool_array": "m[np.array([True, False, True])]",
    "range": "m[range(1, 3)]",
    "python_true": "m[True]",
    "python_false": "m[False]",
    "zero_dim_bool_tensor": "m[torch.tensor(True)]",
    "true_in_a_tuple": "m[True, [0]]",
    "zero_dim_true": "torch.tensor(5.)[True]",
    "two_dim_mask_then_list": "b[b[:, :, 0] > 4, [0, 3, 1, 2]]",
    "list_slice_mask": "b[[1, 0], :, torch.tensor([True, False, False, True])]",
    "two_dim_mask_after_a_slice": "b[:, b[0] > 5]",
    "lists_separated_by_a_slice": "b[[0, 1], :, [0, 3]]",
    "lists_separated_by_an_int": "b[[1], 1, [2]]",
    "adjacent_lists_after_a_slice": "b[:, [0, 2], [[1], [3]]]",
    "permuted_source": "b.permute(0, 2, 1)[[1, 0]]",
    "permuted_source_second_dim": "b.permute(2, 1, 0)[:, 1:, [0, 1]]",
    "transposed_source": "m.t()[[3, 0]]",
    "empty_source": "torch.zeros(0, 3)[:, [1, 2]]",
    "empty_dimension_in_result": "torch.zeros(2, 0, 3).permute(2, 0, 1)[[0]]",
}


@pytest.mark.parametrize("expr", READS.values(), ids=READS.keys())
def test_reading_with_an_index_tensor_copies_into_a_new_storage(expr):
    # r shares nothing with its source: the harness compares storage, strides,
    # offsets and version counters of m, b and r on both libraries.
    _same(f"r = {expr}\nprint(r)\nprint(r.shape, r.stride(), r._is_view(), r._base is None)\n")


def test_writing_into_the_copy_leaves_the_source_alone():
    _same(
        """
        r = m[[0, 1]]
        r[0, 0] = 100.
        r.add_(1)
        print(m[0], r, m._version, r._version)
        """
    )


def test_a_view_of_the_copy_is_a_view_of_the_copy_only():
    _same(
        """
        r = m[[1, 2]]
        v = r.t()
        w = r[0]
        print(v._base is r, w._base is r)
        """
    )


def test_no_grad_fn_when_nothing_requires_grad():
    _same("i = torch.arange(6)\nr = i[i > 2]\nmask = m > 3\ns = m[mask]\nprint(r, s, r.grad_fn, s.grad_fn)\n")


# ---- basic indices stay views -------------------------------------------------------

BASIC = {
    "ellipsis": "m[...]",
    "empty_tuple": "m[()]",
    "int": "m[1]",
    "zero_dim_long_tensor": "m[torch.tensor(1)]",
    "zero_dim_long_tensor_in_a_tuple": "m[torch.tensor(1), None]",
    "lone_full_slice": "m[:]",
    "slices_and_none": "m[None, 1:, ::2]",
    "two_ellipses": "m[..., ...]",
    "int_between_ellipses": "b[..., 0, ...]",
    "int_before_two_ellipses": "b[0, ..., ...]",
    "none_between_ellipses": "b[..., None, ...]",
    "slice_between_ellipses": "b[..., 1:, ...]",
    "ints_then_ellipsis": "b[1, 2, 3, ...]",
    "non_tuple_list_with_a_slice": "m[[0, slice(None)]]",
}


@pytest.mark.parametrize("expr", BASIC.values(), ids=BASIC.keys())
def test_basic_indices_still_give_views(expr):
    _same(f"r = {expr}\nprint(r.shape, r.stride(), r.storage_offset(), r._is_view(), r._base is m or r._base is b)\n")


def test_an_index_list_between_two_ellipses_indexes_the_dimension_after_the_first():
    _same("r = b[..., [0], ...]\ns = b[[0], ..., ...]\nprint(r.shape, s.shape)\n")


# ---- autograd of a read ----------------------------------------------------------------


def test_index_backward_adds_the_gradient_back_and_repeated_indices_accumulate():
    assert_same(
        """
        x = torch.arange(6., requires_grad=True)
        y = x[[1, 1, 4, 1]]
        z = (y * torch.tensor([1., 2., 3., 4.])).sum()
        z.backward()
        print(y, x.grad)
        """
    )


def test_index_backward_through_a_view_and_a_mask():
    assert_same(
        """
        w = torch.arange(12.).view(3, 4).requires_grad_()
        y = w[1:, [0, 0, 3]]
        k = w[w > 6]
        t = w[True, [2]]
        (y.sum() + (k * k).sum() + t.sum()).backward()
        print(y, k, t)
        print(w.grad)
        """
    )


def test_index_backward_frees_the_saved_indices():
    assert_same(
        """
        x = torch.arange(3., requires_grad=True)
        y = x[[0, 1]].sum()
        y.backward()
        y.backward()
        """,
        raises="RuntimeError",
    )


def test_gradient_of_a_transposed_leaf_is_laid_out_like_the_leaf():
    assert_same(
        """
        w = torch.arange(6.).view(2, 3).t().requires_grad_()
        y = w[[0, 0, 2]]
        y.sum().backward()
        print(w.grad.stride())
        """
    )


def test_writing_into_the_source_after_indexing_does_not_break_backward():
    assert_same(
        """
        x = torch.arange(4.).requires_grad_()
        h = x * 2
        y = h[[0, 3]]
        h.mul_(10)
        y.sum().backward()
        print(x.grad, h._version)
        """
    )


@pytest.mark.parametrize(
    "index", ["torch.tensor([True, False, True])", "torch.tensor([0, 2])"], ids=["mask", "long"]
)
def test_writing_into_a_saved_index_tensor_breaks_backward(index):
    assert_same(
        f"""
        x = torch.arange(3.).requires_grad_()
        i = {index}
        y = x[i]
        i[1] = i[0]
        y.sum().backward()
        """,
        raises="RuntimeError",
    )


# ---- writing in place ------------------------------------------------------------------

WRITES = {
    "scalar_at_a_list": "m[[0, 2]] = 5",
    "scalar_at_a_mask": "m[m > 4] = 0",
    "tensor_at_a_mask": "m[m > 8] = torch.tensor([1., 2., 3.])",
    "broadcast_row": "m[[0, 1]] = torch.tensor([1., 2., 3., 4.])",
    "broadcast_column": "m[:, [0, 2]] = torch.tensor([[1.], [2.], [3.]])",
    "leading_ones_dropped": "m[[0, 1]] = torch.ones(1, 1, 2, 4)",
    "pairs": "m[[0, 1, 2], [3, 2, 1]] = torch.tensor([7., 8., 9.])",
    "int_and_list_writes_through_a_view": "m[0, [0, 2]] = 7",
    "none_and_list": "m[None, [2]] = -1",
    "python_true": "m[True] = 3",
    "mask_long_value_into_float": "m[m > 4] = torch.tensor(2)",
    "scalar_into_int_tensor_truncates": "m = m.long()\nm[[0]] = 2.7",
    "duplicates_keep_the_last": "m[[0, 0, 1], [1, 1, 1]] = torch.tensor([1., 2., 3.])",
    "separated_lists": "b[[0, 1], :, [0, 3]] = torch.tensor([[1.], [2.]])",
    "two_dim_mask_then_list": "b[b[:, :, 0] > 4, [0, 3, 1, 2]] = torch.tensor([1., 2., 3., 4.])",
    "into_a_transposed_tensor": "t = m.t()\nt[[0, 3]] = torch.tensor([[1., 2., 3.]])",
}


@pytest.mark.parametrize("body", WRITES.values(), ids=WRITES.keys())
def test_index_assignment_writes_in_place_and_bumps_the_version_once(body):
    _same(f"before = m.data_ptr()\n{body}\nprint(m, b, m._version, b._version, m.data_ptr() == before)\n")


def test_numpy_integers_and_float64_are_numbers_for_assignment():
    _same("m[np.int64(1)] = np.int32(3)\nm[[0]] = np.float64(2.5)\nprint(m)\n")


def test_python_false_writes_nothing_and_bumps_nothing():
    _same("m[False] = 7\nprint(m._version)\n")


def test_index_put_backward_on_a_non_leaf():
    assert_same(
        """
        x = torch.arange(12.).view(3, 4).requires_grad_()
        y = x * 1
        v = torch.ones(4, requires_grad=True)
        y[[0, 0, 1]] = v * 2
        print(y)
        (y * y).sum().backward()
        print(x.grad, v.grad)
        """
    )


def test_index_put_through_a_view_records_copy_slices():
    assert_same(
        """
        x = torch.arange(12.).view(3, 4).requires_grad_()
        y = x * 1
        y[1, [0, 3]] = torch.tensor([5., 6.], requires_grad=True)
        y.sum().backward()
        print(y, x.grad)
        """
    )


def test_a_value_with_leading_ones_reaches_the_graph_through_a_view():
    assert_same(
        """
        x = torch.zeros(3, requires_grad=True)
        y = x * 1
        v = torch.tensor([[5.]], requires_grad=True)
        y[[0, 1]] = v
        y.sum().backward()
        print(v.grad, x.grad)
        """
    )


def test_a_masked_scalar_tensor_gets_the_gradient_of_every_position_it_filled():
    assert_same(
        """
        x = torch.zeros(3, requires_grad=True)
        y = x * 1
        v = torch.tensor(5., requires_grad=True)
        y[y == 0] = v
        y.sum().backward()
        print(v.grad, x.grad)
        """
    )


def test_an_int_tensor_filled_through_a_mask_takes_the_history_of_the_value():
    assert_same(
        """
        i = torch.zeros(3, dtype=torch.long)
        v = torch.tensor(2.5, requires_grad=True)
        i[i == 0] = v
        print(i, i.requires_grad)
        """
    )


def test_index_put_into_a_leaf_that_requires_grad_is_refused():
    assert_same(
        """
        w = torch.ones(3, requires_grad=True)
        w[[0]] = 2.
        """,
        raises="RuntimeError",
    )


def test_index_put_into_a_view_of_a_leaf_that_requires_grad_is_refused():
    assert_same(
        """
        w = torch.ones(3, 2, requires_grad=True)
        v = w[:2]
        v[[0]] = 2.
        """,
        raises="RuntimeError",
    )


def test_index_put_into_a_leaf_is_allowed_under_no_grad():
    assert_same(
        """
        w = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            w[[0, 2]] = 2.
        print(w, w._version, w.is_leaf)
        """
    )


def test_index_put_into_a_no_grad_view_in_grad_mode_is_refused():
    assert_same(
        """
        w = torch.ones(3, requires_grad=True)
        y = w * 1
        with torch.no_grad():
            v = y[1:]
        v[[0]] = 5.
        """,
        raises="RuntimeError",
    )


def test_an_out_of_range_index_stops_the_write_half_way_without_a_version_bump():
    _same("m[[0, 1], [1, 7]] = 1\n", raises="IndexError")


def test_index_put_into_an_expanded_tensor_warns_and_writes_the_shared_element():
    assert_same(
        """
        e = torch.zeros(1).expand(3)
        e[[0, 1]] = torch.tensor([1., 2.])
        f = torch.zeros(1).expand(3)
        f[f == 0] = 4
        print(e, f)
        """
    )


# ---- index_put_ ----------------------------------------------------------------------------


def test_index_put_method_with_and_without_accumulate():
    assert_same(
        """
        a = torch.zeros(4)
        b = torch.zeros(4)
        i = torch.tensor([0, 0, 3])
        ra = a.index_put_((i,), torch.tensor([1., 2., 3.]))
        rb = b.index_put_([i], torch.tensor([1., 2., 3.]), accumulate=True)
        print(a, b, ra is a, rb is b, a._version, b._version)
        """
    )


def test_index_put_accumulate_backward_passes_the_whole_gradient_to_self():
    assert_same(
        """
        x = torch.zeros(3, requires_grad=True)
        y = x * 1
        y.index_put_((torch.tensor([0, 0]),), torch.tensor([1., 2.]), accumulate=True)
        (y * torch.tensor([1., 2., 3.])).sum().backward()
        print(y, x.grad)
        """
    )


@pytest.mark.parametrize(
    "call",
    [
        "a.index_put_(torch.tensor([0]), torch.tensor(1.))",
        "a.index_put_([[0]], torch.tensor(1.))",
        "a.index_put_((torch.tensor([0]),), 1.)",
        "a.index_put_((torch.tensor([0]),), torch.tensor(1.), accumulate=None)",
        "a.index_put_((torch.tensor([0]),))",
        "a.index_put_()",
    ],
    ids=["indices_not_a_tuple", "list_in_indices", "number_as_values", "accumulate_none", "no_values", "nothing"],
)
def test_index_put_argument_errors(call):
    assert_same(f"a = torch.zeros(3)\n{call}\n", raises="TypeError")


# ---- index_select ------------------------------------------------------------------------

SELECTS = {
    "rows": "m.index_select(0, torch.tensor([2, 0, 0]))",
    "columns": "m.index_select(1, torch.tensor([3, 1]))",
    "transposed_source": "m.t().index_select(1, torch.tensor([2, 0]))",
    "zero_dim_index": "m.index_select(-1, torch.tensor(1))",
    "empty_index": "m.index_select(0, torch.tensor([], dtype=torch.long))",
    "zero_dim_source": "torch.tensor(5.).index_select(0, torch.tensor([0]))",
    "function": "torch.index_select(m, dim=1, index=torch.tensor([0]))",
    "long_source": "torch.arange(6).view(2, 3).index_select(1, torch.tensor([1, 0]))",
}


@pytest.mark.parametrize("expr", SELECTS.values(), ids=SELECTS.keys())
def test_index_select_copies_into_a_new_contiguous_storage(expr):
    _same(f"r = {expr}\nprint(r, r.stride(), r._is_view())\n")


def test_index_select_backward_adds_each_row_back_where_it_came_from():
    assert_same(
        """
        x = torch.arange(12.).view(3, 4).requires_grad_()
        r = x.index_select(1, torch.tensor([0, 0, 3]))
        (r * r).sum().backward()
        print(r, x.grad)
        """
    )


SELECT_ERRORS = [
    ("m.index_select(1, torch.tensor([4]))", "RuntimeError"),
    ("m.index_select(0, torch.tensor([5, 7]))", "IndexError"),
    ("b.index_select(2, torch.tensor([-1]))", "IndexError"),
    ("torch.arange(5.).index_select(0, torch.tensor([-1]))", "IndexError"),
    ("torch.tensor(5.).index_select(0, torch.tensor([0, 0]))", "RuntimeError"),
    ("torch.zeros(2, 0).index_select(1, torch.tensor([0]))", "RuntimeError"),
    ("m.index_select(1, torch.tensor([[1]]))", "IndexError"),
    ("m.index_select(1, torch.tensor([1.]))", "RuntimeError"),
    ("m.index_select(2, torch.tensor([0]))", "IndexError"),
    ("m.index_select(1, [0])", "TypeError"),
    ("m.index_select(0.0, torch.tensor([0]))", "TypeError"),
    ("m.index_select(0)", "TypeError"),
    ("torch.index_select(m)", "TypeError"),
    ("torch.index_select([1], 0, torch.tensor([0]))", "TypeError"),
]


# ---- errors ---------------------------------------------------------------------------------

READ_ERRORS = [
    ("m[[5]]", "IndexError"),
    ("m[:, [-5]]", "IndexError"),
    ("m[[0, 5], [7, 1]]", "IndexError"),
    ("torch.zeros(0, 3)[[0]]", "IndexError"),
    ("m[torch.tensor([True, False])]", "IndexError"),
    ("m[torch.ones(3, 3, dtype=torch.bool)]", "IndexError"),
    ("m[torch.tensor([0.0])]", "IndexError"),
    ("m[[0, 1], [1, 2], [0, 0]]", "IndexError"),
    ("torch.tensor(5.)[[0]]", "IndexError"),
    ("m[[0, 1], [0, 1, 2]]", "IndexError"),
    ("b[..., ..., [0]]", "IndexError"),
    ("m[1.5]", "IndexError"),
    ("m[{}]", "IndexError"),
    ("m[[1, 'a']]", "TypeError"),
    ("m['a']", "TypeError"),
]


WRITE_ERRORS = [
    ("m[[0]] = torch.ones(3)", "RuntimeError"),
    ("m[[0, 1]] = torch.ones(1, 2, 1, 4)", "RuntimeError"),
    ("m[torch.tensor([True, False, True])] = torch.tensor([1., 2.])", "RuntimeError"),
    ("m[[0]] = torch.tensor([1, 2, 3, 4])", "RuntimeError"),
    ("m[[0]] = torch.tensor([2.], dtype=torch.float64)", "RuntimeError"),
    ("m[[0]] = m[1]", "RuntimeError"),
    ("m[[0]] = m", "RuntimeError"),
    ("i = torch.arange(4)\ni[i] = 0", "RuntimeError"),
    ("m[[5]] = 1", "IndexError"),
    ("m[torch.tensor([True, False])] = 1", "IndexError"),
    ("m[[0]] = [1, 2, 3, 4]", "TypeError"),
    ("m[0] = 'a'", "TypeError"),
    ("m[0] = None", "TypeError"),
    ("m[0] = np.float32(2.5)", "TypeError"),
    ("m[[0]] = np.array([2.0])", "TypeError"),
]


BAD_INDEXING = (
    [("index_select", call, raises) for call, raises in SELECT_ERRORS]
    + [("read", f"r = {expr}", raises) for expr, raises in READ_ERRORS]
    + [("write", body, raises) for body, raises in WRITE_ERRORS]
)


@pytest.mark.parametrize("kind,body,raises", BAD_INDEXING, ids=[f"{k}:{b}" for k, b, _ in BAD_INDEXING])
def test_bad_indexing_raises_what_torch_raises_and_writes_nothing(kind, body, raises):
    _same(f"print('before')\n{body}\n", raises=raises)


@pytest.mark.parametrize(
    "expr", ["m[[[0, 1], [1, 2]]]", "m[[0, [1]]]", "m[[None]]", "m[[0, slice(None)]]"],
    ids=["nested_lists", "int_and_list", "none", "slice"],
)
def test_a_list_holding_lists_slices_or_none_is_read_as_a_tuple_with_a_warning(expr):
    _same(f"r = {expr}\nprint(r.shape)\n")


# ---- printing --------------------------------------------------------------------------------


def test_printing_copies_and_their_grad_fn():
    assert_same(
        """
        w = torch.arange(6.).view(2, 3).requires_grad_()
        y = w * 1
        print(w[[1, 0]])
        print(w[w > 2])
        print(w.index_select(1, torch.tensor([2])))
        y[[0]] = 0.
        print(y)
        print(torch.arange(5)[[True, False, True, False, True]])
        print(torch.zeros(2, 3)[[]])
        """
    )


# ---- simulated cuda ------------------------------------------------------------------------


def test_advanced_indexing_on_simulated_cuda():
    assert_same_as_gpu(
        """
        g = torch.arange(6., device="cuda").view(2, 3)
        r = g[[0, 1], [1, 2]]
        k = g[g > 2]
        s = g.index_select(1, torch.tensor([2, 0], device="cuda"))
        print(r, k, s)
        g[[0]] = 5
        g[g > 4] = torch.tensor(-1., device="cuda")
        print(g, g._version)
        """,
        expect_cuda=["g", "r", "k", "s"],
    )


def test_advanced_indexing_backward_on_simulated_cuda():
    assert_same_as_gpu(
        """
        w = torch.arange(6., device="cuda").view(2, 3).requires_grad_()
        y = w * 1
        r = y[:, [0, 0, 2]]
        y[[1]] = 0.
        print(r, y)
        (r.sum() + y.sum()).backward()
        print(w.grad)
        """,
        expect_cuda=["w", "y", "r"],
    )


def test_the_kind_of_each_index_part_decides_view_or_copy():
    assert_same(
        """
        import numpy as np
        m = torch.arange(6.0).reshape(2, 3)
        parts = {"1": 1, "np.int64(1)": np.int64(1), "slice": slice(0, 2), "step": slice(None, None, 2),
                 "None": None, "...": ..., "True": True, "False": False, "[0, 1]": [0, 1], "(0, 1)": (0, 1),
                 "tensor([1])": torch.tensor([1]), "tensor(1)": torch.tensor(1), "tensor(True)": torch.tensor(True),
                 "uint8 0-d": torch.tensor(1, dtype=torch.uint8), "mask": torch.tensor([True, False]),
                 "tensor(1.)": torch.tensor(1.0)}
        for name, part in parts.items():
            for index in (part, (slice(None), part) if part is not ... else (part, 0)):
                try:
                    r = m[index]
                    print(name, tuple(r.shape), r._is_view(), r.untyped_storage().data_ptr() == m.untyped_storage().data_ptr())
                except (IndexError, RuntimeError, TypeError) as err:
                    print(name, type(err).__name__, str(err)[:60])
        """
    )


def test_reading_through_a_meta_mask_is_refused_as_torch_refuses_it():
    """Chapter 04 shows ``index``: how many elements a mask picks is data, and a meta tensor has
    none, so torch refuses a read through a meta mask (a CPU mask, ``True``, integer indices and
    writes go through)."""
    assert_same(
        """
        m = torch.ones(3, 4, device="meta")
        cases = (lambda: m[m > 0], lambda: m[torch.tensor([True, False, True])], lambda: m[True], lambda: m[False],
                 lambda: m[torch.tensor([True, False, True], device="meta")],
                 lambda: m[:, torch.tensor([True, False, True, True], device="meta")],
                 lambda: m[torch.tensor([0, 2], device="meta")], lambda: m[torch.tensor(True, device="meta")],
                 lambda: m.__setitem__(m > 0, 1.0), lambda: m.__setitem__([True, False, True], 2.0))
        for f in cases:
            try:
                r = f()
                print(None if r is None else (tuple(r.shape), r.device.type))
            except (NotImplementedError, IndexError, RuntimeError) as error:
                print(type(error).__name__, error)
        """
    )


def test_index_select_numbers_its_arguments_as_the_method_or_as_torch_index_select():
    assert_same(
        """
        m = torch.arange(6.0).reshape(2, 3)
        one = torch.tensor([1])
        for call in (lambda: m.index_select(0.0, one), lambda: m.index_select(0, [1]),
                     lambda: torch.index_select(m, 0.0, one), lambda: torch.index_select(m, True, one),
                     lambda: torch.index_select(m, 0, [1]), lambda: torch.index_select([1], 0, one)):
            try:
                call()
            except TypeError as error:
                print(error)
        print(torch.index_select(m, 1, torch.tensor([2, 0])))
        """
    )


def test_a_list_index_becomes_an_index_tensor_on_the_indexed_tensors_device():
    """torch makes a list (or a numpy array) index on the tensor's own device, so a list of bools
    indexing a meta tensor is a meta mask, refused on reading as any meta mask; integer lists read
    and everything writes."""
    assert_same(
        """
        import numpy as np

        m = torch.ones(3, 4, device="meta")
        cases = (lambda: m[[True, False, True]], lambda: m[0, [True, False, True, True]],
                 lambda: m[[0, 1], [True, False]], lambda: m[np.array([True, False, True])],
                 lambda: m[[[True, False, True, True]] * 3], lambda: m[[0, 2]], lambda: m[[0, 1], [1, 2]],
                 lambda: m.__setitem__([True, False, True], 2.0), lambda: m.__setitem__([0, 2], 1.0))
        for f in cases:
            try:
                r = f()
                print(None if r is None else (tuple(r.shape), r.stride(), r.device.type))
            except (NotImplementedError, IndexError, RuntimeError) as error:
                print(type(error).__name__, error)
        picked = m[[0, 2]]
        """
    )


def test_on_the_meta_device_only_dtypes_and_mask_shapes_are_checked_and_writes_check_nothing():
    """A meta tensor has no numbers: torch's meta kernels read no index values, so nothing is out
    of bounds; ``a[idx]`` checks each index's dtype (a RuntimeError there) and each mask's shape
    (in its own words), ``a[idx] = v`` and ``index_select`` check none of it."""
    assert_same(
        """
        def attempt(label, f):
            try:
                r = f()
            except Exception as e:
                print(label, type(e).__name__, e)
            else:
                print(label, r.dtype, tuple(r.shape), r.device, r._version)

        m = torch.zeros(4, 3, device="meta")
        def setitem(t, idx, v):
            t = t.clone()
            t[idx] = v
            return t
        for label, idx in (("mask len", torch.tensor([True, False])),
                           ("meta mask len", torch.zeros(2, dtype=torch.bool, device="meta")),
                           ("mask", torch.tensor([True, False, True, False])), ("index out", torch.tensor([5])),
                           ("meta index", torch.tensor([5], device="meta")), ("list out", [5, 0]), ("negative out", [-5]),
                           ("2-d mask", torch.ones(4, 2, dtype=torch.bool)), ("2-d mask fits", torch.ones(4, 3, dtype=torch.bool)),
                           ("float", torch.tensor([1.0])), ("meta int", torch.zeros(4, device="meta", dtype=torch.int64)),
                           ("pair", ([0, 1], [0, 5])), ("uint8 mask", torch.tensor([1, 0], dtype=torch.uint8)),
                           ("mask after none", (slice(None), torch.tensor([True, False])))):
            attempt(f"get {label}", lambda: m[idx])
            for value_label, value in (("number", 1.0), ("3", torch.zeros(3)), ("2", torch.zeros(2)),
                                       ("meta 2", torch.zeros(2, device="meta")), ("5x3", torch.zeros(5, 3)),
                                       ("meta 0-d", torch.zeros((), device="meta")), ("int", torch.zeros(2, dtype=torch.int64))):
                attempt(f"set {label} {value_label}", lambda: setitem(m, idx, value))
        attempt("index_put_", lambda: m.clone().index_put_((torch.tensor([0, 9]),), torch.zeros(3, 3)))
        attempt("index_put_ accumulate", lambda: m.clone().index_put_((torch.tensor([9]),), torch.zeros(3), accumulate=True))
        for index in (torch.tensor([9]), torch.tensor([-9, 2]), torch.tensor([1.0]), torch.tensor([[1]]),
                      torch.tensor([1], device="meta")):
            attempt("index_select", lambda: m.index_select(0, index))
            attempt("index_select 1-d", lambda: torch.zeros(4, device="meta").index_select(0, index))
        attempt("index_select 0-d", lambda: torch.zeros((), device="meta").index_select(0, torch.tensor([9, 1])))
        a = torch.zeros(4, 3, device="meta", requires_grad=True)
        b = a * 1
        b[torch.tensor([9])] = torch.zeros(7)
        picked = a[torch.tensor([9, 1])]
        print(b.grad_fn.name(), b._version, picked.grad_fn.name())
        attempt("leaf", lambda: a.__setitem__(torch.tensor([0]), 1.0))
        """
    )


def test_the_gradient_of_an_index_read_is_written_into_zeros_so_the_leafs_grad_starts_at_version_one():
    # torch: zeros(...).index_put_(indices, grad, accumulate=True) and zeros(...).index_add_(...):
    # one in-place write each, and the engine keeps that tensor as .grad (a select's is not written)
    assert_same(
        """
        for read in (lambda m: m[[1, 1]], lambda m: m[m > 2], lambda m: m[:, [0, 2]], lambda m: m[[]],
                     lambda m: torch.index_select(m, 0, torch.tensor([1, 1])), lambda m: m[0, [1]],
                     lambda m: m.index_select(1, torch.tensor([2])), lambda m: m[[0, 1]] * 2):
            m = torch.arange(6.0).reshape(2, 3).requires_grad_()
            read(m).sum().backward()
            print(m.grad, m.grad._version)
        s = torch.tensor(3.0, requires_grad=True)
        torch.index_select(s, 0, torch.tensor([0])).sum().backward()
        print(s.grad, s.grad._version)
        """
    )


def test_a_meta_tensor_reads_an_int8_index_as_a_mask_and_refuses_uint8_as_torchs_meta_kernel_does():
    assert_same(program("""
        m = torch.zeros(4, 3, device="meta")
        cases = {"u8": torch.tensor([1, 0, 1, 0], dtype=torch.uint8), "i8": torch.tensor([1, 0, 1, 0], dtype=torch.int8),
                 "i8-3": torch.tensor([1, 0, 2], dtype=torch.int8), "bool": torch.tensor([True, False, True, False]),
                 "u8-meta": torch.tensor([1, 0, 1, 0], dtype=torch.uint8, device="meta"),
                 "bool-meta": torch.tensor([True, False, True, False], device="meta"),
                 "i16": torch.tensor([1, 2], dtype=torch.int16), "u8-3": torch.tensor([1, 0, 1], dtype=torch.uint8),
                 "i64-meta": torch.tensor([1, 2], device="meta"), "i32": torch.tensor([1, 2], dtype=torch.int32)}
        for name, idx in cases.items():
            print(name)
            attempt(lambda: m[idx].shape)
            attempt(lambda: m[idx, 0].shape)
            attempt(lambda: m.__setitem__(idx, 1.0))
        """))
