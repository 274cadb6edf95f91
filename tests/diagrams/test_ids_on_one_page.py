"""Several diagrams on one HTML page define each element id once, and each keeps pointing at its own.

A diagram's SVG names its arrow marker, fill patterns, title and description
with ids. Two copies of one SVG (a player step's wide and phone arrangement),
or diagrams drawn by two kernels (both count from ``md1``), would define the
same ids in one page, and ``url(#md1-arrow)`` would resolve to the first one
in the page, perhaps inside a hidden copy.
"""

import collections
import re

import torch

from memdiagram import build_steps, distinct_ids, player_html, show
from memdiagram._ids import defined_ids

REFERENCES = re.compile(r'url\(#([^)]+)\)|href="#([^"]+)"|aria-labelledby="([^"]+)"')


def _referenced(svg):
    found = set()
    for groups in REFERENCES.findall(svg):
        for group in groups:
            found.update(group.split())
    return found


def _repeated(fragment):
    return [i for i, n in collections.Counter(defined_ids(fragment)).items() if n > 1]


def _svgs(fragment):
    return re.findall(r"<svg\b.*?</svg>", fragment, flags=re.S)


def test_the_same_diagram_twice_in_a_page_gets_ids_of_its_own_that_it_refers_to():
    svg = show(a=torch.ones(3), b=torch.ones(3).t()).svg
    page = f"<p>one</p>{svg}<p>two</p>{svg}"
    assert _repeated(page), "the test's page does not repeat ids: nothing to check"
    fixed = distinct_ids(page)
    assert _repeated(fixed) == [], "a diagram repeated on a page still reuses the first one's ids"
    first, second = _svgs(fixed)
    assert first == svg, "the first diagram, which collided with nothing, was changed"
    assert _referenced(second) and _referenced(second) <= set(defined_ids(second)), \
        "the renamed diagram refers to ids it does not define (its arrows or fills point elsewhere)"
    assert second.replace("-d1", "") == svg, "renaming changed more than the ids"


def test_a_player_with_phone_arrangements_defines_each_id_once():
    statements = ["a = torch.arange(12.0).reshape(3, 4)", "b = a.t()", "c = b.contiguous()",
                  "d = a[:, 1:3]", "e = d.clone()"]
    _snapshots, _changes, svgs, _narrations = build_steps(statements, torch)
    player = player_html(statements, svgs)
    assert 'class="mdp-narrow"' in player, "no step has a phone arrangement: nothing to check"
    assert _repeated(player) == [], f"the player defines ids twice: {_repeated(player)[:5]}"
    for svg in _svgs(player):
        assert _referenced(svg) <= set(defined_ids(svg)), "a step's picture refers to another picture's ids"
