"""Drawing one snapshot as SVG text, with our own small renderer.

No Graphviz, no browser: the SVG is built as a string from the ``Layout``
(where things go) and the ``Snapshot`` (what to draw). Every drawn object is a
``<g>`` with a class (``md-name``, ``md-tensor``, ``md-counter``,
``md-storage``, ``md-view``, ``md-node``, ``md-leaf``) and ``data-*``
attributes naming the object, so tests and scripts can read the picture
back. Whatever changed in this step carries the class ``md-changed``, a
dashed outline and a word saying what changed.

The picture has a ``<title>``, an ``aria-label`` and a ``<desc>`` holding the
narration, so a screen reader gets the same content as the eye.
"""

import itertools
from xml.sax.saxutils import escape, quoteattr

from . import _layout as L
from ._diff import Changes
from ._palette import CHANGE, INK, MUTED, PAPER, colour, pattern_svg

_ids = itertools.count(1)
CHAR_W = 7.2
_DASHED = ' stroke-dasharray="4 2"'
_DOTTED = ' stroke-dasharray="2 2"'  # width of one character of the 12px monospace font


def _fmt_value(v):
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def _text(x, y, s, cls="", anchor="start", weight=None, size=None, fill=None):
    extra = f' font-weight="{weight}"' if weight else ""
    extra += f' font-size="{size}"' if size else ""
    extra += f' fill="{fill}"' if fill else ""
    extra += f' class="{cls}"' if cls else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{extra}>{escape(str(s))}</text>'


def _badge(x, y, word):
    """A change mark: a word on a vermillion tag (colour and text both say it)."""
    w = len(word) * 6.6 + 8
    return (f'<g class="md-badge"><rect x="{x:.1f}" y="{y - 11:.1f}" width="{w:.1f}" height="14" rx="3" '
            f'fill="{CHANGE}"/>{_text(x + 4, y, word, size=11, fill=PAPER, weight="bold")}</g>')


def _outline(x, y, w, h):
    return (f'<rect class="md-change-outline" x="{x - 4:.1f}" y="{y - 4:.1f}" width="{w + 8:.1f}" '
            f'height="{h + 8:.1f}" rx="6" fill="none" stroke="{CHANGE}" stroke-width="2.5" '
            'stroke-dasharray="7 4"/>')


def _arrow(x1, y1, x2, y2, cls, marker, colour_=INK, dash=None):
    mid = (x1 + x2) / 2
    d = f"M{x1:.1f},{y1:.1f} C{mid:.1f},{y1:.1f} {mid:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<path class="md-arrow {cls}" d="{d}" fill="none" stroke="{colour_}" stroke-width="1.6"'
            f'{dash_attr} marker-end="url(#{marker})"/>')


def _group(cls, attrs, body, changed):
    cls = cls + (" md-changed" if changed else "")
    attr_text = "".join(f" data-{k}={quoteattr(str(v))}" for k, v in attrs.items())
    return f'<g class="{cls}"{attr_text}>{body}</g>'


