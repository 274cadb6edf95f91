"""An inference tensor that requires grad (made so inside ``inference_mode``), used outside the mode.

It has no autograd key, so torch's autograd sees an operation only when another input brings one:
a normal tensor, or a Python number that torch wraps in a tensor (``t * 2``, not ``t ** 2``). On
inference tensors alone, nothing is recorded; except where torch's kernel writes its result through
another operation that autograd does see: ``clone()`` and ``to()`` (``copy_``, ``CopyBackwards``),
``2 - t`` (``sub``), ``t % 2`` and ``t.fmod(2)`` (their tensor forms, on the number wrapped),
``repeat()`` (``copy_``), ``to_sparse()`` (``_coalesced_``), ``mean()``, ``abs()`` and ``2 ** t``
(``out=`` forms, which refuse). ``clamp``'s number bounds stay numbers."""

import pytest

from crosscheck.harness import assert_same
from diff_programs import HALVE, attempt_source

MADE = """
with torch.inference_mode():
    t = torch.ones(3, requires_grad=True)
"""

# each line: an expression of ``t``; the program prints its grad_fn, requires_grad, is_inference (or the error)
CASES = {
    "unary": ["-t", "t.exp()", "t.sigmoid()", "t.sqrt()", "t.reciprocal()"],
    "a number on either side": ["t * 2", "2 * t", "t + 2.5", "t - 2", "2 - t", "2.0 - t", "t / 2", "2 / t",
                                "t ** 2", "2 ** t", "t.pow(2)", "t.mul(True)", "t.sub(2, alpha=2)"],
    "two tensors": ["t * t", "t.add(t, alpha=2)", "t + torch.ones(3)", "torch.ones(3) * t", "t @ t",
                    "t @ torch.ones(3)", "t * torch.ones(3, requires_grad=True)", "t.pow(t)",
                    "t.lerp(t, 0.5)", "t.lerp(torch.zeros(3), 0.5)", "t.lerp(t, torch.ones(3))"],
    "remainders": ["t % 2", "t.remainder(2.5)", "torch.remainder(t, 2)", "t.fmod(2)", "t.fmod(-2)", "2 % t",
                   "t % torch.tensor(2.0)", "t.fmod(torch.ones(3, requires_grad=True))"],
    "number bounds stay numbers": ["t.clamp(0, 1)", "t.clamp(min=0)", "t.clamp(max=1)", "t.clamp_min(1)",
                                   "t.clamp_max(1)", "t.clip(0, 1)", "torch.clamp(t, 0, 1)",
                                   "t.clamp(torch.tensor(0.0), 1)", "t.clamp(torch.tensor(0.0), torch.tensor(1.0))",
                                   "t.clamp(torch.zeros(3), torch.ones(3))", "t.clamp_min(torch.tensor(1.0))"],
    "signs and repeat": ["t.abs()", "torch.abs(t)", "t.absolute()", "-t", "t.neg()", "t.negative()", "+t",
                         "t.repeat(2)", "t.repeat(2, 1)", "t.repeat(0)"],
    "an index": ["t[[0, 1]]", "t[torch.tensor([True, False, True])]", "t.index_select(0, torch.tensor([0, 2]))"],
    "reductions": ["t.sum()", "t.sum(0)", "t.mean()", "t.mean(0)", "t.mean(dtype=torch.float64)", "t.argmax()"],
    "copies": ["t.clone()", "t.clone(memory_format=torch.contiguous_format)", "t.to(torch.float64)", "t.double()",
               "t.to(torch.int64)", "t.float()", "t.contiguous()", "t.detach()", "t.data",
               "torch.zeros(3).copy_(t)", "torch.zeros(3, dtype=torch.int64).copy_(t)"],
    "views": ["t.view(3)", "t[1:]", "t.unsqueeze(0)", "t.expand(2, 3)", "t.split(1)[0]", "t[1:] * 2"],
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_an_operation_is_recorded_only_when_autograd_sees_it(kind):
    lines = "\n".join(f"print({e!r}, end=' '); attempt(lambda: {e})" for e in CASES[kind])
    assert_same(attempt_source("result.grad_fn and result.grad_fn.name(), result.requires_grad, "
                               "result.is_inference()") + MADE + lines)


def test_in_place_on_it_alone_writes_then_raises_and_with_a_number_is_refused_as_a_leaf():
    # torch's zero_, fill_ and t *= t see no autograd: the kernel writes, then the counter refuses;
    # mul_(2) and add_(1) wrap their number, so autograd refuses the write into a leaf first;
    # remainder_(0.75), fmod_(0.75) and clamp_(0, 0.5) do not: written, then refused, as zero_.
    lines = "\n".join(f"print({e!r}, end=' '); attempt(lambda: {e}); print(t.tolist())" for e in
                      ["t.zero_()", "t.fill_(3.0)", "t.mul_(t)", "t.__imul__(t)", "t.add_(t)", "t.mul_(2)",
                       "t.add_(1)", "t.copy_(torch.ones(3))", "t.remainder_(0.75)", "t.fmod_(0.75)", "t.__imod__(0.75)",
                       "t.fmod_(torch.ones(3))", "t.clamp_(0, 0.5)", "t.clamp_(torch.tensor(0.25), 2)",
                       "t.clamp_(min=torch.zeros(3))"])
    assert_same(attempt_source("result") + MADE + lines)


def test_the_copy_a_clone_or_to_records_leads_back_to_it():
    assert_same(MADE + """
for name, make in (("clone", lambda: t.clone()), ("to", lambda: t.to(torch.float64)), ("rsub", lambda: 2 - t),
                   ("remainder", lambda: t % 2), ("fmod", lambda: t.fmod(2))):
    made = make()
    print(name, made.grad_fn.name(), made._version, made.is_leaf,
          [(n and n.name(), i) for n, i in made.grad_fn.next_functions])
    made.sum().backward()
    print(t.grad, t.grad.is_inference(), t.grad._version)
""")


def test_a_custom_function_is_recorded_whatever_its_inputs_are():
    # Function.apply is not dispatched: it asks grad mode and requires_grad only
    assert_same(MADE + HALVE + """
out = Halve.apply(t, t)
print(out.grad_fn.name(), out.requires_grad)
out.sum().backward()
print(t.grad)
""")


def test_to_sparse_runs_torchs_plain_kernel_whose_steps_autograd_sees():
    # values = t[rows of the indices].squeeze(0).clone(), wrapped by sparse_coo_tensor, then marked
    # coalesced in place (_coalesced_: version 1, no derivative); with no entry or no dim, no graph
    assert_same(MADE + """
def chain(node):
    return node and [node.name(), [chain(n) for n, _ in node.next_functions]]
with torch.inference_mode():
    m = torch.tensor([[1.5, 0.0], [0.0, 3.0]], requires_grad=True)
    z = torch.zeros(2, requires_grad=True)
    d = torch.tensor(2.5, requires_grad=True)
    plain = torch.tensor([0.0, 2.0])
for x in (t, m, z, d, plain, torch.ones(2, requires_grad=True)):
    r = x.to_sparse()
    print(r.requires_grad, r.is_leaf, r._version, r._values()._version, r._indices()._version, chain(r.grad_fn))
""")


def test_a_result_the_plain_kernel_writes_through_another_operation_starts_at_version_1():
    # abs (out= form), repeat (copy_), clone, to_sparse (_coalesced_): a plain inference tensor's
    # result at 1; not on meta, nor for a repeat count of 0; clamp and neg write nothing more: 0
    assert_same("""
with torch.inference_mode():
    plain = torch.tensor([1.5, -2.0, 3.0])
    ints = torch.tensor([1, -2])
    meta = torch.ones(2, device="meta")
    empty = torch.ones(0)
for e in ["plain.abs()", "ints.abs()", "meta.abs()", "empty.abs()", "plain.absolute()", "plain.repeat(2)",
          "plain.repeat(2, 1)", "plain.repeat(0)", "plain.repeat(2, 0)", "meta.repeat(2)", "empty.repeat(2)",
          "plain.expand(2, 3).repeat(1, 1)", "ints.repeat(3)", "plain.clamp(0, 1)", "plain.clamp_min(1)", "-plain",
          "plain.to_sparse()", "plain.clone()", "torch.ones(2).abs()", "torch.ones(2).repeat(2)"]:
    print(e, eval(e)._version)
with torch.inference_mode():
    print(plain.abs().is_inference(), plain.repeat(2).is_inference())
""")
