"""The code a learner reads in a chapter is the code in src/reftorch.

Chapters show reftorch with ``coursebook.show_source``; each such output
carries the object's qualified name.  On the executed notebooks we check that
the text shown is, byte for byte, ``inspect.getsource`` of that object now,
and that no code cell defines a function or class that reftorch defines
(which would be a second, possibly diverging, copy).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil

import pytest

import reftorch
from course_paths import CHAPTERS, NOTEBOOKS

# chapters that only use reftorch: the index, the memory-diagram primer, the
# myths, the decision guide and the error page; every other chapter builds a piece
USING_ONLY = {"00", "01", "21", "22", "23"}
BUILDING_CHAPTERS = [p for p in CHAPTERS if p.name[:2] not in USING_ONLY]


def _shown(nb):
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("coursebook")
            if meta:
                yield index, meta["object"], output["data"]["text/plain"]


@functools.cache
def _reftorch_definitions() -> frozenset[str]:
    names = set()
    for info in pkgutil.walk_packages(reftorch.__path__, "reftorch."):
        tree = ast.parse(inspect.getsource(importlib.import_module(info.name)))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("__"):
                names.add(node.name)
    return frozenset(names)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_shown_source_is_the_package_source(executed_notebooks, path):
    for index, name, text in _shown(executed_notebooks[path].notebook):
        current = inspect.getsource(pkgutil.resolve_name(name))
        header, _, body = text.partition("\n")
        assert body == current, f"{path.name} cell {index}: the source shown for {name} is not the package's"


@pytest.mark.parametrize("path", BUILDING_CHAPTERS, ids=lambda p: p.name)
def test_chapter_builds_reftorch_in_the_open(executed_notebooks, path):
    shown = list(_shown(executed_notebooks[path].notebook))
    assert shown, f"{path.name} shows no reftorch source with show_source()"


def _extension_methods(tree) -> list:
    """``forward`` and ``backward`` of a class that subclasses ``autograd.Function``: torch's
    extension point, which a chapter must write to use it (chapter 20), not reftorch retyped."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("autograd.Function") for b in node.bases):
            found += [f for f in node.body if isinstance(f, ast.FunctionDef) and f.name in ("forward", "backward")]
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_cell_retypes_reftorch(executed_notebooks, path):
    defined_by_reftorch = _reftorch_definitions()
    for index, cell in enumerate(executed_notebooks[path].notebook.cells):
        if cell.cell_type != "code":
            continue
        source = "\n".join(l for l in cell.source.splitlines() if not l.lstrip().startswith(("%", "!")))
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node not in _extension_methods(tree):
                assert node.name not in defined_by_reftorch, (
                    f"{path.name} cell {index} defines {node.name!r}, which reftorch defines: "
                    "show the package's version with show_source() instead of retyping it"
                )
