"""The tamper check's verdict is the grader's: faking the tripwire's answer in the kernel gains nothing.

The fixture assignment has no allowlist, so the cheat reaches the tripwire
(``autograder.kernels.kernel_setup``) itself. It hands in a wrong ``make_copy``, patches
torch and reftorch so the tests pass anyway, then makes the tripwire answer
"nothing changed": it refreshes the fingerprint the kernel keeps, in place (same
dict, same size, so the old seal held), and replaces ``tampering()``. The grader
compares the kernel's report with the one it read before the first cell, on
its own side: every test scores 0 and the note names what was replaced.
"""

import os

import pytest

from autograder.grade import autograde
from synthetic_course import messages, scores, student_notebook, write_submission

PATCHES = ("import torch, reftorch\n"
           "torch.Tensor.requires_grad = property(lambda self: False)\n"
           "torch.Tensor.data_ptr = lambda self: id(self)\n"
           "reftorch.Tensor.requires_grad = property(lambda self: False)\n")
CHEATS = {
    "refreshes_the_fingerprint": (
        "def make_copy(t):\n    return t\n\n" + PATCHES +
        "import autograder.kernels.kernel_setup as tripwire\n"
        "tripwire._fingerprint.update(tripwire._take_fingerprint())\n"
        "assert tripwire.tampering() == []\n"),
    "answers_for_the_tripwire": (
        "def make_copy(t):\n    return t\n\n" + PATCHES +
        "import autograder.kernels.kernel_setup as tripwire\n"
        "tripwire._fingerprint.update(tripwire._take_fingerprint())\n"
        "tripwire.tampering.__code__ = (lambda: []).__code__\n"),
}


@pytest.fixture(scope="module")
def graded(fixture_course):
    config = fixture_course
    folder = os.path.join(config.CourseDirectory.root, "autograder", "state", "submitted")
    for student, code in CHEATS.items():
        nb = student_notebook(config, "fixture", replace={"make_copy": code})
        write_submission(os.path.join(folder, student, "fixture"), nb, "fixture.ipynb")
    run = autograde(config, "fixture", sorted(CHEATS), workers=1, progress=False)
    assert not run.failed, run.failed
    return config


@pytest.mark.parametrize("student", sorted(CHEATS))
def test_a_faked_tamper_answer_still_scores_0_on_every_test(graded, student):
    got = scores(graded, "fixture")[student]
    assert set(got) == {"test_values", "test_new_memory", "test_warning_is_not_an_error", "test_reftorch"}
    assert sum(got.values()) == 0, f"the kernel's own 'nothing changed' was believed: {got}"
    said = messages(graded, student, "fixture")
    assert "torch.Tensor.requires_grad was replaced" in said, said
