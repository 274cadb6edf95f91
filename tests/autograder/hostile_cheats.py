"""Cheats that try to earn marks without the work: one per route issue 21 lists, and four more.

Each cheat is one student of the ``clone`` assignment who hands in the reference
solution with one cell changed (``graded_bank.student_notebook``) and a lazy
``my_clone`` that returns its input. ``fails`` names every test the cheat tried
to fake, each with the rule of the allowlist that used to refuse the route (the
allowlist is gone: every assignment is judged, ``autograder.judge``). What stops
them now: the verdict is computed in the judge, so whatever a route reaches in
the kernel, the lazy ``my_clone`` is observed returning its input and scores 0
on every test that calls it (``test_hostile_cheats``); the other tests keep their
points. The cheats are data, in ``hostile_cheats.toml`` beside this file.
"""

import tomllib
from dataclasses import dataclass
from pathlib import Path

SOLUTION = "clone-solution"
ALL = ("clone-layout", "clone-memory", "clone-metadata", "clone-strides", "clone-graph", "clone-no-grad",
       "clone-version")
MY_CLONE = ALL[1:]   # the tests that call my_clone: a rule broken at compile time costs these
# A rule broken at run time costs every test from then on: the notebook's demonstration cell after
# the solution calls my_clone before the first test (clone-layout) runs, so that is ALL of them.
FAILS = {"my_clone": MY_CLONE, "all": ALL}


@dataclass(frozen=True)
class Cheat:
    name: str
    route: str
    code: str      # the clone-solution cell
    fails: dict    # test -> the rule tag its error names


def load(path=Path(__file__).with_suffix(".toml")):
    with open(path, "rb") as f:
        table = tomllib.load(f)
    return [Cheat(c["name"], c["route"], c["code"], {test: c["tag"] for test in FAILS[c["fails"]]})
            for c in table["cheat"]]


CHEATS = load()
