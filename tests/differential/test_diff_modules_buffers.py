"""nn.Module's tables (parameters, buffers, children), Sequential, BatchNorm1d,
train/eval, conversions (to/double/float/half/cuda/cpu), load_state_dict with
strict= and assign=, copy.copy/deepcopy of modules, and Linear's bad-input errors.

Weights are always set explicitly: reftorch's random numbers are not torch's.
Error cases that do not stop the program are collected with ``attempt``,
which prints the exception class and message (so the message is compared).
"""

import textwrap

from crosscheck.harness import assert_same, assert_same_as_gpu

from diff_programs import program


NET = """
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 2)
        self.register_buffer("scale", torch.tensor([2.0, 3.0]))
        self.register_buffer("cache", torch.zeros(2), persistent=False)

    def forward(self, x):
        return self.fc(x) * self.scale

net = Net()
with torch.no_grad():
    net.fc.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    net.fc.bias.copy_(torch.tensor([0.5, -0.5]))
"""


def with_net(body: str) -> str:
    return program(NET + textwrap.dedent(body))


# --- buffers -------------------------------------------------------------------


def test_buffers_are_registered_tensors_in_state_dict_unless_not_persistent():
    assert_same(
        with_net(
            """
            s = net.scale
            print([n for n, _ in net.named_buffers()], [n for n, _ in net.named_parameters()])
            print(len(list(net.buffers())), len(list(net.parameters())))
            print(net.scale is s, net._buffers["scale"] is s, net._non_persistent_buffers_set)
            sd = net.state_dict()
            print(list(sd.keys()))
            print(sd["scale"] is s, sd["scale"].data_ptr() == s.data_ptr(), sd["scale"].requires_grad)
            print(sd._metadata)
            net.register_buffer("nothing", None)
            print([n for n, _ in net.named_buffers()], list(net.state_dict().keys()), net.nothing)
            out = net(torch.tensor([[1.0, 1.0]]))
            print(out)
            out.sum().backward()
            print(net.fc.weight.grad, s.grad, s.requires_grad)
            """
        )
    )


def test_a_buffer_that_requires_grad_stays_that_tensor_and_state_dict_detaches_it():
    assert_same(
        program(
            """
            m = torch.nn.Module()
            t = torch.tensor([1.0, 2.0], requires_grad=True)
            m.register_buffer("b", t)
            y = t * 2
            m.register_buffer("nonleaf", y)
            print(m.b is t, m.nonleaf is y, list(m.state_dict().keys()))
            sd = m.state_dict()
            print(sd["b"].requires_grad, sd["nonleaf"].grad_fn, sd["nonleaf"].data_ptr() == y.data_ptr())
            print(m)
            """
        )
    )


def test_assigning_to_a_buffer_name_replaces_the_buffer_and_keeps_its_persistence():
    assert_same(
        program(
            """
            m = torch.nn.Module()
            m.register_buffer("kept", torch.zeros(2))
            m.register_buffer("temp", torch.zeros(2), persistent=False)
            new = torch.ones(3)
            m.kept = new
            m.temp = torch.ones(1)
            print(m.kept is new, list(m.state_dict().keys()), m._non_persistent_buffers_set)
            m.kept = None
            print(list(m.named_buffers()), list(m.state_dict().keys()))
            m.temp = torch.nn.Parameter(torch.tensor([5.0]))
            print(list(m._buffers), list(m._parameters), m._non_persistent_buffers_set)
            del m.temp
            del m.kept
            print(list(m._buffers), list(m._parameters))
            m.plain = torch.zeros(1)          # a plain tensor attribute is not registered
            print(list(m._buffers), "plain" in m.__dict__, list(m.state_dict().keys()))
            """
        )
    )


