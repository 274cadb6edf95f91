"""optim.SGD and optim.Adam (numbers, versions, state, state_dict aliasing),
lerp/lerp_, add_(alpha=) and mul_, and an EMA target network.

Numbers are compared bit for bit. torch's kernels round ``a * b + c`` once
(a fused multiply-add) on some CPUs and twice on others, and its square root
is correctly rounded, so the cases feed numbers that make every product, sum
and square root exact: small multiples of powers of two (learning rates such
as 0.125, betas 0.5 and 0.75, and for Adam gradients whose second moments are
perfect squares). Then every CPU gives the same bits, and so does reftorch.
Where the numbers cannot be exact (Adam's default settings, arbitrary lerp
weights), ``test_diff_portable_rounding.py`` compares within a stated bound.

The first ``torch.optim`` optimizer built in a process costs torch about two
seconds: the cases are few and each checks a lot.
"""

import textwrap

from crosscheck.harness import assert_same

from diff_programs import program


# A quadratic loss whose numbers stay exact for a few steps: with |x|^2 + 1 = 4
# and lr = 1/16 the residual halves at each step.
TWO_PARAMS = """
w = torch.nn.Parameter(torch.tensor([0.75, -1.25, 2.0]))
b = torch.nn.Parameter(torch.tensor([0.125]))
def loss_fn():
    x = torch.tensor([1.0, 1.0, -1.0])
    return ((w * x).sum() + b - 0.25) ** 2
"""


def with_params(body: str) -> str:
    return program(TWO_PARAMS + STEPPED_SGD + textwrap.dedent(body))


# ``stepped_sgd()``: an SGD with momentum over ``w`` and ``b`` after one step, and its state_dict.
STEPPED_SGD = """
def stepped_sgd():
    opt = torch.optim.SGD([w, b], lr=0.0625, momentum=0.5)
    loss_fn().backward()
    opt.step()
    return opt, opt.state_dict()
"""


# --- SGD ------------------------------------------------------------------------


def test_sgd_refuses_bad_arguments_with_torch_s_errors():
    assert_same(
        program(
            """
            p = torch.nn.Parameter(torch.tensor([1.0]))
            attempt(lambda: torch.optim.SGD([], lr=0.1))
            attempt(lambda: torch.optim.SGD([p], lr=-1.0))
            attempt(lambda: torch.optim.SGD([p], lr=0.1, momentum=-0.5))
            attempt(lambda: torch.optim.SGD([p], lr=0.1, weight_decay=-1))
            attempt(lambda: torch.optim.SGD([p], lr=0.1, nesterov=True))
            attempt(lambda: torch.optim.SGD([p], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True))
            attempt(lambda: torch.optim.SGD(p, lr=0.1))
            attempt(lambda: torch.optim.SGD([1.0], lr=0.1))
            attempt(lambda: torch.optim.SGD([p * 2], lr=0.1))
            attempt(lambda: torch.optim.SGD({p}, lr=0.1))
            attempt(lambda: torch.optim.SGD([{"params": [p]}, {"params": p}], lr=0.1))
            attempt(lambda: torch.optim.SGD(iter([]), lr=0.1))
            attempt(lambda: torch.optim.Adam([p], lr=-0.1))
            attempt(lambda: torch.optim.Adam([p], betas=(1.0, 0.9)))
            attempt(lambda: torch.optim.Adam([p], betas=(0.9, -0.1)))
            attempt(lambda: torch.optim.Adam([p], eps=-1.0))
            attempt(lambda: torch.optim.Adam([p], weight_decay=-1.0))
            attempt(lambda: torch.optim.Adam([p], betas=(0.9, 1)))
            opt = torch.optim.SGD([p, p], lr=0.1)    # a duplicate only warns
            print(len(opt.param_groups[0]["params"]))
            """
        )
    )


def test_sgd_updates_the_same_parameters_in_place_with_torch_s_numbers():
    assert_same(
        with_params(
            """
            opt = torch.optim.SGD([w, b], lr=0.0625)
            print(opt)
            ptr, v0 = w.data_ptr(), w._version
            for _ in range(3):
                opt.zero_grad()
                loss_fn().backward()
                opt.step()
            print(w, b)
            print(w.data_ptr() == ptr, w._version - v0, w.is_leaf, opt.state, opt.state_dict()["state"])
            print(opt.param_groups[0]["params"][0] is w)
            """
        )
    )


