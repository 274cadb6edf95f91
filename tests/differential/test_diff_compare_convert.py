"""Comparing and converting: equal/isclose/allclose, as_tensor/asarray, numpy(force=),
and the dtypes float16, int32, int16, int8 and uint8."""

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
import torch

import reftorch
from crosscheck.harness import assert_same, assert_same_as_gpu

from diff_programs import attempt_source

ATTEMPT = attempt_source("repr(result)")


@pytest.fixture(autouse=True, scope="module")
def _spend_the_once_per_process_warnings():
    """torch gives two of these warnings once per process. Spend them on both libraries
    before the programs run, so that no program depends on the order of the tests
    (the first warning of each is checked in a subprocess below)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lib in (torch, reftorch):
            lib.asarray(lib.tensor([1.0], requires_grad=True))
            read_only = np.zeros(1)
            read_only.flags.writeable = False
            lib.from_numpy(read_only)


# --- equal ------------------------------------------------------------------------


def test_equal_compares_shapes_and_numbers_after_promotion():
    assert_same(ATTEMPT + """
a = torch.tensor([1.0, 2.0, 3.0])
nan = torch.tensor([float("nan"), 1.0])
attempt(lambda: torch.equal(a, torch.tensor([1.0, 2.0, 3.0])))
attempt(lambda: torch.equal(a, torch.tensor([1.0, 2.0, 3.0000001])))
attempt(lambda: torch.equal(a, torch.tensor([1.0, 2.0, 3.001])))
attempt(lambda: torch.equal(a, torch.tensor([1, 2, 3])))
attempt(lambda: torch.equal(a, a.double()))
attempt(lambda: torch.equal(torch.tensor([1, 0, 1]), torch.tensor([True, False, True])))
attempt(lambda: torch.equal(torch.tensor([1, 2, 1]), torch.tensor([True, False, True])))
attempt(lambda: torch.equal(torch.tensor([16777217]), torch.tensor([16777216.0])))
attempt(lambda: torch.equal(torch.tensor(1.5), torch.tensor(1)))
attempt(lambda: torch.equal(a, a[:2]))
attempt(lambda: torch.equal(a, a.view(3, 1)))
attempt(lambda: torch.equal(torch.tensor(1.0), torch.tensor([1.0])))
attempt(lambda: torch.equal(torch.zeros(0), torch.zeros(0, 2)))
attempt(lambda: torch.equal(torch.zeros(0), torch.zeros(0)))
attempt(lambda: torch.equal(nan, nan))
attempt(lambda: torch.equal(nan, nan[:]))
attempt(lambda: torch.equal(nan, nan.clone()))
attempt(lambda: torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2])[:]))
attempt(lambda: a.equal(a.t()))
attempt(lambda: torch.equal(torch.tensor([[1, 2], [3, 4]]).t(), torch.tensor([[1, 3], [2, 4]])))
attempt(lambda: torch.equal(torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0])))
attempt(lambda: torch.equal(torch.tensor([300]).byte(), torch.tensor([44])))
attempt(lambda: torch.equal(torch.tensor([0.1]).half(), torch.tensor([0.1])))
""")


def test_equal_argument_errors():
    assert_same(ATTEMPT + """
a = torch.tensor([1.0, 2.0])
attempt(lambda: torch.equal(a, [1.0, 2.0]))
attempt(lambda: torch.equal(a, 1))
attempt(lambda: torch.equal([1.0, 2.0], a))
attempt(lambda: a.equal([1]))
attempt(lambda: a.equal(None))
""")


def test_equal_on_a_gpu():
    assert_same_as_gpu(
        """
        a = torch.tensor([1.0, 2.0]).cuda()
        b = torch.tensor([1, 2], device="cuda")
        print(torch.equal(a, b), a.equal(a * 1), torch.equal(a, a + 1))
        """,
        expect_cuda=["a", "b"],
    )


# --- isclose and allclose --------------------------------------------------------------


def test_isclose_and_allclose_with_default_and_given_tolerances():
    assert_same(ATTEMPT + """
a = torch.tensor([1.0, 2.0, 3.0])
attempt(lambda: torch.isclose(a, torch.tensor([1.0, 2.0, 3.0000001])))
attempt(lambda: torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor([1.00001, 2.0])))
attempt(lambda: torch.isclose(torch.tensor([1e10]), torch.tensor([1.00001e10])))
attempt(lambda: torch.isclose(a, a + 1e-5))
attempt(lambda: torch.isclose(a, a + 1e-5, rtol=0, atol=0))
attempt(lambda: torch.isclose(a, a + 0.1, rtol=0.05))
attempt(lambda: torch.isclose(a, a + 0.1, atol=0.1))
attempt(lambda: torch.isclose(a, a + 0.1, 0.0, 0.2))
attempt(lambda: torch.isclose(a, torch.tensor(2.0)))
attempt(lambda: torch.isclose(a.view(3, 1), a))
attempt(lambda: torch.isclose(torch.tensor(1.0), torch.tensor([1.0, 2.0])))
attempt(lambda: torch.allclose(a, a + 1e-6))
attempt(lambda: torch.allclose(a, a + 1e-5))
attempt(lambda: torch.allclose(a, a + 0.1, 0.1))
attempt(lambda: torch.allclose(torch.zeros(0), torch.zeros(0)))
attempt(lambda: torch.allclose(torch.zeros(2, 1), torch.zeros(3)))
attempt(lambda: a.isclose(a * 1.000001))
attempt(lambda: a.allclose(a * 1.0001, rtol=1e-3))
attempt(lambda: a.isclose(a + 0.5, 0.0, 0.5, True))
""")


def test_isclose_in_float64_float16_integers_and_bools():
    assert_same(ATTEMPT + """
