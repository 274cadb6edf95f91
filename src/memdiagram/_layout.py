"""Where everything goes, decided once for all the steps.

A layout is computed from *every* snapshot of a step-through together, and
each object keeps its place at every step: a name, a tensor, a storage, a
graph node gets a slot the first time it appears and never moves. Objects
that do not exist yet (or any more) leave their slot empty. That is what
lets a learner step back and forth and see only the changes move.

The figure is made of three *panels*, each laid out in its own coordinates:

* ``objects``: names on the left, tensor objects in a column, and the shared
  version counters as vertical "lanes" to the right of the tensors;
* ``storages``: one block per allocation, a strip of slots with one row per
  tensor that looks into it;
* ``graph``: the autograd graph, nodes in rows by their distance from the
  leaves (AccumulateGrad at the bottom), a number that never changes for a
  node, since a node's inputs are fixed when it is made. Two nodes that are
  never drawn at the same step (a view's ``grad_fn`` replaced after an
  in-place write) may share a place.

Every box is as wide as its longest line of text (``_boxes``, measured with
``_geometry``), so no label is cut short.

The panels are then *arranged* in four ways: all side by side; the graph
under the storages, right of the tensors; the graph below the other two;
all three stacked. ``fit`` picks the widest arrangement that fits the width
it is given, scaled down a little if needed; when none fits, the panels are
stacked and each is shrunk on its own to the width. The static picture is
fitted to ``STATIC_WIDTH``; the widget refits it in the browser whenever its
width changes. Arrows from tensors to their storage rows are drawn only while
the storages sit to the right of the tensors; stacked, each storage row still
names its tensor and each tensor box names its storage.
"""

from dataclasses import dataclass, field

from . import _boxes as B
from coursebook.language import _

from ._geometry import text_width

HEAD_Y = 20           # baseline of the panel headings
TOP = 44              # first row of every panel
PAD = 16

NAME_X, NAME_H, NAME_STEP = 16, 24, 32
GUTTER = 36           # between names and tensors: name arrows and .grad links
SWATCH = 12           # the patterned strip on a tensor box's left edge
TEXT_X = SWATCH + 6   # where a tensor box's text starts
TAG_W, TAG_H = 52, 17
TENSOR_H = 16 + B.LINE * 6 + 8
TENSOR_STEP = TENSOR_H + 24
LANE_STEP = 14

CELL_MAX, CELL_MIN, STRIP_MAX_W = 38, 9, 380
STRIP_H, ROW_H, STORAGE_GAP = 26, 18, 28
BLOCK_PAD = 8
VIEWER_LABEL_W = 40
STRIP_TOP = 38        # from a storage block's top to its strip

NODE_ROW_GAP = 50     # between node rows: edges, and the leaf box under AccumulateGrad
NODE_COL_GAP = 20
LEAF_H = 20
PANEL_GAP = 12

STATIC_WIDTH = 1000   # the width a static picture is arranged for
SHRINK = 0.96         # an arrangement is chosen if it fits at 96% of its size


@dataclass
class Panel:
    width: float = 0
    height: float = 0


@dataclass
class Arrangement:
    """Where each panel goes at natural size: ``panels[name] = (x, y)``.

    ``arrows``: the tensor-to-storage arrows are shown (the storages sit right
    of the tensors). ``stack``: for the stacked arrangement, the panels top to
    bottom as ``[name, x, gap above]``, each of which ``fit`` may shrink on its
    own; ``sizes``: each panel's ``[width, height]``."""

    name: str
    width: float
    height: float
    panels: dict
    arrows: bool
    sizes: dict
    stack: list = None

    def as_json(self):
        return {"name": self.name, "width": round(self.width), "height": round(self.height),
                "panels": {k: [round(x), round(y)] for k, (x, y) in self.panels.items()},
                "sizes": {k: [round(w), round(h)] for k, (w, h) in self.sizes.items()},
                "arrows": self.arrows, "stack": self.stack}


