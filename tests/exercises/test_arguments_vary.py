"""Every argument of every function the learner writes is exercised with more than one value.

Issue 21, What to build 5: a hard-coded argument (a learning rate, a ``dim``, a
``force`` flag) must not pass.  Each reference solution runs in this process
with every function its solution cells define wrapped by a recorder; the test
cells then run as graded (visible then hidden lines) for a few students'
seeds.  Each call the checks make to a learner's function (not the calls the
learner's functions make to each other; those count only for a helper the
checks never call themselves, such as ``copy_as``) records what each parameter received,
described by content (a tensor by its size, strides, offset, dtype, flags and
numbers; a module by its state).  Every parameter must have received at least
two different values.
"""

import contextlib
import functools
import inspect
import io
import warnings

import numpy as np
import pytest
import torch

from autograder.witness import variants as _variants
from inprocess import test_code as graded_code  # (a test_ name pytest would collect)
from nbgrader_course import ASSIGNMENTS, SOLUTIONS, read_notebook

STUDENTS = ["alice", "bob", "carol"]


def describe(value):
    """What tells one argument from another, by content (never by identity)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return (type(value).__name__, value)
    if isinstance(value, (torch.dtype, torch.device, torch.memory_format)):
        return (type(value).__name__, str(value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(describe(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((repr(describe(k)), describe(v)) for k, v in value.items())))
    if isinstance(value, torch.nn.Module):
        return ("module", type(value).__name__, describe(dict(value.state_dict())))
    if isinstance(value, np.ndarray):
        return ("ndarray", value.shape, value.strides, str(value.dtype), value.tobytes())
    if isinstance(value, torch.Tensor):
        numbers = value.detach().cpu().flatten().tolist() if value.numel() < 10_000 else value.numel()
        return ("tensor", type(value).__name__, tuple(value.shape), value.stride(), value.storage_offset(),
                str(value.dtype), str(value.device), value.requires_grad, value.is_leaf, value.grad is not None,
                tuple(numbers) if isinstance(numbers, list) else numbers)
    if isinstance(value, torch.UntypedStorage):
        return ("storage", bytes(value.tolist()) if value.nbytes() < 100_000 else value.nbytes())
    if isinstance(value, io.BytesIO):
        return ("BytesIO", value.getvalue())
    if isinstance(value, type):
        return ("class", value.__qualname__)
    return (type(value).__name__, repr(value))


class Recorder:
    """Wraps the learner's functions; records the arguments of the calls made from outside them."""

    def __init__(self):
        self.seen = {}    # function name -> parameter name -> set of descriptions (calls by the checks)
        self.inner = {}   # the same, for the calls the learner's own functions make
        self.depth = 0

    def wrap(self, name, function):
        signature = inspect.signature(function)
        for book in (self.seen, self.inner):
            book.setdefault(name, {p: set() for p in signature.parameters})

        @functools.wraps(function)
        def recorded(*args, **kwargs):
            book = self.seen if self.depth == 0 else self.inner
            bound = signature.bind(*args, **kwargs)
            for parameter in signature.parameters:
                if parameter in bound.arguments:
                    book[name][parameter].add(repr(describe(bound.arguments[parameter])))
                else:  # a default left alone is one value
                    book[name][parameter].add("(the default)")
            self.depth += 1
            try:
                return function(*args, **kwargs)
            finally:
                self.depth -= 1

        recorded.recorded = True
        return recorded


def _solution_functions(namespace, filename):
    return [name for name, value in namespace.items()
            if inspect.isfunction(value) and value.__code__.co_filename == filename]


def exercised(assignment):
    """``{function: {parameter: set of argument descriptions}}`` over the graded battery."""
    recorder = Recorder()
    notebook = read_notebook(SOLUTIONS / assignment / f"{assignment}.ipynb")
    for student in STUDENTS:
        namespace = {"__name__": "__main__"}
        with _variants.seeded(f"{student}/{assignment}"), warnings.catch_warnings(), \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            for number, cell in enumerate(notebook.cells):
                if cell.cell_type != "code":
                    continue
                meta = cell.metadata.get("nbgrader", {})
                is_test = bool(meta.get("grade") and not meta.get("solution"))
                filename = f"<{assignment} cell {number}>"
                code = graded_code(cell.source, "full") if is_test else cell.source
                exec(compile(code, filename, "exec"), namespace)
                if meta.get("solution"):
                    for name in _solution_functions(namespace, filename):
                        namespace[name] = recorder.wrap(name, namespace[name])
    return {name: parameters if any(parameters.values()) else recorder.inner[name]
            for name, parameters in recorder.seen.items()}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_argument_of_every_learner_function_takes_more_than_one_value(assignment):
    seen = exercised(assignment)
    assert seen, f"{assignment}: no function of the learner's was found"
    never_called = [name for name, parameters in seen.items() if parameters and not any(parameters.values())]
    assert not never_called, f"{assignment}: neither the checks nor the learner's functions call {never_called}"
    fixed = {f"{name}({parameter})": sorted(values)[:1]
             for name, parameters in seen.items() for parameter, values in parameters.items()
             if len(values) < 2}
    assert not fixed, (
        f"{assignment}: the checks always pass the same value to these arguments, so an answer that "
        f"ignores or hard-codes them passes: {fixed}")