d = torch.tensor([1.0, 2.0, 1e10], dtype=torch.float64)
attempt(lambda: torch.isclose(d, d * (1 + 1e-5)))
attempt(lambda: torch.isclose(d, d + 1e-8))
h = torch.tensor([1.0, 2.0, 1000.0]).half()
attempt(lambda: torch.isclose(h, torch.tensor([1.001, 2.0, 1000.5]).half()))
attempt(lambda: torch.isclose(h, h + 0.01, rtol=0.001))
attempt(lambda: torch.allclose(h, torch.tensor([1.0005, 2.001, 1001.0]).half(), rtol=1e-3))
i = torch.tensor([1, 2, 3])
attempt(lambda: torch.isclose(i, i))
attempt(lambda: torch.isclose(i, torch.tensor([1, 2, 4]), rtol=0.5))
attempt(lambda: torch.isclose(i, torch.tensor([2, 3, 4]), atol=1))
attempt(lambda: torch.isclose(i, torch.tensor([2, 3, 4]), atol=0.99))
attempt(lambda: torch.isclose(torch.tensor([16777217]), torch.tensor([16777216]), rtol=0, atol=0))
attempt(lambda: torch.isclose(torch.tensor([16777217]), torch.tensor([16777216])))
attempt(lambda: torch.isclose(torch.tensor([16777217, 100]), torch.tensor([16777216, 101]), rtol=0, atol=0.5))
attempt(lambda: torch.isclose(torch.tensor([2 ** 62]), torch.tensor([-2 ** 62])))
attempt(lambda: torch.isclose(torch.tensor([100, 5], dtype=torch.int8), torch.tensor([-100, 6], dtype=torch.int8), atol=50))
attempt(lambda: torch.isclose(torch.tensor([250, 3], dtype=torch.uint8), torch.tensor([5, 4], dtype=torch.uint8), atol=2))
attempt(lambda: torch.isclose(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1, 3], dtype=torch.int32), rtol=0.4))
attempt(lambda: torch.isclose(torch.tensor([True, False]), torch.tensor([True, True])))
attempt(lambda: torch.isclose(torch.tensor([True, False]), torch.tensor([True, True]), atol=1))
attempt(lambda: torch.allclose(torch.tensor([True, False]), torch.tensor([True, False])))
""")


def test_isclose_with_nan_and_inf():
    assert_same(ATTEMPT + """
inf, nan = float("inf"), float("nan")
x = torch.tensor([nan, inf, -inf, inf, 1.0, nan])
y = torch.tensor([nan, inf, inf, 1e38, nan, 1.0])
attempt(lambda: torch.isclose(x, y))
attempt(lambda: torch.isclose(x, y, equal_nan=True))
attempt(lambda: torch.isclose(x, y, rtol=0, atol=0, equal_nan=True))
attempt(lambda: torch.allclose(x[:1], y[:1]))
attempt(lambda: torch.allclose(x[:2], y[:2], equal_nan=True))
attempt(lambda: torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 2]), equal_nan=True))
attempt(lambda: torch.isclose(x.double(), y.double(), atol=inf))
""")


def test_isclose_result_layout_and_history():
    assert_same("""
a = torch.ones(2, 3).t()
b = torch.ones(3, 2)
c1 = torch.isclose(a, b)
c2 = torch.isclose(a, b, rtol=0, atol=0)
r = torch.tensor([1.0, 2.0], requires_grad=True)
c3 = torch.isclose(r * 2, torch.tensor([2.0, 4.5]))
print(c1.stride(), c2.stride(), c3, c3.requires_grad, c3.grad_fn)
print(torch.allclose(r, r.detach()), type(torch.allclose(r, r)))
""")


def test_isclose_and_allclose_errors():
    assert_same(ATTEMPT + """
a = torch.tensor([1.0, 2.0, 3.0])
i = torch.tensor([1, 2, 3])
attempt(lambda: torch.isclose(a, i))
attempt(lambda: torch.allclose(a, i))
attempt(lambda: torch.isclose(a, a.double()))
attempt(lambda: torch.isclose(i, i.double()))
attempt(lambda: torch.isclose(a, a[:2]))
attempt(lambda: torch.allclose(a, a[:2]))
attempt(lambda: torch.isclose(a, a, rtol=-1))
attempt(lambda: torch.isclose(a, a, atol=-1))
attempt(lambda: torch.isclose(a, a, rtol=-1.5, atol=-1))
attempt(lambda: torch.allclose(a, a, atol=-1e-5))
attempt(lambda: torch.isclose(a, i, rtol=-1))
attempt(lambda: torch.isclose(a, a[:2], rtol=-1))
attempt(lambda: torch.isclose(a, 1.0))
attempt(lambda: torch.allclose(a, 1.0))
attempt(lambda: torch.isclose([1.0], a))
attempt(lambda: a.isclose(1.0))
attempt(lambda: a.allclose([1.0]))
attempt(lambda: torch.isclose(a, a, "x"))
attempt(lambda: a.isclose(a, "x"))
attempt(lambda: torch.allclose(a, a, atol="x"))
attempt(lambda: torch.isclose(a, a, rtol=None))
attempt(lambda: torch.isclose(a, a, equal_nan=1))
attempt(lambda: torch.isclose(a, a, 1e-5, 1e-8, "y"))
attempt(lambda: torch.isclose(a, a, rtol=True, atol=torch.tensor(0.5)))
""")


def test_isclose_agrees_on_values_near_the_tolerance():
    """Pairs of float32 numbers a few ulps either side of the bound ``atol + rtol * |b|``."""
    assert_same("""
