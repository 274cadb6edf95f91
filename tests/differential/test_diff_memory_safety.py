"""Memory safety: layouts that reach outside their storage are refused, with torch's errors.

Every way of putting metadata on a storage (``as_strided``, views, ``from_numpy``,
``UntypedStorage``, and reftorch's ``primitives.tensor_on``) checks the layout
first. The exercises' primitives have no torch counterpart, so their errors
are compared with the message torch gives for the same layout on a storage of
the same size.
"""

import subprocess
import sys
import textwrap

import pytest
import torch

import reftorch
from crosscheck.harness import assert_same
from reftorch import primitives

from diff_programs import attempt_source

ATTEMPT = attempt_source(
    "tuple(result.shape), result.stride(), result.storage_offset(), result.numel() and result.tolist()"
)


def test_as_strided_past_the_end_of_the_storage_is_refused():
    assert_same(ATTEMPT + """
a = torch.arange(4.)
attempt(lambda: a.as_strided((2, 2), (3, 1)))
attempt(lambda: a.as_strided((2, 2), (2, 1)))
attempt(lambda: a.as_strided((2, 2), (1, 2), 1))
attempt(lambda: a.as_strided((2, 2), (3, 1), 5))
attempt(lambda: a.as_strided((), (), 4))
attempt(lambda: a.as_strided((), (), 3))
attempt(lambda: a.as_strided((5,), (0,), 3))
attempt(lambda: torch.as_strided(a, (4,), (1,), 1))
attempt(lambda: a[1:].as_strided((4,), (1,)))
attempt(lambda: a[1:].as_strided((3,), (1,)))
attempt(lambda: torch.arange(3., dtype=torch.float64).as_strided((2,), (2,)))
attempt(lambda: torch.arange(3., dtype=torch.float64).as_strided((2,), (2,), 1))
attempt(lambda: torch.tensor([True, False, True]).as_strided((4,), (1,)))
attempt(lambda: torch.arange(6).as_strided((2, 3), (3, 1)))
attempt(lambda: torch.arange(6).as_strided((2, 3), (3, 2)))
attempt(lambda: torch.empty(0).as_strided((), (), 0))
""")


def test_as_strided_with_no_elements_fits_any_storage():
    assert_same(ATTEMPT + """
a = torch.arange(4.)
attempt(lambda: a.as_strided((0, 2), (100, 1), 100))
attempt(lambda: a.as_strided((2, 0), (100, 1), 4))
attempt(lambda: torch.empty(0).as_strided((0,), (1,), 7))
""")


def test_as_strided_negative_strides_and_offsets_and_lengths():
    assert_same(ATTEMPT + """
a = torch.arange(4.)
attempt(lambda: a.as_strided((2, 2), (-1, 1)))
attempt(lambda: a.as_strided((1,), (-1,), 0))
attempt(lambda: a.as_strided((2,), (-1,), -5))
attempt(lambda: a.as_strided((2, 2), (1, 1), -1))
attempt(lambda: a.as_strided((2, 2), (4, 1), -1))
attempt(lambda: a.as_strided((2,), (1, 1)))
attempt(lambda: a.as_strided((2,), (-1, 1), -1))
""")


def test_as_strided_negative_sizes_and_overflowing_layouts():
    assert_same(ATTEMPT + """
a = torch.arange(4.)
attempt(lambda: a.as_strided((-2, 2), (1, 1)))
attempt(lambda: a.as_strided((-1,), (0,), 0))
attempt(lambda: a.as_strided((-1,), (0,), 100))
attempt(lambda: a.as_strided((2, -1), (0, 0)))
attempt(lambda: a.as_strided((2, -1), (1, 1)))
attempt(lambda: a.as_strided((2, -1), (1, 1), -1))
attempt(lambda: a.as_strided((2, 3), (2 ** 62, 0)))
attempt(lambda: a.as_strided((2, 3), (2 ** 61, 0)))
attempt(lambda: a.as_strided((2, 3), (2 ** 60, 0)))
attempt(lambda: a.as_strided((2, 3), (2 ** 63 - 1, 0)))
attempt(lambda: a.as_strided((2,), (1,), 2 ** 61))
attempt(lambda: a.as_strided((2,), (1,), 2 ** 63 - 1))
attempt(lambda: a.as_strided((2 ** 31, 2 ** 32), (0, 0)))
attempt(lambda: a.as_strided((2 ** 31, 2 ** 32), (0, 0), 5))
attempt(lambda: a.as_strided((2 ** 40,), (2 ** 40,)))
""")


