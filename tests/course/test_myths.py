"""course/myths.toml lists the myths that course/21_myths.ipynb quizzes, and accounts for every
WRONG or IMPRECISE claim of the source tutorials.

The ledger of the five tutorials (seeds 0..4) has 30 claims that torch 2.13 contradicts in whole
or in part. Each is answered by exactly one myth (claims that say the same thing share one) or
listed under [[dropped]] with its reason (claims only about print formats). More myths come from
the confusions practitioners hit most often.

Every myth is one entry of a predict-first quiz: its claim, a "Predict" question, exactly one live
``%%key`` cell (so it is also replayed on reftorch by the chapter's cross-check), and then a
verdict, behind a click, that states the correct behaviour in the words of the list. The entries
are grouped by topic, in the list's order.
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
NOTEBOOK = COURSE / "21_myths.ipynb"

# How many WRONG/IMPRECISE claims each tutorial (seed 0..4) makes, per the ledger.
CLAIMS_PER_SEED = {0: 4, 1: 4, 2: 12, 3: 4, 4: 6}
FIELDS = {"id", "topic", "verdict", "ledger", "claim", "correct", "cell_tag"}
LEDGER_ID = re.compile(r"s00([0-4])-[a-z0-9]+(-[a-z0-9]+)*")


def _load() -> dict:
    with MYTHS_FILE.open("rb") as f:
        return tomllib.load(f)


MYTHS = _load()["myth"]
DROPPED = _load()["dropped"]


def _words(text: str) -> str:
    return " ".join(text.split())


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _is_key(cell) -> bool:
    return cell.cell_type == "code" and cell.source.lstrip().startswith("%%key")


@pytest.fixture(scope="module")
def notebook():
    return nbformat.read(NOTEBOOK, as_version=4)


def _sections(nb) -> list[list[int]]:
    """Cell indices of each quiz entry: from a '### Myth' heading to the next heading."""
    sections, current = [], None
    for i, cell in enumerate(nb.cells):
        heading = cell.cell_type == "markdown" and cell.source.lstrip().startswith("#")
        if heading:
            if current is not None:
                sections.append(current)
            current = [i] if cell.source.lstrip().startswith("### Myth") else None
        elif current is not None:
            current.append(i)
    if current is not None:
        sections.append(current)
    return sections


def _section_of(nb, myth) -> list[int]:
    found = [s for s in _sections(nb) if any(myth["cell_tag"] in _tags(nb.cells[i]) for i in s)]
    assert len(found) == 1, f"{myth['id']}: its cell is in {len(found)} quiz entries"
    return found[0]


def test_every_tutorial_claim_is_answered_once_or_dropped_with_a_reason():
    answered = [claim for m in MYTHS for claim in m["ledger"]]
    dropped = [d["ledger"] for d in DROPPED]
    every = answered + dropped
    assert len(every) == 30
    assert not [c for c, n in Counter(every).items() if n > 1], "a tutorial claim is counted twice"
    for claim in every:
        assert LEDGER_ID.fullmatch(claim), claim
    assert Counter(int(c[3]) for c in every) == CLAIMS_PER_SEED
    for d in DROPPED:
        assert len(d["reason"].split()) >= 5, f"{d['ledger']}: say why it is not quizzed"


def test_no_myth_is_repeated():
    for field in ("id", "cell_tag", "claim", "correct"):
        values = [_words(m[field]) for m in MYTHS]
        assert not [v for v, n in Counter(values).items() if n > 1], f"two myths share a {field}"


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_entry_is_complete(myth):
    missing = FIELDS - set(myth)
    assert not missing, f"{myth.get('id')}: missing {missing}"
    assert re.fullmatch(r"[a-z0-9_]+(-[a-z0-9_]+)*", myth["id"]), myth["id"]
    assert myth["cell_tag"] == f"myth-{myth['id']}"
    assert myth["verdict"] in {"WRONG", "IMPRECISE"}
    for field in ("claim", "correct"):
        assert len(myth[field].split()) >= 5, f"{myth['id']}: {field} is too short to say anything"
    assert _words(myth["claim"]) != _words(myth["correct"])


def test_myths_are_grouped_by_topic_in_the_order_of_the_list(notebook):
    tagged = {t: i for i, cell in enumerate(notebook.cells) for t in _tags(cell)}
    in_notebook = sorted(MYTHS, key=lambda m: tagged[m["cell_tag"]])
    assert [m["id"] for m in in_notebook] == [m["id"] for m in MYTHS]
    topics = [m["topic"] for m in MYTHS]
    blocks = [t for i, t in enumerate(topics) if i == 0 or topics[i - 1] != t]
    assert len(blocks) == len(set(blocks)), f"a topic is split in two: {blocks}"
    headings = [c.source for c in notebook.cells if c.cell_type == "markdown" and c.source.startswith("## ")]
    assert len(headings) >= len(blocks) + 1  # one per topic, and the cross-check's


def test_no_cell_carries_a_myth_tag_that_is_not_in_the_list(notebook):
    known = {m["cell_tag"] for m in MYTHS}
    used = [t for cell in notebook.cells for t in _tags(cell) if t.startswith("myth-")]
    assert set(used) == known
    assert len(used) == len(set(used))


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_each_entry_has_exactly_one_live_cell(notebook, myth):
    section = _section_of(notebook, myth)
    live = [i for i in section if _is_key(notebook.cells[i])]
    assert len(live) == 1, f"{myth['id']}: {len(live)} %%key cells in its entry"
    cell = notebook.cells[live[0]]
    assert myth["cell_tag"] in _tags(cell), f"{myth['id']}: the live cell is not the tagged one"
    tree = ast.parse("\n".join(cell.source.splitlines()[1:]))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert any(getattr(c.func, "id", None) == "print" for c in calls), f"{myth['id']}: the cell prints nothing"
    assert len(calls) >= 3, f"{myth['id']}: the cell barely runs anything"


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_claim_then_predict_then_the_check_then_the_verdict(notebook, myth):
    section = _section_of(notebook, myth)
    (live,) = [i for i in section if _is_key(notebook.cells[i])]
    before = _words("\n".join(notebook.cells[i].source for i in section if i < live
                              and notebook.cells[i].cell_type == "markdown"))
    after = _words("\n".join(notebook.cells[i].source for i in section if i > live
                             and notebook.cells[i].cell_type == "markdown"))
    assert _words(f"> {myth['claim']}") in before, f"{myth['id']}: the claim is not quoted before the check"
    assert "**Predict.**" in before and before.index("**Predict.**") > before.index(_words(myth["claim"]))
    assert _words(myth["correct"]) not in before, f"{myth['id']}: the answer is given before the check"
    assert "<details>" in after and "</details>" in after, f"{myth['id']}: the verdict is not behind a click"
    assert f"**{myth['verdict']}.**" in after
    assert _words(myth["correct"]) in after, f"{myth['id']}: the correct statement is not in the verdict"
    if "untestable" in myth:
        assert _words(myth["untestable"]) in before, f"{myth['id']}: the GPU caveat is not in the text"


@pytest.mark.parametrize("myth", MYTHS, ids=lambda m: m["id"])
def test_the_live_cell_ran_and_printed(executed_notebooks, myth):
    run = executed_notebooks[NOTEBOOK]
    assert run.error is None, run.error
    (index,) = [i for i, c in enumerate(run.notebook.cells) if myth["cell_tag"] in _tags(c)]
    outputs = run.notebook.cells[index].outputs
    assert not [o for o in outputs if o.output_type == "error"], f"{myth['id']}: the cell raised"
    printed = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")
    assert printed.strip(), f"{myth['id']}: the cell printed nothing when executed"
