"""reftorch's _tensor_str prints exactly what torch 2.13 prints.

Every test builds real torch tensors, prints them with reftorch's ``_str``
and compares with ``repr(t)`` from torch itself. The property tests also pass
the tensors through a stand-in that exposes only the attributes ``_str`` is
allowed to use, which proves the same function can print a reftorch tensor.
"""

import importlib
import math
import random
import sys
import types
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SRC = Path(__file__).resolve().parents[1] / "src"


def _load_tensor_str():
    """Import reftorch._tensor_str, even while reftorch/__init__.py is broken.

    If the package cannot be imported yet, the module (and the _dtype module
    next to it) is loaded under a private stub package instead, so no other
    test sees a half-made ``reftorch``.
    """
    if str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    try:
        return importlib.import_module("reftorch._tensor_str")
    except Exception:
        stub = types.ModuleType("_reftorch_tensor_str_stub")
        stub.__path__ = [str(SRC / "reftorch")]
        sys.modules[stub.__name__] = stub
        return importlib.import_module(stub.__name__ + "._tensor_str")


tensor_str = _load_tensor_str()
ref_dtype = importlib.import_module(tensor_str.__package__ + "._dtype")
_str = tensor_str._str


def assert_same_text(ours, expected):
    assert ours == expected, (
        f"reftorch printed:\n{ours}\n\ntorch prints:\n{expected}\n\n"
        f"as reprs: {ours!r} != {expected!r}"
    )


def assert_prints_like_torch(t):
    assert_same_text(_str(t), repr(t))


class _Device:
    """A device stand-in: its ``type`` and its text, e.g. ``cuda:0``."""

    def __init__(self, type, index=None):
        self.type = type
        self.index = index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


class _DuckTensor:
    """Only the attributes _str may use; anything else raises AttributeError."""

    __slots__ = ("_t", "device")

    def __init__(self, t, device=None):
        self._t = t
        self.device = t.device if device is None else device

    def dim(self):
        return self._t.dim()

    def numel(self):
        return self._t.numel()

    @property
    def shape(self):
        return tuple(self._t.shape)

    def tolist(self):
        return self._t.tolist()

    @property
    def dtype(self):
        return self._t.dtype

    @property
    def grad_fn(self):
        return self._t.grad_fn

    @property
    def requires_grad(self):
        return self._t.requires_grad


nan, inf = math.nan, math.inf


# ---------------------------------------------------------------------------
# The number format
# ---------------------------------------------------------------------------


def test_integer_valued_floats_print_with_trailing_dot():
    assert_prints_like_torch(torch.tensor([1.0, 2.0]))
    assert_prints_like_torch(torch.tensor([-3.0, 100.0, 7.0]))
    assert _str(torch.tensor([1.0, 2.0])) == "tensor([1., 2.])"


def test_elements_are_padded_to_the_widest_element():
    assert _str(torch.tensor([10.0, 2.0, 3.0])) == "tensor([10.,  2.,  3.])"
    assert _str(torch.tensor([True, False])) == "tensor([ True, False])"
    assert _str(torch.tensor([1, 10])) == "tensor([ 1, 10])"
    assert_prints_like_torch(torch.tensor([-1.5, 22.25, 3.0]))


def test_non_integer_floats_print_four_decimals():
    assert_prints_like_torch(torch.tensor([0.5, 1.25]))
    assert_prints_like_torch(torch.tensor([1 / 3, 2 / 3, -123.456789]))
    assert_prints_like_torch(torch.tensor(0.1, dtype=torch.float64))


def test_ratio_above_1000_switches_to_scientific_notation():
    assert_prints_like_torch(torch.tensor([1.0, 1001.5]))
    assert_prints_like_torch(torch.tensor([0.5, 999.0]))  # ratio 1998
    assert_prints_like_torch(torch.tensor([1.0, 1000.0]))  # ratio exactly 1000: no


def test_values_above_1e8_switch_to_scientific_notation():
    assert_prints_like_torch(torch.tensor([1e9]))
    assert_prints_like_torch(torch.tensor([1e8, 1.5e8]))
    assert_prints_like_torch(torch.tensor([1.0, 1e10]))


