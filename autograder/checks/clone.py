"""Checks for the learner's ``clone``: ``my_clone(t, *, memory_format=preserve_format)``.

torch's answer, for comparison: a new object, new metadata with the same size,
dtype and device, strides chosen by ``memory_format``, new memory holding the
same numbers, a ``CloneBackward0`` node when the source requires grad (in grad
mode), and a new version counter at 0.
"""

from . import _battery
from ._observe import battery as resolve_battery, expect_same

OP = "clone"

MISCONCEPTIONS = {
    "same_object": "your clone returns the source itself: `b = a` is not a copy; clone must build a new tensor object",
    "shares_memory": "your clone shares memory with its source: writing to the clone would change the original",
    "values": "your clone does not hold the source's numbers: each element must be read from where the "
              "source's size, stride and offset say it is",
    "size": "your clone has another size than its source",
    "dtype": "your clone changes the dtype: clone keeps the source's dtype",
    "device": "your clone changes the device: clone keeps the source's device",
    "storage_offset": "your clone does not start at offset 0: a clone owns a fresh storage that holds only its "
                      "own elements, so copying the source's offset (or its whole storage) is wrong",
    "stride": "your clone does not preserve the layout: with preserve_format a dense tensor keeps its strides "
              "exactly (a transposed matrix stays transposed) and any other layout is packed densely in the "
              "same memory order; contiguous_format always gives row-major strides",
    "requires_grad": lambda theirs, yours: (
        "your clone drops requires_grad: a clone stays in the graph, it is not a detach"
        if theirs else
        "your clone requires grad where torch's does not: nothing is recorded inside no_grad or for a "
        "source that does not require grad"
    ),
    "is_leaf": lambda theirs, yours: (
        "your clone is a leaf where torch's is not: a clone of a tensor that requires grad is an "
        "intermediate result with a grad_fn, not a new leaf"
        if not theirs else
        "your clone is not a leaf where torch's is: inside no_grad, or for a source without grad, "
        "clone records no history"
    ),
    "grad_fn": "your clone is cut off from the graph: torch records a CloneBackward0 node (not nothing, "
               "and not another node) whenever the source requires grad in grad mode",
    "next_functions": "your CloneBackward0 does not lead back to the source: its next_functions must point "
                      "to the source's grad_fn, or to the AccumulateGrad node of a leaf source",
    "gradient": "gradients through your clone do not reach the source unchanged: the gradient of a copy "
                "is the gradient of the original",
    "warnings": "your clone warns where torch's clone is silent (or the other way round)",
    "version": "your clone does not start at version 0: making a copy is not an in-place write into it",
    "shares_version_counter": "your clone shares the source's version counter: a clone has its own memory, "
                              "so it gets its own counter and in-place writes to the source must not show in it",
    "source_version": "your clone bumped the source's version: reading a tensor is not writing into it",
}


def _torch_clone(t):
    return t.clone()


def check_clone_memory(my_clone, battery="basic"):
    """New object, new memory, same numbers."""
    expect_same(OP, battery, _torch_clone, my_clone,
                ("same_object", "shares_memory", "values"), MISCONCEPTIONS)


def check_clone_metadata(my_clone, battery="basic"):
    """Same size, dtype and device; offset 0 in the new storage."""
    expect_same(OP, battery, _torch_clone, my_clone,
                ("size", "dtype", "device", "storage_offset"), MISCONCEPTIONS)


def check_clone_strides(my_clone, battery="basic"):
    """preserve_format strides on every layout, and contiguous_format when asked."""
    import reftorch
    import torch

    cases = (_battery.TRANSPOSED, _battery.PERMUTED) if battery == "basic" else _battery.LAYOUTS
    expect_same(OP, cases, _torch_clone, my_clone, ("size", "stride", "values"), MISCONCEPTIONS)
    expect_same(OP, cases, lambda t: t.clone(memory_format=torch.preserve_format),
                lambda t: my_clone(t, memory_format=reftorch.preserve_format),
                ("stride",), MISCONCEPTIONS)
    if battery != "basic":
        expect_same(OP + "(memory_format=torch.contiguous_format)", cases,
                    lambda t: t.clone(memory_format=torch.contiguous_format),
                    lambda t: my_clone(t, memory_format=reftorch.contiguous_format),
                    ("stride", "values"), MISCONCEPTIONS)


def check_clone_graph(my_clone, battery="basic"):
    """CloneBackward0 leading to the source; gradients flow back unchanged."""
    cases = [case for case in resolve_battery(battery) if case.grad_mode]
    expect_same(OP, cases, _torch_clone, my_clone,
                ("warnings", "requires_grad", "is_leaf", "grad_fn", "next_functions", "gradient"),
                MISCONCEPTIONS)


def check_clone_no_grad(my_clone, battery="basic"):
    """Inside no_grad a clone is a plain leaf without grad."""
    cases = (_battery.LEAF_NO_GRAD_MODE,) if battery == "basic" else _battery.NO_GRAD
    expect_same(OP, cases, _torch_clone, my_clone,
                ("requires_grad", "is_leaf", "grad_fn"), MISCONCEPTIONS)


def check_clone_version(my_clone, battery="basic"):
    """A new version counter at 0; the source's counter untouched."""
    expect_same(OP, battery, _torch_clone, my_clone,
                ("version", "source_version", "shares_version_counter"), MISCONCEPTIONS)