def test_sgd_momentum_nesterov_dampening_weight_decay_and_maximize():
    assert_same(
        with_params(
            """
            settings = [dict(momentum=0.5), dict(momentum=0.5, nesterov=True, weight_decay=1.0),
                        dict(momentum=0.75, dampening=0.25, maximize=True), dict(weight_decay=0.5)]
            start_w, start_b = w.detach().clone(), b.detach().clone()
            for kw in settings:
                with torch.no_grad():
                    w.copy_(start_w)
                    b.copy_(start_b)
                opt = torch.optim.SGD([w, b], lr=0.0625, **kw)
                for _ in range(4):
                    opt.zero_grad()
                    loss_fn().backward()
                    opt.step()
                buf = opt.state[w].get("momentum_buffer")
                print(kw, w.tolist(), b.tolist(), None if buf is None else (buf.tolist(), buf._version))
            """
        )
    )


def test_param_groups_have_their_own_settings_and_add_param_group_fills_defaults():
    assert_same(
        with_params(
            """
            extra = torch.nn.Parameter(torch.tensor([5.0, -5.0]))
            opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5, "momentum": 0.75}], lr=0.125)
            opt.add_param_group({"params": extra, "weight_decay": 0.125})
            print(opt)
            print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])
            attempt(lambda: opt.add_param_group({"params": [w]}))
            for _ in range(2):
                opt.zero_grad()
                (loss_fn() + (extra ** 2).sum()).backward()
                opt.step()
            print(w, b, extra)
            print(sorted(len(s) for s in opt.state.values()))
            named = torch.optim.SGD([("weight", w), ("bias", b)], lr=0.125)
            print(named.param_groups[0]["param_names"], named.state_dict()["param_groups"])
            """
        )
    )


def test_zero_grad_drops_gradients_or_zeroes_the_same_tensors():
    assert_same(
        with_params(
            """
            opt = torch.optim.SGD([w, b], lr=0.125)
            loss_fn().backward()
            g = w.grad
            v = g._version
            opt.zero_grad(set_to_none=False)
            print(w.grad is g, g, g._version - v, b.grad)
            opt.zero_grad()
            print(w.grad, b.grad, g)
            """
        )
    )


def test_sgd_state_dict_hands_out_the_live_momentum_buffers():
    assert_same(
        with_params(
            """
            import copy
            opt, sd = stepped_sgd()
            print(sd)
            print(list(sd["state"]), sd["param_groups"][0]["params"], sd["state"][0] is opt.state[w])
            buf = sd["state"][0]["momentum_buffer"]
            snapshot = copy.deepcopy(sd)
            frozen = snapshot["state"][0]["momentum_buffer"]
            print(buf is opt.state[w]["momentum_buffer"], buf.data_ptr() == opt.state[w]["momentum_buffer"].data_ptr())
            before = buf.tolist()
            opt.zero_grad()
            loss_fn().backward()
            opt.step()
            print(before, buf.tolist(), frozen.tolist(), buf._version, frozen._version)
            print(sd["param_groups"][0] is opt.param_groups[0], sd["param_groups"][0]["lr"])
            """
        )
    )


def test_load_state_dict_puts_the_loaded_tensors_themselves_into_the_optimizer():
    assert_same(
        with_params(
            """
            opt, sd = stepped_sgd()
            w2 = torch.nn.Parameter(w.detach().clone())
            b2 = torch.nn.Parameter(b.detach().clone())
            opt2 = torch.optim.SGD([w2, b2], lr=0.5)
            result = opt2.load_state_dict(sd)
            print(result, opt2.param_groups[0]["lr"], opt2.param_groups[0]["params"][0] is w2)
            loaded = opt2.state[w2]["momentum_buffer"]
            print(loaded is sd["state"][0]["momentum_buffer"], loaded is opt.state[w]["momentum_buffer"])
            print(opt2.state[w2] is sd["state"][0], list(opt2.state_dict()["state"]))
            for o, params in ((opt, (w, b)), (opt2, (w2, b2))):
                for p, q in zip(params, (w, b)):
                    p.grad = q.grad.clone()
            opt.step()
            opt2.step()
            print(w.tolist() == w2.tolist(), loaded._version)
            double = torch.optim.SGD([torch.nn.Parameter(torch.zeros(3, dtype=torch.float64)), b2], lr=0.125)
            double.load_state_dict(sd)
            moved = list(double.state.values())[0]["momentum_buffer"]
            print(moved.dtype, moved is sd["state"][0]["momentum_buffer"])
            attempt(lambda: torch.optim.SGD([w], lr=0.125).load_state_dict(sd))
            attempt(lambda: torch.optim.SGD([{"params": [w]}, {"params": [b]}], lr=0.125).load_state_dict(sd))
            """
        )
    )


