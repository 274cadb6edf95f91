"""In a witness kernel, the pieces an assignment asks for exist only as stubs (``autograder.witness.stubs``).

One course, one grading run with real nbgrader and sandboxed warm witness kernels, per judged
assignment: a student who calls reftorch's own pieces by names built at run time (which the
static rule cannot see); and a probe (``witness_probe``) that looks for the reference in the
kernel's memory and in every file it can open. The honest student is the graded bank's
reference student (``conftest.graded_class``): the same notebook (the release with the
instructor's solutions), graded by the same witness kernels, once per session.
"""

import ast
import compileall
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

from graded_bank import make_course, outcome, reference_student, submit, student_notebook
from witness_probe import probe_cell, report

import nbformat
from autograder.grade import autograde_all
from autograder.judge import JUDGED_ASSIGNMENTS
from autograder.witness import stubs
from reftorch import overrides

# Each piece: how a student calls it, and the arguments to call it with directly (witness_stub_calls.toml).
with open(Path(__file__).with_name("witness_stub_calls.toml"), "rb") as _f:
    CALLS = {name: (row["call"], row["args"]) for name, row in tomllib.load(_f).items()}

# Each solution cell of a student who calls reftorch's own piece by a name built at run time.
DYNAMIC = {
    "clone": {"clone-solution": "def my_clone(self, *, memory_format=torch.preserve_format):\n"
                                "    return getattr(self, 'cl' + 'one')(memory_format=memory_format)\n"},
    "detach": {"detach-solution": "def my_detach(self):\n    return getattr(self, 'de' + 'tach')()\n",
               "detach-clone-solution": "def my_detach_clone(self):\n"
                                        "    with torch.no_grad():\n"
                                        "        return getattr(self, 'cl' + 'one')()\n",
               "data-solution": "def my_data(self):\n    return getattr(self, 'da' + 'ta')\n"},
    "python_copy": {"copy-solution": "def my_copy(self):\n    return getattr(copy, 'co' + 'py')(self)\n",
                    "deepcopy-solution": "def my_deepcopy(self, memo):\n"
                                         "    return getattr(torch._python_copy, '__deep' + 'copy__')(self, memo)\n"},
    "copy_into": {"copy-solution": "def my_copy_(self, src):\n    return getattr(self, 'co' + 'py_')(src)\n"},
    "new_tensor": {"new-tensor-solution": "def copy_as(data, dtype, device, requires_grad):\n"
                                          "    return getattr(torch, 'ten' + 'sor')(data, dtype=dtype, device=device,"
                                          " requires_grad=requires_grad)\n\n\n"
                                          "def my_new_tensor(self, data, *, dtype=None, device=None,"
                                          " requires_grad=False):\n"
                                          "    return getattr(self, 'new_' + 'tensor')(data, dtype=dtype, device=device,"
                                          " requires_grad=requires_grad)\n",
                   "tensor-solution": "def my_tensor(data, *, dtype=None, device=None, requires_grad=False):\n"
                                      "    return getattr(torch, 'ten' + 'sor')(data, dtype=dtype, device=device,"
                                      " requires_grad=requires_grad)\n"},
}
DYNAMIC["numpy_bridge"] = {
    "nb-from-numpy-solution": "def my_from_numpy(array):\n    return getattr(torch, 'from_' + 'numpy')(array)\n",
    "nb-as-tensor-solution": "def my_as_tensor(data, dtype=None, device=None):\n"
                             "    return getattr(torch, 'as_' + 'tensor')(data, dtype=dtype, device=device)\n",
    "nb-numpy-solution": "def my_numpy(t, force=False):\n    return getattr(t, 'nu' + 'mpy')(force=force)\n"}
DYNAMIC["strides_and_views"] = {
    "sv-views-solution": "def my_slice(t, dim, start, stop, step):\n"
                         "    return getattr(t, '__get' + 'item__')((slice(None),) * dim + (slice(start, stop, step),))\n"
                         "\n\n"
                         "def my_transpose(t, dim0, dim1):\n    return getattr(t, 'trans' + 'pose')(dim0, dim1)\n\n\n"
                         "def my_expand(t, *sizes):\n    return getattr(t, 'ex' + 'pand')(*sizes)\n"}
