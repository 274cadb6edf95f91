"""torch's observations of the fixed cases are made once per grading process (decision 0027).

The judge compares every student's answers with torch's; torch answers a fixed
case the same way for every student, so ``_observe.observe_torch`` keeps its
observation for the next one. A kept observation must equal a fresh one, an op
must be told apart by what it computes (a lambda made anew by each check call is
the same op; one with another argument is not), so must a case (new_tensor's, made
anew by each check call, is the same case), and a case drawn for one student must
never be kept.
"""

import torch

from autograder.checks import _observe
from autograder.witness import battery, owned, variants
from autograder.witness.owned import OWNERS


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


def _new_tensor(data, owner):
    return owner.new_tensor(data)


def test_new_tensors_cases_made_anew_by_each_check_are_found_again_and_drawn_ones_are_not_kept():
    """A check of new_tensor makes its cases (the data with its owner, the data moved to a device) anew
    on every call: they are the same cases, and torch's run of each is found again."""
    for owner in OWNERS:
        case = owned.WithOwner(battery.FULL[3], owner)
        kept = _observe.observe_torch(case, _new_tensor)
        assert _observe.observe_torch(owned.WithOwner(battery.FULL[3], owner), _new_tensor) is kept
        moved = _observe.observe_torch(owned.Moved(case, "cuda"), _new_tensor)
        assert _observe.observe_torch(owned.Moved(owned.WithOwner(battery.FULL[3], owner), "cuda"),
                                      _new_tensor) is moved
    before = len(_observe._torch_seen)
    drawn_owner = owned.Owner("drawn self", spec=variants.TensorSpec(variants.generator("kept/owner"), leaf_only=True))
    for case in (owned.WithOwner(variants.tensor_cases("kept/data")[0], OWNERS[0]),
                 owned.WithOwner(battery.FULL[0], drawn_owner),
                 owned.Moved(owned.WithOwner(battery.FULL[0], drawn_owner), "cpu")):
        seen = _observe.observe_torch(case, _new_tensor)
        assert _observe.observe_torch(case, _new_tensor) is not seen
    assert len(_observe._torch_seen) == before
