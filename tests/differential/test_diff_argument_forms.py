"""Arguments torch's parser binds in its own way: methods that take nothing (``t.t(0)``), and the
deprecated ``(alpha, other)`` form of ``add``/``sub`` (``a.add_(2, b)`` is ``a + 2 * b``)."""

import os
import subprocess
import sys

import pytest

from crosscheck.harness import assert_same
from diff_programs import program


def test_a_method_that_takes_nothing_refuses_arguments_in_torchs_words():
    assert_same(program("""
        a = torch.ones(2, 2)
        attempt(lambda: a.t(0))
        attempt(lambda: a.t(0, 1))
        attempt(lambda: a.t(x=1))
        attempt(lambda: a.t(0, x=1))
        attempt(lambda: a.clone().zero_(1))
        attempt(lambda: a.clone().zero_(x=1))
        attempt(lambda: torch.t(a, 0))
        """))


def test_the_deprecated_alpha_first_form_of_add_and_sub_computes_other_times_alpha():
    assert_same(program("""
        import warnings
        warnings.simplefilter("ignore")  # torch warns once per process: the next test checks the text
        a = torch.ones(2, 2)
        attempt(lambda: a.clone().add_(2, a))
        attempt(lambda: a.clone().add_(2, torch.tensor([1., 2.])))
        attempt(lambda: a.add(2, a))
        attempt(lambda: a.clone().sub_(2, a))
        attempt(lambda: a.sub(2.5, a))
        attempt(lambda: a.clone().add_(2, 3))
        attempt(lambda: a.clone().add_(2, other=a))
        attempt(lambda: torch.add(a, 2, a))
        attempt(lambda: a.clone().add_(a, 2))
        attempt(lambda: a.clone().add_(2, "x"))
        attempt(lambda: a.clone().add_(2, a, alpha=3))
        attempt(lambda: a.clone().add_(True, a))
        attempt(lambda: torch.ones(2, dtype=torch.int64).add_(2.5, torch.ones(2, dtype=torch.int64)))
        attempt(lambda: a.add())
        attempt(lambda: a.clone().add_())
        g = torch.ones(2, requires_grad=True)
        y = (g * 1).add_(3, g)
        y.sum().backward()
        print(y.grad_fn.name(), g.grad)
        """))


def test_add_and_sub_refuse_an_alpha_that_is_no_number():
    # torch's parser wants a Number for alpha (a 0-d tensor reads as one): None is not "no alpha"
    assert_same(program("""
        a, b = torch.arange(3.0), torch.ones(3)
        for alpha in (None, "x", [2], (2,), torch.tensor(2.0), 2):
            attempt(lambda: a.add(b, alpha=alpha))
            attempt(lambda: a.clone().add_(b, alpha=alpha))
            attempt(lambda: a.sub(other=b, alpha=alpha))
            attempt(lambda: a.clone().sub_(b, alpha=alpha))
            attempt(lambda: torch.add(a, b, alpha=alpha))
        """))


# Each in a new process: torch's warning is once per process, at the first deprecated call.
WARNED = """
import warnings
import {module} as torch
a = torch.ones(2)
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    {first}
    a.sub_(2, a)
    torch.add(a, 2, a)
for w in seen:
    print(w.category.__name__, w.lineno, repr(str(w.message)))
"""


@pytest.mark.parametrize("first", ["a.add_(2, a)", "torch.add(a, 2, a)", "a.sub(2.5, a)"])
def test_the_deprecated_form_warns_once_per_process_with_torchs_text(first):
    def output(module):
        environment = dict(os.environ, PYTHONWARNINGS="always")
        return subprocess.run([sys.executable, "-c", WARNED.format(module=module, first=first)], capture_output=True,
                              text=True, check=True, env=environment).stdout
    torch_says = output("torch")
    assert torch_says.count("UserWarning") == 1
    assert output("reftorch") == torch_says
