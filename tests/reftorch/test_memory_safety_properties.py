"""Memory safety, on random layouts: nothing is ever read or written outside a storage.

Layouts (size, stride, storage offset, storage size, dtype) are drawn both
inside and outside their storage, including negative and huge numbers.

* Acceptance: reftorch's ``as_strided`` and ``primitives.tensor_on`` accept
  exactly the layouts torch accepts, and refuse the others with torch's
  exception and message.
* Containment: the storage is carved out of the middle of a larger byte
  buffer, with sentinel bytes on both sides. Reads, writes, copies, views and
  even metadata changed by hand never change a sentinel, and every value read
  comes from inside the storage.
"""

import struct

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import reftorch
from reftorch import _strides, primitives
from reftorch._storage import UntypedStorage

DTYPES = [
    (torch.float32, reftorch.float32),
    (torch.float64, reftorch.float64),
    (torch.int64, reftorch.int64),
    (torch.bool, reftorch.bool),
]

settings.register_profile("memory_safety", max_examples=250, deadline=None, derandomize=True)

# Mostly small numbers, sometimes negative ones, now and then ones that overflow.
sizes = st.one_of(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4), st.integers(-2, -1))
strides = st.one_of(st.integers(0, 6), st.integers(0, 6), st.integers(-3, -1), st.sampled_from([2 ** 40, 2 ** 61]))
offsets = st.one_of(st.integers(0, 14), st.integers(0, 14), st.integers(-3, -1), st.sampled_from([2 ** 40, 2 ** 61]))


@st.composite
def layouts(draw, allow_wild=True):
    """(size, stride, offset): three in four made of small non-negative numbers,
    the rest "wild" (negative, huge, or with lengths that disagree)."""
    ndim = draw(st.integers(0, 3))
    if allow_wild and draw(st.integers(0, 3)) == 0:
        size = draw(st.lists(sizes, min_size=ndim, max_size=ndim))
        stride = draw(st.lists(strides, min_size=ndim, max_size=ndim))
        offset = draw(offsets)
        if draw(st.booleans()):
            stride = stride + [1]
    else:
        size = draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim))
        stride = draw(st.lists(st.integers(0, 6), min_size=ndim, max_size=ndim))
        offset = draw(st.integers(0, 8))
    return tuple(size), tuple(stride), offset


@st.composite
def storage_numels(draw, layout):
    """A storage size in elements: mostly just around what the layout needs, so
    that both sides of the bound are tried; sometimes anything small."""
    size, stride, offset = layout
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if 0 <= needed <= 40 and draw(st.integers(0, 3)):
        return max(0, needed + draw(st.integers(-2, 2)))
    return draw(st.integers(0, 12))


@st.composite
def layouts_on_storages(draw):
    layout = draw(layouts())
    return layout, draw(storage_numels(layout))


def outcome(make):
    """('ok', size, stride, offset, values) or (exception class, message)."""
    try:
        t = make()
    except Exception as e:  # noqa: BLE001 - we compare whatever is raised
        return type(e).__name__, str(e)
    # torch's tolist() fails inside CPython for a size such as (-1, 0): skip those values.
    values = t.tolist() if all(n >= 0 for n in t.shape) else None
    return "ok", tuple(t.shape), tuple(t.stride()), t.storage_offset(), values


@settings.get_profile("memory_safety")
@given(layouts_on_storages(), st.sampled_from(DTYPES))
def test_as_strided_accepts_and_refuses_exactly_as_torch_does(layout_and_storage, dtypes):
    (size, stride, offset), storage_numel = layout_and_storage
    torch_dtype, ref_dtype = dtypes
    expected = outcome(lambda: torch.arange(storage_numel).to(torch_dtype).as_strided(size, stride, offset))
    actual = outcome(lambda: reftorch.arange(storage_numel).to(ref_dtype).as_strided(size, stride, offset))
    assert actual == expected


