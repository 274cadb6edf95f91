"""Which key cells the browser cannot run for want of numpy, decided when the Lite site is built.

``lite.record`` runs each chapter's key cells in order on reftorch in a Python
that cannot import numpy (``python -S``, as in Pyodide, where no numpy exists)
and records, for the cells that stop with numpy's own ``ModuleNotFoundError``,
torch's trace of the chapter without them and torch's printout of each. Here:
chapter 09's ``.numpy()`` cell is found in both languages, a chapter without
numpy has none, and the recorded programs are those the browser will ask for.
"""

from pathlib import Path

import torch

from coursebook.predict.questions import cut_printouts, key_cells_program
from crosscheck.harness import diff_traces, import_reftorch, run
from lite.record import cells_needing_numpy, key_cells_as_run, programs

COURSE = Path(__file__).resolve().parents[2] / "course"


def test_the_numpy_cell_of_chapter_09_is_found_in_both_languages_and_nothing_else():
    for notebook in (COURSE / "09_detach_and_data.ipynb", COURSE / "zh" / "09_detach_and_data.ipynb"):
        cells = key_cells_as_run(notebook)
        [found] = cells_needing_numpy([cells])
        assert len(found) == 1 and "array = x.detach().cpu().numpy()" in found[0], found
        rest = "\n\n".join(c for c in cells if c not in found)
        assert diff_traces(run(rest, torch), run(rest, import_reftorch())) == []
        before = cells[:cells.index(found[0]) + 1]
        assert cut_printouts(run(key_cells_program(before), torch), len(before))[-1].endswith(
            "tensor([200.,   4.,   6.])\n")
    assert cells_needing_numpy([key_cells_as_run(COURSE / "08_clone.ipynb")]) == [[]]


def test_the_programs_the_browser_asks_for_are_recorded():
    notebook = COURSE / "09_detach_and_data.ipynb"
    cells = key_cells_as_run(notebook)
    [found] = cells_needing_numpy([cells])
    recorded = programs([notebook])
    assert "\n\n".join(cells) in recorded
    assert "\n\n".join(c for c in cells if c not in found) in recorded
    assert key_cells_program(cells[:cells.index(found[0]) + 1]) in recorded
