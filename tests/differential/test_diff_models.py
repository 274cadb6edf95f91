"""nn.Module, nn.Parameter, nn.Linear, state_dict, load_state_dict, optim.SGD.

Random initialisation is not compared: every Linear gets explicit weights
(``copy_`` under ``no_grad``) before anything is printed or observed.
"""

import textwrap

from crosscheck.harness import assert_same

LINEAR_2_3 = """
torch.manual_seed(0)
lin = torch.nn.Linear(2, 3)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [0.0, -1.0], [0.5, 0.5]]))
    lin.bias.copy_(torch.tensor([0.1, 0.2, 0.3]))
"""


def with_linear(body: str) -> str:
    """A program that starts with a Linear(2, 3) holding known weights."""
    return LINEAR_2_3 + textwrap.dedent(body)


def test_parameter_is_a_leaf_that_requires_grad_and_shares_the_data():
    assert_same(
        """
        data = torch.tensor([1.0, 2.0])
        p = torch.nn.Parameter(data)
        q = torch.nn.Parameter(torch.tensor([3.0]), requires_grad=False)
        print(type(p).__name__, isinstance(p, torch.Tensor), p.is_leaf, p.requires_grad, q.requires_grad)
        print(p.data_ptr() == data.data_ptr(), p is data)
        print(p)
        print(q)
        print(repr(p * 2))
        """
    )


def test_linear_forward_and_backward_with_explicit_weights():
    assert_same(
        with_linear(
            """
            x = torch.tensor([[1.0, 1.0], [2.0, -1.0]])
            y = lin(x)
            print(y)
            y.sum().backward()
            print(lin.weight.grad, lin.bias.grad)
            v = lin(torch.tensor([1.0, 2.0]))
            print(v)
            print(lin.weight.shape, lin.bias.shape, lin.in_features, lin.out_features)
            """
        )
    )


def test_linear_without_bias():
    assert_same(
        """
        lin = torch.nn.Linear(2, 2, bias=False)
        with torch.no_grad():
            lin.weight.copy_(torch.tensor([[1.0, 0.0], [2.0, 3.0]]))
        print(lin.bias, lin(torch.tensor([1.0, 1.0])))
        print([n for n, _ in lin.named_parameters()], list(lin.state_dict().keys()))
        """
    )


def test_module_subclass_registers_parameters_and_children_in_order():
    assert_same(
        """
        class Scaled(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 1)
                self.scale = torch.nn.Parameter(torch.tensor(2.0))
                self.not_a_param = torch.tensor([1.0])

            def forward(self, x):
                return self.fc(x) * self.scale

        net = Scaled()
        with torch.no_grad():
            net.fc.weight.copy_(torch.tensor([[1.0, -1.0]]))
            net.fc.bias.fill_(0.5)
        names = [n for n, _ in net.named_parameters()]
        params = list(net.parameters())
        print(names)
        print(params[0] is net.scale, params[1] is net.fc.weight, len(params))
        out = net(torch.tensor([[3.0, 1.0]]))
        print(out)
        out.sum().backward()
        print(net.scale.grad, net.fc.weight.grad, net.fc.bias.grad)
        print(isinstance(net, torch.nn.Module), net.training)
        """
    )


def test_zero_grad_clears_gradients_to_none():
    assert_same(
        with_linear(
            """
            print(lin.weight.grad)
            lin(torch.ones(1, 2)).sum().backward()
            print(lin.weight.grad)
            lin.zero_grad()
            print(lin.weight.grad, lin.bias.grad)
            """
        )
    )


def test_state_dict_holds_detached_tensors_sharing_storage_with_the_parameters():
    assert_same(
        with_linear(
            """
            sd = lin.state_dict()
            print(list(sd.keys()))
            w = sd["weight"]
            print(type(w).__name__, w.requires_grad, w.is_leaf, w._is_view(), w._base)
            print(w.data_ptr() == lin.weight.data_ptr(), w is lin.weight, w._version == lin.weight._version)
            print(sd["bias"])
            print(type(sd).__name__)
            print(sd)
            """
        )
    )