import random
random.seed(7)
xs, ys = [], []
for _ in range(300):
    b = random.uniform(-100, 100) * 10 ** random.randint(-6, 6)
    bound = 1e-8 + 1e-5 * abs(b)
    xs.append(b + random.choice([-1, 1]) * bound * random.uniform(0.999, 1.001))
    ys.append(b)
x, y = torch.tensor(xs), torch.tensor(ys)
close32 = torch.isclose(x, y)
close64 = torch.isclose(x.double(), y.double())
close16 = torch.isclose(x.half(), y.half(), rtol=1e-3)
print(close32.sum(), close64.sum(), close16.sum())
""")


# --- as_tensor ----------------------------------------------------------------------


def test_as_tensor_of_a_tensor_is_to():
    assert_same("""
t = torch.tensor([1.0, 2.0, 3.0])
tg = torch.tensor([1.0, 2.0], requires_grad=True)
nl = tg * 2
same = torch.as_tensor(t)
same_dtype = torch.as_tensor(t, dtype=torch.float32)
same_device = torch.as_tensor(t, device="cpu")
other_dtype = torch.as_tensor(t, dtype=torch.float64)
leaf = torch.as_tensor(tg)
leaf_cast = torch.as_tensor(tg, dtype=torch.float64)
non_leaf = torch.as_tensor(nl)
view = torch.as_tensor(t[::2])
print(same is t, same_dtype is t, same_device is t, other_dtype is t, leaf is tg, non_leaf is nl, view.stride())
print(leaf_cast, leaf_cast.grad_fn.name(), non_leaf.grad_fn.name())
""")


def test_as_tensor_of_a_numpy_array_shares_memory_unless_the_dtype_changes():
    assert_same("""
import numpy as np
arr = np.array([1.0, 2.0, 3.0])
shared = torch.as_tensor(arr)
also_shared = torch.as_tensor(arr, dtype=torch.float64)
copied = torch.as_tensor(arr, dtype=torch.float32)
arr[0] = 10.0
print(shared, also_shared, copied)
shared[1] = 20.0
print(arr, shared._version)
ints = np.array([1, 2], dtype=np.int32)
t32 = torch.as_tensor(ints)
ints[1] = 7
print(t32, t32.dtype)
grid = np.arange(12.0).reshape(3, 4)
every_other = torch.as_tensor(grid[:, ::2])
grid[2, 2] = -1.0
print(every_other, every_other.stride(), every_other.is_contiguous())
zero_d = torch.as_tensor(np.array(2.5))
print(zero_d, zero_d.dim())
""")


def test_as_tensor_of_python_data_and_numpy_numbers():
    assert_same(ATTEMPT + """
import numpy as np
attempt(lambda: torch.as_tensor([1, 2, 3]))
attempt(lambda: torch.as_tensor([1.0, 2.0]))
attempt(lambda: torch.as_tensor((1, 2)))
attempt(lambda: torch.as_tensor(3))
attempt(lambda: torch.as_tensor(3.5, dtype=torch.float16))
attempt(lambda: torch.as_tensor(np.float32(2.5)))
attempt(lambda: torch.as_tensor(np.float64(2.5)))
attempt(lambda: torch.as_tensor(np.int32(7)))
attempt(lambda: torch.as_tensor([np.int32(1), 2]))
attempt(lambda: torch.as_tensor([1, np.float32(2.0)]))
attempt(lambda: torch.as_tensor([np.int8(1), np.uint8(2)]))
attempt(lambda: torch.as_tensor(np.True_))
attempt(lambda: torch.as_tensor([[1, 2], [3]]))
attempt(lambda: torch.as_tensor([torch.tensor([1.0, 2.0])]))
attempt(lambda: torch.as_tensor("a"))
attempt(lambda: torch.as_tensor([1.0], dtype="x"))
attempt(lambda: torch.as_tensor([1.0], requires_grad=True))
attempt(lambda: torch.as_tensor(np.arange(4.0)[::-1]))
""")


def test_tensor_and_new_tensor_refuse_the_arrays_from_numpy_refuses():
    assert_same(ATTEMPT + """
import numpy as np
odd = np.lib.stride_tricks.as_strided(np.zeros(8, dtype=np.float32), shape=(2,), strides=(6,))
for array in (np.arange(4.0)[::-1], np.arange(6.0).reshape(2, 3)[:, ::-1], np.arange(3.0).astype(">f8"), odd,
              np.arange(0.0)[::-1]):
    attempt(lambda: torch.tensor(array))
    attempt(lambda: torch.tensor(array, dtype=torch.float32))
    attempt(lambda: torch.zeros(1).new_tensor(array))