def render_svg(snap, layout, changes=None, title="Memory diagram", narration=""):
    """The SVG text for ``snap`` drawn at the places given by ``layout``."""
    prefix = f"md{next(_ids)}"
    changes = changes if changes is not None else Changes()
    marks = changes.marked()
    out = []
    defs = [
        f'<marker id="{prefix}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker>',
    ]
    for label in snap.tensors:
        defs.append(pattern_svg(f"{prefix}-fill-{label}", layout.colour_index[label]))
    out.append("<defs>" + "".join(defs) + "</defs>")
    out.append(f'<rect class="md-background" width="{layout.width}" height="{layout.height}" fill="{PAPER}"/>')

    heading_y = L.TOP - 30
    out.append(f'<rect class="md-panel md-graph-panel" x="{layout.graph_x}" y="{heading_y - 18}" '
               f'width="{layout.width - layout.graph_x - 8}" height="{layout.height - heading_y + 10}" '
               f'rx="8" fill="#f6f6f6" stroke="{MUTED}"/>')
    out.append(_text(L.NAME_X, heading_y, "names", "md-heading", weight="bold"))
    out.append(_text(L.TENSOR_X, heading_y, "tensor objects", "md-heading", weight="bold"))
    out.append(_text(layout.storage_x, heading_y, "storages (memory)", "md-heading", weight="bold"))
    out.append(_text(layout.graph_x + 12, heading_y, "autograd graph", "md-heading", weight="bold"))
    arrow = f"{prefix}-arrow"

    out.extend(_draw_storages(snap, layout, changes, prefix, arrow))
    out.extend(_draw_tensors(snap, layout, changes, prefix))
    out.extend(_draw_counters(snap, layout, changes))
    out.extend(_draw_names(snap, layout, marks, arrow))
    out.extend(_draw_graph(snap, layout, marks, arrow))

    label = title + (". " + narration.split("\n", 1)[0] if narration else "")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="md-diagram" role="img" '
        f'width="{layout.width}" height="{layout.height}" viewBox="0 0 {layout.width} {layout.height}" '
        f'aria-label={quoteattr(label)} aria-labelledby="{prefix}-title {prefix}-desc" '
        f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="12" fill="{INK}">'
        f'<title id="{prefix}-title">{escape(title)}</title>'
        f'<desc id="{prefix}-desc">{escape(narration)}</desc>'
        + "".join(out) + "</svg>"
    )


def _draw_names(snap, layout, marks, arrow):
    out = []
    for name, target in snap.names.items():
        x, y = layout.names[name]
        tx, ty = layout.tensors[target]
        changed = "name:" + name in marks
        body = (f'<rect x="{x}" y="{y}" width="{L.NAME_W}" height="{L.NAME_H}" rx="12" fill="{PAPER}" '
                f'stroke="{INK}"/>' + _text(x + L.NAME_W / 2, y + 16, name, anchor="middle", weight="bold"))
        if changed:
            body += _outline(x, y, L.NAME_W, L.NAME_H)
        body += _arrow(x + L.NAME_W, y + L.NAME_H / 2, tx - 2, ty + 14, "md-arrow-name", arrow)
        out.append(_group("md-name", {"name": name, "target": target}, body, changed))
    return out


def _tensor_lines(t):
    size = "[" + ", ".join(map(str, t.shape)) + "]"
    return [
        f"shape {size}  stride {tuple(t.stride)}",
        f"offset {t.offset}  {t.dtype.replace('torch.', '')}  {t.device}",
        f"requires_grad {t.requires_grad}  is_leaf {t.is_leaf}",
        f"grad_fn {t.grad_fn}" + (f" ({t.grad_fn_label})" if t.grad_fn_label else ""),
        "_version " + ("-" if t.version is None else str(t.version)),
    ]


def _draw_tensors(snap, layout, changes, prefix):
    out = []
    for label, t in snap.tensors.items():
        x, y = layout.tensors[label]
        changed = label in changes.new_tensors or label in changes.changed_tensors
        names = ", ".join(t.names) if t.names else "no name"
        head = f"{label}  ({names})" + (f"  view of {t.base}" if t.base else "")
        body = (f'<rect x="{x}" y="{y}" width="{L.TENSOR_W}" height="{L.TENSOR_H}" rx="5" fill="{PAPER}" '
                f'stroke="{colour(layout.colour_index[label])}" stroke-width="2"/>'
                f'<rect class="md-swatch" x="{x}" y="{y}" width="12" height="{L.TENSOR_H}" '
                f'fill="url(#{prefix}-fill-{label})"/>')
        body += _text(x + 18, y + 16, head[:34], weight="bold")
        for i, line in enumerate(_tensor_lines(t)):
            body += _text(x + 18, y + 33 + 15 * i, line[:35], "md-field")
        if changed:
            body += _outline(x, y, L.TENSOR_W, L.TENSOR_H)
            word = "new" if label in changes.new_tensors else "changed"
            body += _badge(x + L.TENSOR_W - 64, y - 4, word)
        out.append(_group("md-tensor", {
            "label": label, "names": " ".join(t.names), "storage": t.storage,
            "counter": t.counter or "", "version": "" if t.version is None else t.version,
            "grad-fn": t.grad_fn or "",
        }, body, changed))
    return out