def test_load_state_dict_copies_into_the_existing_parameters():
    assert_same(
        with_linear(
            """
            w_before = lin.weight
            ptr_before = lin.weight.data_ptr()
            v_before = lin.weight._version
            new_w = torch.tensor([[9.0, 8.0], [7.0, 6.0], [5.0, 4.0]])
            new_b = torch.tensor([-1.0, -2.0, -3.0])
            lin.load_state_dict({"weight": new_w, "bias": new_b})
            print(lin.weight, lin.bias)
            print(lin.weight is w_before, lin.weight.data_ptr() == ptr_before, lin.weight._version - v_before)
            print(lin.weight.data_ptr() == new_w.data_ptr(), lin.weight.requires_grad, lin.weight.is_leaf)
            new_w[0, 0] = 100.0
            print(lin.weight[0, 0])
            """
        )
    )


def test_sgd_step_updates_parameters_in_place():
    assert_same(
        with_linear(
            """
            opt = torch.optim.SGD(lin.parameters(), lr=0.5)
            w = lin.weight
            v0 = lin.weight._version
            loss = lin(torch.tensor([[1.0, 2.0]])).sum()
            loss.backward()
            opt.step()
            print(lin.weight, lin.bias)
            print(lin.weight is w, lin.weight._version - v0, lin.weight.grad)
            opt.zero_grad()
            print(lin.weight.grad)
            """
        )
    )


def test_a_saved_state_dict_changes_during_training_unless_deep_copied():
    assert_same(
        with_linear(
            """
            import copy
            opt = torch.optim.SGD(lin.parameters(), lr=0.1)
            saved = lin.state_dict()
            frozen = copy.deepcopy(lin.state_dict())
            for step in range(2):
                opt.zero_grad()
                (lin(torch.tensor([[1.0, -1.0]])) ** 2).sum().backward()
                opt.step()
            print(saved["weight"])
            print(frozen["weight"])
            print(lin.weight)
            print(saved["weight"].data_ptr() == lin.weight.data_ptr(), frozen["weight"].data_ptr() == lin.weight.data_ptr())
            """
        )
    )


def test_a_module_has_no_clone_but_deepcopy_makes_an_independent_copy():
    assert_same(
        with_linear(
            """
            import copy
            print(hasattr(lin, "clone"))
            twin = copy.deepcopy(lin)
            print(twin.weight is lin.weight, twin.weight.data_ptr() == lin.weight.data_ptr())
            print(type(twin.weight).__name__, twin.weight.requires_grad, twin.weight.is_leaf)
            with torch.no_grad():
                twin.weight.mul_(10)
            print(lin.weight)
            print(twin.weight)
            """
        )
    )


def test_deepcopy_of_a_module_does_not_carry_parameter_gradients():
    assert_same(
        with_linear(
            """
            import copy
            lin(torch.ones(1, 2)).sum().backward()
            twin = copy.deepcopy(lin)
            print(twin.weight.grad, lin.weight.grad)
            p = copy.deepcopy(lin.bias)
            print(type(p).__name__, p.grad, p.requires_grad, p.is_leaf)
            """
        )
    )


def test_parameters_inside_a_list_share_with_the_module():
    assert_same(
        with_linear(
            """
            ps = list(lin.parameters())
            named = dict(lin.named_parameters())
            print(len(ps), ps[0] is lin.weight, named["bias"] is lin.bias)
            """
        )
    )


def test_loading_into_a_meta_parameter_warns_copies_nothing_and_counts_the_write():
    assert_same(
        """
        import warnings
        meta = torch.nn.Linear(2, 1, device="meta")
        before = meta.weight._version
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            meta.load_state_dict({"weight": torch.tensor([[1.0, 2.0]]), "bias": torch.tensor([0.5])})
        print(meta.weight.device, meta.weight._version - before, [str(w.message) for w in caught])
        print([w.category.__name__ for w in caught])
        """
    )


