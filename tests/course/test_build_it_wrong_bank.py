"""Every build-it check fails every wrong piece of the bank (tests/course/build_it_wrong_bank.py).

A wrong piece that passes a check would mark the piece done for a learner who
still holds the belief; a case added for a belief must also be the one that
names it.
"""

from __future__ import annotations

import pytest

from build_it_wrong_bank import BANK
from coursebook.build_it.check import run_battery
from coursebook.build_it.registry import piece, pieces


@pytest.mark.parametrize("name, fn, told", BANK, ids=[f"{name}-{fn.__name__}" for name, fn, _ in BANK])
def test_the_check_fails_a_wrong_piece(name, fn, told):
    report = run_battery(fn, piece(name))
    assert report.status == "failed", f"{name}: {fn.__name__} ({fn.__doc__}) passes:\n{report.text()}"
    if told:
        assert any(told in m for m in report.misconceptions), (
            f"{name}: {fn.__name__} should be told {told!r}:\n{report.text()}")


def test_the_bank_covers_every_piece_from_chapter_02():
    """Each piece has at least one wrong answer here or in its own ``wrong`` list, five in all."""
    for p in pieces():
        banked = sum(name == p.name for name, _, _ in BANK)
        assert banked + len(p.wrong) >= 5, f"{p.name}: {banked} banked + {len(p.wrong)} of its own"