def test_registration_errors_name_the_problem_as_torch_does():
    assert_same(
        with_net(
            """
            attempt(lambda: net.register_buffer("a.b", torch.zeros(1)))
            attempt(lambda: net.register_buffer("", torch.zeros(1)))
            attempt(lambda: net.register_buffer(1, torch.zeros(1)))
            attempt(lambda: net.register_buffer("x", 3))
            attempt(lambda: net.register_buffer("fc", torch.zeros(1)))
            attempt(lambda: net.register_parameter("scale", torch.nn.Parameter(torch.zeros(1))))
            attempt(lambda: net.register_parameter("p", torch.zeros(1)))
            attempt(lambda: net.register_parameter("q", torch.nn.Parameter(torch.zeros(1)) * 2))
            attempt(lambda: setattr(net.fc, "weight", torch.zeros(2, 2)))
            attempt(lambda: setattr(net, "scale", 3))
            attempt(lambda: setattr(net, "fc", 3))
            attempt(lambda: net.add_module("m", 3))
            attempt(lambda: net.add_module("a.b", torch.nn.Linear(1, 1)))
            attempt(lambda: net.nope)
            attempt(lambda: net.train("yes"))
            attempt(lambda: torch.nn.Module()(1))
            net.fc.register_parameter("bias", None)
            print(net.fc.bias, [n for n, _ in net.named_parameters()])
            """
        )
    )


def test_forgetting_super_init_is_reported_when_a_parameter_is_assigned():
    assert_same(
        """
        class Broken(torch.nn.Module):
            def __init__(self):
                self.w = torch.nn.Parameter(torch.zeros(1))
        Broken()
        """,
        raises="AttributeError",
    )


# --- walking the tree ---------------------------------------------------------


def test_shared_modules_and_parameters_are_listed_once_but_saved_under_each_name():
    assert_same(
        program(
            """
            lin = torch.nn.Linear(2, 2)
            with torch.no_grad():
                lin.weight.fill_(1.0)
                lin.bias.fill_(0.0)
            seq = torch.nn.Sequential(lin, lin)
            print([n for n, _ in seq.named_parameters()], len(list(seq.modules())), len(list(seq.children())))
            print(list(seq.state_dict().keys()))
            print([n for n, _ in seq.named_modules()], [n for n, _ in seq.named_children()])
            print([n for n, _ in seq.named_parameters(remove_duplicate=False)])
            print([n for n, _ in seq.named_parameters(prefix="model")], list(seq.parameters(recurse=False)))
            """
        )
    )


def test_train_and_eval_set_training_on_every_descendant():
    assert_same(
        program(
            """
            seq = torch.nn.Sequential(torch.nn.Linear(1, 1), torch.nn.Sequential(torch.nn.BatchNorm1d(1)))
            print(seq.training, seq[1][0].training)
            r = seq.eval()
            print(r is seq, seq.training, seq[0].training, seq[1].training, seq[1][0].training)
            seq[1].train()
            print(seq.training, seq[1][0].training)
            seq.requires_grad_(False)
            print([p.requires_grad for p in seq.parameters()])
            """
        ),
        ignore_values=["seq.0.*", "r.0.*"],  # Linear's random initial weights
    )


# --- Sequential ---------------------------------------------------------------


def test_sequential_holds_the_modules_themselves_under_numbered_names():
    assert_same(
        program(
            """
            a = torch.nn.Linear(2, 3)
            b = torch.nn.Linear(3, 1)
            with torch.no_grad():
                a.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
                a.bias.zero_()
                b.weight.copy_(torch.tensor([[1.0, -1.0, 0.5]]))
                b.bias.fill_(2.0)
            seq = torch.nn.Sequential(a, b)
            print(seq[0] is a, seq[-1] is b, len(seq), [m is x for m, x in zip(seq, (a, b))])
            print([n for n, _ in seq.named_parameters()])
            print(seq)
            tail = seq[1:]
            print(type(tail).__name__, len(tail), tail[0] is b, [n for n, _ in tail.named_parameters()])
            x = torch.tensor([[1.0, 2.0]])
            print(seq(x), b(a(x)))
            seq.append(torch.nn.Linear(1, 1))
            print(len(seq), list(seq._modules))
            del seq[0]
            print(list(seq._modules), seq[0] is b)
            named = torch.nn.Sequential(__import__("collections").OrderedDict([("first", a), ("second", b)]))
            print([n for n, _ in named.named_parameters()], named.first is a)
            attempt(lambda: seq[5])
            attempt(lambda: seq[-6])
            """
        ),
        ignore_values=["seq.1.*"],  # the appended Linear's random initial weights
    )


