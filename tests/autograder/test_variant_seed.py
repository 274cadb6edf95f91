"""The student's variant seed travels as data, not through the grader's environment (issue 23).

``AssignVariant`` puts ``"<student>/<assignment>"`` in the notebook's
resources, ``GuardedExecute`` hands it to its kernel before the first cell
(``autograder.checks.use_variant``), and the checks draw from it. Nothing is
written to ``os.environ``, so several gradings in one process (threads of a
dask worker) can never see each other's seed. Real sandboxed kernels.
"""

import os

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config

from autograder.witness import variants as _variants
from autograder.kernels.execute import GuardedExecute
from autograder.pipeline.variants import RESOURCE, AssignVariant

OLD_VARIABLE = "AUTOGRADER_VARIANT"  # the process-wide channel of before
PROBE = ("import os, autograder.witness.variants as v\n"
         "print(v.current_seed(), os.environ.get(%r, 'no variable'))" % OLD_VARIABLE)


def _seed_seen_by_the_kernel(student, tmp_path, warm=False):
    nb = new_notebook(cells=[new_code_cell(PROBE)])
    resources = {"nbgrader": {"student": student, "assignment": "probe"},
                 "metadata": {"path": str(tmp_path)}}
    nb, resources = AssignVariant().preprocess(nb, resources)
    config = Config({"GradingKernelManager": {"warm": warm}})  # warm: forked from the zygote
    nb, resources = GuardedExecute(timeout=120, config=config).preprocess(nb, resources)
    outputs = nb.cells[-1].outputs
    assert outputs and outputs[0].get("name") == "stdout", outputs
    return outputs[0]["text"].strip()


def test_assign_variant_puts_the_seed_in_the_resources_and_leaves_the_environment_alone(monkeypatch):
    monkeypatch.delenv(OLD_VARIABLE, raising=False)
    _, resources = AssignVariant().preprocess(new_notebook(), {"nbgrader": {"student": "alice",
                                                                            "assignment": "clone"}})
    assert resources[RESOURCE] == "alice/clone"
    assert OLD_VARIABLE not in os.environ


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_each_kernel_draws_from_its_own_students_seed_whatever_the_graders_environment_says(
        monkeypatch, tmp_path, needs_sandbox, warm):
    monkeypatch.setenv(OLD_VARIABLE, "mallory/probe")  # a stale value from another grading
    assert _seed_seen_by_the_kernel("alice", tmp_path, warm) == "alice/probe no variable"
    assert _seed_seen_by_the_kernel("bob", tmp_path, warm) == "bob/probe no variable"
    assert os.environ[OLD_VARIABLE] == "mallory/probe"


def test_the_checks_ignore_the_environment_and_draw_from_the_seed_they_are_given(monkeypatch):
    monkeypatch.setenv(OLD_VARIABLE, "mallory/clone")
    saved = dict(_variants._state)
    _variants._state.clear()
    try:
        assert _variants.current_seed() == _variants.DEFAULT_SEED
        from autograder.checks import use_variant
        assert use_variant("alice/clone") == "alice/clone" == _variants.current_seed()
    finally:
        _variants._state.clear()
        _variants._state.update(saved)