def _draw_counters(snap, layout, changes):
    """Each counter: a tag in every holder's box, joined by a dashed lane when shared."""
    out = []
    for label, c in snap.counters.items():
        changed = label in changes.new_counters or label in changes.bumped_counters
        body = ""
        ys = []
        for t in c.tensors:
            x, y = layout.tensors[t]
            bx, by = x + L.TENSOR_W - 58, y + L.TENSOR_H - 22
            ys.append(by + 8)
            body += (f'<rect class="md-counter-tag" x="{bx}" y="{by}" width="52" height="17" rx="8" '
                     f'fill="{PAPER}" stroke="{INK}" stroke-dasharray="3 2"/>'
                     + _text(bx + 26, by + 13, f"{label}={'-' if c.version is None else c.version}",
                             anchor="middle", size=11))
            if label in layout.lanes:
                lane = layout.lanes[label]
                body += (f'<path class="md-lane-stub" d="M{bx + 52},{by + 8} H{lane}" stroke="{INK}" '
                         'stroke-width="1.4" stroke-dasharray="4 3" fill="none"/>'
                         f'<circle cx="{lane}" cy="{by + 8}" r="3" fill="{INK}"/>')
        if label in layout.lanes and len(ys) > 1:
            lane = layout.lanes[label]
            body += (f'<path class="md-lane" d="M{lane},{min(ys)} V{max(ys)}" stroke="{INK}" '
                     'stroke-width="2" stroke-dasharray="4 3" fill="none"/>')
        if changed:
            word = "new counter"
            if label in changes.bumped_counters:
                before, after = changes.bumped_counters[label]
                word = f"v+{after - before}" if before is not None and after is not None else "bumped"
            for t in c.tensors:
                x, y = layout.tensors[t]
                body += _badge(x + L.TENSOR_W - 62 - len(word) * 6.6 - 8, y + L.TENSOR_H - 10, word)
        out.append(_group("md-counter", {"label": label, "version": c.version,
                                         "tensors": " ".join(c.tensors), "how": c.how}, body, changed))
    return out


def _draw_storages(snap, layout, changes, prefix, arrow):
    out = []
    changed_slots = changes.changed_values
    for label, s in snap.storages.items():
        x, y, cw, count = layout.storages[label]
        changed = label in changes.new_storages or label in changed_slots
        cells_x = x + L.VIEWER_LABEL_W
        body = _text(x, y + 13, f"{label}  {s.nbytes} bytes  {s.device}  read as "
                     f"{s.dtype.replace('torch.', '')}", weight="bold")
        values = s.values or ()
        strip_y = y + L.STORAGE_HEAD
        body += _text(x, strip_y + 17, "value", size=10, fill=MUTED)
        for i in range(count):
            cx = cells_x + i * cw
            hot = i in changed_slots.get(label, ())
            body += (f'<rect class="md-cell{" md-changed-cell" if hot else ""}" data-slot="{i}" x="{cx}" '
                     f'y="{strip_y}" width="{cw}" height="{L.STRIP_H}" fill="{PAPER}" '
                     f'stroke="{CHANGE if hot else INK}" stroke-width="{2.5 if hot else 1}"'
                     f'{_DASHED if hot else ""}/>')
            if i < len(values):
                text = _fmt_value(values[i])
                if len(text) * CHAR_W <= cw - 2:
                    body += _text(cx + cw / 2, strip_y + 17, text, "md-value", anchor="middle",
                                  weight="bold" if hot else None)
        for t in s.tensors:
            row_y = layout.rows[(label, t)]
            covered = set(snap.tensors[t].slots)
            index_at = {}
            for flat, slot in enumerate(snap.tensors[t].positions):
                index_at.setdefault(slot, []).append(flat)
            row = _text(x, row_y + 12, t, size=11)
            for i in range(count):
                cx = cells_x + i * cw
                if i in covered:
                    row += (f'<rect class="md-cell md-covered" data-slot="{i}" x="{cx + 1}" y="{row_y + 2}" '
                            f'width="{cw - 2}" height="{L.ROW_H - 4}" fill="url(#{prefix}-fill-{t})" '
                            f'stroke="{colour(layout.colour_index[t])}"/>')
                    held = index_at[i]
                    mark = f"#{held[0]}" + ("+" if len(held) > 1 else "")
                    if len(mark) * 6 + 4 <= cw:
                        row += _text(cx + cw / 2, row_y + 13, mark, "md-index", anchor="middle", size=10)
                else:
                    row += (f'<rect class="md-cell" data-slot="{i}" x="{cx + 1}" y="{row_y + 2}" '
                            f'width="{cw - 2}" height="{L.ROW_H - 4}" fill="none" stroke="#d0d0d0"/>')
            tx, ty = layout.tensors[t]
            row += _arrow(tx + L.TENSOR_W, ty + 40, x - 4, row_y + L.ROW_H / 2, "md-arrow-storage", arrow,
                          colour(layout.colour_index[t]))
            out_attrs = {"tensor": t, "storage": label,
                         "slots": " ".join(map(str, sorted(covered)))}
            body += _group("md-view", out_attrs, row, False)
        if changed:
            height = layout.rows[(label, s.tensors[-1])] + L.ROW_H - y if s.tensors else L.STRIP_H
            body += _outline(x, y, L.VIEWER_LABEL_W + count * cw, height)
            word = "values changed" if label in changed_slots else "new"
            body += _badge(x + L.VIEWER_LABEL_W + count * cw - len(word) * 6.6 - 8, y - 8, word)
        out.append(_group("md-storage", {"label": label, "nbytes": s.nbytes,
                                         "tensors": " ".join(s.tensors)}, body, changed))
    return out