@settings.get_profile("memory_safety")
@given(layouts_on_storages(), st.sampled_from(DTYPES))
def test_tensor_on_refuses_every_layout_torch_refuses(layout_and_storage, dtypes):
    """tensor_on answers as torch's as_strided does. as_strided refuses a length
    mismatch and backward strides in words of its own; there tensor_on gives
    torch's set_ wording, or accepts a backward stride that never moves (size 1)."""
    layout, storage_numel = layout_and_storage
    size, stride, offset = layout
    torch_dtype, ref_dtype = dtypes
    storage = primitives.allocate(storage_numel, ref_dtype)
    actual = outcome(lambda: primitives.tensor_on(storage, size, stride, offset, dtype=ref_dtype))
    if len(size) != len(stride):
        # set_ checks the lengths before anything else (and before allocating).
        expected = outcome(lambda: torch.empty(0).set_(torch.UntypedStorage(0), offset, size, stride))
        assert actual == expected
        return
    if any(s < 0 for s in stride):
        if actual[0] == "ok":
            assert all(n == 1 for n, s in zip(size, stride) if s < 0) or 0 in size
            assert offset >= 0 and (0 in size or _reach_inside(size, stride, offset, storage_numel))
        else:
            assert actual[0] == "RuntimeError"
        return
    expected = outcome(lambda: torch.zeros(storage_numel, dtype=torch_dtype).as_strided(size, stride, offset))
    assert actual == expected


# --- containment: sentinels around the storage --------------------------------------

PAD = 64
SENTINEL = 0xA5


class Fenced:
    """A storage carved from the middle of a larger buffer, with sentinel bytes on both sides."""

    def __init__(self, nbytes, dtype):
        self.buffer = bytearray([SENTINEL]) * (nbytes + 2 * PAD)
        self.buffer[PAD:PAD + nbytes] = bytes(nbytes)
        self.count, self.dtype = nbytes // dtype.itemsize, dtype
        # Element k holds k + 1 (bool: alternating), so a read from outside would show.
        values = [(k + 1) % 2 if dtype is reftorch.bool else k + 1 for k in range(self.count)]
        struct.pack_into(f"{self.count}{dtype._format}", self.buffer, PAD, *values)
        self.storage = UntypedStorage._wrap(memoryview(self.buffer)[PAD:PAD + nbytes])

    def typed(self, positions):
        """The numbers in these slots of the storage, read straight from the buffer."""
        numbers = struct.unpack_from(f"{self.count}{self.dtype._format}", self.buffer, PAD)
        return [numbers[p] for p in positions]

    def assert_untouched(self):
        assert self.buffer[:PAD] == bytes([SENTINEL]) * PAD and self.buffer[-PAD:] == bytes([SENTINEL]) * PAD


def _operations(t, ref_dtype, draw):
    """Reads, writes, copies and views of ``t``, each a thunk."""
    other_size = tuple(max(n, 0) for n in t.shape)
    ops = [
        lambda: repr(t), lambda: t.tolist(), lambda: t.clone(), lambda: t.contiguous(), lambda: t.detach().clone(),
        lambda: t + 1, lambda: t * t, lambda: t.sum(), lambda: t.to(reftorch.float64),
        lambda: t.fill_(7), lambda: t.zero_(), lambda: t.add_(1),
        lambda: t.copy_(reftorch.ones(other_size, dtype=ref_dtype)),
        lambda: primitives.copy_elements(t, 3),
        lambda: primitives.copy_elements(t, reftorch.full(other_size, 2, dtype=ref_dtype)),
        lambda: primitives.copy_elements(reftorch.zeros(other_size, dtype=ref_dtype), t),
        lambda: t.__setitem__(Ellipsis, 5),
        lambda: t.flatten().fill_(8),
        lambda: t.reshape(-1).clone(),
    ]
    if t.dim() >= 1 and t.shape[0] > 0:
        ops += [lambda: t[0].fill_(9), lambda: t[-1:].clone(), lambda: t[::2].zero_()]
    if t.dim() == 2:
        ops += [lambda: t.t().contiguous(), lambda: t.t().fill_(1)]
    size, stride, offset = draw(layouts())
    ops += [lambda: t.as_strided(size, stride, offset).fill_(11), lambda: t.as_strided(size, stride, offset).clone()]
    return ops


