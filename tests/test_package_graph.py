"""The package graph, across src/ and autograder/: who may import whom, and no circle anywhere.

Every ``import`` and ``from ... import`` statement is read with ``ast``, at
module level and inside functions and classes (a function-level import is an
edge too: it runs as soon as the function does), plus
``importlib.import_module("a.literal.name")``. An edge goes to the module
named, or to a package's ``__init__`` when a name is taken from it (as
``tests/reftorch/test_import_closure.py`` counts). Imports of other
distributions (torch, numpy, nbgrader ...) are not edges.

Importing ``a.b.c`` runs ``a``'s and ``a.b``'s ``__init__`` first, so an
import is also an edge to each package above the module named, except the
packages the importer is in itself: Python began those before the importer
(``reftorch._copy_`` importing ``reftorch.autograd.graph`` is an edge to
``reftorch.autograd`` too, not to ``reftorch``). So a distribution's facade
(``reftorch/__init__``, which re-exports everything) is never an edge from
inside it, and is one from another distribution. grimp, under import-linter,
records only the module named (``docs/decisions``, "a package's __init__ runs
before its modules").

The rules:

* reftorch imports nothing of ours: it is the textbook, read on its own;
* coursebook, memdiagram and crosscheck (the learner's side) never import autograder;
* warmkernels (the one provisioner of warm kernels, used by both sides) imports nothing of ours;
* no circle between modules, and none between two sibling sub-packages
  (``autograder.kernels`` and ``autograder.pipeline``): a circle means neither
  side can be read, tested or moved without the other.

Circles that this test found and that live in code owned elsewhere this
session are listed in ``ALLOWED`` with the edges that make them; the test
prints them, and fails when one is gone (so the list only shrinks).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ROOTS = {
    "reftorch": REPO / "src" / "reftorch",
    "coursebook": REPO / "src" / "coursebook",
    "memdiagram": REPO / "src" / "memdiagram",
    "crosscheck": REPO / "src" / "crosscheck",
    "warmkernels": REPO / "src" / "warmkernels",
    "autograder": REPO / "autograder",
}
LEARNER_SIDE = ("coursebook", "memdiagram", "crosscheck")

# frozenset of the circle's modules (or sub-packages) -> why it is still there and what breaks it
ALLOWED = {}


def module_names(roots: dict[str, Path]) -> dict[str, Path]:
    """``reftorch.autograd.graph`` -> its file; a package is named by its folder."""
    names = {}
    for top, folder in roots.items():
        for path in sorted(folder.rglob("*.py")):
            relative = path.relative_to(folder).with_suffix("")
            parts = (top,) + (relative.parts[:-1] if relative.name == "__init__" else relative.parts)
            names[".".join(parts)] = path
    return names


def _deepest(dotted: str, modules) -> str | None:
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return None


def imports_of(name: str, modules: dict[str, Path]) -> dict[str, int]:
    """``{module imported: line}`` for every import anywhere in ``name``'s text."""
    path = modules[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [_deepest(alias.name, modules) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in modules else base if base in modules else None)
        elif (isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "import_module")
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            targets = [_deepest(node.args[0].value, modules)]
        for target in targets:
            if target and target != name:
                found.setdefault(target, node.lineno)
                for parent in parents_run_first(target, name, modules):
                    found.setdefault(parent, node.lineno)
    return found


def parents_run_first(target: str, importer: str, modules) -> list[str]:
    """The packages whose ``__init__`` Python runs before ``target`` when ``importer`` imports it:
    ``target``'s parents, less those ``importer`` is in (they began before ``importer`` did)."""
    parts = target.split(".")
    started = importer.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))
            if parts[:end] != started[:end] and ".".join(parts[:end]) in modules]


def graph(roots: dict[str, Path]) -> dict[str, dict[str, int]]:
    modules = module_names(roots)
    return {name: imports_of(name, modules) for name in modules}


