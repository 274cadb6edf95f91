"""Find the build-it cells of a chapter, and fill them with the reference answers.

A build-it cell is a code cell defining a registered piece's stub
(``my_<piece>``, or the piece's ``stub`` name) whose body still raises
``NotImplementedError``; its check cell calls ``check(my_<piece>)``.  Filling replaces the stub's ``def`` (nothing else in
the cell: the imports above it stay) by the reference's own source, the one
``reveal`` shows, renamed ``my_<piece>``.  A reference that needs a name the
stub cell does not import fails with a NameError, so the stub's imports are
tested too.
"""

from __future__ import annotations

import ast
import copy
import re
import textwrap

from coursebook.build_it.registry import pieces
from coursebook.source import Source
from course_paths import CHAPTERS
from stored import stored_notebook


def _parse(source: str):
    kept = "\n".join("" if l.lstrip().startswith(("%", "!")) else l for l in source.splitlines())
    return ast.parse(kept)


def stubs(nb) -> dict[str, int]:
    """{piece name: index of its stub cell}."""
    by_stub = {p.stub_name: p.name for p in pieces()}
    found = {}
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for node in _parse(cell.source).body:
            if isinstance(node, ast.FunctionDef) and node.name in by_stub:
                raises = any(isinstance(n, ast.Raise) and "NotImplementedError" in ast.unparse(n)
                             for n in ast.walk(node))
                if raises:
                    found[by_stub[node.name]] = index
    return found


def build_it_chapters():
    """The chapters with build-it stubs, as committed (a learner may have filled the ones on disk)."""
    return [p for p in CHAPTERS if stubs(stored_notebook(p))]


def check_cells(nb) -> dict[str, int]:
    """{piece name: index of the cell that runs check(my_<piece>)}."""
    by_stub = {p.stub_name: p.name for p in pieces()}
    found = {}
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            for stub in re.findall(r"\bcheck\(\s*(my_\w+)\s*\)", cell.source):
                if stub in by_stub:
                    found[by_stub[stub]] = index
    return found


def reference_source(piece, name: str) -> str:
    """The reference's source, dedented, its ``def`` renamed ``name``."""
    text = textwrap.dedent(Source(piece.reference).text)
    return re.sub(rf"^def {re.escape(piece.reference.__name__)}\(", f"def {name}(", text, count=1, flags=re.M)


def filled(nb, fill=reference_source):
    """A copy of ``nb`` with every stub's ``def`` replaced by ``fill(piece, piece.stub_name)``."""
    by_name = {p.name: p for p in pieces()}
    nb = copy.deepcopy(nb)
    for name, index in stubs(nb).items():
        cell = nb.cells[index]
        lines = cell.source.splitlines()
        stub = by_name[name].stub_name
        node = next(n for n in _parse(cell.source).body if isinstance(n, ast.FunctionDef) and n.name == stub)
        start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        new = fill(by_name[name], stub).rstrip("\n").splitlines()
        cell.source = "\n".join(lines[:start] + new + lines[node.end_lineno:])
    return nb