@dataclass
class Fit:
    """An arrangement fitted to a width: the SVG's viewBox size, its overall
    scale, and each panel's ``(x, y, scale)``."""

    name: str
    width: float
    height: float
    scale: float
    panels: dict
    arrows: bool


def fit(arrangements, width):
    """Fit the panels into ``width`` pixels. ``static/widget.js`` does the same in the browser.

    The widest arrangement that fits (after shrinking by at most 4%) is
    scaled down to the width; if none fits, the panels are stacked and each
    one wider than the width is shrunk on its own, so a wide graph does not
    make the tensor boxes small. ``arrangements`` are ``Arrangement`` objects
    or their ``as_json()`` dicts (as read back from an SVG); sizes are rounded
    as in ``as_json``."""
    arrangements = [a if isinstance(a, dict) else a.as_json() for a in arrangements]
    chosen = arrangements[-1]
    for arrangement in arrangements:
        if arrangement["width"] * SHRINK <= width:
            chosen = arrangement
            break
    if chosen["stack"] is None or chosen["width"] <= width:
        panels = {name: (x, y, 1.0) for name, (x, y) in chosen["panels"].items()}
        return Fit(chosen["name"], chosen["width"], chosen["height"], min(1.0, width / chosen["width"]),
                   panels, chosen["arrows"])
    panels, y, right = {}, 0.0, 0.0
    for name, x, gap in chosen["stack"]:
        w, h = chosen["sizes"][name]
        scale = min(1.0, (width - 2 * x) / w)
        y += gap
        panels[name] = (x, y, scale)
        y += h * scale
        right = max(right, 2 * x + w * scale)
    return Fit(chosen["name"], right, y + 8, 1.0, panels, chosen["arrows"])


@dataclass
class Layout:
    panels: dict = field(default_factory=dict)        # "objects" | "storages" | "graph" -> Panel
    arrangements: list = field(default_factory=list)  # widest first
    # objects panel
    names: dict = field(default_factory=dict)         # name -> (x, y)
    name_w: float = 0
    tensor_x: float = 0
    tensor_w: float = 0
    tensors: dict = field(default_factory=dict)       # label -> (x, y)
    colour_index: dict = field(default_factory=dict)  # tensor label -> int
    lanes: dict = field(default_factory=dict)         # counter label -> x
    # storages panel
    storages: dict = field(default_factory=dict)      # label -> (x, y, cell_w, cells, width, height)
    rows: dict = field(default_factory=dict)          # (storage, tensor) -> y of the viewer row
    # graph panel
    nodes: dict = field(default_factory=dict)         # label -> (x, y)
    node_w: float = 0
    node_h: float = 0

    def fit(self, width=STATIC_WIDTH):
        return fit(self.arrangements, width)


def _first_seen(snapshots, attribute):
    order = {}
    for snap in snapshots:
        for key in getattr(snap, attribute):
            order.setdefault(key, len(order))
    return list(order)


def _node_heights(snapshots):
    """Distance from the leaves: 0 for AccumulateGrad, 1 + the highest input otherwise."""
    heights = {}

    def height(snap, label):
        if label not in heights:
            heights[label] = 0  # guards against cycles, which a graph never has
            nxt = snap.nodes[label].next
            heights[label] = 1 + max((height(snap, n) for n in nxt), default=-1)
        return heights[label]

    for snap in snapshots:
        for label in snap.nodes:
            height(snap, label)
    return heights


def _assign_lanes(snapshots, tensor_slot):
    """A lane per counter that is ever shared; lanes are reused where they do not overlap."""
    spans = {}
    for snap in snapshots:
        for label, counter in snap.counters.items():
            if len(counter.tensors) > 1:
                slots = [tensor_slot[t] for t in counter.tensors]
                low, high = spans.get(label, (min(slots), max(slots)))
                spans[label] = (min(low, *slots), max(high, *slots))
    lanes, used = {}, []
    for label, (low, high) in spans.items():
        lane = 0
        while any(l == lane and not (high < a or low > b) for l, a, b in used):
            lane += 1
        used.append((lane, low, high))
        lanes[label] = lane
    return lanes