def test_as_strided_with_negative_sizes_that_torch_accepts():
    # A zero anywhere in the sizes means no elements, even next to a -1.
    assert_same(ATTEMPT + """
a = torch.arange(4.)
attempt(lambda: a.as_strided((0, -1), (1, 1)))
attempt(lambda: a.as_strided((-1, 0), (0, 0), 100))
b = a.as_strided((0, -1), (1, 1))
print(b.shape, b.numel(), b.dim())
""")


def test_views_of_views_stay_inside_and_writes_through_them_stay_inside():
    assert_same(ATTEMPT + """
a = torch.arange(12.)
v = a[2:10:2]
attempt(lambda: v.as_strided((4,), (2,), 2))
attempt(lambda: v.as_strided((4,), (3,), 2))
attempt(lambda: v.as_strided((2, 2), (5, 1), 1))
w = v.as_strided((2, 2), (5, 1), 0)
w.fill_(-1.)
w.add_(1.)
print(a)
""")


def test_untyped_storage_with_a_bad_size():
    assert_same(ATTEMPT + """
def storage(n):
    try:
        print(torch.UntypedStorage(n).nbytes())
    except Exception as e:
        print(type(e).__name__, e)
storage(0)
storage(3)
storage(-1)
storage(-10)
storage(2.5)
storage(True)
storage(False)
""")


def test_from_numpy_refuses_strides_it_cannot_express():
    assert_same("""
import numpy as np
def attempt(make):
    try:
        t = make()
        print(tuple(t.shape), t.stride(), t.dtype, t.tolist())
    except Exception as e:
        print(type(e).__name__, e)
raw = np.zeros(20, np.uint8)
odd = np.lib.stride_tricks.as_strided(raw.view(np.float32), shape=(3,), strides=(6,))
attempt(lambda: torch.from_numpy(odd))
attempt(lambda: torch.from_numpy(np.arange(4.)[::-1]))
attempt(lambda: torch.from_numpy(np.zeros((3, 0, 2))))
attempt(lambda: torch.from_numpy(np.zeros((3, 0, 2))[:, :, ::-1]))
attempt(lambda: torch.from_numpy(np.arange(12.).reshape(3, 4)[::2, 1::2]))
attempt(lambda: torch.from_numpy(np.arange(6.).reshape(2, 3).T))
attempt(lambda: torch.from_numpy(np.arange(3.)[None, :].repeat(2, 0)[:, ::2]))
""")


# --- the exercises' primitives ----------------------------------------------------


def _torch_error(numel, size, stride, offset, torch_dtype):
    """torch's (class, message) for ``as_strided`` of this layout on ``numel`` elements."""
    try:
        torch.zeros(numel, dtype=torch_dtype).as_strided(size, stride, offset)
    except Exception as e:  # noqa: BLE001 - we compare whatever torch raises
        return type(e).__name__, str(e)
    return None


def _tensor_on_error(numel, size, stride, offset, ref_dtype):
    try:
        primitives.tensor_on(primitives.allocate(numel, ref_dtype), size, stride, offset, dtype=ref_dtype)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize(
    "numel, size, stride, offset",
    [
        (4, (2, 2), (3, 1), 0),
        (4, (2, 2), (2, 1), 0),
        (4, (2, 2), (2, 1), 1),
        (6, (3, 2), (1, 3), 0),
        (6, (3, 2), (2, 1), 1),
        (0, (), (), 0),
        (1, (), (), 1),
        (5, (1000, 3), (0, 1), 2),
        (5, (1000, 3), (1, 0), 2),
        (3, (0, 3), (10, 10), 50),
        (4, (2,), (1,), -1),
        (4, (2, -1), (0, 0), 0),
        (4, (2, 3), (2 ** 62, 0), 0),
    ],
)
@pytest.mark.parametrize("dtypes", [(torch.float32, reftorch.float32), (torch.float64, reftorch.float64),
                                    (torch.bool, reftorch.bool)])
