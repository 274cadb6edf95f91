"""The tamper check's verdict is the grader's: faking the tripwire's answer in the kernel gains nothing.

The fixture assignment has no allowlist, so the cheat reaches the tripwire
(``autograder.kernels.kernel_setup``) itself. It hands in a wrong ``make_copy``, saves what the
tripwire answers before anything changed (its report and the digest the grader reads after each
test cell), patches torch and reftorch so the tests pass anyway, then makes the tripwire answer
with what it saved: it replaces ``report()`` and ``fingerprint_digest()``, or swaps their code.
The grader compares the seal of the tripwire (computed by its own expression, with builtins only)
and the kernel's report with those it read before the first cell, on its own side: every test
scores 0 and the note says what was replaced.
"""

import os

import pytest

from autograder.grade import autograde
from synthetic_course import messages, scores, student_notebook, write_submission

SAVES = ("import autograder.kernels.kernel_setup as tripwire\n"
         "saved_report, saved_digest = tripwire.report(), tripwire.fingerprint_digest()\n")
PATCHES = ("import torch, reftorch\n"
           "torch.Tensor.requires_grad = property(lambda self: False)\n"
           "torch.Tensor.data_ptr = lambda self: id(self)\n"
           "reftorch.Tensor.requires_grad = property(lambda self: False)\n")
WRONG = "def make_copy(t):\n    return t\n\n"
SEAL_BROKEN = "the tampering check itself (autograder.kernels.kernel_setup) was replaced"
CHEATS = {   # student: (the make_copy cell, what the note must say)
    "patches_openly": (WRONG + PATCHES, "torch.Tensor.requires_grad was replaced"),
    "answers_with_saved_report_and_digest": (
        WRONG + SAVES + PATCHES +
        "tripwire.report = lambda: saved_report\n"
        "tripwire.fingerprint_digest = lambda: saved_digest\n"
        "assert tripwire.fingerprint_digest() == saved_digest\n", SEAL_BROKEN),
    "swaps_the_code_of_the_tripwire": (
        WRONG + SAVES + PATCHES +
        "tripwire.report.__code__ = eval('lambda: %r' % saved_report).__code__\n"
        "tripwire.fingerprint_digest.__code__ = eval('lambda: %r' % saved_digest).__code__\n"
        "assert tripwire.fingerprint_digest() == saved_digest\n", SEAL_BROKEN),
}


@pytest.fixture(scope="module")
def graded(fixture_course, grading_cluster):
    config = fixture_course
    folder = os.path.join(config.CourseDirectory.root, "autograder", "state", "submitted")
    for student, code in CHEATS.items():
        nb = student_notebook(config, "fixture", replace={"make_copy": code[0]})
        write_submission(os.path.join(folder, student, "fixture"), nb, "fixture.ipynb")
    run = autograde(config, "fixture", sorted(CHEATS), workers=1, progress=False, scheduler=grading_cluster)
    assert not run.failed, run.failed
    return config


@pytest.mark.parametrize("student", sorted(CHEATS))
def test_a_faked_tamper_answer_still_scores_0_on_every_test(graded, student):
    got = scores(graded, "fixture")[student]
    assert set(got) == {"test_values", "test_new_memory", "test_warning_is_not_an_error", "test_reftorch"}
    assert sum(got.values()) == 0, f"the kernel's own 'nothing changed' was believed: {got}"
    said = messages(graded, student, "fixture")
    assert CHEATS[student][1] in said, said