""")


def test_as_tensor_to_a_gpu():
    assert_same_as_gpu(
        """
        import numpy as np
        t = torch.tensor([1.0, 2.0])
        g = torch.as_tensor(t, device="cuda")
        n = torch.as_tensor(np.array([1.0, 2.0]), device="cuda")
        back = torch.as_tensor(g, device="cuda")
        print(g, n, back is g)
        """,
        expect_cuda=["g", "n", "back"],
    )


# --- asarray ------------------------------------------------------------------------


def show_source(shown: str) -> str:
    """Source of ``show(name, source, make)``: prints ``name`` and the exception ``make(source)``
    raised, or whether its result ``r`` is ``source``, shares its memory, and ``shown``."""
    return f"""
def show(name, source, make):
    try:
        r = make(source)
    except Exception as e:
        print(name, type(e).__name__, e)
    else:
        print(name, r is source, r.data_ptr() == source.data_ptr(), {shown})
"""


def test_asarray_of_a_tensor_copy_none_true_false():
    assert_same(ATTEMPT + show_source("r.dtype, r.stride(), r.requires_grad, r.is_leaf, r.grad_fn") + """
def fresh():
    return torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
for name, make in [
    ("none", lambda s: torch.asarray(s)),
    ("copy", lambda s: torch.asarray(s, copy=True)),
    ("no copy", lambda s: torch.asarray(s, copy=False)),
    ("dtype", lambda s: torch.asarray(s, dtype=torch.float64)),
    ("dtype copy", lambda s: torch.asarray(s, dtype=torch.float64, copy=True)),
    ("dtype no copy", lambda s: torch.asarray(s, dtype=torch.float64, copy=False)),
    ("same dtype no copy", lambda s: torch.asarray(s, dtype=torch.float32, copy=False)),
    ("device", lambda s: torch.asarray(s, device="cpu", copy=False)),
    ("transposed copy", lambda s: torch.asarray(s.t(), copy=True)),
    ("stepped copy", lambda s: torch.asarray(s[:, ::2], copy=True)),
    ("expanded copy", lambda s: torch.asarray(s[:1].expand(3, 3), copy=True)),
    ("int", lambda s: torch.asarray(s, dtype=torch.int32)),
    ("bad copy", lambda s: torch.asarray(s, copy="yes")),
    ("bad dtype", lambda s: torch.asarray(s, dtype="float")),
]:
    show(name, fresh(), make)
""")


def test_asarray_sets_requires_grad_on_the_object_it_returns():
    assert_same(show_source('r.requires_grad, r.is_leaf, r.grad_fn, "| source:", source.requires_grad, '
                            "source.is_leaf") + """
def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)
def plain():
    return torch.tensor([1.0, 2.0])
show("leaf", leaf(), lambda s: torch.asarray(s, requires_grad=True))
show("leaf off", leaf(), lambda s: torch.asarray(s, requires_grad=False))
show("leaf unspecified", leaf(), lambda s: torch.asarray(s))
show("leaf copy", leaf(), lambda s: torch.asarray(s, copy=True))
show("leaf copy off", leaf(), lambda s: torch.asarray(s, copy=True, requires_grad=False))
show("leaf cast", leaf(), lambda s: torch.asarray(s, dtype=torch.float64))
show("leaf cast on", leaf(), lambda s: torch.asarray(s, dtype=torch.float64, requires_grad=True))
show("plain on", plain(), lambda s: torch.asarray(s, requires_grad=True))
show("plain copy on", plain(), lambda s: torch.asarray(s, requires_grad=True, copy=True))
show("plain cast on", plain(), lambda s: torch.asarray(s, dtype=torch.float64, requires_grad=True))
show("non-leaf", leaf() * 2, lambda s: torch.asarray(s))
show("non-leaf off", leaf() * 2, lambda s: torch.asarray(s, requires_grad=False))
show("non-leaf on", leaf() * 2, lambda s: torch.asarray(s, requires_grad=True))
show("non-leaf copy", leaf() * 2, lambda s: torch.asarray(s, copy=True))
show("int on", torch.tensor([1, 2]), lambda s: torch.asarray(s, requires_grad=True))
show("int off", torch.tensor([1, 2]), lambda s: torch.asarray(s, requires_grad=False))
show("bad flag", plain(), lambda s: torch.asarray(s, requires_grad=1))
with torch.no_grad():
    show("no_grad leaf copy", leaf(), lambda s: torch.asarray(s, copy=True))
kept = leaf()
view = torch.asarray(kept, requires_grad=False)
print(kept.requires_grad, view is kept)
""")


def test_asarray_of_numpy_arrays_numbers_and_lists():
    assert_same(ATTEMPT + """