def test_values_below_1e_minus_4_switch_to_scientific_notation():
    assert_prints_like_torch(torch.tensor([1e-5]))
    assert_prints_like_torch(torch.tensor([0.0, 1e-5, 2e-5]))
    assert_prints_like_torch(torch.tensor([1e-4, 2e-4]))


def test_nan_and_inf_neither_choose_the_format_nor_the_width():
    assert _str(torch.tensor([nan, 1.0])) == "tensor([nan, 1.])"
    assert_prints_like_torch(torch.tensor([inf, -inf, 1.5]))
    assert_prints_like_torch(torch.tensor([inf, 100.0]))
    assert_prints_like_torch(torch.tensor([nan, inf, -inf]))
    assert_prints_like_torch(torch.tensor([nan, 1e-6, 3.0]))
    assert_prints_like_torch(torch.tensor(nan))


def test_negative_zero_keeps_its_sign():
    assert_prints_like_torch(torch.tensor(-0.0))
    assert_prints_like_torch(torch.tensor([-0.0, 1.0]))
    assert_prints_like_torch(torch.tensor([-0.0, 0.5]))
    assert_prints_like_torch(torch.tensor([-0.0, 1e-6]))


def test_all_zero_tensors_print_zeros_with_a_dot():
    assert_prints_like_torch(torch.zeros(3))
    assert_prints_like_torch(torch.zeros(2, 2, dtype=torch.float64))
    assert_prints_like_torch(torch.zeros(3, dtype=torch.int64))


def test_large_integers_and_bools_print_as_python_prints_them():
    assert_prints_like_torch(torch.tensor([2**62, -5, 0]))
    assert_prints_like_torch(torch.tensor([[True], [False]]))
    assert_prints_like_torch(torch.tensor(True))


# ---------------------------------------------------------------------------
# The layout
# ---------------------------------------------------------------------------


def test_zero_dim_tensors_print_their_value_only():
    for t in [torch.tensor(3.0), torch.tensor(7), torch.tensor(2.5, dtype=torch.float64)]:
        assert_prints_like_torch(t)


def test_empty_tensors_print_their_size_and_dtype():
    assert _str(torch.tensor([])) == "tensor([])"
    assert _str(torch.empty(0, 3)) == "tensor([], size=(0, 3))"
    assert _str(torch.tensor([], dtype=torch.int64)) == "tensor([], dtype=torch.int64)"
    assert_prints_like_torch(torch.empty(0, dtype=torch.bool))
    assert_prints_like_torch(torch.empty(2, 0, 4, dtype=torch.float64))
    assert_prints_like_torch(torch.empty(0, requires_grad=True))


def test_long_rows_wrap_at_column_80():
    for t in [torch.arange(30.0) * 1.5, torch.arange(100), torch.linspace(-1, 1, 50)]:
        assert "\n" in repr(t)
        assert_prints_like_torch(t)


def test_matrices_put_each_row_under_the_first():
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert _str(t) == "tensor([[1., 2.],\n        [3., 4.]])"
    assert_prints_like_torch(torch.arange(12).reshape(3, 4))


def test_wide_matrix_rows_wrap_under_their_own_bracket():
    assert_prints_like_torch(torch.arange(60.0).reshape(3, 20) / 7)


def test_each_dimension_above_two_adds_a_blank_line():
    assert_prints_like_torch(torch.arange(24.0).reshape(2, 3, 4))
    assert_prints_like_torch(torch.arange(16).reshape(2, 2, 2, 2))
    assert_prints_like_torch(torch.ones(1, 1, 1, 1, 1))


def test_tensors_over_1000_elements_are_summarised_with_dots():
    torch.manual_seed(0)
    for t in [
        torch.arange(1001.0),
        torch.arange(2000),
        torch.randn(40, 50),
        torch.randn(11, 11, 11, dtype=torch.float64),
        torch.randn(2, 1000),
        torch.arange(3000.0).reshape(1000, 3) ** 2,
    ]:
        assert "..." in repr(t)
        assert_prints_like_torch(t)


def test_tensors_of_exactly_1000_elements_are_printed_in_full():
    t = torch.arange(1000)
    assert "..." not in repr(t)
    assert_prints_like_torch(t)


def test_non_contiguous_tensors_print_their_logical_order():
    base = torch.arange(20.0).reshape(4, 5) * 0.25
    assert_prints_like_torch(base.t())
    assert_prints_like_torch(base[::2, 1::2])
    assert_prints_like_torch(torch.arange(5).expand(3, 5))