def badge_width(word):
    return text_width(word, B.BADGE) + 8


# The widest change marks a tensor box's last row may carry, left of the counter tag.
_COUNTER_BADGE = max(badge_width("new counter"), badge_width("\u65b0\u8ba1\u6570\u5668"))  # English, Chinese


def _layout_objects(layout, snapshots):
    names = _first_seen(snapshots, "names")
    tensors = _first_seen(snapshots, "tensors")
    layout.name_w = max([60] + [text_width(n, B.FONT) + 20 for n in names])
    for i, name in enumerate(names):
        layout.names[name] = (NAME_X, TOP + i * NAME_STEP)
    layout.tensor_x = tx = NAME_X + layout.name_w + GUTTER
    widest = max(text_width(_("tensor objects"), B.FONT), 200)
    for snap in snapshots:
        for label, t in snap.tensors.items():
            lines = B.tensor_lines(t)
            widest = max(widest, text_width(B.tensor_head(snap, label), B.FONT),
                         *(text_width(line, B.FONT) for line in lines[:-1]),
                         text_width(lines[-1], B.FONT) + 8 + _COUNTER_BADGE + 6 + TAG_W)
    layout.tensor_w = tw = TEXT_X + widest + 10
    slot = {label: i for i, label in enumerate(tensors)}
    for label, i in slot.items():
        layout.tensors[label] = (tx, TOP + i * TENSOR_STEP)
        layout.colour_index[label] = i
    lanes = _assign_lanes(snapshots, slot)
    lane_x0 = tx + tw + 14
    for label, lane in lanes.items():
        layout.lanes[label] = lane_x0 + lane * LANE_STEP
    n_lanes = 1 + max(lanes.values(), default=-1)
    width = (lane_x0 + n_lanes * LANE_STEP if n_lanes else tx + tw) + 12
    height = max(TOP + len(names) * NAME_STEP, TOP + len(tensors) * TENSOR_STEP)
    layout.panels["objects"] = Panel(width, height)