# --- BatchNorm1d ----------------------------------------------------------------


def test_batchnorm_training_forward_updates_running_stats_in_place():
    assert_same(
        program(
            """
            bn = torch.nn.BatchNorm1d(2, momentum=0.5)
            print(bn)
            print([n for n, _ in bn.named_parameters()], [n for n, _ in bn.named_buffers()], list(bn.state_dict()))
            rm, rv, nbt = bn.running_mean, bn.running_var, bn.num_batches_tracked
            # Each column: entries and mean are powers of two, so y = x * alpha + beta
            # is exact in any kernel, fused or not; the variances divide exactly by n - 1.
            x = torch.tensor([[1.0, 4.0], [2.0, 4.0], [4.0, -2.0], [1.0, 2.0]])
            y = bn(x)
            print(y)
            print(rm, rv, nbt)
            print(bn.running_mean is rm, rm._version, rv._version, nbt._version, nbt.dtype)
            with torch.no_grad():          # the mode decides, not autograd: still updated
                bn(x * 2)
            print(rm, rv, nbt, rm._version)
            """
        )
    )


def test_batchnorm_eval_forward_uses_running_stats_and_writes_nothing():
    assert_same(
        program(
            """
            bn = torch.nn.BatchNorm1d(2, eps=0.0)
            with torch.no_grad():
                bn.running_mean.copy_(torch.tensor([1.0, -2.0]))
                bn.running_var.copy_(torch.tensor([4.0, 0.25]))
                bn.weight.copy_(torch.tensor([2.0, 0.5]))
                bn.bias.copy_(torch.tensor([0.5, 1.0]))
            versions = [b._version for b in bn.buffers()]
            bn.eval()
            x = torch.tensor([[3.0, 0.0], [1.0, -2.5]], requires_grad=True)
            y = bn(x)
            print(y, bn.training)
            print([b._version for b in bn.buffers()] == versions, bn.num_batches_tracked)
            y.sum().backward()
            print(x.grad, bn.weight.grad, bn.bias.grad)
            """
        )
    )


def test_batchnorm_backward_in_training_mode_reaches_the_input_weight_and_bias():
    # The gradients' numbers are sums in an order torch does not promise; they
    # are compared within a bound in test_diff_portable_rounding.py.
    assert_same(
        program(
            """
            bn = torch.nn.BatchNorm1d(2)
            with torch.no_grad():
                bn.weight.copy_(torch.tensor([2.0, 0.5]))
                bn.bias.copy_(torch.tensor([0.0, 1.0]))
            x = torch.tensor([[1.0, 4.0], [2.0, 4.0], [4.0, -2.0], [1.0, 2.0]], requires_grad=True)
            y = bn(x)
            print(y, y.grad_fn.name(), [type(n).__name__ for n, _ in y.grad_fn.next_functions])
            (y * torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.0, 1.0], [2.0, -1.0]])).sum().backward()
            print([(g.shape, g.dtype) for g in (x.grad, bn.weight.grad, bn.bias.grad)])
            x.grad = None
            bn.zero_grad()
            """
        )
    )


def test_batchnorm_on_a_3d_input_and_with_momentum_none_averages_all_batches():
    assert_same(
        program(
            """
            bn = torch.nn.BatchNorm1d(2, momentum=None)
            x = torch.tensor([[[1.0, 3.0], [2.0, 2.0]], [[-1.0, 1.0], [6.0, -2.0]]])
            print(bn(x))
            print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
            bn(x * 3)
            print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
            """
        )
    )


