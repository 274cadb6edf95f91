"""Tensor.register_hook: where a hook runs, what it can change, and what copies do with hooks.

Handle ids come from one counter shared by the whole process, so no test
prints them (they depend on what ran before); ``len(t._backward_hooks)`` is
printed instead.
"""

import textwrap

import pytest

from crosscheck.harness import assert_same
from diff_programs import HALVE

# x -> y = x * 2 -> z = y * 3, with a hook on x and one on y (registered after the graph was built).
HOOKED_CHAIN = """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y * 3
x.register_hook(lambda g: g * 10)
y.register_hook(lambda g: g * 100)
"""


def test_a_hook_on_a_leaf_changes_what_lands_in_grad_and_runs_once_per_backward():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        def times_ten(g):
            seen.append(g.tolist())
            return g * 10
        h = x.register_hook(times_ten)
        y = x * 2 + x * x          # x reaches AccumulateGrad along two paths
        y.sum().backward()
        print(seen, x.grad)
        print(type(x._backward_hooks).__name__, len(x._backward_hooks), x.grad_fn)
        (x * 3).sum().backward()   # accumulated: the hook sees only the new gradient
        print(seen, x.grad)
        """
    )


def test_a_hook_on_a_non_leaf_changes_the_gradient_that_flows_on_to_the_leaves():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y * 3
        y.register_hook(lambda g: print("first", g) or g + 1)
        y.retain_grad()                                   # keeps the gradient after every hook
        y.register_hook(lambda g: print("second", g))     # None: the gradient goes on unchanged
        z.sum().backward()
        print(x.grad, y.grad)
        print(len(y._backward_hooks), x._backward_hooks)
        """
    )


def test_a_hook_on_the_output_itself_changes_the_starting_gradient():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * 2).sum()
        loss.register_hook(lambda g: print("root", g) or g * 3)
        loss.backward()
        print(x.grad)
        """
    )


def test_a_hook_registered_after_the_graph_was_built_still_runs():
    assert_same(
        HOOKED_CHAIN
        + textwrap.dedent(
            """
            z.sum().backward()
            print(x.grad)
            """
        )
    )


def test_remove_takes_the_hook_away_and_a_handle_works_as_a_context_manager():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x.register_hook(lambda g: g * 10)
        h.remove()
        h.remove()                   # removing twice is harmless
        (x * 2).sum().backward()
        print(x.grad, x._backward_hooks)
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        with w.register_hook(lambda g: g * 10):
            (w * 2).sum().backward()
        (w * 2).sum().backward()
        print(w.grad, len(w._backward_hooks))
        """
    )


def test_a_gradient_a_hook_kept_does_not_become_grad_nor_change_later():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        kept = []
        x.register_hook(lambda g: kept.append(g))
        (x * 2).sum().backward()
        print(x.grad is kept[0], x.grad.data_ptr() == kept[0].data_ptr())
        (x * 5).sum().backward()
        print(kept, x.grad)
        """
    )


def test_a_hook_that_writes_into_its_argument_changes_the_gradient_too():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: g.mul_(10))
        (y * y).sum().backward()
        print(x.grad)
        """
    )


def test_the_gradient_a_hook_returns_is_computed_without_recording_a_graph():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        w = torch.tensor([3.0, 4.0], requires_grad=True)
        x.register_hook(lambda g: g * w)
        (x * 2).sum().backward()
        print(x.grad, x.grad.requires_grad, x.grad.grad_fn, w.grad)
        """
    )


def test_autograd_grad_returns_the_gradient_after_the_hooks_and_leaves_grad_alone():
    assert_same(
        HOOKED_CHAIN
        + textwrap.dedent(
            """
            print(torch.autograd.grad(z.sum(), [y], retain_graph=True))
            print(torch.autograd.grad(z.sum(), [x]))
            print(x.grad)
            """
        )
    )


def test_an_in_place_op_leaves_earlier_hooks_with_the_old_grad_fn():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: print("before mul_", g) or g * 10)
        y.mul_(3)
        print(y._backward_hooks, y.grad_fn.name())
        y.register_hook(lambda g: print("after mul_", g) or g * 100)
        (y * 5).sum().backward()
        print(x.grad)
        """
    )