# --- Adam -------------------------------------------------------------------------


def test_adam_steps_exactly_when_the_second_moments_are_perfect_squares():
    # With betas (0.5, 0.75), these gradients keep exp_avg_sq a perfect square,
    # so every square root is exact and the comparison can be bit for bit.
    assert_same(
        """
        p = torch.nn.Parameter(torch.tensor([0.731, -1.29, 2.003, 0.5]))
        opt = torch.optim.Adam([p], lr=0.01, betas=(0.5, 0.75))
        print(opt)
        grads = [[4.0, 2.0, -2.0, 0.0], [2.0, 1.0, -1.0, 2.0], [2.0, 1.0, 1.0, -1.0]]
        v0 = p._version
        for g in grads:
            p.grad = torch.tensor(g)
            opt.step()
            print(p.tolist())
        state = opt.state[p]
        print(list(state), state["step"], state["step"].dtype, state["step"]._version)
        print(state["exp_avg"], state["exp_avg_sq"], state["exp_avg"]._version, state["exp_avg_sq"]._version)
        print(p._version - v0, opt.state_dict()["state"][0]["exp_avg"] is state["exp_avg"])
        exp_avg, exp_avg_sq, step = state["exp_avg"], state["exp_avg_sq"], state["step"]
        """
    )


def test_adam_weight_decay_amsgrad_maximize_and_adamw_exact():
    assert_same(
        """
        start = [0.25, -1.5, 3.0, 0.5]
        grads = [[4.0, 2.0, -2.0, 0.0], [2.0, 1.0, -1.0, 2.0], [2.0, 1.0, 1.0, -1.0]]
        for kw in [dict(amsgrad=True), dict(maximize=True), dict(weight_decay=0.5, decoupled_weight_decay=True)]:
            p = torch.nn.Parameter(torch.tensor(start))
            opt = torch.optim.Adam([p], lr=0.125, betas=(0.5, 0.75), **kw)
            for g in grads:
                p.grad = torch.tensor(g)
                opt.step()
            print(kw, p.tolist(), sorted(opt.state[p]), opt.state[p].get("max_exp_avg_sq"))
        """
    )


def test_adam_state_dict_round_trip_shares_the_step_and_moment_tensors():
    assert_same(
        """
        p = torch.nn.Parameter(torch.tensor([1.0, -1.0]))
        opt = torch.optim.Adam([p], lr=0.25, betas=(0.5, 0.75))
        p.grad = torch.tensor([2.0, 4.0])
        opt.step()
        sd = opt.state_dict()
        q = torch.nn.Parameter(torch.tensor([1.0, -1.0]))
        opt2 = torch.optim.Adam([q])
        opt2.load_state_dict(sd)
        s, s2 = opt.state[p], opt2.state[q]
        print(s2["step"] is s["step"], s2["exp_avg"] is s["exp_avg"], opt2.param_groups[0]["lr"], opt2.param_groups[0]["betas"])
        q.grad = torch.tensor([2.0, 4.0])
        opt2.step()                  # advances the *shared* step counter and moments
        print(s["step"], s["exp_avg"], q)
        """
    )


def test_deepcopy_of_an_optimizer_copies_its_parameters_too():
    assert_same(
        with_params(
            """
            import copy
            opt = torch.optim.SGD([w, b], lr=0.0625, momentum=0.5)
            loss_fn().backward()
            opt.step()
            twin = copy.deepcopy(opt)
            tw = twin.param_groups[0]["params"][0]
            print(tw is w, tw.data_ptr() == w.data_ptr(), tw.grad is None, twin.state[tw]["momentum_buffer"] is opt.state[w]["momentum_buffer"])
            print(list(twin.state_dict()["state"]), twin.param_groups[0]["lr"])
            """
        )
    )


# --- lerp, add_(alpha=), mul_ -----------------------------------------------------