# ---------------------------------------------------------------------------
# The suffixes
# ---------------------------------------------------------------------------


def test_non_default_float_dtype_is_printed_but_int64_and_bool_are_not():
    assert _str(torch.tensor([1.5], dtype=torch.float64)) == "tensor([1.5000], dtype=torch.float64)"
    assert_prints_like_torch(torch.tensor(2, dtype=torch.int64))
    assert_prints_like_torch(torch.tensor([True]))


def test_the_default_dtype_is_the_one_not_printed():
    torch.set_default_dtype(torch.float64)
    ref_dtype.set_default_dtype(ref_dtype.float64)
    try:
        assert_prints_like_torch(torch.tensor([1.5]))
        assert_prints_like_torch(torch.tensor([1.5], dtype=torch.float32))
        assert_prints_like_torch(torch.empty(0, dtype=torch.float32))
        assert_prints_like_torch(torch.empty(0))
    finally:
        torch.set_default_dtype(torch.float32)
        ref_dtype.set_default_dtype(ref_dtype.float32)


def test_leaves_that_require_grad_say_requires_grad_true():
    assert_prints_like_torch(torch.ones(2, requires_grad=True))
    assert_prints_like_torch(torch.tensor(1.5, dtype=torch.float64, requires_grad=True))


def test_non_leaves_name_their_grad_fn():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    copied = torch.zeros(2)
    copied.copy_(x)
    for t, name in [(x * 2, "MulBackward0"), (x.clone(), "CloneBackward0"), (copied, "CopyBackwards")]:
        assert f"grad_fn=<{name}>" in repr(t)
        assert_prints_like_torch(t)
    assert_prints_like_torch(x.to(torch.float64).sum())


def test_a_suffix_that_would_pass_column_80_starts_a_new_line():
    row = torch.tensor([-2.8577, -0.9602, -1.0794, -0.2988, 2.1664, 1.3810, 0.6637])
    for t in [
        row.to(torch.float64).requires_grad_(),
        row.reshape(1, 7).to(torch.float64) * 3,
        (torch.arange(7.0) * 1.25).requires_grad_() * 2,
    ]:
        assert "\n       " in repr(t).split("]")[-1]
        assert_prints_like_torch(t)


def test_cuda_tensors_print_the_device_first():
    t = torch.tensor(1.0, dtype=torch.float64, requires_grad=True).clone()
    on_cuda = _DuckTensor(t, device=_Device("cuda", 0))
    assert_same_text(
        _str(on_cuda),
        "tensor(1., device='cuda:0', dtype=torch.float64, grad_fn=<CloneBackward0>)",
    )
    on_cuda = _DuckTensor(torch.tensor([1, 2]), device=_Device("cuda", 1))
    assert_same_text(_str(on_cuda), "tensor([1, 2], device='cuda:1')")
    on_cuda = _DuckTensor(torch.empty(0, 2), device=_Device("cuda", 0))
    assert_same_text(_str(on_cuda), "tensor([], device='cuda:0', size=(0, 2))")


def test_cuda_device_suffix_wraps_like_any_other_suffix():
    row = torch.tensor([-2.8577, -0.9602, -1.0794, -0.2988, 2.1664, 1.3810, 0.6637],
                       dtype=torch.float64, requires_grad=True)
    assert_same_text(
        _str(_DuckTensor(row, device=_Device("cuda", 0))),
        "tensor([-2.8577, -0.9602, -1.0794, -0.2988,  2.1664,  1.3810,  0.6637],\n"
        "       device='cuda:0', dtype=torch.float64, requires_grad=True)",
    )


def test_cpu_device_is_never_printed():
    assert_prints_like_torch(torch.tensor([1.0], device="cpu"))


# ---------------------------------------------------------------------------
# Properties: random tensors
# ---------------------------------------------------------------------------


def _signed(magnitudes):
    return st.tuples(st.sampled_from([1.0, -1.0]), magnitudes).map(lambda p: p[0] * p[1])


