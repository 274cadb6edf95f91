"""The figure fits the width it is given, and no label hides under another or leaves its box.

Label boxes are estimated from the font (a monospace font: length times
advance, see ``memdiagram._geometry``); tests/browser/ measures the real ones
with getBBox() in Chromium and runs the same check.
"""

import itertools
import json
import re
import xml.etree.ElementTree as ET

import pytest
import reftorch
import torch

from diagram_programs import HARD, course_programs
from memdiagram import build_steps, show, step_through
from memdiagram._boxes import FONT
from memdiagram._geometry import label_problems, svg_items, text_box
from memdiagram._layout import SHRINK, compute_layout, fit
from memdiagram._svg import fit_svg

COURSE = course_programs()
LIBRARIES = {"torch": torch, "reftorch": reftorch}
# 2000: a wide screen; 966, 666, 366: what JupyterLab's output area has at 1400, 1100 and 800 px
# with the file browser open; 700: the narrowest width the figure must fill without shrinking.
WIDTHS = [2000, 966, 700, 666, 366, 250]


def arrangements(svg):
    head = svg[: svg.index(">")]
    return json.loads(re.search(r"data-arrangements='([^']*)'", head).group(1))


def steps_of(name):
    if name in COURSE:
        statements, namespace, library = COURSE[name]
        return build_steps(statements, LIBRARIES[library], namespace)
    return build_steps(HARD[name], torch)


def test_the_course_programs_are_found():
    assert len(COURSE) >= 9
    assert COURSE["08_clone.ipynb:1"][0][-1] == "(b * 2).sum().backward()"


@pytest.mark.parametrize("name", list(COURSE) + list(HARD))
def test_no_label_hides_or_spills_at_any_step_and_width(name):
    snapshots, _, svgs, _ = steps_of(name)
    assert name in COURSE or not any(s.error for s in snapshots)
    for step, svg in enumerate(svgs, 1):
        for width in WIDTHS:
            problems = label_problems(svg_items(fit_svg(svg, width)))
            assert not problems, f"{name} step {step} at {width}px: {problems[:3]}"


@pytest.mark.parametrize("name", list(HARD))
def test_hard_programs_on_reftorch_too(name):
    snapshots, _, svgs, _ = build_steps(HARD[name], reftorch)
    assert not any(s.error for s in snapshots)
    for step, svg in enumerate(svgs, 1):
        for width in (2000, 366):
            assert not label_problems(svg_items(fit_svg(svg, width))), f"{name} step {step} at {width}px"


@pytest.mark.parametrize("name", sorted(COURSE))
def test_fits_the_width_it_is_given(name):
    _, _, svgs, _ = steps_of(name)
    options = arrangements(svgs[0])
    for width in range(240, 2100, 17):
        f = fit(options, width)
        assert f.width * f.scale <= width + 0.5, f"{name}: {f.name} is wider than {width}px"
        # The widest arrangement that fits is chosen: no wider one would have fitted.
        wider = [a for a in options if a["width"] > options_by_name(options)[f.name]["width"]]
        assert all(a["width"] * SHRINK > width for a in wider)
        smallest = min(f.scale * s for *_, s in f.panels.values())
        if width >= 700:  # a laptop's notebook and wider: the boxes' text is drawn at 12 px at least
            assert smallest >= SHRINK and FONT * smallest >= 12, f"{name} at {width}px shrinks text to {smallest:.2f}"
        if width >= 366:  # JupyterLab at 800 px with the file browser open
            tensors = FONT * f.scale * f.panels["objects"][2]
            assert tensors >= 9.6, f"{name} at {width}px: tensor boxes' text at {tensors:.1f} px"


def options_by_name(options):
    return {a["name"]: a for a in options}


@pytest.mark.parametrize("name", sorted(COURSE))
def test_panels_never_overlap_in_any_arrangement(name):
    _, _, svgs, _ = steps_of(name)
    options = arrangements(svgs[0])
    assert [a["name"] for a in options][-1] == "stacked"
    assert [a["width"] for a in options[:-1]] == sorted((a["width"] for a in options[:-1]), reverse=True)
    for width in WIDTHS:
        f = fit(options, width)
        boxes = []
        for panel, (x, y, scale) in f.panels.items():
            w, h = options_by_name(options)[f.name]["sizes"][panel]
            boxes.append((x, y, x + w * scale, y + h * scale))
            assert x >= 0 and y >= 0 and x + w * scale <= f.width + 0.5 and y + h * scale <= f.height + 0.5
        for a, b in itertools.combinations(boxes, 2):
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])


