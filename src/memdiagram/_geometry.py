"""How much room a label takes, and whether the labels of a figure collide.

The diagram writes every label in one monospace font (DejaVu Sans Mono, or
Menlo or Consolas where that is missing). In a monospace font every
character has the same advance, 0.602 of the font size in DejaVu Sans Mono,
so a label's width is its length times that; its height is the font's ascent
plus descent (0.928 + 0.236 of the size). ``_layout`` sizes every box from
these numbers, so that no label needs to be cut short to fit.

The second half checks a finished figure. A figure is described as a list of
*items*, each a dict with:

* ``kind``: ``"text"``, ``"frame"`` (a box that encloses labels: a tensor box,
  a storage block, a graph node, a panel, a badge) or ``"outline"`` (the
  dashed mark around something that changed);
* ``box``: ``(x0, y0, x1, y1)``, in one coordinate system for all items;
* ``id``, ``order`` (document order, which is painting order), ``frames``
  (ids of the frames around the item, nearest first), ``filled`` (a frame
  with a background, which hides what was painted before it), ``opaque`` (a
  frame that is itself a label, like a badge) and ``label`` (its text).

``svg_items(svg)`` builds that list from the SVG text, estimating text boxes
with the metrics above. The browser tests build the same list from real boxes
measured with ``getBBox()`` in Chromium, and both give it to
``label_problems``, which lists every label that hides under another, leaves
its box or crosses a box's edge.
"""

import unicodedata
import re
import xml.etree.ElementTree as ET

ADVANCE = 0.602      # character width / font size, DejaVu Sans Mono
WIDE = 1.0           # a wide (CJK) character's width / font size
ASCENT = 0.928       # above the baseline / font size
DESCENT = 0.236      # below the baseline / font size
TOLERANCE = 0.5      # pixels: boxes that overlap by less do not touch


def text_width(text, size):
    """Width in pixels of ``text`` at font size ``size``: a wide character (Chinese) takes a
    whole em, any other the monospace advance."""
    return sum(WIDE if unicodedata.east_asian_width(c) in "WF" else ADVANCE for c in str(text)) * size


def text_box(x, y, text, size, anchor="start"):
    """``(x0, y0, x1, y1)`` of a label written at baseline ``y``."""
    width = text_width(text, size)
    x0 = x - {"start": 0, "middle": width / 2, "end": width}[anchor]
    return (x0, y - ASCENT * size, x0 + width, y + DESCENT * size)


# --- reading the boxes of an SVG ---------------------------------------------

_SVG = "{http://www.w3.org/2000/svg}"
_TRANSFORM = re.compile(r"^\s*translate\(\s*([-\d.]+)[\s,]+([-\d.]+)\s*\)(?:\s*scale\(\s*([-\d.]+)\s*\))?\s*$")


def _compose(element, place):
    """``place`` = (scale, dx, dy) maps this element's coordinates to the figure's."""
    transform = element.get("transform")
    if not transform:
        return place
    match = _TRANSFORM.match(transform)
    if match is None:
        raise ValueError(f"svg_items reads translate() and scale() transforms only, not {transform!r}")
    scale, dx, dy = place
    tx, ty, own = float(match.group(1)), float(match.group(2)), float(match.group(3) or 1)
    return scale * own, dx + scale * tx, dy + scale * ty


def _map(box, place):
    scale, dx, dy = place
    return (dx + scale * box[0], dy + scale * box[1], dx + scale * box[2], dy + scale * box[3])


def _rect_box(rect, place):
    x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
    return _map((x, y, x + float(rect.get("width")), y + float(rect.get("height"))), place)