def test_a_conversion_across_the_meta_device_carries_each_grad_to_the_new_parameter():
    assert_same(
        with_linear(
            """
            lin(torch.tensor([[1.0, 2.0]])).sum().backward()
            old = lin.weight
            lin.to("meta")
            print(lin.weight is old, lin.weight.grad.device, lin.weight.grad.shape, lin.bias.grad.device)
            lin.to_empty(device="cpu")
            print(lin.weight.grad.device, lin.weight.grad.shape, lin.weight.grad.dtype, lin.weight.grad.is_leaf)
            with torch.no_grad():
                for t in (lin.weight, lin.bias, lin.weight.grad, lin.bias.grad):
                    t.zero_()
            """
        )
    )


def test_conversions_across_the_meta_device_make_new_parameters_and_to_empty_on_the_cpu_keeps_them():
    assert_same(
        with_linear(
            """
            weight = lin.weight
            lin.to_empty(device="cpu")
            print(lin.weight is weight, lin.weight.shape, lin.weight.dtype, lin.weight.requires_grad)
            with torch.no_grad():
                lin.weight.fill_(1.0)
                lin.bias.fill_(0.0)
            lin.to("meta")
            print(lin.weight is weight, lin.weight.device, type(lin.weight).__name__, lin.weight.requires_grad)
            old = lin.bias
            lin.to_empty(device="cpu")
            print(lin.bias is old, lin.bias.device, type(lin.bias).__name__, lin.bias.is_leaf)
            with torch.no_grad():
                lin.weight.fill_(2.0)
                lin.bias.fill_(0.0)
            frozen = torch.nn.Linear(2, 1, device="meta").requires_grad_(False)
            frozen.to_empty(device="cpu", recurse=False)
            print(frozen.weight.device, frozen.weight.requires_grad)
            with torch.no_grad():
                frozen.weight.zero_()
                frozen.bias.zero_()
            """
        )
    )


def test_to_off_the_meta_device_refuses_and_points_to_to_empty_where_a_tensor_does_not():
    assert_same(
        """
        lin = torch.nn.Linear(2, 1, device="meta")
        for move in (lambda: lin.to("cpu"), lambda: lin.cpu(), lambda: lin.weight.to("cpu")):
            try:
                move()
            except NotImplementedError as err:
                print("NotImplementedError:", err, err.__suppress_context__)
        print(lin.weight.device, lin.to(torch.float64).weight.dtype)
        """
    )


def test_moving_a_meta_model_off_the_meta_device_with_to_points_at_to_empty_and_cpu_does_not():
    assert_same(
        """
        for name, move in (("to('cpu')", lambda m: m.to("cpu")), ("to('cpu', float64)", lambda m: m.to("cpu", torch.float64)),
                           ("to(float64)", lambda m: m.to(torch.float64)), ("cpu()", lambda m: m.cpu())):
            model = torch.nn.Linear(2, 1, device="meta")
            try:
                move(model)
                print(name, model.weight.device, model.weight.dtype)
            except NotImplementedError as error:
                print(name, "NotImplementedError:", error)
        """
    )


def test_a_conversion_across_the_meta_device_takes_the_gradient_along():
    assert_same(
        with_linear(
            """
            lin(torch.ones(1, 2)).sum().backward()
            grad = lin.weight.grad
            lin.to("meta")
            print(lin.weight.grad is grad, lin.weight.grad.device, lin.weight.grad.shape, lin.bias.grad.requires_grad)
            lin.to_empty(device="cpu")
            print(lin.weight.grad.device, lin.weight.grad.shape, lin.weight.grad.is_leaf)
            with torch.no_grad():
                lin.weight.fill_(1.0)
                lin.bias.fill_(0.0)
                lin.weight.grad.fill_(0.0)
                lin.bias.grad.fill_(0.0)
            """
        )
    )


def test_a_gradient_that_requires_grad_keeps_it_across_the_meta_device():
    assert_same(
        """
        lin = torch.nn.Linear(1, 1)
        lin.weight.grad = torch.ones(1, 1, requires_grad=True)
        lin.to("meta")
        print(lin.weight.grad.requires_grad, lin.weight.grad.is_leaf, lin.weight.grad.device)
        """
    )
