"""``a // b`` and the bitwise operators ``|``, ``&``, ``^``, ``~``, out of place and in place,
run on torch and on reftorch: the same numbers, dtypes, layouts and errors."""

import textwrap

from crosscheck.harness import assert_same
from diff_programs import attempt_source

# One tensor of each kind, with negative values and a zero (a divisor of zero is the error case).
OPERANDS = """
ts = {"i": torch.tensor([-7, -3, 0, 5, 7]), "f": torch.tensor([-7.5, -3.0, 0.0, 5.5, 7.0]),
      "b": torch.tensor([True, False, True, False, True]),
      "u8": torch.tensor([1, 3, 250, 0, 9], dtype=torch.uint8),
      "i8": torch.tensor([1, -3, 100, 0, 9], dtype=torch.int8),
      "d": torch.tensor([-7.5, -3.0, 0.0, 5.5, 7.0], dtype=torch.float64),
      "h": torch.tensor([-7.5, -3.0, 0.0, 5.5, 7.0], dtype=torch.float16),
      "i0": torch.tensor(3), "f0": torch.tensor(-2.5), "b0": torch.tensor(True)}
numbers = (2, -2, 2.5, -0.5, True, 0, 0.0, 300)
"""


def with_operands(body):
    """``attempt`` (which prints a result or the error), ``ts`` and ``numbers``, then ``body``."""
    return attempt_source() + OPERANDS + textwrap.dedent(body)


def test_floor_division_rounds_down_promotes_as_addition_and_refuses_bools():
    assert_same(with_operands("""
        for n, a in ts.items():
            for s in numbers:
                attempt(lambda: (n, s, a // s))
                attempt(lambda: (s, n, s // a))
            for m, b in ts.items():
                attempt(lambda: (n, m, a // b))
        attempt(lambda: torch.tensor([5]).floor_divide(other=2))
        attempt(lambda: torch.tensor([5]).floor_divide(None))
        attempt(lambda: torch.tensor([5]).floor_divide([2]))
        attempt(lambda: torch.tensor([5]).__floordiv__("x"))
        attempt(lambda: torch.tensor([5]).__rfloordiv__(None))
        attempt(lambda: torch.tensor([5]) // "x")
        attempt(lambda: torch.tensor([float("inf"), -float("inf"), float("nan"), 5.0, -5.0]) // 2)
        attempt(lambda: torch.tensor([5.0, -5.0, 0.0]) // float("inf"))
        attempt(lambda: torch.tensor([-2 ** 63]) // -1)
        attempt(lambda: torch.arange(3) // torch.tensor([1, 2]))
        """))


def test_floor_division_keeps_the_layout_and_records_a_node_whose_backward_raises():
    assert_same("""
        t = torch.arange(12).reshape(3, 4).t()
        q = t // 5
        r = 100 // (t + 1)
        empty = torch.zeros(0, 3, dtype=torch.int64) // torch.ones(3, dtype=torch.int64)
        meta = torch.zeros(2, device="meta") // 2
        f = torch.tensor([1.5, -2.5, 3.0], requires_grad=True)
        g = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
        by_two, two_by, both = f // 2, 2 // f, f // g
        print(both.grad_fn.name(), len(both.grad_fn.next_functions), len(by_two.grad_fn.next_functions))
        with torch.no_grad():
            quiet = f // 2
        try:
            (f // 2).sum().backward()
        except RuntimeError as e:
            print(e)
        """)


def test_bitwise_operators_on_bools_and_integers_and_torchs_refusal_of_floats():
    assert_same(with_operands("""
        import operator

        for op in (operator.or_, operator.and_, operator.xor):
            for n, a in ts.items():
                for s in (4, -1, True, 2.5, 300):
                    attempt(lambda: (n, op.__name__, s, op(a, s)))
                    attempt(lambda: (s, op.__name__, n, op(s, a)))
                for m, b in ts.items():
                    attempt(lambda: (n, op.__name__, m, op(a, b)))
        for name in ("bitwise_or", "bitwise_and", "bitwise_xor", "__or__", "__and__", "__xor__",
                     "__ror__", "__rand__", "__rxor__", "__ior__", "__iand__", "__ixor__"):
            for other in (4, None, "x", 2.5, [1]):
                attempt(lambda: (name, other, getattr(torch.tensor([1, 2]), name)(other)))
        attempt(lambda: torch.tensor([1]).bitwise_or(other=2))
        for n, a in ts.items():
            attempt(lambda: (n, ~a))
            attempt(lambda: (n, a.bitwise_not()))
        attempt(lambda: torch.tensor([1.0], requires_grad=True) | 1)
        attempt(lambda: torch.arange(3) | torch.tensor([1, 2]))
        """))


def test_bitwise_in_place_writes_into_the_view_and_refuses_what_does_not_fit():
    assert_same(with_operands("""
        for name in ("bitwise_or_", "bitwise_and_", "bitwise_xor_", "__ior__", "__iand__", "__ixor__"):
            for n, a in ts.items():
                for other in (4, True, 2.5, torch.tensor([1, 2, 3, 4, 5])):
                    attempt(lambda: (name, n, other, getattr(a.clone(), name)(other)))
        x = torch.tensor([1, 2, 3])
        v = x[1:]
        v |= 4
        v &= 6
        v ^= 1
        print(x, x._version, v._version)
        t = torch.arange(12).reshape(3, 4).t()
        bits = (t | 1, ~t, t ^ t.t().reshape(4, 3))
        """))


def test_shifts_follow_torchs_kernels_past_the_width_and_refuse_floats_and_two_bools():
    # A count below 0 or at least the width shifts every bit out: 0 to the left, the sign to the
    # right (an int8 -128 >> 9 is -1, a uint8 200 >> 8 is 0); 1 << 63 wraps to the lowest int64.
    assert_same(with_operands("""
        import operator

        counts = (1, 2, -1, 7, 8, 9, 31, 63, 64, 300, True, 2.5)
        for op in (operator.lshift, operator.rshift):
            for n, a in ts.items():
                for s in counts:
                    attempt(lambda: (n, op.__name__, s, op(a, s)))
                    attempt(lambda: (s, op.__name__, n, op(s, a)))
                for m, b in ts.items():
                    attempt(lambda: (n, op.__name__, m, op(a, b)))
        for name in ("bitwise_left_shift", "bitwise_right_shift", "__lshift__", "__rshift__",
                     "__rlshift__", "__rrshift__", "__ilshift__", "__irshift__"):
            for other in (4, "x", 2.5, [1]):
                attempt(lambda: (name, other, getattr(torch.tensor([1, 2]), name)(other)))
        attempt(lambda: torch.tensor([-128, 127], dtype=torch.int8) >> torch.tensor([7, 8]))
        attempt(lambda: torch.tensor([1]) << torch.tensor([63, 64, -1]))
        attempt(lambda: torch.arange(6).reshape(2, 3).t() << 1)
        """))


def test_shifts_in_place_compute_in_the_promoted_dtype_then_write_and_count():
    assert_same(with_operands("""
        for name in ("bitwise_left_shift_", "bitwise_right_shift_", "__ilshift__", "__irshift__"):
            for n, a in ts.items():
                for other in (1, 9, -1, True, 2.5, torch.tensor([1, 9, 7, 0, 70])):
                    attempt(lambda: (name, n, other, getattr(a.clone(), name)(other)))
        x = torch.tensor([8, 9, 10])
        v = x[1:]
        v <<= 2
        v >>= 1
        print(x, x._version, v._version)
        attempt(lambda: torch.tensor([8]).expand(3).__ilshift__(1))
        """))