def test_narrow_figure_stacks_panels_and_names_storages_instead_of_arrows():
    w = step_through(COURSE["01_reading_memory_diagrams.ipynb:1"][0], torch=torch)
    wide, narrow = fit_svg(w.svgs[4], 2000), fit_svg(w.svgs[4], 366)
    assert 'data-arrangement="wide"' in wide and 'data-arrangement="stacked"' in narrow
    assert '<g class="md-storage-arrows">' in wide and '<g class="md-storage-arrows" display="none">' in narrow
    root = ET.fromstring(narrow)
    assert int(root.get("width")) <= 366 and root.get("viewBox").startswith("0 0 ")
    # Without arrows, each tensor box still says which storage it looks into.
    snap = w.snapshots[4]
    for label, t in snap.tensors.items():
        assert f"storage {t.storage}  " in "".join(
            g for g in re.findall(rf'data-label="{label}" data-names[^>]*>(.*?)</g>', narrow))


def test_static_svg_scales_down_in_any_output():
    d = show(a=torch.ones(3))
    head = d.svg[: d.svg.index(">")]
    assert 'style="max-width:100%;height:auto"' in head and 'viewBox="0 0 ' in head


def test_layout_sizes_boxes_to_their_longest_line():
    w = step_through(HARD["long_names"], torch=torch)
    layout = compute_layout(w.snapshots)
    assert layout.name_w >= len("a_rather_long_variable_name") * 0.602 * 12
    text = "".join(w.svgs)
    assert "a_rather_long_variable_name" in text and "(third, x, y +2)" in text  # five names: three and "+2"


# --- the checker itself must catch what it is for -------------------------------------

def _svg(body):
    return f'<svg xmlns="http://www.w3.org/2000/svg" font-size="12">{body}</svg>'


def _box(x, y, w, h, cls="", fill="none", inner=""):
    return (f'<g class="{cls}"><rect class="md-frame" x="{x}" y="{y}" width="{w}" height="{h}" '
            f'fill="{fill}"/>{inner}</g>')


def test_checker_passes_a_clean_figure():
    body = _box(0, 0, 200, 60, inner='<text x="8" y="20">hello</text><text x="8" y="40">world</text>')
    assert label_problems(svg_items(_svg(body))) == []


@pytest.mark.parametrize("body, words", [
    ('<text x="8" y="20">hello</text><text x="20" y="24">world</text>', "overlaps"),
    (_box(0, 0, 50, 30, inner='<text x="8" y="20">far too long for it</text>'), "runs past its box"),
    ('<text x="8" y="20">hello</text>' + _box(30, 0, 100, 40), "crosses the edge"),
    ('<rect class="md-change-outline" x="20" y="10" width="50" height="50"/><text x="8" y="20">hi there</text>',
     "crosses the edge"),
    ('<text x="30" y="30">hidden</text>' + _box(0, 0, 200, 100, fill="#fff"), "painted over"),
    ('<text x="8" y="20">label</text>' + _box(10, 5, 40, 15, cls="md-badge", fill="#D55E00",
                                                  inner='<text x="12" y="17">new</text>'), "overlaps"),
])
def test_checker_catches_hidden_and_spilling_labels(body, words):
    problems = label_problems(svg_items(_svg(body)))
    assert problems and words in problems[0]


def test_checker_allows_a_badge_on_an_outline_and_reads_scaled_panels():
    badge = _box(60, -11, 30, 15, cls="md-badge", fill="#D55E00", inner='<text x="64" y="0">new</text>')
    body = '<rect class="md-change-outline" x="0" y="-4" width="100" height="50"/>' + badge
    assert label_problems(svg_items(_svg(body))) == []
    scaled = svg_items(_svg('<g transform="translate(10,20) scale(0.5)"><text x="100" y="40">ab</text></g>'))
    assert scaled[0]["box"] == pytest.approx([10 + 50, 20 + 0.5 * (40 - 0.928 * 12),
                                              10 + 0.5 * (100 + 2 * 0.602 * 12), 20 + 0.5 * (40 + 0.236 * 12)])
    assert text_box(10, 10, "abc", 10, "middle")[0] == pytest.approx(10 - 1.5 * 6.02)