FLOAT_RANGES = [
    st.floats(-10, 10),  # small
    _signed(st.floats(1e3, 1e12)),  # huge
    _signed(st.floats(1e-8, 1e-3)),  # tiny
    st.integers(-1000, 1000).map(float),  # integer-valued
    _signed(st.floats(1e-6, 1e9)),  # anything
]
SPECIAL_FLOATS = st.sampled_from([nan, inf, -inf, 0.0, -0.0])
INT_RANGES = [st.integers(-20, 20), st.integers(-(2**63), 2**63 - 1)]
DTYPES = [torch.float32, torch.float64, torch.int64, torch.bool]


def _small_shapes():
    return st.one_of(
        st.just(()),
        st.tuples(st.integers(0, 60)),
        st.tuples(st.integers(0, 10), st.integers(0, 10)).filter(lambda s: math.prod(s) <= 60),
        st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)),
    )


def _summarised_shapes():
    return st.one_of(
        st.tuples(st.integers(1001, 3000)),
        st.tuples(st.integers(1, 80), st.integers(1, 80)).filter(lambda s: math.prod(s) > 1000),
        st.tuples(st.integers(1, 16), st.integers(1, 16), st.integers(1, 16)).filter(
            lambda s: math.prod(s) > 1000
        ),
    )


def _large_values(draw, n, dtype):
    """n values for a summarised tensor, made from a drawn seed (far quicker than n draws)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    if dtype == torch.bool:
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype == torch.int64:
        bound = rng.choice([20, 2**62])
        return [rng.randint(-bound, bound) for _ in range(n)]
    low, high = rng.choice([(-6, 9), (3, 12), (-8, -3), (0, 1)])
    with_specials = rng.random() < 0.5

    def one():
        if with_specials and rng.random() < 0.1:
            return rng.choice([nan, inf, -inf, 0.0, -0.0])
        if (low, high) == (0, 1):  # integer-valued
            return float(rng.randint(-1000, 1000))
        return rng.choice([1.0, -1.0]) * 10 ** rng.uniform(low, high)

    return [one() for _ in range(n)]


def _small_values(draw, n, dtype):
    """n values drawn one by one from one value range, so failures shrink well."""
    if dtype.is_floating_point:
        values = draw(st.sampled_from(FLOAT_RANGES))
        if draw(st.booleans()):
            values = st.one_of(values, values, values, SPECIAL_FLOATS)
    elif dtype == torch.int64:
        values = draw(st.sampled_from(INT_RANGES))
    else:
        values = st.booleans()
    return draw(st.lists(values, min_size=n, max_size=n))


@st.composite
def random_tensors(draw, shapes, make_values=_small_values):
    """A tensor of a random shape, dtype, value range, layout and autograd state."""
    shape = draw(shapes)
    dtype = draw(st.sampled_from(DTYPES))
    layout = draw(st.sampled_from(["contiguous", "transposed", "stepped"]))
    if layout == "transposed" and len(shape) < 2 or layout == "stepped" and len(shape) < 1:
        layout = "contiguous"

    base_shape = list(shape)
    if layout == "transposed":
        base_shape[0], base_shape[-1] = base_shape[-1], base_shape[0]
    if layout == "stepped":
        base_shape[0] *= 2
    flat = make_values(draw, math.prod(base_shape), dtype)
    t = torch.tensor(flat, dtype=dtype).reshape(base_shape)

    grad = draw(st.sampled_from(["none", "leaf", "mul", "clone"])) if dtype.is_floating_point else "none"
    if grad != "none":
        t.requires_grad_()
    if layout == "transposed":
        t = t.transpose(0, -1)
    if layout == "stepped":
        t = t[::2]
    if grad == "mul":
        t = t * 1
    if grad == "clone":
        t = t.clone()
    return t


def _assert_both_ways(t):
    """Print the real tensor and the duck-typed stand-in; both must match torch."""
    expected = repr(t)
    assert_same_text(_str(t), expected)
    assert_same_text(_str(_DuckTensor(t)), expected)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_tensors(_small_shapes()))
def test_random_small_tensors_print_exactly_like_torch(t):
    _assert_both_ways(t)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_tensors(_summarised_shapes(), make_values=_large_values))
def test_random_large_tensors_are_summarised_exactly_like_torch(t):
    _assert_both_ways(t)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_prints_like_torch_in_every_dimension(dtype):
    for shape in [(), (5,), (2, 3), (2, 2, 3)]:
        t = (torch.arange(math.prod(shape)).reshape(shape) % 3).to(dtype)
        _assert_both_ways(t)