import numpy as np
arr = np.array([1.0, 2.0, 3.0])
shared = torch.asarray(arr)
no_copy = torch.asarray(arr, copy=False)
copied = torch.asarray(arr, copy=True)
cast = torch.asarray(arr, dtype=torch.float32)
grad = torch.asarray(arr, requires_grad=True)
arr[0] = 10.0
print(shared, no_copy, copied, cast, grad)
grid = np.arange(12.0).reshape(3, 4)[:, ::2]
strided, packed = torch.asarray(grid), torch.asarray(grid, copy=True)
print(strided.stride(), packed.stride())
attempt(lambda: torch.asarray(arr, dtype=torch.float32, copy=False))
attempt(lambda: torch.asarray(np.arange(4.0)[::-1]))
attempt(lambda: torch.asarray(np.arange(4.0)[::-1], copy=True))
attempt(lambda: torch.asarray(np.float32(2.5)))
attempt(lambda: torch.asarray(np.float32(2.5), copy=False))
attempt(lambda: torch.asarray(np.array(2.5)))
attempt(lambda: torch.asarray(np.int16(4), requires_grad=False))
attempt(lambda: torch.asarray(np.float32(2.5), dtype=torch.float64))
attempt(lambda: torch.asarray(np.float32(2.5), dtype=torch.float64, copy=True))
attempt(lambda: torch.asarray(np.float32(2.5), copy=True))
attempt(lambda: torch.asarray(np.float64(2.5), requires_grad=True))
attempt(lambda: torch.asarray([1, 2]))
attempt(lambda: torch.asarray([1, 2], copy=False))
attempt(lambda: torch.asarray([1.0, 2.0], dtype=torch.float64))
attempt(lambda: torch.asarray([1, 2], dtype=torch.float16))
attempt(lambda: torch.asarray(3.5))
attempt(lambda: torch.asarray([1, 2], requires_grad=True))
attempt(lambda: torch.asarray([1.0, 2.0], requires_grad=True))
attempt(lambda: torch.asarray([torch.tensor([1.0, 2.0])]))
attempt(lambda: torch.asarray("x"))
""")


def test_asarray_follows_a_default_device_as_named():
    """With no ``device=``, ``asarray`` asks for the default device set with ``set_default_device``,
    as named: ``"meta"`` moves a tensor or an array there, ``"cpu:0"`` copies a CPU tensor, and
    ``copy=False`` refuses both."""
    assert_same(
        """
        import numpy as np
        t = torch.tensor([1.0, 2.0], requires_grad=True)
        arr = np.arange(3.0)
        for default in ("meta", "cpu:0"):
            torch.set_default_device(default)
            try:
                for obj in (t, arr):
                    for copy in (None, True, False):
                        try:
                            r = torch.asarray(obj, copy=copy)
                            print(default, copy, r is obj, r.device, r.requires_grad, type(r.grad_fn).__name__)
                        except ValueError as err:
                            print(default, copy, "ValueError:", err)
            finally:
                torch.set_default_device(None)
        """
    )


def test_asarray_to_a_gpu():
    assert_same_as_gpu(
        """
        t = torch.tensor([1.0, 2.0])
        g = torch.asarray(t, device="cuda")
        g2 = torch.asarray(g, device="cuda:0", copy=False)
        print(g, g2 is g)
        try:
            torch.asarray(t, device="cuda", copy=False)
        except ValueError as e:
            print(str(e).startswith("can't alias tensor from device 'cpu' to 'cuda"))
        """,
        cpu_program="""
        t = torch.tensor([1.0, 2.0])
        g = torch.asarray(t, device="cpu", copy=True)
        g2 = torch.asarray(g, device="cpu", copy=False)
        print(g, g2 is g)
        print(True)
        """,
        expect_cuda=["g", "g2"],
    )


def _first_warnings(lib_name, calls):
    script = textwrap.dedent(f"""
        import warnings
        import numpy as np
        import {lib_name} as torch
        warnings.simplefilter("always")
        for call in {calls!r}:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                eval(call)
            print(call, [str(w.message) for w in caught])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_warnings_that_torch_gives_once_per_process():
    calls = [
        "torch.asarray(torch.tensor([1.0]))",
        "torch.asarray(torch.tensor([1.0], requires_grad=True), requires_grad=True)",
        "torch.asarray(torch.tensor([1.0], requires_grad=True))",
        "torch.asarray(torch.tensor([1.0], requires_grad=True))",
        "torch.from_numpy(np.zeros(2))",
        "torch.as_tensor(np.broadcast_to(np.zeros(1), (3,)))",
        "torch.from_numpy(np.broadcast_to(np.zeros(1), (3,)))",
        "torch.asarray(np.broadcast_to(np.zeros(1), (3,)))",
    ]
    expected = _first_warnings("torch", calls)
    assert "unspecified requires_grad" in expected and "not writable" in expected
    assert _first_warnings("reftorch", calls) == expected


# --- numpy(force=) ----------------------------------------------------------------


def test_numpy_refuses_a_tensor_that_requires_grad_unless_forced():
    assert_same(ATTEMPT + """
import numpy as np
tg = torch.tensor([1.0, 2.0], requires_grad=True)
attempt(lambda: tg.numpy())
attempt(lambda: (tg * 2).numpy())
attempt(lambda: tg.numpy(True))
attempt(lambda: tg.numpy(force=1))
attempt(lambda: tg.numpy(foo=1))
attempt(lambda: np.asarray(tg))
forced = tg.numpy(force=True)
forced[0] = 5.0
print(forced, forced.dtype, tg, tg._version)
with torch.no_grad():
    print(tg.numpy())
plain = torch.tensor([1.0, 2.0])
n = plain.numpy(force=False)
n[1] = 7.0
print(plain, plain._version, np.shares_memory(n, plain.numpy(force=True)))
print(np.asarray(torch.tensor([1, 2])), np.asarray(torch.tensor([1, 2]), dtype=np.float32))
print(np.array(torch.tensor([1.0, 2.0])))
for dtype in [torch.float16, torch.float32, torch.float64, torch.uint8, torch.int8, torch.int16,
              torch.int32, torch.int64, torch.bool]:
    print(torch.tensor([1, 0]).to(dtype).numpy().dtype)
""")


