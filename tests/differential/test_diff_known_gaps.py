"""Three corners where reftorch used to differ from torch: strides of arithmetic on an
empty tensor, copy_ under no_grad into a view of a leaf, and the version of .grad after
gradients were summed on their way to a leaf."""

from crosscheck.harness import assert_same


def test_arithmetic_on_an_empty_tensor_keeps_torchs_strides():
    assert_same(
        """
        e = torch.zeros(3, 0, 2)
        doubled, summed, flipped = e * 2, e + e, e.transpose(0, 2) * 2
        print(doubled.stride(), summed.stride(), flipped.stride(), doubled.shape)
        """
    )


def test_copy_into_a_view_of_a_leaf_under_no_grad_leaves_a_view_that_requires_grad():
    assert_same(
        """
        a = torch.zeros(4, requires_grad=True)
        v = a[1:3]
        with torch.no_grad():
            v.copy_(torch.ones(2))
        print(v.requires_grad, v.grad_fn, v.is_leaf, v._version, a._version, a)
        try:
            v.mul_(2)
        except RuntimeError as err:
            print("RuntimeError:", err)
        """
    )


def test_the_version_of_grad_says_whether_the_engine_summed_in_place():
    assert_same(
        """
        cases = {
            "a + a": lambda a: a + a,
            "a * 2 + a * 3": lambda a: a * 2 + a * 3,
            "a + a + a": lambda a: a + a + a,
            "a * a": lambda a: a * a,
            "a + a * 3": lambda a: a + a * 3,
            "a.exp() + a": lambda a: a.exp() + a,
            "a - a": lambda a: a - a,
            "a * 2 + a * 3 + a * 4": lambda a: a * 2 + a * 3 + a * 4,
            "(a + a).sum(0)": lambda a: (a + a).sum(0),
        }
        for name, f in cases.items():
            a = torch.ones(2, requires_grad=True)
            f(a).sum().backward()
            print(name, a.grad._version, a.grad, a.grad.stride())
        b = torch.ones(2, 3, requires_grad=True)
        y = b * 1
        y.retain_grad()
        y.sum().backward()
        print(y.grad.stride(), y.grad._version, b.grad.stride(), b.grad._version)
        """
    )