def _layout_storages(layout, snapshots, tensor_order):
    viewers, cells, titles, values = {}, {}, {}, {}
    for snap in snapshots:
        for label, storage in snap.storages.items():
            rows = viewers.setdefault(label, [])
            rows.extend(t for t in storage.tensors if t not in rows)
            count = len(storage.values) if storage.values is not None else 0
            cells[label] = max(cells.get(label, 0), count)
            values[label] = max([values.get(label, 0)] + [text_width(B.cell_text(v), B.FONT) + 6
                                                           for v in storage.values or ()])
            big, small = B.storage_title(storage)
            titles[label] = max(titles.get(label, 0), text_width(big, B.FONT), text_width(small, B.SMALL))
    x, y = PAD, TOP
    widest = text_width(_("storages (memory)"), B.FONT)
    for label in _first_seen(snapshots, "storages"):
        rows = sorted(viewers[label], key=tensor_order.get)
        count = cells[label]
        # Wide enough for the values (no wider than the strip allows); a value that does not fit is left out.
        cell_w = max(CELL_MIN, min(max(CELL_MAX, values[label]), STRIP_MAX_W // max(count, 1)))
        row_y = y + STRIP_TOP + STRIP_H + 6
        for t in rows:
            layout.rows[(label, t)] = row_y
            row_y += ROW_H
        width = BLOCK_PAD + max(titles[label], VIEWER_LABEL_W + count * cell_w) + BLOCK_PAD
        height = row_y + 4 - y
        layout.storages[label] = (x, y, cell_w, count, width, height)
        widest = max(widest, width)
        y += height + STORAGE_GAP
    layout.panels["storages"] = Panel(PAD + widest + PAD, y)


def _node_columns(snapshots, heights):
    """A column for each node in its row; nodes that are never drawn at the same step may share one."""
    steps = {}
    for i, snap in enumerate(snapshots):
        for label in snap.nodes:
            first, _last = steps.get(label, (i, i))
            steps[label] = (first, i)
    taken = {}   # (row, column) -> [(first, last), ...]
    columns = {}
    for label in _first_seen(snapshots, "nodes"):
        first, last = steps[label]
        column = 0
        while any(not (last < a or first > b) for a, b in taken.get((heights[label], column), ())):
            column += 1
        taken.setdefault((heights[label], column), []).append((first, last))
        columns[label] = column
    return columns


def _layout_graph(layout, snapshots):
    heights = _node_heights(snapshots)
    top_height = max(heights.values(), default=0)
    widest, lines = 120, 1
    bottom_leaves = False
    for snap in snapshots:
        for label, n in snap.nodes.items():
            node = B.node_lines(snap, label)
            lines = max(lines, len(node))
            widest = max(widest, *(text_width(text, size) for text, size in node))
            if n.variable is not None:
                widest = max(widest, text_width(B.leaf_text(snap, n.variable), B.FONT))
                bottom_leaves = bottom_leaves or heights[label] == 0
    layout.node_w = nw = widest + 16
    layout.node_h = nh = 24 + 13 * (lines - 1)
    col_step, row_step = nw + NODE_COL_GAP, nh + NODE_ROW_GAP
    columns = 1
    for label, column in _node_columns(snapshots, heights).items():
        columns = max(columns, column + 1)
        layout.nodes[label] = (PAD + column * col_step, TOP + 10 + (top_height - heights[label]) * row_step)
    width = max(PAD + columns * col_step - NODE_COL_GAP + PAD,
                12 + text_width("(empty: no grad_fn)", B.FONT) + PAD)
    height = TOP + 10 + top_height * row_step + nh + (30 + LEAF_H if bottom_leaves else 0) + PAD
    layout.panels["graph"] = Panel(width, height)


def _arrange(layout):
    """Every way to place the panels, widest first (see the module docstring)."""
    o, s, g = (layout.panels[k] for k in ("objects", "storages", "graph"))
    sizes = {k: (p.width, p.height) for k, p in layout.panels.items()}
    top = max(o.height, s.height)
    right = s.height + PANEL_GAP
    arrangements = [
        Arrangement("wide", o.width + s.width + g.width + 8, max(top, g.height + 6) + 8,
                    {"objects": (0, 0), "storages": (o.width, 0), "graph": (o.width + s.width, 6)}, True, sizes),
        Arrangement("graph-under-storages", o.width + max(s.width, g.width + 16),
                    max(o.height, right + g.height) + 8,
                    {"objects": (0, 0), "storages": (o.width, 0), "graph": (o.width + 8, right)}, True, sizes),
        Arrangement("graph-below", max(o.width + s.width, g.width + 16), top + PANEL_GAP + g.height + 8,
                    {"objects": (0, 0), "storages": (o.width, 0), "graph": (8, top + PANEL_GAP)}, True, sizes),
    ]
    arrangements.sort(key=lambda a: -a.width)
    arrangements.append(Arrangement(
        "stacked", max(o.width, s.width, g.width + 16), o.height + s.height + PANEL_GAP + g.height + 8,
        {"objects": (0, 0), "storages": (0, o.height), "graph": (8, o.height + s.height + PANEL_GAP)},
        False, sizes, [["objects", 0, 0], ["storages", 0, 0], ["graph", 8, PANEL_GAP]]))
    layout.arrangements = arrangements


def compute_layout(snapshots):
    layout = Layout()
    _layout_objects(layout, snapshots)
    order = {label: i for i, label in enumerate(_first_seen(snapshots, "tensors"))}
    _layout_storages(layout, snapshots, order)
    _layout_graph(layout, snapshots)
    _arrange(layout)
    return layout