def _draw_graph(snap, layout, marks, arrow):
    out = []
    for label, n in snap.nodes.items():
        x, y = layout.nodes[label]
        for m in n.next:
            mx, my = layout.nodes[m]
            out.append(f'<path class="md-edge" data-from="{label}" data-to="{m}" '
                       f'd="M{x + L.NODE_W / 2},{y + L.NODE_H} L{mx + L.NODE_W / 2},{my - 2}" '
                       f'stroke="{INK}" stroke-width="1.6" marker-end="url(#{arrow})"/>')
    for label, n in snap.nodes.items():
        x, y = layout.nodes[label]
        changed = label in marks
        accumulate = n.variable is not None
        body = (f'<rect x="{x}" y="{y}" width="{L.NODE_W}" height="{L.NODE_H}" rx="{4 if accumulate else 14}" '
                f'fill="{PAPER}" stroke="{INK}" stroke-width="1.5"{_DOTTED if accumulate else ""}/>'
                + _text(x + L.NODE_W / 2, y + 18, n.name[:22], anchor="middle"))
        if n.outputs:
            owners = ", ".join(_short(snap, t) for t in n.outputs)
            body += _text(x + 4, y - 5, f"grad_fn of {owners}"[:26], size=10, fill=MUTED)
        if accumulate:
            lx, ly = x + 20, y + L.NODE_H + 34
            body += (f'<path class="md-edge md-edge-leaf" d="M{x + L.NODE_W / 2},{y + L.NODE_H} '
                     f'L{lx + 60},{ly - 2}" stroke="{INK}" stroke-width="1.6" stroke-dasharray="2 3" '
                     f'marker-end="url(#{arrow})"/>'
                     f'<g class="md-leaf" data-tensor="{n.variable}"><rect x="{lx}" y="{ly}" width="120" '
                     f'height="20" rx="3" fill="{PAPER}" stroke="{colour(layout.colour_index[n.variable])}" '
                     f'stroke-width="2"/>{_text(lx + 60, ly + 14, "leaf " + _short(snap, n.variable, True), anchor="middle")}</g>')
        if changed:
            body += _outline(x, y, L.NODE_W, L.NODE_H) + _badge(x + L.NODE_W - 30, y - 6, "new")
        out.append(_group("md-node", {"label": label, "name": n.name, "next": " ".join(n.next),
                                      "variable": n.variable or ""}, body, changed))
    if not snap.nodes:
        out.append(_text(layout.graph_x + 12, L.TOP + 10, "(empty: no grad_fn)", fill=MUTED))
    return out


def _short(snap, label, brackets=False):
    names = snap.tensors[label].names
    if not names:
        return label
    return f"{label} ({names[0]})" if brackets else f"{label} {names[0]}"
