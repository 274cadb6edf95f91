"""``repeat``, ``clamp`` (and ``clamp_min``, ``clamp_max``, ``clip``, ``clamp_``), ``abs``, unary ``+``
and ``-``, ``%`` (``remainder``) and ``fmod``, and their ``torch.`` functions, run on torch and on reftorch:
the same numbers, dtypes, nodes, gradients and errors."""

import textwrap

from crosscheck.harness import assert_same

# ``attempt`` prints the result, its dtype and its node, or the error; then the operands.
OPERANDS = r"""
def attempt(f):
    try: r = f()
    except Exception as e: print(type(e).__name__, "|", e)
    else:
        print("ok", r, getattr(r, "dtype", None), getattr(getattr(r, "grad_fn", None), "name", lambda: None)())
i = torch.tensor([-7, -3, 0, 5, 7]); f = torch.tensor([-7.5, -3.0, 0.0, 5.5, 7.0]); b = torch.tensor([True, False, True, False, True])
u8 = torch.tensor([1, 3, 250, 0, 9], dtype=torch.uint8); d = f.double(); h = f.half()
g = torch.tensor([-1.5, 0.0, 2.0], requires_grad=True)
"""


def run(body):
    assert_same(OPERANDS + textwrap.dedent(body))


def test_repeat_tiles_a_new_contiguous_tensor_with_torchs_errors():
    run(r"""
        for args in [(2,), (2, 1), (1, 2, 2), ((2, 3),), ([2],), (), (0,), (-1,), (1.5,), (2, 2, 2, 2)]:
            attempt(lambda: i.repeat(*args).shape)
        attempt(lambda: g.repeat(2))
        attempt(lambda: torch.ones(2, 3).t().repeat(2, 1).stride())
        attempt(lambda: torch.tensor(3).repeat(2))
        attempt(lambda: torch.tensor(3).repeat())
        attempt(lambda: i.repeat(repeats=(2,)))
        attempt(lambda: i.repeat(sizes=(2,)))
        attempt(lambda: torch.repeat(i, 2) if hasattr(torch, "repeat") else "no torch.repeat")
        """)


def test_clamp_promotes_casts_its_bounds_and_picks_the_node_by_the_bounds_kind():
    run(r"""
        for t in (i, f, b, u8, h):
            for kw in [dict(min=0), dict(max=1), dict(min=-1.5, max=2), dict(min=2, max=-1), dict(), dict(min=None, max=None),
                       dict(min=torch.tensor(0)), dict(min=torch.tensor(0.5)), dict(max=torch.tensor([0, 1, 2, 3, 4])), dict(min=True),
                       dict(min=float('nan'))]:
                attempt(lambda: t.clamp(**kw))
        attempt(lambda: f.clamp(0, 1)); attempt(lambda: f.clamp(torch.tensor(0.), 1)); attempt(lambda: torch.clamp(f, 0, 1))
        attempt(lambda: torch.clamp(f, min=0)); attempt(lambda: f.clamp_min(0)); attempt(lambda: f.clamp_max(0)); attempt(lambda: f.clip(0, 1))
        attempt(lambda: i.clone().clamp_(min=0.5)); attempt(lambda: i.clone().clamp_(min=torch.tensor(0.5)))
        attempt(lambda: f.clone().clamp_(0, 1)); attempt(lambda: f.clone().clamp_())
        attempt(lambda: g.clamp(0, 1)); attempt(lambda: g.clamp(min=0)); attempt(lambda: g.clamp(max=0)); attempt(lambda: g.clamp(min=torch.tensor(0.)))
        attempt(lambda: g.clamp(torch.tensor(0.), torch.tensor(1.)))
        attempt(lambda: (g * 1).clamp_(0, 1))
        attempt(lambda: f.clamp(min="a"))
        attempt(lambda: f.clamp(0, 1, 2))
        """)


