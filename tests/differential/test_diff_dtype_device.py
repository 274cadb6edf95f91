"""dtypes, devices, to()/cpu()/cuda() and the dtype shortcuts."""

import pytest

from crosscheck.harness import assert_same, assert_same_as_gpu
from diff_programs import program


def test_default_dtype_is_float32_and_dtypes_print_by_name():
    assert_same(
        """
        f = torch.tensor([1.0, 2.0])
        print(f.dtype, torch.float32, torch.float64, torch.int64, torch.bool)
        print(f.dtype == torch.float32, torch.float == torch.float32, torch.double == torch.float64, torch.long == torch.int64)
        print(repr(torch.float64), str(torch.int64))
        """
    )


def test_to_returns_self_when_nothing_changes():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        same1 = a.to(torch.float32)
        same2 = a.to("cpu")
        same3 = a.to(dtype=torch.float32, device="cpu")
        same4 = a.cpu()
        same5 = a.float()
        print(same1 is a, same2 is a, same3 is a, same4 is a, same5 is a)
        """
    )


def test_to_another_dtype_copies_and_records_the_cast():
    assert_same(
        """
        a = torch.tensor([1.5, -2.5], requires_grad=True)
        d = a.to(torch.float64)
        i = a.detach().to(torch.int64)
        b = a.detach().to(dtype=torch.bool)
        print(d, i, b)
        print(d.data_ptr() == a.data_ptr(), d.grad_fn)
        """
    )


def test_to_with_copy_true_copies_even_when_nothing_changes():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0])
        c = a.to(torch.float32, copy=True)
        print(c is a, c.data_ptr() == a.data_ptr())
        """
    )


def test_a_cpu_or_meta_device_named_with_an_index_is_a_change_so_every_to_copies():
    """torch compares the device as named: a CPU tensor's device is ``cpu``, with no index, so
    ``to("cpu:0")`` copies, and so do ``as_tensor``, ``asarray``, a sparse tensor's and a
    module's ``to`` (new memory for the same Parameters); ``meta:0`` is the same on meta."""
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        for d in ("cpu:0", torch.device("cpu", 0)):
            r = a.to(d)
            print(r is a, r.device, r.data_ptr() == a.data_ptr(), type(r.grad_fn).__name__)
        print(a.to("cpu") is a, a.to(torch.device("cpu")) is a, a.cpu() is a)
        print(torch.as_tensor(a, device="cpu:0") is a, torch.asarray(a, device="cpu:0") is a)
        torch.set_default_device("cpu:0")
        try:
            print(torch.as_tensor(a) is a)
        finally:
            torch.set_default_device(None)
        m = torch.ones(2, device="meta")
        print(m.to("meta:0") is m, m.to("meta") is m)
        s = torch.tensor([1.5, 0.0]).to_sparse()
        print(s.to("cpu:0") is s)
        net = torch.nn.Linear(2, 1)
        net.load_state_dict({"weight": torch.tensor([[1.0, 2.0]]), "bias": torch.tensor([0.5])})
        w = net.weight
        address, version = w.data_ptr(), w._version
        net.to("cpu:0")
        print(net.weight is w, w.data_ptr() == address, w._version == version, w.device)
        net.to("cpu")
        print(net.weight is w, w.device)
        """
    )


def test_as_tensor_of_an_array_copies_to_a_cpu_device_named_with_an_index():
    pytest.importorskip("numpy")
    assert_same(
        """
        import numpy as np
        arr = np.arange(3.0)
        shared = torch.as_tensor(arr, device="cpu")
        copied = torch.as_tensor(arr, device="cpu:0")
        arr[0] = 7.0
        print(shared, copied)
        """
    )


def test_to_reads_python_types_as_dtypes_and_names_a_wrong_dtype_keyword():
    """torch's parser takes ``float``, ``int`` and ``bool`` wherever ``to()`` takes a dtype."""
    assert_same(
        """
        a = torch.tensor([1.5, -2.5], requires_grad=True)
        d = a.to(float)
        print(d.dtype, type(d.grad_fn).__name__, d.to(float) is d)
        print(a.to(int), a.detach().to(bool), a.to("cpu", float).dtype, a.to(None, int).dtype)
        print(a.to(dtype=float).dtype, a.to(device="cpu", dtype=int).dtype, a.to(float, copy=True).dtype)
        for kwargs, args in (({"dtype": 3}, ()), ({"dtype": "float32", "copy": True}, ()),
                             ({"dtype": 3}, ("cpu",)), ({"copy": True, "dtype": 3}, ("cpu", None))):
            try:
                a.to(*args, **kwargs)
            except TypeError as e:
                print(str(e).splitlines()[0])
        """
    )