@settings.get_profile("memory_safety")
@given(st.data(), layouts_on_storages(), st.integers(0, 7), st.sampled_from(DTYPES))
def test_nothing_reads_or_writes_outside_a_storage(data, layout_and_storage, extra_bytes, dtypes):
    (size, stride, offset), storage_numel = layout_and_storage
    ref_dtype = dtypes[1]
    fenced = Fenced(storage_numel * ref_dtype.itemsize + extra_bytes, ref_dtype)
    try:
        t = primitives.tensor_on(fenced.storage, size, stride, offset, dtype=ref_dtype)
    except RuntimeError:
        fenced.assert_untouched()
        return
    if t.numel() > 0:
        positions = _strides.element_positions(size, stride, offset)
        assert _flat(t.tolist()) == fenced.typed(positions)
    for op in _operations(t, ref_dtype, data.draw):
        try:
            op()
        except Exception:  # noqa: BLE001 - refusing is fine; touching the sentinels is not
            pass
        fenced.assert_untouched()


@settings.get_profile("memory_safety")
@given(st.data(), layouts(allow_wild=False), layouts(), st.integers(0, 12), st.sampled_from(DTYPES))
def test_metadata_changed_by_hand_cannot_reach_outside(data, good, bad, storage_numel, dtypes):
    """Even a tensor whose ``_size``/``_stride``/``_storage_offset`` were overwritten
    stays inside its storage: ``_values`` reads the metadata as it is now."""
    ref_dtype = dtypes[1]
    fenced = Fenced(storage_numel * ref_dtype.itemsize, ref_dtype)
    try:
        t = primitives.tensor_on(fenced.storage, *good, dtype=ref_dtype)
    except RuntimeError:
        return
    t._size, t._stride, t._storage_offset = bad
    size, stride, offset = bad
    # No elements: nothing to reach. Otherwise every element must be inside.
    fits = len(size) == len(stride) and (
        0 in size or (all(n > 0 for n in size) and _reach_inside(size, stride, offset, storage_numel))
    )
    try:
        values = t.tolist()
    except RuntimeError as e:
        assert not fits and "reftorch refuses to read or write this tensor" in str(e)
    else:
        assert fits
        if 0 not in size:
            assert _flat(values) == fenced.typed(_strides.element_positions(size, stride, offset))
    for op in _operations(t, ref_dtype, data.draw):
        try:
            op()
        except Exception:  # noqa: BLE001
            pass
        fenced.assert_untouched()


def _flat(values):
    return [x for v in values for x in _flat(v)] if isinstance(values, list) else [values]


def _reach_inside(size, stride, offset, storage_numel):
    lowest = offset + sum((n - 1) * s for n, s in zip(size, stride) if s < 0)
    highest = offset + sum((n - 1) * s for n, s in zip(size, stride) if s > 0)
    return 0 <= lowest and highest < storage_numel


@pytest.mark.parametrize("field, value", [("_stride", (1.5,)), ("_size", ("4",)), ("_storage_offset", None),
                                          ("_stride", (1, 1)), ("_size", (-3,)), ("_stride", (5,))])
def test_corrupted_metadata_gives_a_clear_error(field, value):
    t = reftorch.arange(4.)
    setattr(t, field, value)
    with pytest.raises(RuntimeError, match="reftorch refuses to read or write this tensor: its metadata"):
        t.tolist()
    with pytest.raises(RuntimeError, match="Was its metadata changed by hand"):
        t.fill_(1.0)


@settings.get_profile("memory_safety")
@given(layouts_on_storages(), st.integers(0, 7), st.sampled_from(DTYPES))
def test_numpy_bridge_reads_and_writes_only_inside_a_storage(layout_and_storage, extra_bytes, dtypes):
    """``t.numpy()`` and ``from_numpy`` on it see exactly the tensor's elements, nothing around them."""
    pytest.importorskip("numpy", reason="numpy is not installed: the numpy bridge (reftorch's optional numpy extra) "
                                        "is not tested")
    (size, stride, offset), storage_numel = layout_and_storage
    fenced = Fenced(storage_numel * dtypes[1].itemsize + extra_bytes, dtypes[1])
    try:
        t = primitives.tensor_on(fenced.storage, size, stride, offset, dtype=dtypes[1])
    except RuntimeError:
        return
    for op in (lambda: t.numpy().__setitem__(Ellipsis, 4), lambda: reftorch.from_numpy(t.numpy()).fill_(6)):
        try:
            op()
        except Exception:  # noqa: BLE001 - refusing is fine; touching the sentinels is not
            pass
        fenced.assert_untouched()
