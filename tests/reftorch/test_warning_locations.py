"""A warning names the line that torch's warning names: the learner's line.

Python prints a warning as ``file:line: UserWarning: ...`` and shows it once
per such place. torch raises most warnings in C++, so they name the line of
the program that called torch. reftorch is Python throughout, and its
warnings must skip every reftorch frame (``reftorch._warn``) to name the same
line. A few of torch's warnings come from torch's own Python code and name a
line in it; the same reftorch warning then names a line in reftorch. So does
every warning while a default device is set (torch runs each call through a
Python function of its own then).

Each program below runs in a fresh process per library (some warnings come
once per process), with every warning recorded, and is compared
warning by warning with torch.
"""

import ast
import copy
import importlib.util
import io
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

HERE = os.path.abspath(__file__)


# ---- the programs: each takes the library (torch or reftorch) -------------------

def copy_construct_from_a_tensor(m):
    m.tensor(m.ones(2))


def new_tensor_from_a_tensor(m):
    m.ones(2).new_tensor(m.ones(2))


def from_numpy_of_a_read_only_array(m):
    import numpy as np  # reftorch's optional numpy extra: only this program needs it

    frozen = np.zeros(3)
    frozen.flags.writeable = False
    m.from_numpy(frozen)


def tensor_of_a_list_of_numpy_arrays(m):
    import numpy as np

    m.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])])
    m.tensor([np.array([5.0])])  # once per process: no second warning


def asarray_of_a_tensor_that_requires_grad(m):
    m.asarray(m.ones(2, requires_grad=True), dtype=m.float64)


def index_with_a_list_holding_a_slice(m):
    m.ones(3, 3)[[slice(None), 1]]


def index_with_a_list_holding_none(m):
    m.ones(3, 3)[[None, 1]]


def index_with_a_uint8_mask(m):
    m.ones(3)[m.tensor([1, 0, 1], dtype=m.uint8)]


def index_put_into_an_expanded_tensor(m):
    e = m.ones(1).expand(3)
    e[m.tensor([0])] = 2.0


def mask_assignment_into_an_expanded_tensor(m):
    e = m.ones(1).expand(3)
    e[m.tensor([True, False, True])] = 2.0


def sparse_coo_tensor_without_check_invariants(m):
    m.sparse_coo_tensor([[0]], [1.0], (1,))


def to_sparse_csr_of_a_matrix(m):
    m.ones(2, 2).to_sparse_csr()


def non_leaf_grad(m):
    (m.ones(2, requires_grad=True) * 2).grad


def copy_of_a_tensor_with_a_hook(m):
    t = m.ones(2, requires_grad=True)
    t.register_hook(lambda g: g)
    copy.copy(t)


def save_of_a_tensor_with_a_hook(m):
    t = m.ones(2, requires_grad=True)
    t.register_hook(lambda g: g)
    m.save(t, io.BytesIO())


def optimizer_given_one_parameter_twice(m):
    p = m.nn.Parameter(m.ones(2))
    m.optim.SGD([p, p], lr=0.1)


def state_dict_with_positional_arguments(m):
    m.nn.Linear(2, 2).state_dict({}, "prefix.")


def load_state_dict_into_a_meta_parameter(m):
    m.nn.Linear(2, 1, device="meta").load_state_dict({"weight": m.ones(1, 2), "bias": m.ones(1)})


def always_call_hook_after_a_failed_forward(m):
    lin = m.nn.Linear(2, 2)

    def failing_pre_hook(module, args):
        raise KeyError("pre-hook")

    def failing_hook(module, args, output):
        raise ValueError("hook")

    lin.register_forward_hook(failing_hook, always_call=True)
    lin.register_forward_pre_hook(failing_pre_hook)
    lin(m.ones(2))


def float_of_a_tensor_that_requires_grad(m):
    w = m.tensor(2.0, requires_grad=True)
    m.tensor([w, 1.0])  # read with float(w)
    float(w)  # once per process: no second warning