def test_dtype_shortcut_methods():
    assert_same(
        """
        a = torch.tensor([0.0, 1.7, -2.2])
        print(a.double(), a.long(), a.bool(), a.long().float())
        i = torch.tensor([0, 3])
        print(i.float(), i.double(), i.bool(), i.long() is i)
        """
    )


def test_torch_device_objects():
    assert_same(
        """
        cpu = torch.device("cpu")
        print(cpu, repr(cpu), cpu.type, cpu.index)
        t = torch.zeros(1)
        print(t.device, t.device == cpu, t.device.type)
        """
    )


def test_tensor_created_on_cuda_prints_its_device():
    assert_same_as_gpu(
        """
        a = torch.tensor([1.0, 2.0], device="cuda")
        b = torch.zeros(2, dtype=torch.float64, device="cuda:0")
        c = torch.tensor(3, device=torch.device("cuda"))
        print(a)
        print(b)
        print(c)
        print(a.device, a.device.type, b.device, c.device)
        """,
        expect_cuda=["a", "b", "c"],
    )


def test_cuda_method_moves_a_cpu_tensor_and_keeps_the_original():
    assert_same_as_gpu(
        """
        a = torch.tensor([1.0, 2.0])
        g = a.cuda()
        print(g)
        print(g.device)
        print(a)
        print(g.data_ptr() == a.data_ptr(), g is a)
        """,
        expect_cuda=["g"],
    )


def test_cpu_and_to_bring_a_cuda_tensor_back():
    assert_same_as_gpu(
        """
        g = torch.tensor([[1.0, 2.0]], device="cuda", requires_grad=True)
        c = g.cpu()
        c2 = g.to("cpu")
        print(c)
        print(c2)
        print(c.device, c.grad_fn)
        """,
        expect_cuda=["g"],
        # on a GPU, cpu() and to("cpu") of a cuda tensor copy (ToCopyBackward0)
        cpu_program="""
        g = torch.tensor([[1.0, 2.0]], device="cpu", requires_grad=True)
        c = g.to("cpu", copy=True)
        c2 = g.to("cpu", copy=True)
        print(c)
        print(c2)
        print(c.device, c.grad_fn)
        """,
    )


def test_to_cuda_on_a_cuda_tensor_returns_self():
    assert_same_as_gpu(
        """
        g = torch.ones(2, device="cuda")
        h = g.to("cuda")
        k = g.to("cuda:0", torch.float64)
        print(h is g, k is g)
        print(k)
        """,
        expect_cuda=["g", "h", "k"],
    )


def test_gradient_of_a_cuda_leaf_lives_on_cuda():
    assert_same_as_gpu(
        """
        w = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
        y = (w * w).sum()
        y.backward()
        print(w.grad)
        print(y)
        """,
        expect_cuda=["w", "y"],
    )


def test_cuda_method_on_a_cuda_tensor_returns_self():
    assert_same_as_gpu(
        """
        g = torch.ones(2, device="cuda")
        h = g.cuda()
        print(h is g)
        """,
        expect_cuda=["g", "h"],
        # on a GPU, cuda() of a cuda tensor is a no-op, as cpu() of a cpu tensor is
        cpu_program="""
        g = torch.ones(2, device="cpu")
        h = g.cpu()
        print(h is g)
        """,
    )