# the tests that call none of the assignment's pieces (the dynamic student's other cells are honest)
NOT_CALLED = {"clone": {"clone-layout"}, "strides_and_views": {"sv-strides", "sv-positions"}}
SOLUTION_CELL = {"clone": "clone-solution", "detach": "data-solution", "python_copy": "deepcopy-solution",
                 "copy_into": "copy-solution", "new_tensor": "tensor-solution",
                 "numpy_bridge": "nb-numpy-solution", "strides_and_views": "sv-views-solution"}


def _pieces(assignment):
    return [(module, name, *CALLS[name]) for module, pieces in stubs.PIECES[assignment].items()
            for name, _ in pieces]


@pytest.fixture(scope="module")
def graded(tmp_path_factory, needs_sandbox, grading_cluster):
    config = make_course(tmp_path_factory.mktemp("witness-stubs"), list(stubs.PIECES))
    students = {}
    for assignment in stubs.PIECES:
        honest = student_notebook(config, assignment)
        solution = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in honest.cells}
        cell = SOLUTION_CELL[assignment]
        entries = {"dynamic": DYNAMIC[assignment],
                   "probe": {cell: solution[cell] + "\n\n" + probe_cell(_pieces(assignment))}}
        for kind, cells in entries.items():
            submit(config, kind, assignment, student_notebook(config, assignment, cells))
        students[assignment] = list(entries)
    runs = autograde_all(config, list(stubs.PIECES), students, workers=2, warm=True, progress=False,
                         scheduler=grading_cluster)
    assert not any(run.failed for run in runs.values()), {a: r.failed for a, r in runs.items()}
    return config


def _probed(config, assignment):
    root = config.CourseDirectory.root
    nb = nbformat.read(f"{root}/autograder/state/autograded/probe/{assignment}/{assignment}.ipynb", as_version=4)
    found = report(nb)
    assert found is not None, "the probe printed nothing"
    return found


def test_every_judged_assignment_says_which_pieces_are_its_students():
    assert set(JUDGED_ASSIGNMENTS) <= set(stubs.PIECES) | set(stubs.NOT_STUBBED)
    assert not set(stubs.PIECES) & set(stubs.NOT_STUBBED)
    for assignment in stubs.PIECES:
        for module, name, *_ in _pieces(assignment):
            fn = getattr(importlib.import_module(module), name)
            assert overrides.is_overridable(fn), f"{module}.{name}: not one of reftorch's marked pieces"


def test_a_stub_keeps_the_signature_and_docstring_and_raises_what_it_is():
    source = 'def f(a, *, b=1):\n    """Doc."""\n    x = a\n    return x\n\n\ndef g():\n    return 2\n'
    stubbed = stubs.stub_source(source, (("f", "f()"),))
    assert stubbed.startswith('def f(a, *, b=1):\n    """Doc."""\n    raise NotImplementedError(')
    assert stubbed.endswith("\n\n\ndef g():\n    return 2\n") and "x = a" not in stubbed
    namespace = {}
    exec(compile(stubbed, "<stub>", "exec"), namespace)
    with pytest.raises(NotImplementedError, match="f\\(\\) is yours to build"):
        namespace["f"](1)
    with pytest.raises(LookupError):
        stubs.stub_source(source, (("h", "h()"),))


@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_the_copy_is_reftorch_with_only_the_pieces_replaced(assignment):
    folder = stubs.build(assignment)
    for module, pieces in stubs.PIECES[assignment].items():
        path = f"{folder}/{module.replace('.', '/')}.py"
        with open(path, encoding="utf-8") as f:
            copied = ast.parse(f.read())
        with open(importlib.import_module(module).__file__, encoding="utf-8") as f:
            real = ast.parse(f.read())
        names = {name for name, _ in pieces}
        changed = {a.name for a, b in zip(real.body, copied.body) if ast.dump(a) != ast.dump(b)}
        assert len(real.body) == len(copied.body) and changed == names


@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_the_honest_solution_scores_full_marks(graded_class, assignment):
    results, _ = outcome(graded_class, reference_student(assignment), assignment)
    assert results and all(score == most > 0 for score, most, _ in results.values()), results


@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_calling_reftorchs_own_piece_by_a_computed_name_meets_the_stub(graded, assignment):
    results, _ = outcome(graded, "dynamic", assignment)
    called = {test: r for test, r in results.items() if test not in NOT_CALLED.get(assignment, ())}
    assert called and all(score == 0 for score, _, _ in called.values()), results
    assert all("is yours to build in this exercise" in errors for _, _, errors in called.values()), results