def test_batchnorm_without_affine_or_running_stats():
    assert_same(
        program(
            """
            plain = torch.nn.BatchNorm1d(2, affine=False)
            print(plain, plain.weight, [n for n, _ in plain.named_parameters()], list(plain.state_dict()))
            stateless = torch.nn.BatchNorm1d(2, track_running_stats=False)
            print(stateless, list(stateless.named_buffers()), list(stateless.state_dict()))
            x = torch.tensor([[1.0, 2.0], [3.0, 6.0]])
            stateless.eval()                 # no running stats: the batch's own are used
            print(plain(x), stateless(x), stateless.running_mean)
            nobias = torch.nn.BatchNorm1d(2, bias=False)
            print(nobias, nobias.bias)
            """
        )
    )


def test_batchnorm_computes_a_float16_input_in_float32_as_torch_s_kernel():
    """A float16 input is normalised in float32 and rounded once: a float16 layer's ``x * 2``
    passes 65504 on the way (x * alpha + beta = 120000 - 60000); in a mixed call (float32
    layer) the batch mean goes into the float32 buffers unrounded, (7 + 2**-10) / 4, and the
    running variance stays finite. Every number kept is exact, fused multiply-add or not."""
    assert_same(
        program(
            """
            half = torch.float16
            layer = torch.nn.BatchNorm1d(1, eps=0.0).half().eval()
            layer.load_state_dict({"weight": torch.ones(1, dtype=half), "bias": torch.zeros(1, dtype=half),
                                   "running_mean": torch.tensor([30000.0], dtype=half),
                                   "running_var": torch.tensor([0.25], dtype=half),
                                   "num_batches_tracked": torch.tensor(0)})
            print(layer(torch.tensor([[60000.0], [30000.0]], dtype=half)))
            mixed = torch.nn.BatchNorm1d(1, momentum=0.5)
            mixed(torch.tensor([[1.0], [2.0], [4.0], [2 ** -10]], dtype=half))
            print(mixed.running_mean.tolist(), mixed.running_mean.dtype)
            mixed = torch.nn.BatchNorm1d(1, momentum=0.5)
            y = mixed(torch.tensor([[60000.0], [-60000.0], [30000.0], [-30000.0]], dtype=half))
            print(y.dtype, mixed.running_var.tolist()[0] < 2e9, mixed.running_mean.tolist())
            """
        )
    )


def test_batchnorm_refuses_inputs_it_cannot_normalise():
    assert_same(
        program(
            """
            bn = torch.nn.BatchNorm1d(2)
            attempt(lambda: bn(torch.ones(1, 2)))
            attempt(lambda: bn(torch.ones(2)))
            attempt(lambda: bn(torch.ones(2, 2, 2, 2)))
            attempt(lambda: bn(torch.ones(2, 3)))
            attempt(lambda: torch.nn.BatchNorm1d(2, eps=0.0)(torch.ones(2, 2)))
            attempt(lambda: torch.nn.BatchNorm1d(2, eps=-1.0).eval()(torch.ones(2, 2)))
            print(bn.num_batches_tracked)
            for dtype in (torch.int64, torch.bool, torch.uint8):  # no integer kernel, before the mixed-dtype check
                attempt(lambda: bn(torch.ones(3, 2, dtype=dtype)))
                attempt(lambda: torch.nn.BatchNorm1d(2, affine=False, track_running_stats=False)(torch.ones(3, 2, dtype=dtype)))
            bn.eval()
            print(bn(torch.ones(1, 2)))
            attempt(lambda: bn(torch.ones(1, 2, dtype=torch.int32)))
            """
        )
    )