def test_moving_a_leaf_to_cuda_makes_a_non_leaf_with_to_copy_backward():
    assert_same_as_gpu(
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        g = w.to("cuda")
        g2 = w.cuda()
        print(g)
        print(g2)
        print(g.is_leaf, g.grad_fn, g.data_ptr() == w.data_ptr())
        (g * g2).sum().backward()
        print(w.grad)
        """,
        expect_cuda=["g", "g2"],
        # on a GPU, a cpu->cuda move copies and records ToCopyBackward0
        cpu_program="""
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        g = w.to("cpu", copy=True)
        g2 = w.to("cpu", copy=True)
        print(g)
        print(g2)
        print(g.is_leaf, g.grad_fn, g.data_ptr() == w.data_ptr())
        (g * g2).sum().backward()
        print(w.grad)
        """,
    )


def test_floats_beyond_int32_cast_to_its_lowest_and_narrower_ints_keep_its_low_bits():
    """Chapter 11's casts truncate toward zero; a float that an int32 (int64) cannot hold, nan and
    inf give its lowest value on x86, and int16, int8 and uint8 keep that value's low bits."""
    assert_same(
        """
        f = torch.tensor([float("nan"), float("inf"), -float("inf"), 3e9, -3e9, 1e20, -1e20, 2147483647.5,
                          -2147483648.5, 300.0, -1.0, 65537.9, 9.3e18])
        for d in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool):
            print(d, f.to(d).tolist(), f.double().to(d).tolist())
        h = f.to(torch.float16)
        print(h.to(torch.int32).tolist(), h.to(torch.int16).tolist(), h.to(torch.int64).tolist())
        i = torch.zeros(13, dtype=torch.int32)
        i.copy_(f)
        print(i.tolist())
        j = torch.zeros(13, dtype=torch.int8)
        j[:] = f
        print(j.tolist())
        print(torch.tensor([2 ** 40, -2 ** 40 - 3]).to(torch.int32).tolist())
        """
    )


def test_type_names_a_class_it_does_not_know_as_cpp_names_it():
    """``t.type(cls)`` reads the class's C name (``tp_name``): ``float``, ``numpy.float32``, a Python
    class's bare name; only ``torch.Tensor`` itself converts (a Parameter class does not)."""
    assert_same(
        """
        import numpy as np

        class K:
            pass

        t = torch.ones(2)
        same = t.type(torch.Tensor)
        for cls in (float, int, bool, np.float32, K, torch.nn.Parameter, type, "float", 3):
            try:
                t.type(cls)
            except (TypeError, ValueError) as error:
                print(type(error).__name__, error)
        """
    )


# What torch computes with a complex number or dtype (or refuses in its own words), and reftorch,
# which has no complex dtypes, refuses saying so: never a wrong answer (``t == 1j`` was False,
# ``result_type(t, 1j)`` float32), nor an error from deep inside (``t.sum(dtype=complex)``).
COMPLEX_ATTEMPTS = [
    "t + 1j", "1j + t", "t - 1j", "1j - t", "t * 1j", "t / 1j", "1j / t", "t ** 1j", "1j ** t", "t // 1j",
    "i | 1j", "t == 1j", "t < 1j", "t + (1 + 0j)", "t.add(1j)", "t.add(t, alpha=1j)", "t.pow(1j)", "t.lerp(t, 1j)",
    "t.clone().add_(1j)", "t.clone().mul_(1j)",
    "t.clone().lerp_(t, 1j)", "torch.result_type(t, 1j)",
    "torch.tensor([1j])", "torch.tensor(1j)", "torch.tensor([1, 1j])", "torch.as_tensor([1j])",
    "torch.full((2,), 1j)", "t.new_full((2,), 1j)", "torch.arange(1j)",
    "torch.zeros(2, dtype=torch.complex64)", "torch.zeros(2, dtype=complex)", "t.to(complex)",
    "t.sum(dtype=complex)", "t.sum(dtype=torch.complex64)", "t.view(torch.complex64)", "torch.cfloat",
    "torch.complex128", "torch.cdouble", "torch.chalf", "torch.complex32",
    "torch.promote_types(torch.float32, torch.complex64)", "t + np.complex128(1j)",
]


@pytest.mark.parametrize("statement", COMPLEX_ATTEMPTS)
def test_a_complex_number_or_dtype_is_refused_saying_that_reftorch_has_no_complex_dtypes(statement):
    import numpy as np
    import torch

    import reftorch

    def run(module):
        return eval(statement, {"torch": module, "np": np, "t": module.ones(2), "i": module.ones(2, dtype=module.int64)})

    try:
        answer = run(torch)
    except (RuntimeError, NotImplementedError):  # torch's own refusal: a float tensor has no imaginary part
        pass
    else:
        assert isinstance(answer, (torch.Tensor, torch.dtype)), (statement, answer)
    with pytest.raises((NotImplementedError, TypeError, AttributeError), match="reftorch has no complex dtypes"):
        run(reftorch)


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64"])
def test_a_wider_unsigned_dtype_is_refused_by_name_where_torch_has_it_with_few_kernels(name):
    import torch

    import reftorch

    d = getattr(torch, name)  # torch makes and converts such tensors, but has no kernel to add them
    assert torch.zeros(2, dtype=d).dtype is d and torch.ones(2).to(d).tolist() == [1, 1]
    with pytest.raises(NotImplementedError, match=f"\"add_stub\" not implemented for 'UInt{name[4:]}'"):
        torch.zeros(2, dtype=d) + 1
    with pytest.raises(AttributeError, match=f"reftorch has no dtype torch.{name} \\(torch has one, with few kernels\\)"):
        getattr(reftorch, name)


def test_a_complex_number_stored_in_a_real_tensor_keeps_its_real_part_when_its_imaginary_part_is_0():
    """``fill_`` and ``t[i] = x`` convert a complex number as torch does (a bool tensor takes its
    truth), and refuse one with an imaginary part with torch's overflow error; on meta, nothing is
    checked."""
    assert_same(program("""
        for v in (2 + 0j, 2 + 1j, 1j, complex(1e40, 0), complex(float("nan"), 0), complex(300, 0), complex(-1, 0), 2.5 + 0j):
            for dt in (torch.float32, torch.int64, torch.bool, torch.uint8, torch.float64, torch.int8):
                t = torch.zeros(2, dtype=dt)
                attempt(lambda: (t.__setitem__(0, v), t)[1])
                attempt(lambda: torch.zeros(2, dtype=dt).fill_(v))
            attempt(lambda: torch.zeros(2, device="meta").fill_(v).shape)
        attempt(lambda: torch.zeros(2, device="meta").fill_(1e40).shape)
        attempt(lambda: torch.zeros(2, device="meta", dtype=torch.uint8).fill_(300).shape)
        attempt(lambda: torch.zeros(2, device="meta").fill_(2 ** 70))
        attempt(lambda: torch.zeros(2, device="meta").fill_("a"))
        attempt(lambda: torch.zeros(2).fill_(None))
        g = torch.zeros(2, requires_grad=True)
        attempt(lambda: (g * 1).fill_(2 + 0j).grad_fn.name())
        """))


def test_what_torch_does_with_a_complex_number_that_reftorch_can_do_too():
    assert_same(
        """
        t = torch.ones(2)
        print(t.is_complex(), t.dtype.is_complex, torch.tensor([1, 2]).is_complex())
        for attempt in (lambda: torch.tensor([1j], dtype=torch.float32), lambda: torch.tensor([1 + 0j], dtype=torch.int64),
                        lambda: t.new_tensor([1j]),
                        lambda: t.isclose(t, atol=1j), lambda: t.sum(dtype=float), lambda: t.sum(dtype=int),
                        lambda: t.mean(dtype=float), lambda: t.mean(dtype=int), lambda: torch.sum(t, dtype=bool)):
            try:
                print(attempt())
            except (TypeError, RuntimeError) as error:
                print(type(error).__name__, error)
        """
    )