def svg_items(svg, root_size=12):
    """The items (see the module docstring) of an SVG made by ``render_svg``."""
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    items = []

    def visit(element, place, size, frames, hidden):
        place = _compose(element, place)
        size = float(element.get("font-size", size))
        hidden = hidden or element.get("display") == "none"
        classes = element.get("class", "").split()
        tag = element.tag.replace(_SVG, "")
        if tag == "g":
            frame = next((c for c in element if c.tag == _SVG + "rect"
                          and "md-frame" in c.get("class", "").split()), None)
            if frame is not None and not hidden:
                fill = frame.get("fill", "none")
                items.append({"kind": "frame", "box": _rect_box(frame, place), "id": len(items),
                              "order": len(items), "frames": list(frames), "label": " ".join(classes),
                              "filled": fill not in ("none", "transparent"), "opaque": "md-badge" in classes})
                frames = [items[-1]["id"], *frames]
        elif tag == "rect" and "md-change-outline" in classes and not hidden:
            items.append({"kind": "outline", "box": _rect_box(element, place), "id": len(items),
                          "order": len(items), "frames": list(frames), "label": "outline",
                          "filled": False, "opaque": False})
        elif tag == "text" and not hidden:
            text = "".join(element.itertext())
            box = text_box(float(element.get("x", 0)), float(element.get("y", 0)), text, size,
                           element.get("text-anchor", "start"))
            items.append({"kind": "text", "box": _map(box, place), "id": len(items), "order": len(items),
                          "frames": list(frames), "label": text, "filled": True, "opaque": True})
            return
        for child in element:
            if child.tag in (_SVG + "title", _SVG + "desc", _SVG + "defs"):
                continue
            visit(child, place, size, frames, hidden)

    visit(root, (1.0, 0.0, 0.0), float(root.get("font-size", root_size)), [], False)
    return items


# --- checking them -----------------------------------------------------------

def _overlap(a, b):
    """True when boxes a and b share more than a sliver."""
    return (min(a[2], b[2]) - max(a[0], b[0]) > TOLERANCE
            and min(a[3], b[3]) - max(a[1], b[1]) > TOLERANCE)


def _inside(inner, outer):
    return (inner[0] >= outer[0] - TOLERANCE and inner[1] >= outer[1] - TOLERANCE
            and inner[2] <= outer[2] + TOLERANCE and inner[3] <= outer[3] + TOLERANCE)


def label_problems(items):
    """Every way a label is hidden or spills, as sentences (empty when the figure is clean).

    1. A label lies inside the nearest frame around it.
    2. No two labels overlap, and no badge covers a label that is not its own.
    3. A label never straddles the edge of a frame or change outline it does not
       belong to: it is wholly inside it or wholly outside it (a badge may sit
       on an edge painted before it: its background covers the line); and it
       is not inside a filled frame painted over it.
    """
    by_id = {item["id"]: item for item in items}
    texts = [i for i in items if i["kind"] == "text"]
    problems = []

    def name(item):
        return f"{item['label']!r} at ({item['box'][0]:.0f}, {item['box'][1]:.0f})"

    for t in texts:
        if t["frames"]:
            frame = by_id[t["frames"][0]]
            if not _inside(t["box"], frame["box"]):
                problems.append(f"label {name(t)} runs past its box {frame['label']!r} {_fmt(frame['box'])}")
    solid = texts + [i for i in items if i["kind"] == "frame" and i["opaque"]]
    for n, a in enumerate(solid):
        for b in solid[n + 1:]:
            if a["id"] in b["frames"] or b["id"] in a["frames"]:
                continue
            if _overlap(a["box"], b["box"]):
                problems.append(f"label {name(a)} overlaps {name(b)}")
    edges = [i for i in items if i["kind"] in ("frame", "outline") and not i["opaque"]]
    for t in texts:
        own = by_id[t["frames"][0]] if t["frames"] else None
        for e in edges:
            if e["id"] in t["frames"] or not _overlap(t["box"], e["box"]):
                continue
            if own is not None and own["opaque"] and own["order"] > e["order"]:
                continue  # a badge on an edge: its own background covers the line
            if not _inside(t["box"], e["box"]):
                problems.append(f"label {name(t)} crosses the edge of {e['label']!r} {_fmt(e['box'])}")
            elif e["filled"] and e["order"] > t["order"]:
                problems.append(f"label {name(t)} is painted over by {e['label']!r} {_fmt(e['box'])}")
    return problems


def _fmt(box):
    return "(" + ", ".join(f"{v:.0f}" for v in box) + ")"