def test_numpy_of_a_cuda_tensor():
    assert_same_as_gpu(
        """
        g = torch.tensor([1.0, 2.0], requires_grad=True).cuda()
        try:
            g.numpy()
        except TypeError as e:
            print(type(e).__name__, e)
        a = g.numpy(force=True)
        a[0] = 9.0
        print(a, g)
        """,
        cpu_program="""
        g = torch.tensor([1.0, 2.0], requires_grad=True).to("cpu", copy=True)
        try:
            raise TypeError("can't convert cpu device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.")
        except TypeError as e:
            print(type(e).__name__, e)
        a = g.detach().clone().numpy()
        a[0] = 9.0
        print(a, g)
        """,
        expect_cuda=["g"],
    )


# --- the new dtypes -------------------------------------------------------------------

NEW_DTYPES = "[torch.float16, torch.int32, torch.int16, torch.int8, torch.uint8]"


def test_new_dtypes_names_aliases_and_sizes():
    assert_same(f"""
for d in {NEW_DTYPES}:
    print(d, repr(d), d.itemsize, d.is_floating_point, d.is_signed, d.is_complex)
print(torch.half is torch.float16, torch.int is torch.int32, torch.short is torch.int16)
print(torch.half == torch.float16, torch.int == torch.int64)
for d in {NEW_DTYPES}:
    t = torch.zeros(3, dtype=d)
    print(t.dtype, t.element_size(), t.type(), t.untyped_storage().nbytes(), t.is_floating_point())
import copy, pickle
print(copy.deepcopy(torch.half) is torch.half, pickle.loads(pickle.dumps(torch.uint8)) is torch.uint8)
""")


def test_new_dtypes_print_with_their_suffix():
    assert_same("""
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1, -2], dtype=torch.int16), torch.tensor([1, -2], dtype=torch.int8))
print(torch.tensor([1, 200], dtype=torch.uint8))
print(torch.tensor([1.5, 2.0], dtype=torch.float16))
print(torch.tensor([0.1, 1e-5, 65504.0], dtype=torch.half))
print(torch.tensor([1e5, -1e5], dtype=torch.half))
print(torch.tensor([[1.0, 2.25], [3.5, 0.1]]).half())
print(torch.tensor(3, dtype=torch.uint8), torch.tensor(0.1).half())
print(torch.zeros(0, dtype=torch.int32), torch.zeros(2, 0, dtype=torch.half))
print(torch.arange(2000).to(torch.int16))
print(torch.tensor([1.0, 2.0], dtype=torch.half, requires_grad=True))
print(torch.tensor([1.0, 2.0]).half().requires_grad_() * 2)
""")


def test_new_dtypes_item_and_tolist():
    assert_same(f"""
for d in {NEW_DTYPES}:
    t = torch.tensor([3, 1], dtype=d)
    print(t.tolist(), type(t.tolist()[0]).__name__, t[0].item(), type(t[0].item()).__name__, int(t[1]), float(t[0]))
print(torch.tensor(0.1, dtype=torch.half).item(), torch.tensor([0.1, 1 / 3]).half().tolist())
print(bool(torch.tensor(2, dtype=torch.uint8)), [i for i in torch.tensor([5, 6], dtype=torch.int8)])
print(torch.ones(2, 2, dtype=torch.int32)[1, 1].item())
""")


def test_creating_tensors_of_the_new_dtypes():
    assert_same(ATTEMPT + """
import numpy as np
for d in [torch.float16, torch.int32, torch.int16, torch.int8, torch.uint8]:
    print(torch.zeros(2, dtype=d), torch.ones(2, dtype=d), torch.full((2,), 3, dtype=d), torch.arange(3, dtype=d))
    print(torch.tensor([1, 2]).new_zeros(2, dtype=d), torch.zeros_like(torch.zeros(2), dtype=d))
attempt(lambda: torch.tensor([-1], dtype=torch.uint8))
attempt(lambda: torch.tensor([-255, 255], dtype=torch.uint8))
attempt(lambda: torch.tensor([-256], dtype=torch.uint8))
attempt(lambda: torch.tensor([256], dtype=torch.uint8))
attempt(lambda: torch.tensor([1.7, -1.7], dtype=torch.int8))
attempt(lambda: torch.tensor([128], dtype=torch.int8))
attempt(lambda: torch.tensor([127.9], dtype=torch.int8))
attempt(lambda: torch.tensor([-1.0], dtype=torch.uint8))
attempt(lambda: torch.tensor([2 ** 40], dtype=torch.int32))
attempt(lambda: torch.tensor([70000], dtype=torch.int16))
attempt(lambda: torch.tensor([float("nan")], dtype=torch.int32))
attempt(lambda: torch.tensor([float("inf")], dtype=torch.int16))
attempt(lambda: torch.tensor([1e5, 70000], dtype=torch.float16))
attempt(lambda: torch.tensor([True, 2], dtype=torch.uint8))
attempt(lambda: torch.tensor([np.float64(300.0)], dtype=torch.uint8))
attempt(lambda: torch.tensor([np.int16(300)], dtype=torch.uint8))
attempt(lambda: torch.tensor([torch.tensor(300)], dtype=torch.uint8))
attempt(lambda: torch.tensor(np.array([300]), dtype=torch.uint8))
attempt(lambda: torch.tensor([2 ** 63]))
attempt(lambda: torch.tensor([-2 ** 63], dtype=torch.int64))
attempt(lambda: torch.tensor([2 ** 63], dtype=torch.float32))
attempt(lambda: torch.full((2,), 300, dtype=torch.uint8))
attempt(lambda: torch.full((2,), -1, dtype=torch.uint8))
attempt(lambda: torch.full((2,), -300, dtype=torch.uint8))
attempt(lambda: torch.full((1,), 2 ** 40, dtype=torch.int32))
attempt(lambda: torch.full((1,), 200, dtype=torch.int8))
attempt(lambda: torch.full((1,), 2 ** 20, dtype=torch.int16))
attempt(lambda: torch.full((1,), 1.5, dtype=torch.int16))
attempt(lambda: torch.full((1,), 1e6, dtype=torch.float16))
attempt(lambda: torch.arange(250, 260, dtype=torch.uint8))
attempt(lambda: torch.tensor([1, 2], dtype=torch.int8).new_tensor([300]))
attempt(lambda: torch.tensor([1, 2], dtype=torch.int32, requires_grad=True))
attempt(lambda: torch.tensor([1, 2], dtype=torch.half, requires_grad=True))
""")


