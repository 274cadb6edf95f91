"""Record torch's answers for the browser, where torch cannot run (read back by :mod:`crosscheck.recorded`).

Every program the chapters compare with torch runs here once, on real torch:

* each chapter's closing ``cross_check_key_cells()``: its ``%%key`` cells as
  IPython hands them to the magic, joined as the magic joins them;
* each ``cross_check(program)`` a chapter calls with the program written out as a string;
* each chapter's key cells run one by one (the prediction questions' answers,
  :func:`coursebook.predict.questions.key_cells_program`);
* each build-it case's expected answer;
* for a chapter with key cells that need numpy (which the browser does not
  have): its closing cross-check without those cells, as the browser replays
  it, and, for each such cell, the key cells up to it run one by one, so the
  browser can show what torch printed for it.  Which cells need numpy is
  decided by running the key cells on reftorch in a Python that cannot import
  numpy (this one, started with ``-S``: no site-packages), as the browser will.

English and Chinese chapters both: the Chinese ones may word a comment
differently, and a program is recorded by its exact text.
"""

from __future__ import annotations

import ast
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import torch

from coursebook.build_it import pieces
from coursebook.build_it.check import _torch_outcome
from coursebook.predict.questions import cut_printouts, key_cells_program, questions
from crosscheck.harness import Trace, run
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


SRC = Path(__file__).resolve().parents[1] / "src"
NO_NUMPY = "ModuleNotFoundError: No module named 'numpy'"
# Runs in a Python without site-packages: stdlib, reftorch and crosscheck only, as in the browser.
_ON_REFTORCH = (
    "import importlib.util, json, sys\n"
    "assert importlib.util.find_spec('numpy') is None, 'numpy can be imported here'\n"
    "from crosscheck.harness import import_reftorch, run\n"
    "print(json.dumps([run(program, import_reftorch()).stdout for program in json.load(sys.stdin)]))\n"
)


def cells_needing_numpy(chapters: list[list[str]]) -> list[list[str]]:
    """For each chapter's key cells, those that stop, run in order on reftorch where numpy cannot be
    imported, with numpy's own ``ModuleNotFoundError`` (each cell's uncaught exception ends as its
    last line). One Python runs every chapter."""
    done = subprocess.run([sys.executable, "-S", "-c", _ON_REFTORCH],
                          input=json.dumps([key_cells_program(cells) for cells in chapters]),
                          capture_output=True, text=True, check=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(SRC), "PYTHONNOUSERSITE": "1"})
    found = []
    for cells, stdout in zip(chapters, json.loads(done.stdout)):
        printed = cut_printouts(Trace("reftorch", stdout=stdout), len(cells))
        found.append([cell for cell, out in zip(cells, printed) if out.rstrip("\n").endswith(NO_NUMPY)])
    return found


def programs(chapters: list[Path]) -> list[str]:
    found = []
    every = list({tuple(cells): cells for cells in map(key_cells_as_run, chapters) if cells}.values())  # each once
    need_numpy = dict(zip(map(tuple, every), cells_needing_numpy(every)))
    for notebook in chapters:
        cells = key_cells_as_run(notebook)
        if cells:
            found.append("\n\n".join(cells))
            stopped = need_numpy[tuple(cells)]
            if stopped:
                found.append("\n\n".join(c for c in cells if c not in stopped))
                found += [key_cells_program(cells[:cells.index(c) + 1]) for c in stopped]
        found += written_out_programs(notebook)
    found += sorted({key_cells_program(q.key_cells) for q in questions()})
    return found


def record(chapters: list[Path], into: Path) -> dict:
    """Run every program on torch, each once (a Chinese chapter's key cells are often the English
    ones); write ``{"torch", "traces", "answers"}`` to ``into``; return counts."""
    distinct = {program_key(p): p for p in programs(chapters)}
    traces = {key: run(program, torch) for key, program in distinct.items()}
    answers = {("build-it", piece.name, case.label): _torch_outcome(case)
               for piece in pieces() for case in piece.cases if case.expected is not None}
    into.write_bytes(pickle.dumps({"torch": torch.__version__.split("+")[0], "traces": traces, "answers": answers}))
    return {"programs": len(traces), "build-it answers": len(answers)}
