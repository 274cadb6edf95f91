"""reftorch must stay a textbook: a learner can find the core and read it.

The package docstring (``src/reftorch/__init__.py``) names the core reading
path, module by module and in order, and groups every other module by
subject. These tests keep that map true and the modules readable: every
module has a docstring, no function imports inside itself, torch's long
texts stay in ``_messages`` and ``_core_messages``, and ``Tensor`` holds no
autograd algorithm. How much a reader of the core has to read is measured by
``test_import_closure.py`` (the core and everything it imports, at most
2,000 lines), not by a quota per module: a module is as long as its idea.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import reftorch

PACKAGE = Path(reftorch.__file__).parent
README = PACKAGE.parents[1] / "README.md"
DOC = reftorch.__doc__

LONG_TEXT = 60  # characters of a string literal that belong in _messages instead

# Function-level imports allowed, as (module, function): reason. Each must be a
# real import cycle that a module-level import (``from . import x``) cannot break,
# or numpy, which is optional: imported where a numpy dtype is asked for, never by
# ``import reftorch``; or the sparse layouts, imported by the first sparse tensor.
NUMPY_IS_OPTIONAL = "numpy is an optional extra: imported only when a numpy type is asked for"
SPARSE_IS_OPTIONAL = "the sparse layouts are optional: reftorch.sparse is imported by the first sparse tensor"
FUNCTION_IMPORTS: dict[tuple[str, str], str] = {
    ("_dtype", "_numpy_type"): NUMPY_IS_OPTIONAL,
    ("_dtype", "from_numpy_dtype"): NUMPY_IS_OPTIONAL,
    ("_convert", "array_storage"): NUMPY_IS_OPTIONAL,
    ("_convert", "array_on"): NUMPY_IS_OPTIONAL,
    ("__init__", "sparse_coo_tensor"): SPARSE_IS_OPTIONAL,
    ("__init__", "_sparse_method"): SPARSE_IS_OPTIONAL,
    ("__init__", "method"): SPARSE_IS_OPTIONAL,
}
# Modules that may hold long string literals: the texts and the printing rules.
TEXT_MODULES = {"_messages", "_core_messages", "_tensor_str"}


def _name(path: Path) -> str:
    """``autograd/graph`` for src/reftorch/autograd/graph.py; ``nn`` for nn/__init__.py."""
    relative = path.relative_to(PACKAGE).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return "/".join(parts) or "__init__"


MODULES = {_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _section(title: str) -> str:
    """The text of one docstring section (from its underlined title to the next one)."""
    match = re.search(rf"^{re.escape(title)}\n-+\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)", DOC, re.M | re.S)
    assert match, f"the package docstring has no section {title!r}"
    return match.group(1)


def _core() -> list[str]:
    return re.findall(r"^\d+\. ``([\w/]+)``", _section("The core reading path"), re.M)


def _beyond_the_core() -> list[str]:
    return re.findall(r"``([\w/]+)``", _section("Beyond the core"))


def test_the_docstring_names_the_core_in_reading_order():
    core = _core()
    assert core[:4] == ["_storage", "_strides", "_tensor", "_version_counter"], core
    assert {"_clone", "_detach", "_copy_", "_to", "_creation", "_python_copy"} <= set(core)
    assert any(name.startswith("autograd/") for name in core)
    assert len(core) == len(set(core))


def test_every_module_the_docstring_names_exists():
    named = _core() + _beyond_the_core()
    missing = [name for name in named if name not in MODULES]
    assert not missing, f"the package docstring names modules that do not exist: {missing}"


def test_every_module_is_named_in_the_docstring():
    named = set(_core()) | set(_beyond_the_core())
    packages = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    unnamed = sorted(set(MODULES) - named - packages)
    assert not unnamed, f"modules missing from the package docstring's map: {unnamed}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_has_a_docstring(name):
    docstring = ast.get_docstring(ast.parse(MODULES[name].read_text()))
    assert docstring and len(docstring.split()) >= 5, f"{name} has no docstring"


def _function_imports(tree):
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    yield function.name, node.lineno


def test_no_import_inside_a_function_unless_listed_with_its_reason():
    found = {}
    for name, path in MODULES.items():
        for function, line in _function_imports(ast.parse(path.read_text())):
            found[(name, function)] = line
    unlisted = {key: line for key, line in found.items() if key not in FUNCTION_IMPORTS}
    assert not unlisted, f"imports inside functions (line numbers): {unlisted}"
    stale = [key for key in FUNCTION_IMPORTS if key not in found]
    assert not stale, f"FUNCTION_IMPORTS lists imports that are gone: {stale}"


def _string_literals(tree):
    """Each string literal's text (an f-string's fields shown as ``{}``), docstrings left out."""
    docstrings, parts = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
        if isinstance(node, ast.JoinedStr):
            parts.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings and id(node) not in parts:
                yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def test_torchs_long_texts_live_in_messages():
    long_texts = []
    for name, path in MODULES.items():
        if name in TEXT_MODULES:
            continue
        for line, text in _string_literals(ast.parse(path.read_text())):
            if len(text) > LONG_TEXT:
                long_texts.append(f"{name}:{line}: {text[:50]!r}...")
    assert not long_texts, "move these texts to _messages:\n" + "\n".join(long_texts)


# The one module allowed to look at the call stack, and why.
STACK_READERS = {
    "_warn": "a warning names the learner's line: the first frame outside reftorch, as torch's warnings do",
}


def test_no_module_inspects_its_callers():
    for name, path in MODULES.items():
        if name in STACK_READERS:
            continue
        text = path.read_text()
        assert "_getframe" not in text and "currentframe" not in text, f"{name} inspects the call stack"


def test_tensor_holds_fields_and_metadata_only():
    tree = ast.parse(MODULES["_tensor"].read_text())
    (tensor,) = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Tensor"]
    defined = {node.name for node in tensor.body if isinstance(node, ast.FunctionDef)}
    autograd = {"grad_fn", "requires_grad", "is_leaf", "retain_grad", "backward", "_grad_accumulator",
                "_accumulate_grad", "register_hook"}
    assert not defined & autograd, f"autograd rules belong in autograd/: {sorted(defined & autograd)}"
    for node in ast.walk(tensor):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            raise AssertionError(f"Tensor imports inside a method (line {node.lineno})")
    # no property creates anything: a getter only reads fields
    for function in tensor.body:
        if isinstance(function, ast.FunctionDef) and any(
            isinstance(d, ast.Name) and d.id == "property" for d in function.decorator_list
        ):
            assigned = [n for n in ast.walk(function) if isinstance(n, (ast.Assign, ast.AugAssign))]
            assert not assigned, f"the getter Tensor.{function.name} assigns (line {assigned[0].lineno})"


def _readme_table_modules():
    """The modules the README's "Reading reftorch" tables name (``nn/`` stands for its modules)."""
    text = README.read_text()
    section = text.split("### Reading reftorch", 1)[1].split("\nKnown limits", 1)[0]
    rows = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    files = set(re.findall(r"`([\w/]+)\.py`", rows))
    packages = set(re.findall(r"`(\w+)/`", rows))
    return files, packages


def test_the_readme_tables_name_modules_that_exist():
    files, packages = _readme_table_modules()
    assert files, "the README's Reading reftorch tables name no module"
    missing = sorted(n for n in files | packages if n not in MODULES)
    assert not missing, f"README's Reading reftorch tables name missing modules: {missing}"


def test_the_readme_tables_cover_every_module():
    files, packages = _readme_table_modules()
    covered = files | {name for name in MODULES if name.split("/")[0] in packages}
    uncovered = sorted(n for n in MODULES if n not in covered and MODULES[n].name != "__init__.py")
    assert not uncovered, f"README's Reading reftorch tables leave out: {uncovered}"
