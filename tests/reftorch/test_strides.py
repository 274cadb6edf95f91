"""The stride arithmetic in reftorch._strides, checked against torch on random layouts.

Layouts are drawn like minitorch draws them: a shape, then a permutation and
steps, so most tensors here are non-contiguous.
"""

import math
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import reftorch
from reftorch import _iterator_strides
from reftorch import _shapes
from reftorch import _strides


@st.composite
def strided_torch_tensors(draw, max_dims=4):
    """A torch tensor that is a permuted, stepped or expanded view of a fresh one."""
    ndim = draw(st.integers(0, max_dims))
    shape = draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim))
    steps = draw(st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim))
    base = torch.arange(float(math.prod([n * s for n, s in zip(shape, steps)]) if ndim else 1))
    t = base.view([n * s for n, s in zip(shape, steps)]) if ndim else base.view(())
    t = t[tuple(slice(None, None, s) for s in steps)] if ndim else t
    perm = draw(st.permutations(list(range(ndim))))
    t = t.permute(*perm) if ndim else t
    if ndim and draw(st.booleans()):
        dim = draw(st.integers(0, ndim - 1))
        if t.shape[dim] > 0:
            t = t.narrow(dim, 0, 1).expand(*[(3 if d == dim else n) for d, n in enumerate(t.shape)])
    return t


settings.register_profile("strides", max_examples=300, deadline=None, derandomize=True)


@settings.get_profile("strides")
@given(strided_torch_tensors())
def test_contiguity_and_density_agree_with_torch(t):
    assert _strides.is_contiguous(t.shape, t.stride()) == t.is_contiguous()
    dense = _strides.is_non_overlapping_and_dense(tuple(t.shape), t.stride())
    clone_keeps_strides = t.clone().stride() == t.stride()
    # A dense layout is exactly the one clone() keeps as is.
    if dense:
        assert clone_keeps_strides, (tuple(t.shape), t.stride(), t.clone().stride())


@settings.get_profile("strides")
@given(strided_torch_tensors())
def test_preserve_format_strides_are_the_strides_of_torchs_clone(t):
    expected = t.clone().stride()
    got = _strides.preserve_format_strides(tuple(t.shape), t.stride())
    assert got == expected, f"clone of shape {tuple(t.shape)} strides {t.stride()}: torch {expected}, ours {got}"


@settings.get_profile("strides")
@given(strided_torch_tensors(), st.data())
def test_view_strides_match_torch_or_both_refuse(t, data):
    numel = t.numel()
    # a new shape with the same number of elements: split into up to 3 factors
    factors = [d for d in range(1, numel + 1) if numel % d == 0] or [1]
    first = data.draw(st.sampled_from(factors))
    new_shape = (first, numel // first) if numel else (0,)
    try:
        expected = t.view(new_shape).stride()
    except RuntimeError:
        expected = None
    got = _shapes.view_strides(tuple(t.shape), t.stride(), new_shape)
    assert got == expected, f"view {tuple(t.shape)}/{t.stride()} as {new_shape}: torch {expected}, ours {got}"


@settings.get_profile("strides")
@given(strided_torch_tensors(max_dims=3), strided_torch_tensors(max_dims=3))
def test_elementwise_output_strides_match_torch(a, b):
    try:
        expected = (a + b).stride()
        shape = tuple((a + b).shape)
    except RuntimeError:
        return  # shapes do not broadcast: nothing to lay out
    got = _iterator_strides.elementwise_output_strides(shape, [(tuple(a.shape), a.stride()), (tuple(b.shape), b.stride())])
    if 0 in shape:
        return  # torch's layout of an empty result is not observable in memory
    assert got == expected, f"{tuple(a.shape)}/{a.stride()} + {tuple(b.shape)}/{b.stride()}: torch {expected}, ours {got}"


@settings.get_profile("strides")
@given(strided_torch_tensors())
def test_element_positions_read_what_as_strided_reads(t):
    storage = torch.arange(float(t.untyped_storage().nbytes() // 4))
    positions = _strides.element_positions(tuple(t.shape), t.stride(), t.storage_offset())
    expected = storage.as_strided(t.shape, t.stride(), t.storage_offset())
    assert [float(p) for p in positions] == expected.flatten().tolist()


def test_inputs_of_the_result_shape_that_are_all_contiguous_give_a_contiguous_result():
    # torch's TensorIterator shortcut: the size-1 dims' strides do not decide
    for m in (torch, reftorch):
        base = m.zeros(10)
        a, b = base.as_strided((1, 2, 1), (2, 1, 1)), base.as_strided((1, 2, 1), (1, 1, 2))
        assert (a + b).stride() == (2, 1, 1), m.__name__


def test_broadcast_shapes_error_is_the_one_torch_arithmetic_raises():
    try:
        _shapes.broadcast_shapes((2, 3), (4,))
    except RuntimeError as error:
        try:
            torch.zeros(2, 3) + torch.zeros(4)
        except RuntimeError as torch_error:
            assert str(error) == str(torch_error)
    else:
        raise AssertionError("shapes (2, 3) and (4,) do not broadcast; no error was raised")
