"""torch's observations of the fixed cases are made once per grading process (decision 0027).

The judge compares every student's answers with torch's; torch answers a fixed
case the same way for every student, so ``_observe.observe_torch`` keeps its
observation for the next one. A kept observation must equal a fresh one, an op
must be told apart by what it computes (a lambda made anew by each check call is
the same op; one with another argument is not), and a case drawn for one
student must never be kept.
"""

import torch

from autograder.checks import _observe
from autograder.witness import battery, variants


def _plain(seen):
    return {k: v for k, v in seen.items() if not k.startswith("_")}


def _clone(t):
    return t.clone()


def test_a_fixed_case_is_observed_once_and_as_a_fresh_run_sees_it():
    for case in battery.FULL:
        kept = _observe.observe_torch(case, _clone)
        assert _observe.observe_torch(case, _clone) is kept
        assert _plain(kept) == _plain(_observe.observe(torch, case, _clone))


def test_a_lambda_made_anew_is_the_same_op_and_one_with_another_argument_is_not():
    case = battery.FULL[0]

    def made(dtype):
        return lambda t, dtype=dtype: t.to(dtype)

    as_float64 = _observe.observe_torch(case, made(torch.float64))
    assert _observe.observe_torch(case, made(torch.float64)) is as_float64
    as_int64 = _observe.observe_torch(case, made(torch.int64))
    assert as_int64 is not as_float64
    assert as_float64["dtype"] != as_int64["dtype"]


def test_a_case_drawn_for_a_student_is_not_kept():
    drawn = variants.tensor_cases("kept/drawn")
    before = len(_observe._torch_seen)
    for case in drawn:
        seen = _observe.observe_torch(case, _clone)
        assert _plain(seen) == _plain(_observe.observe(torch, case, _clone))
        assert _observe.observe_torch(case, _clone) is not seen
    assert len(_observe._torch_seen) == before