def test_lerp_with_a_number_or_a_tensor_weight_gives_torch_s_numbers():
    # Weights and ends with few bits: every product is exact, fused or not.
    # lerp(a, e, 1) is e exactly, though e - a rounds: the formula for weights
    # of 0.5 and more starts from the end.
    assert_same(
        program(
            """
            a = torch.tensor([0.75, -1.25, 2.0, 0.125, 7.5])
            e = torch.tensor([1.5, 0.25, -3.0, 3.25, 7.25])
            wts = torch.tensor([0.125, 0.375, 0.5, 0.875, -0.25])
            print(a.lerp(e, 0.125).tolist(), a.lerp(e, 0.75).tolist(), a.lerp(e, wts).tolist())
            print(torch.lerp(a, e, 0.25).tolist(), a.lerp(e, 1).tolist(), a.lerp(e, True).tolist())
            print(a.lerp(end=e, weight=0.25).tolist(), torch.tensor([[1.0], [2.0]]).lerp(e, 0.5).shape)
            far = torch.tensor([3e7, -3.3]).lerp(torch.tensor([0.1, 1e-3]), 1.0)    # a + (e - a) != e here
            print(far.tolist(), torch.tensor([3e7]).lerp(torch.tensor([0.1]), torch.tensor([1.0])).tolist())
            d = a.double()
            print(d.lerp(e.double(), 0.125).tolist())
            v = a._version
            r = a.lerp_(e, 0.0625)
            print(r is a, a._version - v, a.tolist())
            """
        )
    )