def test_a_hook_on_a_view_of_a_leaf_sees_only_the_view_s_gradient():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        v = x[1:]
        v.register_hook(lambda g: print("view", g) or g * 10)
        (v * 2).sum().backward()
        print(x.grad)
        """
    )


def test_a_hook_on_a_tensor_that_does_not_require_grad_is_refused():
    assert_same(
        """
        t = torch.tensor([1.0, 2.0])
        print(t._backward_hooks)
        t.register_hook(lambda g: g)
        """,
        raises="RuntimeError",
    )


@pytest.mark.parametrize(
    "returns, raises",
    [
        ("3", "TypeError"),  # a hook must return a tensor or None
        ("torch.ones(3, dtype=torch.float64)", "RuntimeError"),  # the dtype is checked before the size
    ],
)
def test_a_hook_returning_what_it_may_not_raises_torchs_error(returns, raises):
    assert_same(
        f"""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: {returns})
        (x * 2).sum().backward()
        """,
        raises=raises,
    )


def test_a_hook_may_not_change_the_size_and_the_error_names_the_hook():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        def widen(g):
            return torch.ones(3)
        y = x * 2
        y.register_hook(widen)
        (y * 2).sum().backward()
        """,
        raises="RuntimeError",
    )


def test_a_hook_with_no_name_is_called_unknown_in_the_error():
    assert_same(
        """
        class Widen:
            def __call__(self, g):
                return torch.ones(3)
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(Widen())
        (x * 2).sum().backward()
        """,
        raises="RuntimeError",
    )


def test_copy_copy_warns_that_hooks_are_left_behind_and_the_copy_has_none():
    assert_same(
        """
        import copy
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        def double_it(g):
            return g * 2
        x.register_hook(double_it)
        c = copy.copy(x)
        print(c._backward_hooks, len(x._backward_hooks), c.data_ptr() == x.data_ptr())
        (c * 3).sum().backward()
        (x * 3).sum().backward()
        print(c.grad, x.grad)
        plain = torch.tensor([1.0], requires_grad=True)
        print(copy.copy(plain)._backward_hooks)   # no hooks: no warning
        """
    )


def test_copy_deepcopy_drops_hooks_silently():
    assert_same(
        """
        import copy
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 2)
        d = copy.deepcopy(x)
        print(d._backward_hooks, d.data_ptr() == x.data_ptr(), d.requires_grad)
        (d * 3).sum().backward()
        print(d.grad)
        """
    )


def test_copies_of_a_parameter_and_of_a_model_lose_the_parameter_hooks():
    assert_same(
        """
        import copy
        lin = torch.nn.Linear(2, 1)
        with torch.no_grad():
            lin.weight.copy_(torch.tensor([[1.0, 2.0]]))
            lin.bias.fill_(0.5)
        lin.weight.register_hook(lambda g: g * 0)          # freeze the weight's updates
        p_copy = copy.copy(lin.weight)
        p_deep = copy.deepcopy(lin.weight)
        print(type(p_copy).__name__, p_copy._backward_hooks, p_copy.data_ptr() == lin.weight.data_ptr())
        print(type(p_deep).__name__, p_deep._backward_hooks)
        twin = copy.deepcopy(lin)
        x = torch.tensor([[1.0, 1.0]])
        lin(x).sum().backward()
        twin(x).sum().backward()
        print(lin.weight.grad, twin.weight.grad)
        print(twin.weight._backward_hooks, len(lin.weight._backward_hooks))
        """
    )


def test_a_hook_where_no_gradient_arrives_is_called_with_none():
    """A node that runs calls each tensor hook on it, with None for an output no gradient reached
    (a piece of ``split`` not used, an input a custom backward gave None); a hook may not replace
    that None. ``autograd.grad`` runs no node off its inputs' paths, so calls none there."""
    assert_same(HALVE + textwrap.dedent(
        """
        def shown(seen):
            return [None if g is None else g.tolist() for g in seen]

        a = torch.ones(2, requires_grad=True)
        b, c = a.split(1)
        seen = []
        c.register_hook(seen.append)
        b.sum().backward()
        print(shown(seen), a.grad)
        x, y = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
        x1 = x * 1
        seen, seen_leaf = [], []
        x1.register_hook(seen.append)
        x.register_hook(seen_leaf.append)
        Halve.apply(x1, y).sum().backward()
        print(shown(seen), shown(seen_leaf), x.grad)
        seen.clear()
        print(torch.autograd.grad(Halve.apply(x1, y).sum(), y), shown(seen))
        x1.register_hook(lambda g: torch.ones(2))
        try:
            Halve.apply(x1, y).sum().backward()
        except RuntimeError as error:
            print("RuntimeError:", error)
        """
    ))
