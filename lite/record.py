"""Record torch's answers for the browser, where torch cannot run (read back by :mod:`crosscheck.recorded`).

Every program the chapters compare with torch runs here once, on real torch:

* each chapter's closing ``cross_check_key_cells()``: its ``%%key`` cells as
  IPython hands them to the magic, joined as the magic joins them;
* each ``cross_check(program)`` a chapter calls with the program written out as a string;
* each chapter's key cells run one by one (the prediction questions' answers,
  :func:`coursebook.predict.questions.key_cells_program`);
* each build-it case's expected answer.

English and Chinese chapters both: the Chinese ones may word a comment
differently, and a program is recorded by its exact text.
"""

from __future__ import annotations

import ast
import json
import pickle
from pathlib import Path

import torch

from coursebook.build_it import pieces
from coursebook.build_it.check import _torch_outcome
from coursebook.predict.questions import key_cells_program, questions
from crosscheck.harness import run
from crosscheck.recorded import program_key

KEY = "%%key"


def _code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c["cell_type"] == "code"]


def key_cells_as_run(notebook: Path) -> list[str]:
    """The chapter's key cells as ``%%key`` receives them (the body, ending in a newline), each once."""
    cells: list[str] = []
    for source in _code_cells(notebook):
        if source.startswith(KEY):
            body = source.split("\n", 1)[1] if "\n" in source else ""
            body = body if body.endswith("\n") else body + "\n"
            if body not in cells:
                cells.append(body)
    return cells


def written_out_programs(notebook: Path) -> list[str]:
    """The programs a chapter passes to ``cross_check`` as a string literal."""
    found = []
    for source in _code_cells(notebook):
        if source.lstrip().startswith("%"):
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "cross_check" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(node.args[0].value)
    return found


def programs(chapters: list[Path]) -> list[str]:
    found = []
    for notebook in chapters:
        cells = key_cells_as_run(notebook)
        if cells:
            found.append("\n\n".join(cells))
        found += written_out_programs(notebook)
    found += sorted({key_cells_program(q.key_cells) for q in questions()})
    return found


def record(chapters: list[Path], into: Path) -> dict:
    """Run every program on torch; write ``{"torch", "traces", "answers"}`` to ``into``; return counts."""
    traces = {program_key(p): run(p, torch) for p in programs(chapters)}
    answers = {("build-it", piece.name, case.label): _torch_outcome(case)
               for piece in pieces() for case in piece.cases if case.expected is not None}
    into.write_bytes(pickle.dumps({"torch": torch.__version__.split("+")[0], "traces": traces, "answers": answers}))
    return {"programs": len(traces), "build-it answers": len(answers)}
