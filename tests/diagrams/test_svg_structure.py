"""The SVG, parsed: every object of the model is drawn once, labelled and accessible."""

import pathlib
import re
import xml.etree.ElementTree as ET

import torch

from memdiagram import show, step_through
from memdiagram._palette import COLOURS

NS = {"svg": "http://www.w3.org/2000/svg"}
STATIC = pathlib.Path(__file__).parents[2] / "src" / "memdiagram" / "static"


def groups(root, cls):
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g")
            if cls in g.get("class", "").split()]


def test_static_diagram_draws_every_object(lib):
    a = lib.arange(6.0).reshape(2, 3)
    b = a.t()
    c = a[:, 1]
    d = show(a=a, b=b, c=c)
    root = ET.fromstring(d.svg)
    snap = d.snapshot
    assert root.get("role") == "img" and root.get("aria-label").startswith("Memory diagram of a, b, c")
    assert root.find("svg:title", NS).text == "Memory diagram of a, b, c"
    assert root.find("svg:desc", NS).text == d.narration
    assert {g.get("data-name"): g.get("data-target") for g in groups(root, "md-name")} == snap.names
    assert sorted(g.get("data-label") for g in groups(root, "md-tensor")) == sorted(snap.tensors)
    assert sorted(g.get("data-label") for g in groups(root, "md-storage")) == sorted(snap.storages)
    # Each view row highlights exactly the slots the model computed, cell by cell.
    for row in groups(root, "md-view"):
        info = snap.tensors[row.get("data-tensor")]
        covered = [int(r.get("data-slot")) for r in row.iter("{http://www.w3.org/2000/svg}rect")
                   if "md-covered" in r.get("class", "")]
        assert covered == list(info.slots)
    c_slots = snap.tensors[snap.names["c"]].slots
    assert c_slots == (1, 4)
    # One arrow per name and one per tensor-to-storage row.
    arrows = [p.get("class") for p in root.iter("{http://www.w3.org/2000/svg}path")
              if "md-arrow" in p.get("class", "")]
    assert arrows.count("md-arrow md-arrow-name") == 3
    assert arrows.count("md-arrow md-arrow-storage") == len(snap.tensors)
    # Nothing is marked as changed in a static picture.
    assert "md-changed" not in d.svg


def test_shared_counter_drawn_as_one_lane(lib):
    a = lib.ones(3)
    d = show(a=a, v=a[1:], e=a.data)
    root = ET.fromstring(d.svg)
    counters = {g.get("data-label"): g for g in groups(root, "md-counter")}
    shared = [g for g in counters.values() if len(g.get("data-tensors").split()) == 2]
    assert len(shared) == 1 and len(counters) == 2
    assert any("md-lane" == p.get("class") for p in shared[0].iter("{http://www.w3.org/2000/svg}path"))


def test_graph_panel_has_nodes_edges_and_leaf(lib):
    x = lib.ones(2, requires_grad=True)
    d = show(y=(x * 3).sum())
    root = ET.fromstring(d.svg)
    names = sorted(g.get("data-name") for g in groups(root, "md-node"))
    assert names == ["AccumulateGrad", "MulBackward0", "SumBackward0"]
    edges = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if "md-edge" in p.get("class", "")]
    assert len(edges) == 3  # Sum -> Mul, Mul -> AccumulateGrad, AccumulateGrad -> leaf
    assert len(groups(root, "md-leaf")) == 1


def test_changed_things_carry_marks_and_words(lib):
    w = step_through(["a = torch.ones(3)", "v = a[1:]", "v.add_(1)"], torch=lib)
    root = ET.fromstring(w.svgs[2])
    changed = {g.get("class").split()[0] for g in groups(root, "md-changed")}
    assert changed == {"md-counter", "md-storage"}
    assert "v+1" in w.svgs[2] and "values changed" in w.svgs[2]
    assert len([r for r in root.iter("{http://www.w3.org/2000/svg}rect")
                if "md-changed-cell" in r.get("class", "")]) == 2


def test_layout_is_stable_across_steps(lib):
    w = step_through(["a = torch.ones(3)", "b = a.clone()", "c = a[1:]", "del b"], torch=lib)
    positions = []
    for svg in w.svgs:
        root = ET.fromstring(svg)
        rects = {g.get("data-label"): g.find("svg:rect", NS).get("y") for g in groups(root, "md-tensor")}
        positions.append(rects)
        assert root.get("width") == ET.fromstring(w.svgs[0]).get("width")
    for later in positions[1:]:
        for label, y in later.items():
            assert all(p.get(label, y) == y for p in positions)


def test_palette_and_patterns(lib):
    svg = show(a=lib.ones(2), b=lib.ones(2), c=lib.ones(2)).svg
    root = ET.fromstring(svg)
    patterns = list(root.iter("{http://www.w3.org/2000/svg}pattern"))
    assert len(patterns) == 3
    assert len({ET.tostring(p).split(b">", 1)[1] for p in patterns}) == 3  # all different
    assert set(re.findall(r"#[0-9A-F]{6}", svg)) & set(COLOURS)


def test_widget_outputs_and_static_fallback():
    w = step_through(["a = torch.ones(2)", "b = a"], torch=torch)
    data, _ = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    film = ET.fromstring(data["image/svg+xml"])
    assert len(film.findall("svg:svg", NS)) == 2
    assert data["text/plain"].startswith("Step 1 of 2: a = torch.ones(2)")
    static = show(a=torch.ones(1))._repr_mimebundle_()
    assert set(static) == {"image/svg+xml", "text/plain"}


def test_widget_code_ships_in_the_package_and_loads_nothing_remote():
    js = (STATIC / "widget.js").read_text()
    css = (STATIC / "widget.css").read_text()
    assert "export default" in js
    for text in (js, css):
        assert not re.search(r"https?://|import\s*\(|from\s+['\"]", text)
    from memdiagram._widget import MemoryDiagram

    assert MemoryDiagram._esm == js


def test_save_svg(tmp_path, lib):
    w = step_through(["a = torch.ones(2)"], torch=lib)
    path = w.save_svg(tmp_path / "one.svg", step=1)
    assert ET.parse(path).getroot().get("class") == "md-diagram"
