"""repr/print of tensors, dtypes, devices, sizes, grad_fn nodes and Parameters."""

from crosscheck.harness import assert_same, assert_same_as_gpu


def test_print_of_zero_one_and_two_dimensional_float_tensors():
    assert_same(
        """
        print(torch.tensor(3.0))
        print(torch.tensor(-0.5))
        print(torch.tensor([1.0, 2.0, 3.0]))
        print(torch.tensor([1.5, -2.25, 3.0]))
        print(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        print(torch.tensor([[0.1, 20.0], [-3.0, 400.5]]))
        print(torch.tensor([1e-5, 1.0]))
        print(torch.tensor([123456.0, 1.0]))
        print(torch.tensor([1e10, 1.0]))
        print(torch.tensor([0.0, -0.0]))
        print(torch.zeros(0), torch.zeros(2, 0))
        print(repr(torch.tensor([1.0, 2.0])), str(torch.tensor(7.0)))
        """
    )


def test_print_of_integer_and_bool_tensors():
    assert_same(
        """
        print(torch.tensor(5))
        print(torch.tensor([1, -20, 300]))
        print(torch.tensor([[1, 2], [30, 4]]))
        print(torch.tensor(True))
        print(torch.tensor([True, False]))
        print(torch.tensor([[True], [False]]))
        """
    )


def test_print_shows_non_default_dtypes():
    assert_same(
        """
        print(torch.tensor([1.0, 2.5], dtype=torch.float64))
        print(torch.tensor(2.0, dtype=torch.float64))
        print(torch.tensor([1, 2], dtype=torch.float64))
        print(torch.zeros(2, dtype=torch.int64))
        print(torch.zeros(0, dtype=torch.int64), torch.zeros(0, dtype=torch.float64))
        print(torch.ones(2, 2, dtype=torch.bool))
        """
    )


def test_print_shows_requires_grad_or_grad_fn():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        print(a)
        print(a * 2)
        print(a.sum())
        print(a[0])
        print(a.clone())
        d = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
        print(d)
        print(d.clone())
        with torch.no_grad():
            print(a * 2)
        """
    )


def test_print_of_views_and_non_contiguous_tensors_shows_logical_values():
    assert_same(
        """
        a = torch.arange(6.).view(2, 3)
        print(a.t())
        print(a[:, ::2])
        print(a[1])
        print(torch.tensor([1.0, 2.0]).expand(2, 2))
        """
    )


def test_print_of_sizes_dtypes_and_devices():
    assert_same(
        """
        a = torch.zeros(2, 3)
        print(a.shape, a.size(), a.size(1), torch.tensor(1.0).shape)
        print(repr(a.shape), a.shape == (2, 3), a.shape[0], list(a.shape), len(a.shape))
        print(a.dtype, repr(a.dtype), a.device, repr(a.device))
        print(torch.Size([4, 5]), type(a.shape).__name__, isinstance(a.shape, tuple))
        """
    )


def test_print_of_grad_fn_nodes_and_next_functions():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        c = b.sum()
        print(b.grad_fn)
        print(c.grad_fn)
        print(c.grad_fn.next_functions)
        print(b.grad_fn.next_functions[0][0])
        print(a.grad_fn)
        d = torch.zeros(2)
        d.copy_(a)
        print(d.grad_fn)
        e = a.clone()
        e[0] = 1.0
        print(e.grad_fn)
        print(e)
        """
    )


def test_print_of_parameters():
    assert_same(
        """
        p = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        print(p)
        print(repr(p))
        q = torch.nn.Parameter(torch.tensor(1.0, dtype=torch.float64))
        print(q)
        r = torch.nn.Parameter(torch.tensor([1.0]), requires_grad=False)
        print(r)
        print(p.data)
        print(p.detach())
        print(p * 1)
        """
    )


def test_print_of_cuda_tensors_puts_the_device_right_after_the_values():
    assert_same_as_gpu(
        """
        a = torch.tensor([1.0, 2.0], device="cuda")
        b = torch.tensor(1.0, dtype=torch.float64, device="cuda", requires_grad=True)
        c = b.clone()
        i = torch.tensor([[1, 2]], device="cuda")
        z = torch.zeros(0, device="cuda")
        p = torch.nn.Parameter(torch.tensor([3.0], device="cuda"))
        print(a)
        print(b)
        print(c)
        print(i)
        print(z)
        print(p)
        print(a.device, repr(a.device))
        """,
        expect_cuda=["a", "b", "c", "i", "z", "p"],
    )