def instantiating_a_custom_function(m):
    class Twice(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    Twice(m.ones(2))


def copy_construct_under_a_default_device(m):
    m.set_default_device("cpu")
    try:
        m.tensor(m.ones(2))
        m.ones(3, 3)[[slice(None), 1]]
    finally:
        m.set_default_device(None)
    m.tensor(m.ones(2))


def load_of_a_protocol_3_file(m):
    import io
    buffer = io.BytesIO()
    m.save(m.ones(2), buffer, pickle_protocol=3)
    buffer.seek(0)
    m.load(buffer)


def add_with_the_deprecated_argument_order(m):
    a = m.ones(2)
    a.add_(2, a)


def size_of_a_loaded_storage(m):
    import io
    buffer = io.BytesIO()
    m.save(m.ones(2).untyped_storage(), buffer)
    buffer.seek(0)
    storage = m.load(buffer)
    storage.size()
    storage.tolist()  # once per process: no second warning


# Each program, and the text in reftorch._messages its warning comes from.
PROGRAMS = {
    copy_construct_from_a_tensor: "COPY_CONSTRUCT",
    new_tensor_from_a_tensor: "COPY_CONSTRUCT",
    copy_construct_under_a_default_device: "COPY_CONSTRUCT",
    from_numpy_of_a_read_only_array: "NUMPY_NOT_WRITABLE",
    tensor_of_a_list_of_numpy_arrays: "LIST_OF_ARRAYS",
    asarray_of_a_tensor_that_requires_grad: "ASARRAY_REQUIRES_GRAD",
    index_with_a_list_holding_a_slice: "NON_TUPLE_SEQUENCE_INDEX",
    index_with_a_list_holding_none: "NON_TUPLE_SEQUENCE_INDEX",
    index_with_a_uint8_mask: "UINT8_INDEX",
    index_put_into_an_expanded_tensor: "INDEX_PUT_EXPANDED",
    mask_assignment_into_an_expanded_tensor: "MASKED_FILL_EXPANDED",
    sparse_coo_tensor_without_check_invariants: "SPARSE_INVARIANTS_WARNING",
    to_sparse_csr_of_a_matrix: "SPARSE_CSR_BETA",
    non_leaf_grad: "NON_LEAF_GRAD",
    instantiating_a_custom_function: "FUNCTION_INSTANTIATED",
    copy_of_a_tensor_with_a_hook: "HOOK_NOT_SERIALIZED",
    save_of_a_tensor_with_a_hook: "HOOK_NOT_SERIALIZED",
    optimizer_given_one_parameter_twice: "OPTIMIZER_DUPLICATE_PARAMS",
    state_dict_with_positional_arguments: "STATE_DICT_POSITIONAL",
    always_call_hook_after_a_failed_forward: "MODULE_ALWAYS_CALL_HOOK_RAISED",
    load_state_dict_into_a_meta_parameter: "LOAD_STATE_DICT_INTO_META",
    float_of_a_tensor_that_requires_grad: "SCALAR_OF_REQUIRES_GRAD",
    load_of_a_protocol_3_file: "LOAD_PROTOCOL",
    add_with_the_deprecated_argument_order: "ALPHA_FIRST_DEPRECATED",
    size_of_a_loaded_storage: "TYPED_STORAGE_DEPRECATED",
}


def _record(library):
    """Run every program on ``library``; print what each warned, and where, as JSON."""
    m = importlib.import_module(library)
    records = {}
    for program in PROGRAMS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                program(m)
                raised = None
            except Exception as error:  # noqa: BLE001 - recorded and compared with torch
                raised = type(error).__name__
        records[program.__name__] = {
            "raised": raised,
            "warnings": [
                {"category": w.category.__name__, "message": str(w.message),
                 "filename": os.path.abspath(w.filename), "lineno": w.lineno}
                for w in caught
            ],
        }
    print(json.dumps(records))


@pytest.fixture(scope="module")
def recorded():
    def run(library):
        done = subprocess.run([sys.executable, HERE, library], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    return run("torch"), run("reftorch")


def _package_directory(library):
    return os.path.dirname(os.path.abspath(importlib.util.find_spec(library).origin)) + os.sep


@pytest.mark.parametrize("program", [p.__name__ for p in PROGRAMS])
def test_a_warning_names_the_line_torch_names(program, recorded):
    if "numpy" in program and importlib.util.find_spec("numpy") is None:
        pytest.skip("numpy is not installed: the numpy bridge (reftorch's optional numpy extra) is not tested")
    by_torch, by_reftorch = (r[program] for r in recorded)
    assert by_torch["warnings"], f"{program}: torch gives no warning; the program no longer tests a warning"
    assert by_reftorch["raised"] == by_torch["raised"]
    assert [(w["category"], w["message"][:30]) for w in by_reftorch["warnings"]] == \
        [(w["category"], w["message"][:30]) for w in by_torch["warnings"]]
    for theirs, ours in zip(by_torch["warnings"], by_reftorch["warnings"]):
        if theirs["filename"] == HERE:
            assert (ours["filename"], ours["lineno"]) == (HERE, theirs["lineno"]), (
                f"{program}: torch names the learner's line {theirs['lineno']}, reftorch names "
                f"{ours['filename']}:{ours['lineno']}: the warning stops inside reftorch, not at the caller")
        else:  # torch warns from its own Python code, and names a line in it
            assert theirs["filename"].startswith(_package_directory("torch"))
            assert ours["filename"].startswith(_package_directory("reftorch")), (
                f"{program}: torch names a line of its own code, reftorch names {ours['filename']}")


def _warning_sites():
    """``(module, line, message name)`` for every call in reftorch that warns with a text of
    _messages or _core_messages."""
    import reftorch

    package = Path(reftorch.__file__).parent
    sites = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called not in ("warn", "warn_once"):
                continue
            text = node.args[0]
            if isinstance(text, ast.Call) and isinstance(text.func, ast.Attribute):  # _messages.X.format(...)
                text = text.func.value
            if isinstance(text, ast.Attribute) and getattr(text.value, "id", "") in ("_messages", "_core_messages"):
                sites.add((str(path.relative_to(package)), node.lineno, text.attr))
    return sites


def test_every_warning_reftorch_gives_is_replayed_against_torch():
    sites = _warning_sites()
    assert len(sites) >= 16, "the scan finds fewer warning sites than reftorch has"
    missing = {site for site in sites if site[2] not in PROGRAMS.values()}
    assert not missing, f"warnings with no program comparing their location with torch's: {sorted(missing)}"


if __name__ == "__main__":
    _record(sys.argv[1])
