"""course/myths.toml lists every WRONG or IMPRECISE claim of the source tutorials,
and course/17_myths.ipynb answers each one with a cell that runs.

The list was made from the ledger of the five tutorials (30 claims that torch
2.13 contradicts in whole or in part: 12 WRONG, 18 IMPRECISE).  Each entry
names the notebook cell that answers it; here we check that the cell exists
exactly once, is a ``%%key`` code cell (so it is also replayed on reftorch by
the chapter's cross-check), printed something when executed, and that the
prose before it states the correct behaviour in the words of the list.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections import Counter

import nbformat
import pytest

from course_paths import COURSE

MYTHS_FILE = COURSE / "myths.toml"
NOTEBOOK = COURSE / "17_myths.ipynb"

# How many WRONG/IMPRECISE claims each tutorial (seed 0..4) makes, per the ledger.
CLAIMS_PER_SEED = {0: 4, 1: 4, 2: 12, 3: 4, 4: 6}
FIELDS = {"id", "seed", "verdict", "claim", "correct", "cell_tag"}


def _myths() -> list[dict]:
    with MYTHS_FILE.open("rb") as f:
        return tomllib.load(f)["myth"]


MYTHS = _myths()


def _words(text: str) -> str:
    return " ".join(text.split())


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _tagged(nb, tag: str) -> list[int]:
    return [i for i, cell in enumerate(nb.cells) if tag in _tags(cell)]


def _section_prose(nb, index: int) -> str:
    """The markdown between the previous myth cell (or the top) and cell ``index``."""
    start = index
    while start > 0 and not any(t.startswith("myth-") for t in _tags(nb.cells[start - 1])):
        start -= 1
    return _words("\n".join(c.source for c in nb.cells[start:index] if c.cell_type == "markdown"))


def test_the_list_has_exactly_the_thirty_wrong_or_imprecise_claims():
    assert len(MYTHS) == 30
    ids = [m["id"] for m in MYTHS]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    tags = [m["cell_tag"] for m in MYTHS]
    assert len(set(tags)) == len(tags)
    assert Counter(m["verdict"] for m in MYTHS) == {"WRONG": 12, "IMPRECISE": 18}
    assert Counter(m["seed"] for m in MYTHS) == CLAIMS_PER_SEED


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_entry_is_complete_and_its_id_names_its_seed(myth):
    missing = FIELDS - set(myth)
    assert not missing, f"{myth.get('id')}: missing {missing}"
    assert re.fullmatch(r"s00[0-4]-[a-z0-9]+(-[a-z0-9]+)*", myth["id"]), myth["id"]
    assert myth["id"].startswith(f"s{myth['seed']:03d}-")
    for field in ("claim", "correct"):
        assert len(myth[field].split()) >= 5, f"{myth['id']}: {field} is too short to say anything"
    assert _words(myth["claim"]) != _words(myth["correct"])


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_exactly_one_key_code_cell_answers_the_myth(myth):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    found = _tagged(nb, myth["cell_tag"])
    assert len(found) == 1, f"{myth['id']}: {len(found)} cells tagged {myth['cell_tag']!r}"
    cell = nb.cells[found[0]]
    assert cell.cell_type == "code", f"{myth['id']}: the tagged cell is {cell.cell_type}"
    lines = cell.source.splitlines()
    assert lines and lines[0].strip() == "%%key", f"{myth['id']}: the answer is not a %%key cell"
    tree = ast.parse("\n".join(lines[1:]))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert any(getattr(c.func, "id", None) == "print" for c in calls), f"{myth['id']}: the cell prints nothing"
    assert len(calls) >= 3, f"{myth['id']}: the cell barely runs anything"


def test_no_cell_carries_a_myth_tag_that_is_not_in_the_list():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    known = {m["cell_tag"] for m in MYTHS}
    used = {t for cell in nb.cells for t in _tags(cell) if t.startswith("myth-")}
    assert used - known == set()
    assert known - used == set()


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_the_prose_before_the_cell_states_the_correct_behaviour(myth):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    (index,) = _tagged(nb, myth["cell_tag"])
    prose = _section_prose(nb, index)
    assert _words(myth["correct"]) in prose, f"{myth['id']}: the correct statement is not in the text"
    if "untestable" in myth:
        assert _words(myth["untestable"]) in prose, f"{myth['id']}: the GPU caveat is not in the text"


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_the_answering_cell_ran_and_printed(executed_notebooks, myth):
    run = executed_notebooks[NOTEBOOK]
    assert run.error is None, run.error
    (index,) = _tagged(run.notebook, myth["cell_tag"])
    outputs = run.notebook.cells[index].outputs
    assert not [o for o in outputs if o.output_type == "error"], f"{myth['id']}: the cell raised"
    printed = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")
    assert printed.strip(), f"{myth['id']}: the cell printed nothing when executed"