def test_numpy_arrays_of_every_dtype_and_the_ones_reftorch_lacks():
    assert_same(ATTEMPT + """
import numpy as np
for kind in [np.float16, np.float32, np.float64, np.uint8, np.int8, np.int16, np.int32, np.int64, np.bool_]:
    t = torch.from_numpy(np.array([1, 0, 1], dtype=kind))
    print(t, t.dtype, torch.tensor(np.array([1, 2], dtype=kind)).dtype, torch.tensor([kind(1)]).dtype)
attempt(lambda: torch.from_numpy(np.array(["a"])))
attempt(lambda: torch.from_numpy(np.array([None])))
attempt(lambda: torch.from_numpy(np.arange(4, dtype=">f4")))
attempt(lambda: torch.from_numpy(np.arange(4, dtype=">f4")[::-1]))
attempt(lambda: torch.from_numpy(np.array(["a", "b"])[::-1]))
""")


def test_numpy_dtypes_torch_has_and_reftorch_does_not_get_a_clear_message():
    for kind in (np.uint16, np.uint32, np.uint64, np.complex64, np.complex128):
        assert torch.from_numpy(np.zeros(2, dtype=kind)).dtype is not None  # torch converts them
        with pytest.raises(TypeError, match=rf"reftorch has no dtype for numpy\.{kind.__name__} \(torch has one\)"):
            reftorch.from_numpy(np.zeros(2, dtype=kind))


def test_conversions_between_all_dtypes():
    assert_same("""
dtypes = [torch.float16, torch.float32, torch.float64, torch.uint8, torch.int8, torch.int16,
          torch.int32, torch.int64, torch.bool]
source = torch.tensor([0.0, 1.0, 2.7, -2.7, 100.5, 0.5])
positive = torch.tensor([0.0, 1.0, 2.7, 2.7, 100.5, 0.5])
for d in dtypes:
    start = positive.to(d) if d is torch.uint8 else source.to(d)
    print(d, [str(start.to(e).tolist()) for e in dtypes])
print(torch.tensor([300, -1, 255, 256]).byte(), torch.tensor([300, -129, 127]).char())
print(torch.tensor([70000, -40000]).short(), torch.tensor([2 ** 40 + 5]).int())
print(torch.tensor([1.7, -1.7]).int(), torch.tensor([1.7, -1.7]).short(), torch.tensor([1.7, 2.2]).byte())
print(torch.tensor([1.7, -1.7]).half(), torch.tensor([True, False]).to(torch.uint8))
a = torch.tensor([1.0, 2.0])
print(a.half() is a, a.half().half().dtype, a.int().int().dtype)
h = a.half()
print(h.half() is h, h.to(torch.float16) is h, h.int().char().byte().short().dtype)
g = torch.tensor([1.5, 2.5], requires_grad=True)
hg = g.half()
print(hg, hg.grad_fn.name(), g.int(), g.short().requires_grad, g.char().grad_fn)
hg.sum().backward()
print(g.grad, g.grad.dtype)
""")


def test_type_promotion_with_the_new_dtypes():
    assert_same("""
dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.float32, torch.float64]
for a in dtypes:
    print([str(torch.promote_types(a, b))[6:] for b in dtypes])
for a in dtypes:
    x = torch.ones(2, dtype=a)
    row = []
    for b in dtypes:
        y = torch.ones(2, dtype=b)
        row.append(str((x * y).dtype)[6:] + "/" + str((x + torch.ones((), dtype=b)).dtype)[6:])
    print(row)
for a in dtypes:
    x = torch.ones(2, dtype=a)
    print(a, (x + 1).dtype, (x + 1.5).dtype, (x * True).dtype, (x / 2).dtype, (x == 1).dtype,
          torch.result_type(x, 5), torch.result_type(x, -5.0))
""")


