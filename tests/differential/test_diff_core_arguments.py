"""The core's own arguments as torch reads them: ``backward(inputs=...)`` restricts the pass, a
storage's constructor, grad mode's switch, a memory format of None, ``requires_grad_``'s flag,
``size`` and ``stride``'s dim, the dtype shortcuts' ``memory_format``."""

import textwrap

from crosscheck.harness import assert_same
from diff_programs import program

LOUD_DOUBLE = """
class LoudDouble(torch.autograd.Function):
    forward = staticmethod(lambda ctx, x: x * 2)

    @staticmethod
    def backward(ctx, grad):
        print("LoudDouble.backward runs")
        return grad * 2
"""


def test_backward_with_inputs_fills_only_their_grad_and_runs_only_what_leads_to_them():
    assert_same(LOUD_DOUBLE + textwrap.dedent(
        """
        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        (a * b * 3).sum().backward(inputs=[a])
        print(a.grad, b.grad)
        (a * b * 3).sum().backward(inputs=b)  # one tensor
        print(a.grad, b.grad)
        b.register_hook(lambda g: print("b's hook", g))
        torch.autograd.backward([(a * b).sum()], inputs=(a,))
        print(a.grad, b.grad)
        y = a * 2  # a non-leaf input keeps its gradient (torch calls retain_grad)
        (y * 3).sum().backward(inputs=[y])
        print(y.grad, y.retains_grad, a.grad)
        c = torch.ones(2, requires_grad=True)
        (a * 2).sum().backward(inputs=[c])  # unreached: nothing runs
        print(a.grad, c.grad)
        a.backward(torch.ones(2), inputs=[c])  # a leaf output that is not an input
        print(a.grad, c.grad)
        y = LoudDouble.apply(a)  # a custom Function's node leading to no input does not run
        (y * c).sum().backward(inputs=[c])
        print(a.grad, c.grad)
        y = LoudDouble.apply(a)
        (y * 3).sum().backward(inputs=[y])  # an input's own node runs
        print(y.grad, a.grad)
        print(torch.autograd.grad((LoudDouble.apply(a) * 3).sum(), inputs=a))
        y = LoudDouble.apply(a)
        print(torch.autograd.grad((y * 3).sum(), [y]))  # autograd.grad does not run it
        """
    ))


def test_a_memory_format_of_none_is_torchs_default_and_the_dtype_shortcuts_take_one():
    assert_same(program(
        """
        x = torch.ones(2, 3).t()
        print(x.clone(memory_format=None).stride())
        for name in ["float", "double", "long", "bool", "half", "int", "short", "char", "byte", "cpu"]:
            method = getattr(x, name)
            print(name, method(memory_format=torch.contiguous_format).stride(),
                  method(memory_format=torch.preserve_format).stride(), method(memory_format=None).stride())
        attempt(lambda: x.double(memory_format=torch.channels_last))
        """
    ))


def test_requires_grad_takes_only_a_bool():
    assert_same(program(
        """
        import numpy as np
        for flag in [1, 0, None, 1.0, np.bool_(True), torch.tensor(True)]:
            attempt(lambda: torch.ones(2).requires_grad_(flag))
            attempt(lambda: torch.ones(2).requires_grad_(requires_grad=flag))
        print(torch.ones(2).requires_grad_(False).requires_grad, torch.ones(2).requires_grad_().requires_grad)
        """
    ))


def test_set_grad_enabled_takes_only_a_bool_and_leaves_the_mode_when_refused():
    assert_same(program(
        """
        import numpy as np
        for mode in [None, 0, 1, "x", np.bool_(False), torch.tensor(False)]:
            attempt(lambda: torch.set_grad_enabled(mode))
            print(torch.is_grad_enabled())
        attempt(lambda: torch.set_grad_enabled())
        with torch.set_grad_enabled(mode=False):
            print(torch.is_grad_enabled())
        print(torch.is_grad_enabled())
        """
    ))


def test_an_untyped_storage_is_made_from_a_size_or_a_sequence_of_ints():
    assert_same(program(
        """
        import numpy as np
        def made(*args):
            s = torch.UntypedStorage(*args)
            by_values = args and isinstance(args[0], (list, tuple, bytes, range))
            return s.nbytes(), [s[i] for i in range(s.nbytes())] if by_values else None
        for args in [(), (np.int64(3),), (torch.tensor(3),), (3,), (0,), ([1, 2, 3],), ((1, 2),), ([300, -1, -257],),
                     (b"ab",), ([True, False],), (range(3),)]:
            attempt(lambda: made(*args))
        for odd in [True, 2.0, "x", torch.tensor([1, 2]), torch.tensor([3]), torch.tensor(3.0), np.array([1, 2]),
                    [1.0], {1: 2}, {1, 2}, np.float32(2), [torch.tensor(1)], None, -2, np.int64(-1)]:
            attempt(lambda: torch.UntypedStorage(odd))
        """
    ))


def test_size_and_stride_take_an_int_dim_and_a_0_d_tensor_has_none():
    assert_same(program(
        """
        import numpy as np
        a, z = torch.ones(2, 3), torch.tensor(1.0)
        for method in ["size", "stride"]:
            for dim in [True, False, 0, 1, -1, -2, 2, -3, np.int64(1), torch.tensor(1), 2.0, "a", None, np.float32(0)]:
                attempt(lambda: getattr(a, method)(dim))
                attempt(lambda: getattr(z, method)(dim))
            attempt(lambda: getattr(a, method)(dim=1))
        print(a.nelement(), z.nelement(), a.is_inference(), a.output_nr, a.is_cuda, a._cdata == a[:]._cdata)
        """
    ))