def test_lerp_records_its_backward_and_lerp_in_place_rewrites_history():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        e = torch.tensor([3.0, 5.0], requires_grad=True)
        w = torch.tensor([0.25, 0.75], requires_grad=True)
        y = x.lerp(e, 0.3)
        z = x.lerp(e, w)
        (y.sum() + (z * z).sum()).backward()
        a = x.detach().clone().requires_grad_()
        b = a * 1
        b.lerp_(e, w)
        b.sum().backward()
        c = x.detach() * 2
        c.lerp_(e, 0.5)             # a tensor without grad becomes part of the graph
        """
    )


def test_lerp_refuses_what_torch_refuses():
    assert_same(
        program(
            """
            f = torch.tensor([1.0, 2.0])
            attempt(lambda: torch.tensor([1, 2]).lerp(torch.tensor([1, 2]), 0.5))
            attempt(lambda: torch.tensor([1, 2]).lerp(torch.tensor([1, 2]), torch.tensor([1, 2])))
            attempt(lambda: f.lerp(torch.tensor([1, 2]), 0.5))
            attempt(lambda: f.lerp(f.double(), 0.5))
            attempt(lambda: f.lerp(f, torch.tensor([0.5], dtype=torch.float64)))
            attempt(lambda: f.lerp(torch.ones(3), 0.5))
            attempt(lambda: f.lerp_(torch.ones(2, 2), 0.5))
            attempt(lambda: f.lerp(2.0, 0.5))
            attempt(lambda: f.lerp(f, "half"))
            attempt(lambda: f.lerp(f))
            attempt(lambda: f.lerp(f, weight=None))
            leaf = torch.tensor([1.0, 2.0], requires_grad=True)
            attempt(lambda: leaf.lerp_(f, 0.5))
            with torch.no_grad():
                leaf.lerp_(f * 3, 0.5)
            print(leaf, leaf._version)
            """
        )
    )


def test_add_with_alpha_sub_and_mul_in_place_give_torch_s_numbers():
    assert_same(
        """
        a = torch.tensor([0.75, -1.25, 2.0, 0.125, 7.5])
        g = torch.tensor([1.5, 0.25, -3.0, 3.25, 0.0625])
        print(a.add(g, alpha=-0.125).tolist(), a.sub(g, alpha=0.375).tolist(), (a + 0.125 * g).tolist())
        print(a.double().add(g.double(), alpha=0.375).tolist())
        b = a.clone()
        v = b._version
        r = b.add_(g, alpha=-0.0625).mul_(0.75).sub_(g, alpha=2.5)
        print(r is b, b._version - v, b.tolist())
        n = torch.tensor([3, 4]).add_(torch.tensor([1, 2]), alpha=2)
        zero_d = torch.tensor(1.5).add(torch.tensor(2.0), alpha=0.25)       # 0-d stays 0-d
        zero_d_lerp = torch.tensor(1.5).lerp(torch.tensor(2.0), 0.25)
        """
    )


# --- EMA / target network ---------------------------------------------------------------


def test_an_ema_target_network_is_a_deep_copy_moved_by_lerp_under_no_grad():
    # A loss linear in each layer keeps every number exact for three steps.
    assert_same(
        """
        import copy
        online = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 1))
        with torch.no_grad():
            online[0].weight.copy_(torch.tensor([[0.25, -0.75], [1.125, 0.0625]]))
            online[0].bias.copy_(torch.tensor([0.25, -0.125]))
            online[1].weight.copy_(torch.tensor([[0.875, -0.375]]))
            online[1].bias.fill_(0.03125)
        target = copy.deepcopy(online)
        target.requires_grad_(False)
        print([t.data_ptr() == o.data_ptr() for t, o in zip(target.parameters(), online.parameters())])
        opt = torch.optim.SGD(online.parameters(), lr=0.0625, momentum=0.5)
        x = torch.tensor([[1.0, 2.0], [-0.5, 0.25]])
        versions = [t._version for t in target.parameters()]
        for step in range(3):
            opt.zero_grad()
            online(x).sum().backward()
            opt.step()
            with torch.no_grad():
                for t, o in zip(target.parameters(), online.parameters()):
                    t.lerp_(o, 0.25)
        print([t._version - v for t, v in zip(target.parameters(), versions)])
        print([t.grad for t in target.parameters()], target[0].weight.requires_grad)
        print(target(x).requires_grad, online(x).requires_grad, target(x).grad_fn, online(x).grad_fn.name())
        ema = copy.deepcopy(online)
        with torch.no_grad():
            for t, o in zip(ema.parameters(), online.parameters()):
                t.mul_(0.75).add_(o, alpha=0.25)
        """
    )


def test_sgd_reads_every_momentum_buffer_before_it_updates_a_parameter_listed_twice():
    # torch's SGD collects the group's buffers, updates, then stores them: a parameter listed
    # twice gets two fresh buffers at its first step (a duplicate only warns)
    assert_same(
        with_params(
            """
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                opt = torch.optim.SGD([w, b, w], lr=0.0625, momentum=0.5)
            for _ in range(2):
                opt.zero_grad()
                loss_fn().backward()
                opt.step()
                buf = opt.state[w]["momentum_buffer"]
                print(w.tolist(), w._version, buf.tolist(), buf._version, opt.state_dict()["param_groups"][0]["params"])
            """
        )
    )


def test_lerp_takes_a_0d_weight_of_any_dtype_and_refuses_overlapping_writes():
    assert_same(
        program(
            """
            w64 = torch.tensor(0.25, dtype=torch.float64, requires_grad=True)
            s = torch.tensor([1.0, 2.0], requires_grad=True)
            r = s.lerp(torch.zeros(2), w64)
            r.sum().backward()
            print(r, r.dtype, s.grad, w64.grad)
            print(torch.tensor(1.0).lerp(torch.tensor(0.0), torch.tensor(0.25, dtype=torch.float64)))
            print(torch.ones(2, dtype=torch.bool).lerp(torch.ones(2, dtype=torch.bool), torch.tensor(0.5)))
            print(torch.ones(2, dtype=torch.float16).lerp_(torch.zeros(2, dtype=torch.float16), torch.tensor(0.1, dtype=torch.float64)))
            ints = torch.ones(2, dtype=torch.int64)
            attempt(lambda: ints.lerp(torch.zeros(2), 0.5))
            attempt(lambda: ints.lerp(ints, torch.tensor(True)))
            attempt(lambda: ints.lerp_(ints, torch.tensor(0.5, dtype=torch.float64)))
            attempt(lambda: torch.ones(2).lerp(torch.zeros(2), torch.tensor([0.5], dtype=torch.float64)))
            a = torch.arange(4.0)
            attempt(lambda: a[:3].lerp_(a[1:], 0.5))
            attempt(lambda: a[:3].lerp_(torch.zeros(3), a[1:]))
            attempt(lambda: a[:3].addcmul_(a[1:], torch.ones(3)))
            attempt(lambda: torch.zeros(1).expand(3).lerp_(torch.ones(3), 0.5))
            attempt(lambda: torch.zeros(1).expand(3).addcdiv_(torch.ones(3), torch.ones(3)))
            attempt(lambda: torch.ones(3).addcdiv_(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.bool)))
            print(torch.ones(3).addcdiv_(torch.ones(3, dtype=torch.int64), torch.full((3,), 2.0)))
            print(a.lerp_(a, 0.5), a._version)
            """
        )
    )


def test_lerp_addcmul_and_addcdiv_in_place_refuse_an_operand_on_another_device():
    """An EMA whose model was moved to ``meta`` (or back) cannot be updated from it: torch refuses
    before it writes; a 0-d cpu weight may still join a meta tensor."""
    assert_same(
        program(
            """
            cpu, meta = torch.ones(2), torch.zeros(2, device="meta")
            attempt(lambda: cpu.lerp_(meta, 0.5))
            attempt(lambda: meta.lerp_(cpu, 0.5))
            attempt(lambda: cpu.lerp_(torch.zeros(2), torch.tensor(0.5, device="meta")))
            attempt(lambda: cpu.lerp_(torch.zeros(2), torch.ones(2, device="meta")))
            attempt(lambda: cpu.addcmul_(meta, torch.ones(2)))
            attempt(lambda: cpu.addcdiv_(torch.ones(2), meta))
            print(cpu, cpu._version)
            m = torch.ones(2, device="meta")
            print(m.lerp_(meta, torch.tensor(0.5)).device, m._version)
            """
        )
    )


def test_float16_lerp_addcmul_and_addcdiv_compute_in_float32_and_round_once():
    """torch computes a float16 update in float32 and rounds once: ``end - self`` = -120000 and
    ``4 * 60000`` pass float16's largest number (65504) on the way, yet the results fit. Every
    step below is exact in float32, so no CPU's fused multiply-add changes a bit."""
    assert_same(
        program(
            """
            half = torch.float16
            ema = torch.tensor([60000.0, 0.5], dtype=half)
            print(ema.clone().lerp_(torch.tensor([-60000.0, 1.0], dtype=half), 0.25))
            print(ema.clone().lerp_(torch.tensor([-60000.0, 1.0], dtype=half), 0.75))
            print(ema.lerp(torch.tensor([-60000.0, 1.0], dtype=half), torch.tensor([0.25, 0.5], dtype=half)))
            print(torch.zeros(2, dtype=half).addcmul_(torch.tensor([60000.0, 3.0], dtype=half),
                                                      torch.tensor([0.5, 0.5], dtype=half), value=2))
            print(torch.zeros(2, dtype=half).addcdiv_(torch.tensor([60000.0, 3.0], dtype=half),
                                                      torch.tensor([8.0, 4.0], dtype=half), value=4))
            """
        )
    )