def test_arithmetic_on_small_integers_wraps_around_as_in_torch():
    assert_same("""
u = torch.tensor([200, 5, 0], dtype=torch.uint8)
i = torch.tensor([100, -100, 5], dtype=torch.int8)
print(u + 100, u + 300, u - 6, -u, u * 2, u == 1, u > -1, u == 300)
print(i + 100, i - 100, i * 3, -i, i + torch.tensor(1000))
print(u + i, (u + i).dtype, u * torch.tensor([True, False, True]))
print(torch.tensor([2], dtype=torch.uint8) ** 10, torch.tensor([3], dtype=torch.int16) ** 2)
print(torch.tensor([7, 8], dtype=torch.int32) / 2, torch.tensor([7, 8], dtype=torch.int16) / torch.tensor(2))
print(u.sum(), u.sum().dtype, i.sum(), torch.tensor([1, 2], dtype=torch.int32).sum().dtype)
w = torch.tensor([250, 10], dtype=torch.uint8)
w += 10
w.add_(300)
w.mul_(2)
print(w, w._version)
x = torch.zeros(2, dtype=torch.int8)
x.fill_(-1)
x[0] = 100
print(x, x._version)
for bad in (lambda: x.__setitem__(0, 200), lambda: x.fill_(-129), lambda: u.fill_(256),
            lambda: torch.zeros(1, dtype=torch.int32).fill_(2 ** 40), lambda: x.fill_(1.5)):
    try:
        bad()
    except RuntimeError as e:
        print(e)
u.fill_(-1)
print(u, x, x._version)
z = torch.zeros(2, dtype=torch.uint8)
z.copy_(torch.tensor([-1, 256]))
print(z)
""")


def test_half_precision_arithmetic_rounds_like_torch():
    assert_same("""
h = torch.tensor([0.1, 1 / 3, 1000.3, 2049.0, 65000.0]).half()
print(h, h + h, h * 3, h / 7, h - 0.1, h * 1e-3, h + 1e-4, h * 2)
print(h + 0.1, h * 0.1, h / 0.1, h / 3.3, 3.3 / h, 0.1 - h, h.add(0.1, alpha=3), h - torch.tensor(0.1))
print(h * torch.tensor(0.1, dtype=torch.float64), h + torch.tensor([0.1]).half(), h.sub(0.1, alpha=2))
print(h.sum(), h.mean(), h.exp(), h.sigmoid(), h.reciprocal(), (h ** 2))
print(h + torch.tensor([1.0]), (h + torch.tensor(1.0, dtype=torch.float64)).dtype, h + torch.tensor([1.0]).double())
a = torch.tensor([[0.1, 0.2], [0.3, 0.4]]).half()
print(a @ a, a[0] @ a[1])
g = torch.tensor([0.1, 0.2], requires_grad=True)
y = (g.half() * 3).sum()
y.backward()
print(y, g.grad)
""")


def test_mean_and_matmul_errors_name_the_new_dtypes():
    assert_same(ATTEMPT + """
for d in [torch.float16, torch.int32, torch.int16, torch.int8, torch.uint8]:
    x = torch.ones(2, 2, dtype=d)
    attempt(lambda: x @ torch.ones(2, 2))
    attempt(lambda: x.mean())
    attempt(lambda: torch.ones(2, dtype=d) @ torch.ones(2))
attempt(lambda: torch.ones(2, 2, dtype=torch.int32) @ torch.ones(2, 2, dtype=torch.int32))
attempt(lambda: torch.ones(2, dtype=torch.int8) @ torch.ones(2, dtype=torch.int8))
""")


def test_new_dtypes_on_a_gpu():
    assert_same_as_gpu(
        """
        h = torch.tensor([1.5, 2.0]).half().cuda()
        b = torch.tensor([1, 255], dtype=torch.uint8, device="cuda")
        print(h, b, h.int(), b.half(), h + b)
        """,
        expect_cuda=["h", "b"],
    )


def test_float_of_a_tensor_that_requires_grad_warns_once_and_only_in_grad_mode():
    # torch's float(t) warns (TORCH_WARN_ONCE) for a tensor that requires grad, while grad mode is
    # on; int(), item() and bool() do not. torch.tensor of a list holding such a tensor reads it
    # with float(), so it warns there too.
    calls = [
        "float(torch.tensor(2.0))",
        "torch.no_grad()(lambda t: float(t))(torch.tensor(2.0, requires_grad=True))",
        "int(torch.tensor(2.0, requires_grad=True))",
        "torch.tensor(2.0, requires_grad=True).item()",
        "bool(torch.tensor(2.0, requires_grad=True))",
        "torch.tensor([torch.tensor(2.0, requires_grad=True), 1.0])",
        "float(torch.tensor(3.0, requires_grad=True))",
    ]
    expected = _first_warnings("torch", calls)
    assert "Converting a tensor with requires_grad=True" in expected
    assert _first_warnings("reftorch", calls) == expected


def test_equal_has_no_kernel_for_meta_tensors():
    assert_same(
        """
        m = torch.zeros(2, device="meta")
        for run in (lambda: torch.equal(m, m), lambda: torch.equal(m, torch.zeros(2)), lambda: torch.equal(torch.zeros(2), m),
                    lambda: m.equal(m), lambda: torch.equal(torch.zeros(3, device="meta"), m)):
            try:
                print(run())
            except NotImplementedError as error:
                print(error)
        """
    )