def test_abs_wraps_integers_refuses_bools_and_records_abs_backward():
    run(r"""
        for t in (i, f, b, u8, h, torch.tensor([-128], dtype=torch.int8)):
            attempt(lambda: t.abs()); attempt(lambda: abs(t)); attempt(lambda: torch.abs(t)); attempt(lambda: t.clone().abs_())
        attempt(lambda: g.abs()); attempt(lambda: abs(g)); attempt(lambda: (g * 1).abs_()); attempt(lambda: g.abs_())
        attempt(lambda: torch.absolute(f)); attempt(lambda: f.absolute())
        """)


def test_unary_plus_is_the_tensor_itself_and_minus_wraps_unsigned_integers():
    run(r"""
        for t in (i, f, b, u8, h):
            attempt(lambda: -t); attempt(lambda: +t); attempt(lambda: t.neg()); attempt(lambda: torch.neg(t)); attempt(lambda: t.clone().neg_())
            attempt(lambda: (+t) is t); attempt(lambda: t.positive() is t)
        attempt(lambda: -g); attempt(lambda: (+g) is g); attempt(lambda: torch.negative(f)); attempt(lambda: f.negative())
        attempt(lambda: (g*1).neg_())
        """)


def test_remainder_takes_the_divisors_sign_and_fmod_the_dividends():
    run(r"""
        for a in (i, f, b, u8, h, d):
            for s in (3, -3, 2.5, -2.5, 0, 0.0, True, torch.tensor(3), torch.tensor(-2.5), torch.tensor([3, -3, 2, 3, 0])):
                attempt(lambda: a % s); attempt(lambda: a.fmod(s)); attempt(lambda: a.remainder(s))
            attempt(lambda: 7 % a); attempt(lambda: -7.5 % a)
        attempt(lambda: i.clone().remainder_(2)); attempt(lambda: i.clone().fmod_(2.5)); attempt(lambda: i.clone().__imod__(2))
        attempt(lambda: torch.remainder(i, 3)); attempt(lambda: torch.fmod(i, 3)); attempt(lambda: torch.remainder(3, i))
        attempt(lambda: g % 2); attempt(lambda: g.fmod(2)); attempt(lambda: 2 % g); attempt(lambda: g % g); attempt(lambda: g.fmod(g))
        attempt(lambda: (g % 2).grad_fn.next_functions.__len__())
        x = torch.tensor([-5.0, 5.0], requires_grad=True); y = torch.tensor([3.0, -3.0], requires_grad=True)
        (x % y).sum().backward(); print(x.grad, y.grad)
        x.grad = None; y.grad = None
        x.fmod(y).sum().backward(); print(x.grad, y.grad)
        attempt(lambda: torch.tensor([float('inf'), 1.0, -0.0]) % 2); attempt(lambda: torch.tensor([5.0]) % float('inf')); attempt(lambda: torch.tensor([-5.0]) % float('inf'))
        attempt(lambda: torch.tensor([-5.0]).fmod(float('inf')))
        attempt(lambda: torch.tensor([-2**63]) % -1); attempt(lambda: torch.tensor([-2**63]).fmod(-1))
        attempt(lambda: i % "a"); attempt(lambda: i.remainder(None))
        """)


def test_the_torch_level_functions_take_a_number_first_where_torch_does():
    run(r"""
        for name in ("floor_divide", "bitwise_or", "bitwise_and", "bitwise_xor", "bitwise_not", "remainder", "fmod", "clamp", "clip", "abs", "neg", "positive", "negative"):
            print(name, hasattr(torch, name))
        attempt(lambda: torch.floor_divide(i, 2)); attempt(lambda: torch.floor_divide(f, i)); attempt(lambda: torch.floor_divide(7, i))
        attempt(lambda: torch.bitwise_or(i, 2)); attempt(lambda: torch.bitwise_and(i, u8)); attempt(lambda: torch.bitwise_xor(b, b)); attempt(lambda: torch.bitwise_not(u8))
        attempt(lambda: torch.bitwise_or(2, i)); attempt(lambda: torch.bitwise_not(f)); attempt(lambda: torch.bitwise_and(i, other=3))
        attempt(lambda: torch.floor_divide(input=i, other=3))
        """)