def test_batchnorm_casts_nothing_a_float64_input_or_a_mixed_buffer_raises_as_in_torch():
    assert_same(
        program(
            """
            x = torch.tensor([[1.0, 2.0], [3.0, 6.0], [0.0, 1.0]])
            bn = torch.nn.BatchNorm1d(2)
            attempt(lambda: bn(x.double()))          # the model was not converted with the input
            print(bn(x.half()).dtype, bn.num_batches_tracked)   # float16 with float32 ones is allowed
            attempt(lambda: bn.half()(x))            # float16 parameters for a float32 input
            odd = torch.nn.BatchNorm1d(2).eval()
            odd.running_var = odd.running_var.double()
            attempt(lambda: odd(x))
            print(torch.nn.BatchNorm1d(2).double()(x.double()).dtype)
            """
        )
    )


# --- converting: to / double / float / cpu / cuda / half --------------------------


CONVERT = """
lin = torch.nn.Linear(2, 1)
lin.register_buffer("buf", torch.ones(2))
lin.register_buffer("count", torch.tensor(3))
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.5, -2.0]]))
    lin.bias.fill_(0.25)
lin(torch.tensor([[1.0, 2.0]])).sum().backward()
w, g, buf, count = lin.weight, lin.weight.grad, lin.buf, lin.count
w_ptr, g_ptr, w_version, g_version = w.data_ptr(), g.data_ptr(), w._version, g._version
acc = (w * 1).grad_fn.next_functions[0][0]
"""


def with_converted_model(body: str) -> str:
    return program(CONVERT + textwrap.dedent(body))


def test_double_keeps_each_parameter_object_and_gives_it_new_memory():
    assert_same(
        with_converted_model(
            """
            r = lin.double()
            print(r is lin, lin.weight is w, w.dtype, w._version - w_version, w.data_ptr() == w_ptr)
            print(w.is_leaf, w.requires_grad, type(w).__name__)
            print(w.grad is g, g.dtype, g._version - g_version, g.data_ptr() == g_ptr)
            print(lin.buf is buf, lin.buf.dtype, lin.count is count, lin.count.dtype)
            print((w * 1).grad_fn.next_functions[0][0] is acc)
            print(lin(torch.tensor([[1.0, 2.0]], dtype=torch.float64)))
            """
        )
    )


def test_float_and_cpu_on_a_float_cpu_model_change_nothing():
    assert_same(
        with_converted_model(
            """
            lin.float()
            lin.cpu()
            lin.to("cpu")
            lin.to(torch.float32)
            print(lin.weight is w, w.data_ptr() == w_ptr, w._version - w_version, lin.buf is buf)
            print((w * 1).grad_fn.next_functions[0][0] is acc)
            lin.to(torch.float64).to(dtype=torch.float32)
            print(lin.weight is w, w.dtype, w.data_ptr() == w_ptr, lin.buf is buf, lin.buf.dtype, lin.count.dtype)
            lin.to(torch.zeros(1, dtype=torch.float64))
            print(w.dtype, g.dtype)
            lin.to("cpu", torch.float32)
            print(w.dtype, g.dtype)
            """
        )
    )


def test_to_refuses_integer_dtypes_and_copy():
    assert_same(
        with_converted_model(
            """
            attempt(lambda: lin.to(torch.long))
            attempt(lambda: lin.to("cpu", copy=True))
            print(w.dtype)
            """
        )
    )


def test_cuda_moves_every_tensor_and_keeps_the_parameter_objects():
    body = """
        r = {move}
        print(r is lin, lin.weight is w, w.data_ptr() == w_ptr, w._version - w_version)
        print(w.grad is g, g.data_ptr() == g_ptr, lin.buf is buf, lin.count is count)
        print(lin.count.dtype, lin.weight.requires_grad, lin.weight.is_leaf)
        x = torch.tensor([[1.0, 2.0]]).{to_device}
        out = lin(x)
        """
    assert_same_as_gpu(
        with_converted_model(body.format(move="lin.cuda()", to_device="cuda()")),
        cpu_program=with_converted_model(
            body.format(move='lin._apply(lambda t: t.to("cpu", copy=True))', to_device='to("cpu", copy=True)')
        ),
        expect_cuda=["lin.*", "r.*", "w", "g", "out", "x"],
    )


