"""Where everything goes, decided once for all the steps.

A layout is computed from *every* snapshot of a step-through together, and
each object keeps its place at every step: a name, a tensor, a storage, a
graph node gets a slot the first time it appears and never moves. Objects
that do not exist yet (or any more) leave their slot empty. That is what
lets a learner step back and forth and see only the changes move.

Four columns, left to right: names; tensor objects; the storages (a strip of
slots each, with one row per tensor that looks into it); then the autograd
graph in its own panel. Shared version counters are vertical "lanes" between
the tensor column and the storages. Graph nodes are placed in rows by their
distance from the leaves (AccumulateGrad at the bottom), a number that never
changes for a node, since a node's inputs are fixed when it is made.
"""

from dataclasses import dataclass, field

TOP = 58              # below the panel titles
NAME_X, NAME_W, NAME_H, NAME_STEP = 16, 84, 24, 32
TENSOR_X, TENSOR_W, TENSOR_H, TENSOR_STEP = 136, 268, 104, 124
LANE_STEP = 14
CELL_MAX, CELL_MIN, STRIP_MAX_W = 38, 9, 520
STRIP_H, ROW_H, STORAGE_HEAD, STORAGE_GAP = 26, 18, 20, 30
VIEWER_LABEL_W = 40
NODE_W, NODE_H, NODE_COL, NODE_ROW = 168, 28, 184, 76
GRAPH_PAD = 24


@dataclass
class Layout:
    width: int = 0
    height: int = 0
    names: dict = field(default_factory=dict)       # name -> (x, y)
    tensors: dict = field(default_factory=dict)     # label -> (x, y)
    colour_index: dict = field(default_factory=dict)  # tensor label -> int
    lanes: dict = field(default_factory=dict)       # counter label -> x
    storages: dict = field(default_factory=dict)    # label -> (x, y, cell_w, cells)
    rows: dict = field(default_factory=dict)        # (storage, tensor) -> y of the viewer row
    storage_x: int = 0
    graph_x: int = 0
    nodes: dict = field(default_factory=dict)       # label -> (x, y)


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


def compute_layout(snapshots):
    layout = Layout()
    names = _first_seen(snapshots, "names")
    tensors = _first_seen(snapshots, "tensors")
    for i, name in enumerate(names):
        layout.names[name] = (NAME_X, TOP + i * NAME_STEP)
    tensor_slot = {label: i for i, label in enumerate(tensors)}
    for label, i in tensor_slot.items():
        layout.tensors[label] = (TENSOR_X, TOP + i * TENSOR_STEP)
        layout.colour_index[label] = i

    lanes = _assign_lanes(snapshots, tensor_slot)
    lane_x0 = TENSOR_X + TENSOR_W + 18
    n_lanes = 1 + max(lanes.values(), default=-1)
    for label, lane in lanes.items():
        layout.lanes[label] = lane_x0 + lane * LANE_STEP
    layout.storage_x = storage_x = lane_x0 + n_lanes * LANE_STEP + 36

    # Storages: one block each, with a viewer row for every tensor that ever looked into it.
    viewers, cells = {}, {}
    for snap in snapshots:
        for label, storage in snap.storages.items():
            rows = viewers.setdefault(label, [])
            rows.extend(t for t in storage.tensors if t not in rows)
            count = len(storage.values) if storage.values is not None else 0
            cells[label] = max(cells.get(label, 0), count)
    y = TOP
    widest = 200
    for label in _first_seen(snapshots, "storages"):
        rows = sorted(viewers[label], key=tensor_slot.get)
        count = cells[label]
        cell_w = max(CELL_MIN, min(CELL_MAX, STRIP_MAX_W // max(count, 1)))
        layout.storages[label] = (storage_x, y, cell_w, count)
        widest = max(widest, VIEWER_LABEL_W + count * cell_w)
        row_y = y + STORAGE_HEAD + STRIP_H + 6
        for t in rows:
            layout.rows[(label, t)] = row_y
            row_y += ROW_H
        y = row_y + STORAGE_GAP
    storage_bottom = y

    # The graph panel.
    layout.graph_x = graph_x = storage_x + widest + 48
    heights = _node_heights(snapshots)
    top_height = max(heights.values(), default=0)
    per_row = {}
    for label in _first_seen(snapshots, "nodes"):
        h = heights[label]
        column = per_row.get(h, 0)
        per_row[h] = column + 1
        layout.nodes[label] = (graph_x + GRAPH_PAD + column * NODE_COL,
                               TOP + 24 + (top_height - h) * NODE_ROW)
    columns = max(per_row.values(), default=1)
    graph_w = 2 * GRAPH_PAD + columns * NODE_COL
    graph_bottom = TOP + 24 + top_height * NODE_ROW + NODE_H + 70

    layout.width = graph_x + max(graph_w, 240) + 16
    layout.height = max(
        TOP + len(names) * NAME_STEP,
        TOP + len(tensors) * TENSOR_STEP,
        storage_bottom,
        graph_bottom,
    ) + 16
    return layout