def test_clamp_remainder_abs_and_repeat_gradients_versions_and_errors_in_place():
    run(r"""
        b=torch.tensor([True,False])
        attempt(lambda: b.clamp(max=True)); attempt(lambda: b.clamp(True, True)); attempt(lambda: b.clamp(min=torch.tensor(True))); attempt(lambda: b.clamp(torch.tensor(True), torch.tensor(False)))
        attempt(lambda: b.clamp(max=torch.tensor(True)))
        attempt(lambda: b.clamp_min(True)); attempt(lambda: b.clamp_max(True))
        g=torch.tensor([-1.5,0.,2.],requires_grad=True)
        attempt(lambda: g.clamp_min(0)); attempt(lambda: g.clamp_max(0)); attempt(lambda: g.clamp_min(torch.tensor(0.))); attempt(lambda: g.clip(0,1)); attempt(lambda: g.clip(min=torch.tensor(0.)))
        attempt(lambda: torch.clamp(g, min=0, max=torch.tensor(1.)))
        attempt(lambda: g.clamp(0, torch.tensor(1.)))
        attempt(lambda: g.clamp(0, torch.tensor([1., 2., 3.])))
        attempt(lambda: torch.clip(g, 0, 1))
        attempt(lambda: g.clamp_max(torch.tensor(0.)))
        for a in [(torch.tensor(0.), 'a'), ('a','b'), (torch.ones(3), 1)]: attempt(lambda: g.clamp(*a))
        attempt(lambda: g.clamp(min=0, max=torch.ones(3)))
        attempt(lambda: g.clamp(0, max=torch.ones(3)))
        attempt(lambda: g.clamp_min(None)); attempt(lambda: g.clamp_max())
        attempt(lambda: b % 2); attempt(lambda: b % True); attempt(lambda: b % b); attempt(lambda: b.fmod(b)); attempt(lambda: b.fmod(2)); attempt(lambda: b.remainder(2.5))
        attempt(lambda: torch.remainder(2, b));
        h=torch.tensor([1.,2.],requires_grad=True)
        y = 2 % h
        attempt(lambda: y.sum().backward())
        attempt(lambda: torch.fmod(2, h))
        attempt(lambda: h.remainder(torch.tensor(2.)))
        attempt(lambda: torch.ones(2).clamp(min=torch.ones(3)))
        attempt(lambda: torch.ones(2).clamp_(min=torch.ones(3, 2)))
        attempt(lambda: torch.ones(2, requires_grad=True).repeat(2,2).grad_fn.name())
        attempt(lambda: torch.ones(2,3).repeat(2))
        attempt(lambda: torch.ones(2).repeat(2, 2.0))
        attempt(lambda: torch.ones(2).repeat('a'))
        attempt(lambda: torch.ones(2).repeat(None))
        attempt(lambda: torch.ones(2).repeat([2], 3))
        attempt(lambda: torch.ones(2).repeat(torch.tensor(2)))
        attempt(lambda: torch.ones(2).repeat(True))
        attempt(lambda: torch.ones(2, 3).repeat(1, -2))
        # gradients
        for make in [lambda x: x.clamp(-1, 1), lambda x: x.clamp(min=0), lambda x: x.clamp_max(0.5), lambda x: x.clamp(2, -1),
                     lambda x: x.abs(), lambda x: x.repeat(2, 3), lambda x: x.repeat(1, 2), lambda x: -x, lambda x: x % 0.75, lambda x: x.fmod(-0.75),
                     lambda x: x.clone().clamp_(-1, 1), lambda x: x.clone().abs_(), lambda x: x.clone().neg_(), lambda x: x.clone().remainder_(0.5)]:
            x = torch.tensor([[-1.5, 0.0, 0.5], [2.0, -0.25, 1.0]], requires_grad=True)
            y = make(x)
            (y * torch.arange(1., y.numel() + 1).reshape(y.shape)).sum().backward()
            print(y.grad_fn.name(), y.shape, x.grad)
        x = torch.tensor([[-1.5, 0.0, 0.5], [2.0, -0.25, 1.0]], requires_grad=True)
        lo = torch.tensor([-1.0, 0.25, 0.75], requires_grad=True); hi = torch.tensor([[1.0], [-2.0]], requires_grad=True)
        y = x.clamp(lo, hi); y.sum().backward(); print(y, x.grad, lo.grad, hi.grad)
        x.grad = None; lo.grad = None
        y = torch.clamp(x, min=lo); (y * 3).sum().backward(); print(y.grad_fn.name(), x.grad, lo.grad)
        x.grad = None; lo.grad = None
        y = x.remainder(lo); y.sum().backward(); print(y, x.grad, lo.grad)
        x.grad = None; lo.grad = None
        y = x.fmod(lo); y.sum().backward(); print(y, x.grad, lo.grad)
        attempt(lambda: x.abs_()); attempt(lambda: x.clamp_(0, 1)); attempt(lambda: x.neg_())
        v = torch.zeros(4, requires_grad=True) * 1
        w = v[1:3]; w.clamp_(1, 2); print(v, v.grad_fn.name(), w.grad_fn.name())
        t = torch.tensor([-3, 4]); t.abs_(); t.neg_(); t %= 3; t.clamp_(max=1); print(t, t._version)
        attempt(lambda: torch.tensor([-3, 4], dtype=torch.uint8).neg_())
        attempt(lambda: torch.tensor([True]).neg_()); attempt(lambda: torch.tensor([True]).abs_())
        attempt(lambda: torch.tensor([5]).fmod_(0)); attempt(lambda: torch.tensor([5.]).fmod_(0))
        attempt(lambda: torch.tensor([5]).remainder_(2.5))
        attempt(lambda: torch.tensor([5, 6]).__imod__(torch.tensor([4])))
        x2 = torch.arange(6.).reshape(2, 3).t().clamp(0, 3); print(x2.stride(), x2.is_contiguous())
        print(torch.arange(6.).reshape(2, 3).t().repeat(1, 1).stride(), torch.arange(6.).reshape(2,3).t().abs().stride())
        attempt(lambda: torch.zeros(2, device="meta").clamp(0, 1).shape)
        attempt(lambda: torch.zeros(2, 1).repeat(0, 3).shape)
        attempt(lambda: torch.tensor(2.5).repeat(2, 2))
        """)


