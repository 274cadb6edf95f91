"""The chapters the course's fixtures execute are git's copies, so a learner's clone need not run them again.

tests/course/conftest.py executes every chapter once per test session. A learner who
runs the chapters and saves them in place changes the files on disk, not the copies
git holds (tests/support/stored.py). So the fixtures that execute chapters run the same
notebooks in a learner's clone as in this checkout, and the learner's clone
(test_learning_keeps_tests_green.py) leaves out the tests that take them (marked
``runs_chapters``). These tests read conftest.py's source and hold it to that: a
fixture executes only notebooks it got through ``stored_notebook``, and every fixture
that executes a notebook is one of CHAPTER_RUNS, the fixtures the marker is for.
"""

from __future__ import annotations

import ast
from pathlib import Path

CONFTEST = Path(__file__).resolve().parent / "conftest.py"
# what starts a kernel on a notebook (coursebook.execution, nbclient, nbconvert)
EXECUTES = {"execute_all", "execute_notebook", "NotebookClient", "ExecutePreprocessor"}
# what reads a file's bytes; a fixture that executes reads only through stored_notebook
READS = {"open", "read", "reads", "read_text", "read_bytes", "load", "loads"}


def _name(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")


def _calls(node) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _is_fixture(function: ast.FunctionDef) -> bool:
    return any("fixture" in ast.unparse(d) for d in function.decorator_list)


def _module():
    return ast.parse(CONFTEST.read_text(encoding="utf-8"))


def _executing_fixtures(module) -> dict[str, ast.FunctionDef]:
    return {f.name: f for f in module.body if isinstance(f, ast.FunctionDef) and _is_fixture(f)
            and any(_name(c) in EXECUTES for c in _calls(f))}


def _chapter_runs(module) -> set[str]:
    for node in module.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "CHAPTER_RUNS" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("tests/course/conftest.py names no CHAPTER_RUNS")


def _from_git(expression) -> bool:
    """``stored_notebook`` itself, or an expression that calls it (``filled(stored_notebook(path))``)."""
    if isinstance(expression, ast.Name):
        return expression.id == "stored_notebook"
    return expression is not None and any(_name(c) == "stored_notebook" for c in _calls(expression))


def _problems(function: ast.FunctionDef) -> list[str]:
    """Why ``function`` may execute a notebook that is not git's copy ([] if it cannot)."""
    problems = []
    bound = {}  # name -> the expressions assigned to it in the fixture
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value)
    for call in _calls(function):
        name = _name(call)
        if name in READS:
            problems.append(f"reads a file itself: {ast.unparse(call)}")
        elif name in ("execute_all", "execute_notebook"):
            if not _from_git({k.arg: k.value for k in call.keywords}.get("read")):
                problems.append(f"executes without a read= of stored_notebook: {ast.unparse(call)}")
        elif name in ("NotebookClient", "ExecutePreprocessor"):
            notebook = call.args[0] if call.args else {k.arg: k.value for k in call.keywords}.get("nb")
            sources = bound.get(notebook.id, []) if isinstance(notebook, ast.Name) else []
            if not sources or not all(_from_git(source) for source in sources):
                problems.append(f"executes a notebook not made from stored_notebook(...): {ast.unparse(call)}")
    return problems


def test_the_fixtures_that_execute_chapters_are_the_ones_the_learners_clone_leaves_out():
    module = _module()
    executing, marked = set(_executing_fixtures(module)), _chapter_runs(module)
    assert executing == marked, (
        f"fixtures that execute notebooks: {sorted(executing)}; CHAPTER_RUNS: {sorted(marked)}. A fixture that "
        "executes must be in CHAPTER_RUNS (and read git's copies), or the learner's clone runs its tests again")


def test_every_fixture_that_executes_chapters_runs_gits_copy():
    imported = {alias.name for node in _module().body if isinstance(node, ast.ImportFrom) and node.module == "stored"
                for alias in node.names}
    assert "stored_notebook" in imported, "conftest.py must take stored_notebook from tests/support/stored.py"
    problems = {name: found for name, function in _executing_fixtures(_module()).items()
                if (found := _problems(function))}
    assert not problems, ("a learner's saved chapter would change what these fixtures run, and the learner's "
                          f"clone no longer runs their tests: {problems}")


def test_the_check_sees_a_fixture_that_runs_the_file_on_disk():
    """Each fixture with nbformat.read where it has stored_notebook is caught (the check above can fail)."""
    module = _module()
    executing = _executing_fixtures(module)
    for name, function in executing.items():
        broken = ast.parse(ast.unparse(function).replace("stored_notebook", "nbformat.read")).body[0]
        assert _problems(broken), f"{name}: reading the file on disk went unnoticed"
