"""Bad input gets torch's error: same exception class and message.

Never an internal Python error from inside reftorch (IndexError from a list,
AttributeError, a numpy error ...).  Hypothesis combines a receiver tensor with
a call whose arguments are wrong (shape, dim, index, type, dtype, device); each
program runs on torch and on reftorch through ``assert_same``.
"""

from hypothesis import given, settings, strategies as st

import pytest

from crosscheck.harness import assert_same

_SETUP = (
    "t = torch.arange(6.).view(2, 3)\n"
    "i = torch.arange(6).view(2, 3)\n"
    "s = torch.tensor(2.)\n"
    "r = torch.ones(2, 3, requires_grad=True)\n"
)

_RECEIVERS = ["t", "i", "s", "r", "t.t()", "t[0]"]

_BAD_INT = ["5", "-4", "1.0", "'a'", "None"]
_BAD_SHAPE = ["4", "5, -1", "-1, -1", "-2, 3", "2.0, 3", "2, 3.0", "'a'", "(2, 3.0)", "[6]", "(2, 3), 1", "0, -1"]
_OTHER = ["torch.ones(2)", "torch.ones(4, 3)", "torch.ones(3, 2)", "5", "2.5", "None", "'a'", "[1, 2, 3]", "torch.ones(1)"]

# templates: {x} is the receiver, {a} a bad argument from the listed pool
_CALLS = [
    ("{x}.view({a})", _BAD_SHAPE),
    ("{x}.reshape({a})", _BAD_SHAPE),
    ("{x}.expand({a})", ["3, 3", "2", "1, 3", "2, -1, 3", "2.0, 3", "'a'", "(2.0, 3)", "4, 2, 3", "-1, 3, 3"]),
    ("{x}.permute({a})", ["0", "0, 0", "0, 2", "0, 1, 2", "1.0, 0", "0, 1.0", "(0, 'a')"]),
    ("{x}.transpose({a}, 0)", _BAD_INT),
    ("{x}.transpose(0, {a})", _BAD_INT),
    ("{x}.squeeze({a})", _BAD_INT),
    ("{x}.unsqueeze({a})", _BAD_INT),
    ("{x}.sum({a})", _BAD_INT + ["(0, 0)", "(0, 5)"]),
    ("{x}.mean({a})", _BAD_INT + ["(0, 0)", "(0, 5)"]),
    ("{x}[{a}]", ["2", "-3", "0, 3", "0, 0, 0", "None, 5", "0, ..., 0, 0"]),
    ("{x}.copy_({a})", _OTHER),
    ("{x} + {a}", _OTHER),
    ("{x} * {a}", _OTHER),
    ("{x} == {a}", ["torch.ones(2)", "torch.ones(4, 3)", "torch.ones(3, 2)"]),
    ("{x} @ {a}", ["torch.ones(2)", "torch.ones(4, 3)", "torch.ones(3, 2)", "torch.ones(3)", "s"]),
    ("{x}.item()", [""]),
    ("{x}.sum(0).backward()", [""]),
    ("{x}.requires_grad_()", [""]),
    ("{x}.to({a})", ["'gpu'", "'cuda:x'", "'cpu:1'", "device='gpu'", "'cpu', 'cpu'", "torch.float32, torch.float32", "[1]"]),
    ("{x}.new_tensor([1], {a})", ["torch.float32", "2"]),
    ("{x}.new_tensor({a})", ["[[1], [2, 3]]", "[[1, 2], [3]]"]),
]

_FREE = [
    ("torch.tensor({a})", ["[[1, 2], [3]]", "[[1], [2, 3]]", "'abc'", "{{1: 2}}", "[1, 'a']"]),
    ("torch.zeros({a})", ["2.5", "'a'", "None"]),
    ("torch.ones({a})", ["2.0", "'2'"]),
    ("torch.full({a}, 1)", ["(-1,)"]),
    ("torch.zeros(2, dtype={a})", ["'float32'", "3"]),
    ("torch.ones(2, dtype={a})", ["'x'"]),
    ("torch.ones(2, dtype={a}, requires_grad=True)", ["torch.int64", "torch.bool"]),
    ("torch.device({a})", ["'gpu'", "'cuda:x'", "'cpu:-1'", "''", "'cuda:0:1'", "'CPU'", "' cpu'"]),
    ("torch.matmul({a})", ["t, torch.ones(2)", "torch.ones(3), torch.ones(2)"]),
]


@st.composite
def _programs(draw):
    if draw(st.booleans()):
        template, pool = draw(st.sampled_from(_CALLS))
        x = draw(st.sampled_from(_RECEIVERS))
    else:
        template, pool = draw(st.sampled_from(_FREE))
        x = ""
    a = draw(st.sampled_from(pool))
    return _SETUP + "print('before')\n" + template.format(x=x, a=a) + "\nprint('after')\n"


@settings(derandomize=True, max_examples=400, deadline=None)
@given(_programs())
def test_bad_arguments_raise_what_torch_raises(program):
    assert_same(program, raises="*")


# ---- hand-written cases -------------------------------------------------------


def _check(body, raises):
    assert_same(_SETUP + "print('before')\n" + body, raises=raises)


def test_augmented_assignment_with_an_unbroadcastable_operand():
    _check("t += torch.ones(3, 3)", "RuntimeError")


def test_setitem_out_of_range():
    _check("t[5] = 1", "IndexError")


def test_setitem_with_a_wrongly_shaped_value():
    _check("t[0] = torch.ones(4)", "RuntimeError")


def test_backward_of_a_tensor_without_grad():
    _check("t.sum().backward()", "RuntimeError")


def test_backward_of_a_non_scalar():
    _check("r.backward()", "RuntimeError")


def test_requires_grad_attribute_on_an_int_tensor():
    _check("i.requires_grad = True", "RuntimeError")


def test_item_of_an_empty_tensor():
    _check("torch.ones(0).item()", "RuntimeError")


# Construction and parsing of odd data: each line is one call, run on both libraries.
_ODD_CALLS = [
    "torch.tensor(None)",
    "torch.tensor({1: 2})",
    "torch.tensor(object())",
    "torch.tensor([1, [2, 3]])",
    "torch.tensor([[1, 2], 3])",
    "torch.tensor([1.5, [2, 3]])",
    "torch.tensor([[1, 2], [3, 4, 5]])",
    "print(torch.tensor([[], [1]]).shape)",
    "print(torch.tensor(1.5, dtype=float), torch.tensor(1, dtype=int), torch.tensor(1, dtype=bool))",
    "torch.tensor('abc')",
    "torch.tensor([1, 'a'])",
    "torch.device(None)",
    "torch.device(1.5)",
    "torch.device('cpu', -1)",
    "torch.device('cpu', 'a')",
    "t.new_tensor(None)",
    "i.new_tensor(None)",
    "torch.arange('a')",
    "torch.arange(None)",
    "torch.arange(1, 'a')",
    "torch.arange(0, 2, None)",
    "torch.arange(-1)",
    "torch.arange(1, 0)",
    "print(torch.zeros(2, dtype=float))",
    "torch.zeros(-1)",
    "torch.ones(-1)",
    "torch.empty(-1)",
    "torch.full((2,), 'a')",
    "torch.full((-1,), 2.0)",
    "r.sum().backward(5)",
    "t.view(-1, -1)",
    "print(t.to(None) is t)",
]


@pytest.mark.parametrize("call", _ODD_CALLS)
def test_odd_data_and_arguments_behave_as_in_torch(call):
    assert_same(_SETUP + "print('before')\n" + call + "\nprint('after')\n", raises="*")