def test_abs_neg_and_clamp_in_place_check_overlap_on_cpu_only():
    # torch's meta kernels check no overlap (a meta tensor has no memory); its cpu kernels refuse
    # an expanded destination and a bound that partly overlaps it
    run(r"""
        for device in ("meta", "cpu"):
            for name, write in [("abs_", lambda t: t.abs_()), ("neg_", lambda t: t.neg_()),
                                ("clamp_", lambda t: t.clamp_(0, 1)), ("clip_", lambda t: t.clip_(max=1)),
                                ("clamp_(tensor)", lambda t: t.clamp_(torch.zeros(3, device=t.device)))]:
                e = torch.ones(1, device=device).expand(3)
                attempt(lambda: (write(e) is e, e.shape, e._version))
            x = (torch.ones(1, device=device, requires_grad=True) * 1).expand(3)
            attempt(lambda: (x.neg_().grad_fn.name(), x._base.grad_fn.name(), x._version))
            base = torch.arange(4.0, device=device)
            attempt(lambda: base[1:].clamp_(base[:3]).shape)
            attempt(lambda: base[1:].clamp_(max=base[:3]).shape)
            attempt(lambda: base.clamp_(base, base).shape)
        base = torch.arange(4.0)
        attempt(lambda: base[1:].clamp_(min=0, max=base[1:]).tolist())
        """)