def test_half_keeps_each_parameter_object_and_converts_only_floating_tensors():
    # Needs float16 and Tensor.half (added on another branch).
    assert_same(
        with_converted_model(
            """
            lin.half()
            print(lin.weight is w, w.dtype, w.data_ptr() == w_ptr, w._version - w_version)
            print(w.grad is g, g.dtype, lin.buf.dtype, lin.count.dtype, lin.buf is buf)
            """
        )
    )


# --- load_state_dict --------------------------------------------------------------


def test_load_state_dict_copies_into_the_same_parameters_and_buffers():
    assert_same(
        with_net(
            """
            w, s = net.fc.weight, net.scale
            ptrs = (w.data_ptr(), s.data_ptr())
            versions = (w._version, s._version)
            new = {"fc.weight": torch.tensor([[9.0, 8.0], [7.0, 6.0]]), "fc.bias": torch.tensor([1.0, 2.0]),
                   "scale": torch.tensor([-1.0, -2.0])}
            result = net.load_state_dict(new)
            print(result, type(result).__name__, tuple(result))
            print(net.fc.weight is w, net.scale is s, (w.data_ptr(), s.data_ptr()) == ptrs)
            print(w._version - versions[0], s._version - versions[1], w.requires_grad)
            print(w, s)
            new["fc.weight"][0, 0] = 100.0     # no memory is shared with the dict afterwards
            print(w[0, 0].item())
            """
        )
    )


def test_load_state_dict_strict_reports_missing_and_unexpected_keys():
    assert_same(
        with_net(
            """
            sd = net.state_dict()
            sd["extra"] = torch.zeros(1)
            sd["fc.extra"] = torch.zeros(1)
            sd["other.weight"] = torch.zeros(1)
            del sd["scale"]
            attempt(lambda: net.load_state_dict(sd))
            result = net.load_state_dict(sd, strict=False)
            print(result)
            print(result.missing_keys, result.unexpected_keys)
            attempt(lambda: net.load_state_dict({"fc.weight": torch.zeros(3, 2), "fc.bias": 1.0, "scale": torch.zeros(2)}))
            attempt(lambda: net.load_state_dict([1, 2]))
            print(net.load_state_dict(net.state_dict()))
            """
        )
    )


def test_load_state_dict_with_assign_replaces_the_parameter_objects():
    assert_same(
        with_net(
            """
            old_w, old_b, old_s = net.fc.weight, net.fc.bias, net.scale
            net.fc.bias.requires_grad_(False)
            new_w = torch.tensor([[5.0, 6.0], [7.0, 8.0]])
            new_b = torch.nn.Parameter(torch.tensor([1.0, 1.0]))
            new_s = torch.tensor([4.0, 4.0])
            print(net.load_state_dict({"fc.weight": new_w, "fc.bias": new_b, "scale": new_s}, assign=True))
            print(net.fc.weight is old_w, type(net.fc.weight).__name__, net.fc.weight.requires_grad, new_w.requires_grad)
            print(net.fc.weight.data_ptr() == new_w.data_ptr(), net.fc.weight._version == new_w._version)
            print(net.fc.bias is new_b, new_b.requires_grad, net.scale is new_s)
            opt_params = [old_w, old_b]        # an optimizer built earlier would still hold these
            print([p is q for p, q in zip(opt_params, net.fc.parameters())])
            new_w[0, 0] = -1.0                 # the model now shares memory with the dict's tensor
            print(net.fc.weight[0, 0].item())
            """
        )
    )


