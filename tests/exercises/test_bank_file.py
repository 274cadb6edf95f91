"""The bank's TOML files (tests/exercises/bank/) hold every entry, spelled as exercise_mutants reads them."""

import hashlib
import tomllib

from exercise_mutants import ALL_TESTS, BANK, HERE

# How many entries the bank holds, and their names in order: a change to either changes what grading
# is tested against, so it is made on purpose and updates these two lines.
COUNT = 262
NAMES_SHA256 = "6bb2fca8d825c6519574e9030da417e130730ad91a9a4be89fd680abf66ea0d9"

NEEDED = {"name", "assignment", "kind", "about", "cells"}
OPTIONAL = {"fails", "blind_spot"}


def test_the_bank_keeps_every_entry():
    assert len(BANK) == COUNT, f"the bank holds {len(BANK)} entries, not {COUNT}"
    names = hashlib.sha256("\n".join(e.name for e in BANK).encode()).hexdigest()
    assert names == NAMES_SHA256, "an entry of the bank was added, removed, renamed or moved"


def test_every_file_is_read_and_every_key_is_one_the_loader_knows():
    files = sorted((HERE / "bank").glob("*.toml"))
    assert [p.stem for p in files] == sorted([*ALL_TESTS, "blind_spots"])
    for path in files:
        for entry in tomllib.loads(path.read_text())["entry"]:
            where = f"{path.name}: {entry.get('name')}"
            assert NEEDED <= set(entry) <= NEEDED | OPTIONAL, where
            assert set(entry.get("fails", {})) <= set(ALL_TESTS[entry["assignment"]]), where
            if isinstance(entry["cells"], str):
                assert entry["cells"] == "release", where
                continue
            for cell in entry["cells"].values():
                if not isinstance(cell, str):
                    assert set(cell) == {"replace"} and all(len(pair) == 2 for pair in cell["replace"]), where