def test_addcmul_and_addcdiv_promote_their_operands_and_refuse_a_result_self_cannot_hold():
    """The three tensors promote to one dtype, as for ``+``: a float64 operand is multiplied in
    float64 and rounded once into a float32 ``self`` (1 + 2**-24 is 1 in float32, not in float64);
    a float result cannot go into an integer or bool ``self``; ``addcmul_`` has no bool kernel."""
    assert_same(
        program(
            """
            nearly_one = torch.tensor([1 + 2 ** -24], dtype=torch.float64)
            print(torch.zeros(1).addcmul_(nearly_one, torch.tensor([3.0], dtype=torch.float64)).tolist())
            print(torch.zeros(1).addcdiv_(nearly_one * 3, torch.tensor([1.0], dtype=torch.float64)).tolist())
            ints, bools = torch.zeros(3, dtype=torch.int64), torch.zeros(3, dtype=torch.bool)
            attempt(lambda: ints.addcmul_(torch.ones(3), torch.ones(3)))
            attempt(lambda: ints.addcdiv_(torch.ones(3), torch.ones(3)))
            attempt(lambda: ints.addcmul_(torch.ones(3, dtype=torch.int32), torch.tensor(2.0)))
            attempt(lambda: bools.addcmul_(torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.bool)))
            attempt(lambda: bools.addcmul_(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64)))
            attempt(lambda: bools.addcdiv_(torch.ones(3), torch.ones(3)))
            print(ints.addcmul_(torch.tensor([True, False, True]), torch.tensor([3, 3, 3]), value=2), ints._version)
            print(bools._version)
            """
        )
    )