def test_load_state_dict_into_a_batchnorm_and_a_sequential():
    assert_same(
        program(
            """
            seq = torch.nn.Sequential(torch.nn.Linear(1, 2), torch.nn.BatchNorm1d(2))
            sd = {k: torch.full_like(v, 2) for k, v in seq.state_dict().items()}
            print(list(sd))
            print(seq.load_state_dict(sd), seq[1].num_batches_tracked, seq[1].running_var)
            del sd["1.num_batches_tracked"]
            print(seq.load_state_dict(sd))             # a plain dict has no version: tolerated
            versioned = seq.state_dict()
            del versioned["1.num_batches_tracked"]
            print(versioned._metadata)
            attempt(lambda: seq.load_state_dict(versioned))
            """
        )
    )


# --- copy.copy and copy.deepcopy of a module ------------------------------------------


def test_copy_copy_of_a_module_shares_its_tables():
    assert_same(
        with_net(
            """
            import copy
            c = copy.copy(net)
            print(c is net, c._parameters is net._parameters, c._buffers is net._buffers, c._modules is net._modules)
            print(c.fc is net.fc, c.scale is net.scale, c.__dict__ is net.__dict__)
            c.register_buffer("added", torch.ones(1))   # lands in the shared table
            print([n for n, _ in net.named_buffers()])
            c.training = False                          # a plain attribute: not shared
            print(net.training, c.training)
            """
        )
    )


def test_copy_deepcopy_of_a_module_copies_tables_tensors_and_keeps_ties():
    assert_same(
        with_net(
            """
            import copy
            class Tied(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.a = torch.nn.Linear(2, 2)
                    self.b = torch.nn.Linear(2, 2)
                    self.b.weight = self.a.weight
            tied = Tied()
            print([n for n, _ in tied.named_parameters()], list(tied.state_dict()))
            twin = copy.deepcopy(tied)
            print(twin.a.weight is twin.b.weight, twin.a.weight is tied.a.weight)
            print(twin.a.weight.data_ptr() == tied.a.weight.data_ptr())
            d = copy.deepcopy(net)
            print(d._parameters is net._parameters, d.fc.weight is net.fc.weight, d.scale is net.scale)
            print(d.fc.weight.data_ptr() == net.fc.weight.data_ptr(), d.scale.data_ptr() == net.scale.data_ptr())
            print(type(d.fc.weight).__name__, d.fc.weight.requires_grad, d._non_persistent_buffers_set)
            seq = torch.nn.Sequential(net.fc, net.fc)
            seq2 = copy.deepcopy(seq)
            print(seq2[0] is seq2[1], seq2[0] is net.fc)
            with torch.no_grad():
                d.fc.weight.mul_(10)
            print(net.fc.weight, d.fc.weight)
            """
        ),
        ignore_values=["tied.*", "twin.*"],  # Linear's random initial weights
    )


# --- Linear's bad input -----------------------------------------------------------------


def test_linear_refuses_inputs_of_the_wrong_size_or_dtype_with_torch_s_errors():
    assert_same(
        program(
            """
            lin = torch.nn.Linear(2, 3)
            bare = torch.nn.Linear(2, 3, bias=False)
            attempt(lambda: lin(torch.zeros(4)))
            attempt(lambda: lin(torch.zeros(5, 4)))
            attempt(lambda: lin(torch.zeros(2, 5, 4)))
            attempt(lambda: lin(torch.zeros(())))
            attempt(lambda: lin(torch.zeros(3, 0)))
            attempt(lambda: bare(torch.zeros(4)))
            attempt(lambda: lin(torch.zeros(2, dtype=torch.float64)))
            attempt(lambda: lin(torch.zeros(2, dtype=torch.long)))
            attempt(lambda: bare(torch.zeros(2, 2, dtype=torch.float64)))
            attempt(lambda: lin([1.0, 2.0]))
            print(lin(torch.zeros(0, 2)).shape)
            """
        ),
        ignore_values=["lin.*", "bare.*"],  # Linear's random initial weights
    )