def test_tensor_on_refuses_what_torch_refuses_with_torch_message(numel, size, stride, offset, dtypes):
    torch_dtype, ref_dtype = dtypes
    assert _tensor_on_error(numel, size, stride, offset, ref_dtype) == _torch_error(
        numel, size, stride, offset, torch_dtype
    )


def test_tensor_on_with_a_backward_stride_gives_torchs_set_error():
    storage = torch.UntypedStorage(16)
    with pytest.raises(RuntimeError) as expected:
        torch.empty(0).set_(storage, 0, (2, 2), (-1, 1))
    with pytest.raises(RuntimeError) as actual:
        primitives.tensor_on(primitives.allocate(4, reftorch.float32), (2, 2), (-1, 1), 0, dtype=reftorch.float32)
    assert str(actual.value) == str(expected.value)
    with pytest.raises(RuntimeError) as expected:
        torch.empty(0).set_(storage, 0, (2,), (1, 1))
    with pytest.raises(RuntimeError) as actual:
        primitives.tensor_on(primitives.allocate(4, reftorch.float32), (2,), (1, 1), 0, dtype=reftorch.float32)
    assert str(actual.value) == str(expected.value)


def test_tensor_on_a_storage_read_as_a_wider_dtype():
    """12 bytes hold one float64 (and a half): a second element would be out of bounds."""
    torch_storage = torch.zeros(3).untyped_storage()
    wide = torch.tensor([], dtype=torch.float64).set_(torch_storage)
    with pytest.raises(RuntimeError) as expected:
        wide.as_strided((2,), (1,), 0)
    storage = primitives.allocate(3, reftorch.float32)
    one = primitives.tensor_on(storage, (1,), (1,), 0, dtype=reftorch.float64)
    assert one.tolist() == wide.tolist() == [0.0]
    with pytest.raises(RuntimeError) as actual:
        primitives.tensor_on(storage, (2,), (1,), 0, dtype=reftorch.float64)
    assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: primitives.allocate(-1, reftorch.float32), ValueError, "allocate(): argument 'numel' must not be negative, got -1"),
        (lambda: primitives.allocate(2.5, reftorch.float32), TypeError, "allocate(): argument 'numel' must be an int, not float"),
        (lambda: primitives.allocate(True, reftorch.float32), TypeError, "allocate(): argument 'numel' must be an int, not bool"),
        (lambda: primitives.allocate(3, "float32"), TypeError, "allocate(): argument 'dtype' must be a dtype such as torch.float32, not str"),
        (lambda: primitives.allocate(3, None), TypeError, "allocate(): argument 'dtype' must be a dtype such as torch.float32, not NoneType"),
        (lambda: primitives.copy_storage(reftorch.zeros(2)), TypeError,
         "copy_storage(): argument 'storage' must be a storage such as t.untyped_storage(), not Tensor"),
        (lambda: primitives.tensor_on(reftorch.zeros(2), (2,), (1,), 0, dtype=reftorch.float32), TypeError,
         "tensor_on(): argument 'storage' must be a storage such as t.untyped_storage(), not Tensor"),
        (lambda: primitives.tensor_on(primitives.allocate(2, reftorch.float32), 2, (1,), 0, dtype=reftorch.float32),
         TypeError, "tensor_on(): argument 'size' must be a sequence of ints such as t.shape, not int"),
        (lambda: primitives.tensor_on(primitives.allocate(2, reftorch.float32), (2,), (1.0,), 0, dtype=reftorch.float32),
         TypeError, "tensor_on(): argument 'stride[0]' must be an int, not float"),
        (lambda: primitives.tensor_on(primitives.allocate(2, reftorch.float32), (2,), (1,), 0.5, dtype=reftorch.float32),
         TypeError, "tensor_on(): argument 'storage_offset' must be an int, not float"),
        (lambda: primitives.tensor_on(primitives.allocate(2, reftorch.float32), (2,), (1,), 0, dtype=float),
         TypeError, "tensor_on(): argument 'dtype' must be a dtype such as torch.float32, not type"),
        (lambda: primitives.tensor_on(primitives.allocate(2, reftorch.float32), (2,), (1,), 0, dtype=reftorch.float32,
                                      version_counter=3),
         TypeError, "tensor_on(): argument 'version_counter' must be a version counter (from version_counter_of) or None, not int"),
        (lambda: primitives.copy_elements([1.0, 2.0], reftorch.zeros(2)), TypeError,
         "copy_elements(): argument 'dst' must be a Tensor, not list"),
        (lambda: primitives.copy_elements(reftorch.zeros(2), [1.0, 2.0]), TypeError,
         "copy_elements(): argument 'src' must be a Tensor or a number, not list"),
        (lambda: primitives.copy_elements(reftorch.zeros(2), "1"), TypeError,
         "copy_elements(): argument 'src' must be a Tensor or a number, not str"),
        (lambda: primitives.version_counter_of(None), TypeError, "version_counter_of(): argument 't' must be a Tensor, not NoneType"),
        (lambda: primitives.bump_version(3), TypeError, "bump_version(): argument 't' must be a Tensor, not int"),
    ],
)
def test_primitives_name_the_bad_argument(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


def test_copy_elements_shape_mismatch_is_torchs_copy_error():
    with pytest.raises(RuntimeError) as expected:
        torch.zeros(2, 3).copy_(torch.zeros(4))
    with pytest.raises(RuntimeError) as actual:
        primitives.copy_elements(reftorch.zeros(2, 3), reftorch.zeros(4))
    assert str(actual.value) == str(expected.value)


def test_primitives_accept_sizes_as_torch_sizes_lists_and_numpy_ints():
    import numpy as np

    source = reftorch.arange(6.).view(2, 3)
    storage = primitives.allocate(source.numel(), source.dtype)
    for size, stride in [(source.shape, source.stride()), ([2, 3], [3, 1]), (np.array([2, 3]), (np.int64(3), 1))]:
        copy = primitives.tensor_on(storage, size, stride, np.int64(0), dtype=source.dtype)
        primitives.copy_elements(copy, source)
        assert copy.tolist() == source.tolist() and copy.stride() == (3, 1)


WRONG_ANSWER = """
import reftorch as torch
from reftorch.primitives import allocate, tensor_on, copy_elements

def my_clone(self):
    # Wrong: new memory for numel() elements, laid out with strides that need more.
    storage = allocate(self.numel(), self.dtype, self.device)
    copy = tensor_on(storage, self.shape, {strides}, 0, dtype=self.dtype)
    copy_elements(copy, self)
    return copy

source = torch.arange(12000.).view(2000, 6)[:, ::2]
for attempt in range(50):
    try:
        my_clone(source)
    except RuntimeError as e:
        message = str(e)
    else:
        raise SystemExit("the wrong answer was accepted")
print("refused 50 times:", message)
raise RuntimeError(message)
"""


@pytest.mark.parametrize("strides", ["self.stride()", "(30000, 1)", "(3, 2)"])
def test_a_wrong_exercise_answer_raises_a_python_error_and_never_crashes(tmp_path, strides):
    """Before the bounds check this wrote past the storage: exit 134 (or wrong numbers), at random."""
    script = tmp_path / "wrong_answer.py"
    script.write_text(textwrap.dedent(WRONG_ANSWER.format(strides=strides)))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert "refused 50 times: setStorage: sizes [2000, 3]" in done.stdout
    assert done.stderr.rstrip().splitlines()[-1].startswith(
        "RuntimeError: setStorage: sizes [2000, 3], strides ["
    ), done.stderr[-2000:]
    assert "out of bounds for storage of size 24000" in done.stderr
