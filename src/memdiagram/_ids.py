"""Element ids that stay unique when several diagrams share one HTML page.

An SVG diagram names its arrow marker, its fill patterns, its ``<title>`` and
its ``<desc>`` with ids (``md3-arrow``, ``md3-fill-a``...) and refers to them
(``marker-end="url(#md3-arrow)"``, ``aria-labelledby="md3-title md3-desc"``).
Inline in a page, ids are the page's: two copies of one SVG (the wide and the
phone arrangement of a player's step), or diagrams drawn by two kernels (both
count from ``md1``), would share ids, and ``url(#md3-arrow)`` would pick
whichever comes first in the page, maybe one that is not displayed.

``with_suffix`` renames every id one SVG defines, and every reference to
those ids inside it. ``distinct_ids`` does that, on a whole HTML fragment,
for each top-level ``<svg>`` whose ids were already used earlier in the
fragment, so that no id is defined twice.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["with_suffix", "distinct_ids", "defined_ids"]

_ID = re.compile(r'(?<![\w:-])id="([^"]+)"')
_URL = re.compile(r"url\(#([^)\s'\"]+)\)")
_HREF = re.compile(r'(?<![\w-])((?:xlink:)?href)="#([^"]+)"')
_ID_LISTS = re.compile(r'(?<![\w-])(aria-(?:labelledby|describedby|controls|owns|flowto))="([^"]*)"')
_SVG_TAG = re.compile(r"<svg\b|</svg\s*>")


def defined_ids(fragment: str) -> list[str]:
    """Every ``id="..."`` value in ``fragment``, in order (repeats included)."""
    return _ID.findall(fragment)


def with_suffix(svg: str, suffix: str) -> str:
    """``svg`` with each id it defines, and each reference to one, followed by ``suffix``."""
    ids = set(defined_ids(svg))
    if not ids:
        return svg

    def rename(name: str) -> str:
        return name + suffix if name in ids else name

    svg = _ID.sub(lambda m: f'id="{rename(m.group(1))}"', svg)
    svg = _URL.sub(lambda m: f"url(#{rename(m.group(1))})", svg)
    svg = _HREF.sub(lambda m: f'{m.group(1)}="#{rename(m.group(2))}"', svg)
    return _ID_LISTS.sub(lambda m: f'{m.group(1)}="' + " ".join(rename(n) for n in m.group(2).split()) + '"',
                         svg)


def _top_level_svgs(fragment: str):
    """(start, end) of each outermost ``<svg>...</svg>`` element of ``fragment``."""
    depth, start = 0, 0
    for tag in _SVG_TAG.finditer(fragment):
        if tag.group(0).startswith("</"):
            depth -= 1
            if depth == 0:
                yield start, tag.end()
            depth = max(depth, 0)
        else:
            if depth == 0:
                start = tag.start()
            depth += 1


def distinct_ids(fragment: str, tag: str = "d") -> str:
    """``fragment`` with no id defined twice by its SVGs: an SVG that reuses an id seen
    earlier (in an SVG or anywhere before it) gets all its ids suffixed ``-<tag><n>``."""
    out, seen, at = [], set(), 0
    count = itertools.count(1)
    for start, end in _top_level_svgs(fragment):
        before, svg = fragment[at:start], fragment[start:end]
        seen.update(defined_ids(before))
        ids = defined_ids(svg)
        if seen.intersection(ids):
            taken = seen | set(ids)
            suffix = f"-{tag}{next(count)}"
            while any(i + suffix in taken for i in ids):
                suffix = f"-{tag}{next(count)}"
            svg = with_suffix(svg, suffix)
        seen.update(defined_ids(svg))
        out += [before, svg]
        at = end
    out.append(fragment[at:])
    return "".join(out)