def test_linear_on_a_3d_batch_views_through_a_2d_product():
    assert_same(
        """
        lin = torch.nn.Linear(2, 1)
        with torch.no_grad():
            lin.weight.copy_(torch.tensor([[1.0, -1.0]]))
            lin.bias.fill_(0.5)
        x = torch.arange(8.0).view(2, 2, 2).requires_grad_()
        y = lin(x)
        print(y, y.shape)
        y.sum().backward()
        print(x.grad, lin.weight.grad, lin.bias.grad)
        v = lin(torch.tensor([1.0, 2.0], requires_grad=True))
        """
    )


def test_module_zero_grad_keeps_or_drops_the_grad_tensors_and_state_dict_warns_on_positional_args():
    assert_same(
        with_net(
            """
            net(torch.tensor([[1.0, -1.0]])).sum().backward()
            g = net.fc.weight.grad
            v = g._version
            net.zero_grad(set_to_none=False)
            print(net.fc.weight.grad is g, g, g._version - v)
            net.zero_grad()
            print(net.fc.weight.grad, net.fc.bias.grad)
            into = {}
            result = net.state_dict(into, "model.")
            print(result is into, list(into))
            print(list(net.state_dict(prefix="p.", keep_vars=True).items())[0][1] is net.fc.weight)
            """
        )
    )


def test_load_state_dict_reports_an_extra_state_entry_no_module_keeps_and_assign_refuses_inference_tensors():
    assert_same(
        program(
            """
            seq = torch.nn.Sequential(torch.nn.Linear(1, 1))
            sd = {"0.weight": torch.ones(1, 1), "0.bias": torch.ones(1), "0.x.y": torch.ones(1), "0._extra_state": 1}
            print(seq.load_state_dict(sd, strict=False))
            attempt(lambda: seq.load_state_dict(sd))
            with torch.inference_mode():
                frozen = torch.ones(1, 1)
            attempt(lambda: torch.nn.Parameter(frozen))
            attempt(lambda: torch.nn.Parameter(torch.ones(2, dtype=torch.int64)))
            attempt(lambda: torch.ones(2, dtype=torch.int64).requires_grad_())
            kept = torch.nn.Parameter(frozen, requires_grad=False)
            print(kept.is_inference(), kept.requires_grad)
            attempt(lambda: seq.load_state_dict({"0.weight": frozen, "0.bias": torch.ones(1)}, assign=True))
            """
        )
    )


def test_batchnorm_on_an_empty_batch_writes_no_statistics_and_keeps_the_graph():
    assert_same(
        program(
            """
            for kwargs in ({}, {"bias": False}, {"affine": False}):
                bn = torch.nn.BatchNorm1d(2, **kwargs)
                x = torch.zeros(0, 2, requires_grad=True)
                y = bn(x)
                y.sum().backward()
                print(y.shape, type(y.grad_fn).__name__, x.grad.shape, bn.weight is None or bn.weight.grad,
                      bn.running_mean, bn.running_var, bn.num_batches_tracked)
            bn = torch.nn.BatchNorm1d(2)
            print(bn(torch.zeros(2, 2, 0)).shape, bn.eval()(torch.zeros(0, 2)).shape)
            attempt(lambda: torch.nn.BatchNorm1d(0)(torch.zeros(1, 0)))
            attempt(lambda: torch.nn.BatchNorm1d(2)(torch.zeros(1, 2, 1)))
            """
        )
    )


def test_batchnorm_without_channels_reads_weight_zero_with_selects_error():
    """An input with no elements skips the statistics; torch's kernel still reads ``weight[0]`` and
    ``bias[0]`` (C++ ``select``), which a layer with no channels does not have."""
    assert_same(
        """
        for keywords in ({}, {"bias": False}, {"affine": False}):
            for train in (True, False):
                bn = torch.nn.BatchNorm1d(0, **keywords)
                bn.train(train)
                try:
                    out = bn(torch.ones(3, 0))
                    print(keywords, train, out.shape, out.grad_fn)
                except IndexError as error:
                    print(keywords, train, error)
        empty_batch = torch.nn.BatchNorm1d(2)(torch.ones(0, 2, requires_grad=True))
        """
    )