@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_no_piece_can_be_called(graded, assignment):
    found = _probed(graded, assignment)
    for how in ("calls", "original"):
        for piece, (raised, message) in found[how].items():
            assert raised == "NotImplementedError" and "is yours to build" in message, (how, piece, message)
    assert found["loaded"] and all(r[0] == "NotImplementedError" for r in found["loaded"].values()), found["loaded"]


@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_no_piece_can_be_read(graded, assignment):
    found = _probed(graded, assignment)
    copies = os.path.join(os.path.realpath(tempfile.gettempdir()), "autograder-reftorch-" + assignment)
    assert found["reftorch"].startswith(copies), found["reftorch"]
    for piece, source in found["source"].items():
        assert "raise NotImplementedError" in source, (piece, source)
    assert found["files"] == []


@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_no_piece_is_in_memory(graded, assignment):
    assert _probed(graded, assignment)["memory"] == []


@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_the_probe_finds_the_reference_where_it_is(assignment, capsys, tmp_path):
    """Run in this process, where reftorch is the real one, the probe finds every piece, in memory,
    in the source and in a compiled copy."""
    import reftorch

    compiled = tmp_path / "reftorch"
    shutil.copytree(os.path.dirname(reftorch.__file__), compiled, ignore=shutil.ignore_patterns("__pycache__"))
    compileall.compile_dir(str(compiled), quiet=2)
    exec(compile(probe_cell(_pieces(assignment), [str(compiled)]), "<probe>", "exec"), {"torch": reftorch})
    found = report(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[
        nbformat.v4.new_output("stream", name="stdout", text=capsys.readouterr().out)])]))
    pieces = {f"{module}.{name}" for module, name, *_ in _pieces(assignment)}
    assert all(r[0] == "returned" for r in list(found["calls"].values()) + list(found["original"].values()))
    assert {q for q, _ in found["memory"]} == pieces
    assert {q for _, q, how in found["files"] if how == "source"} == pieces
    assert {q for path, q, how in found["files"] if how == "bytecode" and path.startswith(str(compiled))} == pieces


@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandboxed", "unsandboxed"])
@pytest.mark.parametrize("assignment", sorted(stubs.PIECES))
def test_the_self_check_meets_the_same_stubs(graded, assignment, sandboxed, tmp_path):
    """The self-check's kernel imports the same copy, sandboxed or not: the honest notebook passes
    every test, the computed-name call fails the same tests as in the grader, with the stub's message."""
    from autograder.learner.learner_check import check

    root = graded.CourseDirectory.root
    zeroed = {test for test, (score, _, _) in outcome(graded, "dynamic", assignment)[0].items() if score == 0}
    for student in ("honest", "dynamic"):
        path = tmp_path / student / f"{assignment}.ipynb"
        path.parent.mkdir()
        nbformat.write(student_notebook(graded, assignment, None if student == "honest" else DYNAMIC[assignment]),
                       str(path))
        result = check(str(path), root=root, sandboxed=sandboxed)
        failed = {t.grade_id: t.message for t in result.tests if not t.passed}
        assert not result.problems, result.format()
        if student == "honest":
            assert result.tests and not failed, result.format()
        else:
            assert set(failed) == zeroed, result.format()
            assert all("is yours to build in this exercise" in message for message in failed.values()), failed


HOLD = ("import fcntl, os, sys, time\n"
        "fd = os.open(sys.argv[1], os.O_CREAT | os.O_RDONLY)\n"
        "fcntl.flock(fd, fcntl.LOCK_SH)\n"
        "print('held', flush=True)\n"
        "time.sleep(600)\n")


def test_a_copy_left_by_a_killed_grader_is_swept_and_one_in_use_is_kept():
    """A grader killed before its exit handlers leaves its copy; the next copy made removes it,
    not one whose maker (or a process it forked) still runs."""
    made = [tempfile.mkdtemp(prefix=stubs.PREFIX + "sweep-") for _ in range(2)]
    holders = [subprocess.Popen([sys.executable, "-c", HOLD, os.path.join(folder, stubs.IN_USE)],
                                stdout=subprocess.PIPE) for folder in made]
    try:
        assert [h.stdout.readline() for h in holders] == [b"held\n"] * 2
        holders[0].kill()
        holders[0].wait()
        stubs._sweep()
        assert not os.path.exists(made[0]) and os.path.isfile(os.path.join(made[1], stubs.IN_USE))
    finally:
        for holder in holders:
            holder.kill()
            holder.wait()
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)
