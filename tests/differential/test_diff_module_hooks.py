"""Module forward hooks: when they run, what they may replace, and what copy.copy,
copy.deepcopy and state_dict() do with them.

Handle ids come from one counter shared by the whole process, so no test prints
them; the tests print what ran, and the number of hooks a module holds.
"""

import textwrap

from crosscheck.harness import assert_same
from diff_programs import LINEAR_MODEL


def test_pre_hooks_and_forward_hooks_run_in_order_and_may_replace_inputs_and_output():
    assert_same(LINEAR_MODEL + textwrap.dedent(
        """
        seen = []
        model.register_forward_pre_hook(lambda m, args: seen.append(("pre", args[0].tolist())))
        model.register_forward_pre_hook(lambda m, args: args[0] * 10)           # not a tuple: wrapped
        model.register_forward_hook(lambda m, args, out: seen.append(("post", args[0].tolist(), out.tolist())))
        model.register_forward_hook(lambda m, args, out: out + 1)
        first = model.register_forward_pre_hook(lambda m, args: seen.append("first"), prepend=True)
        x = torch.ones(1, 2)
        y = model(x)
        print(seen)
        print(y, y.grad_fn)
        first.remove()
        seen.clear()
        z = model(x)
        print(seen, z)
        print(len(model._forward_pre_hooks), len(model._forward_hooks))
        print(model.forward(x))                 # forward itself runs no hook
        """
    ))


def test_hooks_with_kwargs_see_and_may_replace_the_keyword_arguments():
    assert_same(
        """
        class Scale(torch.nn.Module):
            def forward(self, x, factor=1.0):
                return x * factor
        m = Scale()
        m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": kwargs["factor"] * 2}),
                                    with_kwargs=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: print("saw", kwargs, out), with_kwargs=True)
        out = m(torch.ones(2), factor=3.0)
        print(out)
        h = m.register_forward_pre_hook(lambda mod, args, kwargs: "nonsense", with_kwargs=True)
        try:
            m(torch.ones(2), factor=1.0)
        except RuntimeError as err:
            print("RuntimeError:", err)
        h.remove()
        print(len(m._forward_pre_hooks), len(m._forward_pre_hooks_with_kwargs))
        """
    )


def test_an_always_call_hook_runs_when_forward_raises_and_the_error_still_reaches_the_caller():
    assert_same(
        """
        class Broken(torch.nn.Module):
            def forward(self, x):
                raise ValueError("forward failed")
        m = Broken()
        calls = []
        m.register_forward_hook(lambda mod, args, out: calls.append(("always", out)), always_call=True)
        m.register_forward_hook(lambda mod, args, out: calls.append("ordinary"))
        def loud(mod, args, out):
            raise KeyError("hook failed too")
        m.register_forward_hook(loud, always_call=True)
        try:
            m(torch.ones(1))
        except ValueError as err:
            print("ValueError:", err)
        print(calls)
        """
    )


def test_copy_shares_the_hook_dicts_and_deepcopy_copies_them():
    assert_same(
        """
        import copy
        calls = []
        model = torch.nn.Linear(2, 1)
        with torch.no_grad():
            model.weight.copy_(torch.tensor([[0.5, -1.0]]))
            model.bias.fill_(0.25)
        handle = model.register_forward_hook(lambda m, args, out: calls.append("original's hook"))
        deep, shallow = copy.deepcopy(model), copy.copy(model)
        shallow.register_forward_hook(lambda m, args, out: calls.append("added to the shallow copy"))
        x = torch.ones(1, 2)
        for name, m in [("model", model), ("shallow", shallow), ("deep", deep)]:
            calls.clear()
            m(x)
            print(name, calls)
        print(shallow._forward_hooks is model._forward_hooks, deep._forward_hooks is model._forward_hooks)
        print(list(deep._forward_hooks.values())[0] is list(model._forward_hooks.values())[0])
        handle.remove()                       # removes it from model (and shallow), not from deep
        print(len(model._forward_hooks), len(shallow._forward_hooks), len(deep._forward_hooks))
        print(sorted(model.state_dict()))     # no hook in the state dict
        out = deep(x)
        """
    )


def test_children_keep_their_own_hooks_inside_a_sequential_and_its_deepcopy():
    assert_same(
        """
        import copy
        net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 1))
        with torch.no_grad():
            for p in net.parameters():
                p.fill_(0.5)
        net[0].register_forward_hook(lambda m, args, out: out * 0)
        y = net(torch.ones(1, 2))
        twin = copy.deepcopy(net)
        y2 = twin(torch.ones(1, 2))
        print(torch.equal(y, y2), y.grad_fn, len(twin[0]._forward_hooks), len(twin[1]._forward_hooks))
        """
    )
