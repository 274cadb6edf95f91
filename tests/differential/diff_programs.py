"""Program text that several differential test files put in front of their cases.

Imported as ``diff_programs`` (pytest puts this folder on ``sys.path`` for the
tests in it).
"""

import textwrap

import pytest

from crosscheck.harness import assert_same

# ``b``: a non-leaf that requires grad (``a * 2`` of the leaf ``a``).
NON_LEAF = "a = torch.tensor([1.0], requires_grad=True)\nb = a * 2\n"

# ``model``: an nn.Linear(2, 1) with weight [[1, 2]] and bias 0.
LINEAR_MODEL = """
model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 2.0]]))
    model.bias.zero_()
"""

# ``Halve``: a custom Function whose backward gives no gradient (None) to its first input.
HALVE = """
class Halve(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * 2 + y

    @staticmethod
    def backward(ctx, grad):
        return None, grad
"""

# ``Exp``: a custom Function that saves its own output (and its input) for backward.
EXP_SAVING_ITS_OUTPUT = """
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        out = a.exp()
        ctx.save_for_backward(out, a)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, a = ctx.saved_tensors
        return grad * out
"""


def attempt_source(shown: str = "result") -> str:
    """Source of ``attempt(f)``: calls ``f()`` and prints the exception it raised (class | message),
    or ``ok`` and ``shown``, an expression of its ``result``."""
    return f"""
def attempt(f):
    try:
        result = f()
    except Exception as e:
        print(type(e).__name__, "|", e)
    else:
        print("ok", {shown})
"""


def program(body: str) -> str:
    """``body`` (dedented) after ``attempt``, which prints ``ok`` and the result itself."""
    return attempt_source() + textwrap.dedent(body)


def shows(body):
    """A program that prints ``repr`` or the exception of each line of ``body``."""
    lines = []
    for line in textwrap.dedent(body).strip().splitlines():
        lines.append(f"try:\n    print({line!r}, '->', repr({line}))\n"
                     f"except Exception as e:\n    print({line!r}, '!!', type(e).__name__, e)")
    return "\n".join(lines)


def torchs_errors_test(cases):
    """A test that runs each ``(statement, error)`` of ``cases`` on both libraries: each ends
    with ``error`` on torch, and reftorch prints and raises the same."""
    @pytest.mark.parametrize("statement, error", cases)
    def test_torchs_errors(statement, error):
        assert_same(statement, raises=error)
    return test_torchs_errors