def circles(edges: dict[str, dict[str, int]]) -> list[frozenset]:
    """The strongly connected parts of more than one node (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in edges), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.add(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(frozenset(part))
    return found


def package_of(module: str, modules_that_are_packages: set[str]) -> str:
    return module if module in modules_that_are_packages else module.rpartition(".")[0]


def sibling_package_edges(edges, packages: set[str]) -> dict[str, dict[str, int]]:
    """Edges between packages neither of which contains the other (``coursebook`` and
    ``memdiagram``, ``autograder.kernels`` and ``autograder.pipeline``): a package may use its own
    sub-packages and they its modules, but two packages side by side depend one way."""
    result: dict[str, dict[str, int]] = {}
    for source, targets in edges.items():
        for target, line in targets.items():
            a, b = package_of(source, packages), package_of(target, packages)
            if a != b and not a.startswith(b + ".") and not b.startswith(a + "."):
                result.setdefault(a, {}).setdefault(b, line)
    return result


def describe(part, edges) -> str:
    inside = [f"    {a} -> {b} (line {edges[a][b]})" for a in sorted(part) for b in sorted(edges.get(a, {}))
              if b in part]
    return "\n".join([" <-> ".join(sorted(part))] + inside)


EDGES = graph(ROOTS)
PACKAGES = {name for name, path in module_names(ROOTS).items() if path.name == "__init__.py"}


def test_reftorch_imports_nothing_of_ours():
    wrong = [f"{a} -> {b} (line {line})" for a, targets in EDGES.items() if a.split(".")[0] == "reftorch"
             for b, line in targets.items() if b.split(".")[0] != "reftorch"]
    assert not wrong, "reftorch is read on its own; it imports:\n" + "\n".join(wrong)


def test_the_warm_kernel_provisioner_imports_nothing_of_ours():
    wrong = [f"{a} -> {b} (line {line})" for a, targets in EDGES.items() if a.split(".")[0] == "warmkernels"
             for b, line in targets.items() if b.split(".")[0] != "warmkernels"]
    assert not wrong, "warmkernels is shared by the course and the grader; it imports:\n" + "\n".join(wrong)


def test_the_learners_side_never_imports_the_grader():
    wrong = [f"{a} -> {b} (line {line})" for a, targets in EDGES.items() if a.split(".")[0] in LEARNER_SIDE
             for b, line in targets.items() if b.split(".")[0] == "autograder"]
    assert not wrong, "coursebook, memdiagram and crosscheck never import autograder:\n" + "\n".join(wrong)


def test_no_import_circle_between_modules_or_sibling_packages():
    found = circles(EDGES) + circles(sibling_package_edges(EDGES, PACKAGES))
    package_edges = sibling_package_edges(EDGES, PACKAGES)
    for part in found:
        if part in ALLOWED:
            print(f"\nallowed for now: {' <-> '.join(sorted(part))}\n  {ALLOWED[part]}")
    new = [describe(p, EDGES if all(m in EDGES for m in p) else package_edges) for p in found if p not in ALLOWED]
    assert not new, "import circles:\n" + "\n".join(new)
    gone = [" <-> ".join(sorted(p)) for p in ALLOWED if p not in found]
    assert not gone, f"these allowed circles are gone: remove them from ALLOWED: {gone}"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_the_measure_finds_a_circle_made_by_an_import_inside_a_function(tmp_path):
    root = tmp_path / "scratch"
    _write(root / "__init__.py", "")
    _write(root / "a.py", "from .b import thing\n")
    _write(root / "b.py", "thing = 1\n\ndef later():\n    from scratch import c\n")
    _write(root / "c.py", "import importlib\nimportlib.import_module('scratch.a')\n")
    _write(root / "d.py", "from . import a\nimport os\n")
    edges = graph({"scratch": root})
    assert edges["scratch.b"] == {"scratch.c": 4}
    assert edges["scratch.d"] == {"scratch.a": 1}, "other distributions are not edges"
    assert circles(edges) == [frozenset({"scratch.a", "scratch.b", "scratch.c"})]


def test_the_measure_finds_a_circle_through_a_package_init_that_runs_first(tmp_path):
    """``core`` imports ``sub.graph``, so ``sub/__init__`` runs first, and it imports ``sub.fn``,
    which needs ``core``: a circle no import statement names whole."""
    root = tmp_path / "top"
    _write(root / "__init__.py", "from .core import x\n")
    _write(root / "core.py", "from .sub.graph import y\nx = 1\n")
    _write(root / "sub" / "__init__.py", "from .fn import f\n")
    _write(root / "sub" / "graph.py", "y = 1\n")
    _write(root / "sub" / "fn.py", "from .graph import y\nfrom ..core import x\nf = 1\n")
    _write(tmp_path / "other" / "__init__.py", "")
    _write(tmp_path / "other" / "user.py", "from top.sub.graph import y\n")
    edges = graph({"top": root, "other": tmp_path / "other"})
    assert edges["top.core"] == {"top.sub.graph": 1, "top.sub": 1}
    assert edges["top.sub.fn"] == {"top.sub.graph": 1, "top.core": 2}, "its own packages began before it"
    assert edges["other.user"] == {"top.sub.graph": 1, "top.sub": 1, "top": 1}, "another distribution runs the facade"
    assert circles(edges) == [frozenset({"top.core", "top.sub", "top.sub.fn"})]


def test_the_measure_finds_a_circle_between_sibling_packages(tmp_path):
    root = tmp_path / "top"
    for package in ("left", "right"):
        _write(root / package / "__init__.py", "")
    _write(root / "__init__.py", "")
    _write(root / "left" / "one.py", "from ..right.two import x\n")
    _write(root / "right" / "two.py", "x = 1\n")
    _write(root / "right" / "three.py", "from ..left import one\n")
    _write(root / "helper.py", "from .left import one\n")
    edges = graph({"top": root})
    assert circles(edges) == []  # no circle between modules
    packages = {"top", "top.left", "top.right"}
    assert circles(sibling_package_edges(edges, packages)) == [frozenset({"top.left", "top.right"})]


@pytest.mark.parametrize("top", sorted(ROOTS))
def test_every_package_is_read(top):
    assert any(name.split(".")[0] == top for name in EDGES), f"no module of {top} was read"


def test_every_package_says_what_lives_there_and_what_it_may_import():
    """Each of our packages, and each sub-package of the grader, has a short README: what lives
    there, what it may import, and where a change of each kind goes."""
    folders = [REPO / "src" / name for name in ("reftorch", "coursebook", "memdiagram", "crosscheck",
                                                          "warmkernels")]
    folders += sorted(p for p in (REPO / "autograder").iterdir() if p.is_dir() and any(p.glob("*.py")))
    missing = [str(f.relative_to(REPO)) for f in folders
               if not (f / "README.md").is_file()
               or not all(part in (f / "README.md").read_text(encoding="utf-8")
                          for part in ("**What lives here.**", "**May import.**", "**Where a change goes.**"))]
    assert not missing, "packages without a README saying what lives there, what they may import and " \
                        "where a change goes: %s" % missing


IMPORT_FIRST = r"""
import importlib, sys, types
failed = []
for name in sys.argv[2:]:
    for key in [key for key in sys.modules if key.split(".")[0] == "reftorch"]:
        del sys.modules[key]
    bare = types.ModuleType("reftorch")  # a package whose __init__ never ran
    bare.__path__ = [sys.argv[1]]
    sys.modules["reftorch"] = bare
    try:
        importlib.import_module(name)
    except ImportError as error:
        failed.append(f"{name}: {error}")
print("\n".join(failed))
"""


def test_each_core_module_imports_first_without_the_facade():
    """The rule above, checked against Python: each module of reftorch's core reading path,
    imported first while ``reftorch`` is a bare package (as when a folder of that name on the path
    shadows it), imports without a circle."""
    doc = ast.get_docstring(ast.parse((ROOTS["reftorch"] / "__init__.py").read_text()))
    core = re.findall(r"^\d+\. ``([\w/]+)``", doc.split("The way in")[0], re.M)
    names = ["reftorch." + name.replace("/", ".") for name in core]
    assert len(names) >= 15, names
    result = subprocess.run([sys.executable, "-c", IMPORT_FIRST, str(ROOTS["reftorch"]), *names],
                            capture_output=True, text=True, cwd=REPO, check=True)
    assert not result.stdout.strip(), "imported first, these meet a half-run module:\n" + result.stdout
