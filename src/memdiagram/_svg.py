"""Drawing one snapshot as SVG text, with our own small renderer.

No Graphviz, no browser: the SVG is built as a string from the ``Layout``
(where things go) and the ``Snapshot`` (what to draw). Every drawn object is a
``<g>`` with a class (``md-name``, ``md-tensor``, ``md-grad``, ``md-counter``,
``md-storage``, ``md-view``, ``md-node``, ``md-leaf``) and ``data-*``
attributes naming the object, so tests and scripts can read the picture
back. Whatever changed in this step carries the class ``md-changed``, a
dashed outline and a word saying what changed.

The three panels (``md-panel-objects``, ``md-panel-storages``,
``md-panel-graph``) are groups moved into place by a ``translate``. The root
``<svg>`` lists every arrangement of them in ``data-arrangements`` and is
drawn fitted to ``_layout.STATIC_WIDTH`` for a static picture; the widget
refits it to the width it has (``static/widget.js``), and ``fit_svg`` does
the same on the text, for any width.

Every box that holds text is a group whose first rectangle has the class
``md-frame``: that is the box its labels must stay inside, which is what
``_geometry.label_problems`` checks.

The picture has a ``<title>``, an ``aria-label`` and a ``<desc>`` holding the
narration, so a screen reader gets the same content as the eye.
"""

import html
import itertools
import json
import re
from xml.sax.saxutils import escape, quoteattr

from coursebook.language import _

from . import _boxes as B
from . import _layout as L
from ._diff import Changes
from ._geometry import text_width
from ._palette import CHANGE, INK, MUTED, PAPER, colour, pattern_svg

_ids = itertools.count(1)
_DASHED = ' stroke-dasharray="4 2"'
_DOTTED = ' stroke-dasharray="2 2"'
FONT_FAMILY = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def _text(x, y, s, cls="", anchor="start", weight=None, size=None, fill=None):
    extra = f' font-weight="{weight}"' if weight else ""
    extra += f' font-size="{size}"' if size else ""
    extra += f' fill="{fill}"' if fill else ""
    extra += f' class="{cls}"' if cls else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{extra}>{escape(str(s))}</text>'


def _frame(x, y, w, h, cls="", rx=5, fill="none", stroke="none", extra=""):
    return (f'<rect class="md-frame{" " + cls if cls else ""}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="{rx}" fill="{fill}" stroke="{stroke}"{extra}/>')


def _badge(right, baseline, word):
    """A change mark ending at ``right``: a word on a vermillion tag (colour and text both say it)."""
    w = L.badge_width(word)
    x = right - w
    return (f'<g class="md-badge">{_frame(x, baseline - 11, w, 15, rx=3, fill=CHANGE)}'
            f'{_text(x + 4, baseline, word, size=B.BADGE, fill=PAPER, weight="bold")}</g>')


def _outline(x, y, w, h):
    return (f'<rect class="md-change-outline" x="{x - 4:.1f}" y="{y - 4:.1f}" width="{w + 8:.1f}" '
            f'height="{h + 8:.1f}" rx="6" fill="none" stroke="{CHANGE}" stroke-width="2.5" '
            'stroke-dasharray="7 4"/>')


def _arrow(x1, y1, x2, y2, cls, marker, colour_=INK, dash=None, bend=None):
    if bend is None:
        mid = (x1 + x2) / 2
        d = f"M{x1:.1f},{y1:.1f} C{mid:.1f},{y1:.1f} {mid:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
    else:  # out to the side by ``bend`` and back: for links within one column
        d = f"M{x1:.1f},{y1:.1f} C{x1 + bend:.1f},{y1:.1f} {x2 + bend:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<path class="md-arrow {cls}" d="{d}" fill="none" stroke="{colour_}" stroke-width="1.6"'
            f'{dash_attr} marker-end="url(#{marker})"/>')


def _group(cls, attrs, body, changed):
    cls = cls + (" md-changed" if changed else "")
    attr_text = "".join(f" data-{k}={quoteattr(str(v))}" for k, v in attrs.items())
    return f'<g class="{cls}"{attr_text}>{body}</g>'


def _transform(x, y, scale):
    return f"translate({x:.0f},{y:.0f})" + ("" if scale == 1 else f" scale({scale:.4f})")


def _panel(name, placed, size, body, fill="none", stroke="none"):
    return (f'<g class="md-panel md-panel-{name}" data-panel="{name}" transform="{_transform(*placed)}">'
            + _frame(0, 0, size.width, size.height, "md-panel-frame", rx=8, fill=fill, stroke=stroke)
            + "".join(body) + "</g>")


def render_svg(snap, layout, changes=None, title=None, narration=""):
    """The SVG text for ``snap`` drawn at the places given by ``layout``."""
    title = _("Memory diagram") if title is None else title
    prefix = f"md{next(_ids)}"
    changes = changes if changes is not None else Changes()
    arrow = f"{prefix}-arrow"
    fitted = layout.fit()
    defs = [
        f'<marker id="{arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker>',
    ]
    for label in snap.tensors:
        defs.append(pattern_svg(f"{prefix}-fill-{label}", layout.colour_index[label]))

    objects = [_text(L.NAME_X, L.HEAD_Y, _("names"), "md-heading", weight="bold"),
               _text(layout.tensor_x, L.HEAD_Y, _("tensor objects"), "md-heading", weight="bold")]
    objects += _draw_tensors(snap, layout, changes, prefix)
    objects += _draw_grad_links(snap, layout, changes, arrow)
    objects += _draw_counters(snap, layout, changes)
    objects += _draw_names(snap, layout, changes.marked(), arrow)
    storages = [_text(L.PAD, L.HEAD_Y, _("storages (memory)"), "md-heading", weight="bold")]
    storages += _draw_storages(snap, layout, changes, prefix)
    graph = [_text(12, L.HEAD_Y, _("autograd graph"), "md-heading", weight="bold")]
    graph += _draw_graph(snap, layout, changes, arrow)

    # Arrows are shown only where the storages sit right of the tensors, both at the top.
    arrows = _draw_storage_arrows(snap, layout, (0, 0), (layout.panels["objects"].width, 0), arrow)
    hidden = "" if fitted.arrows else ' display="none"'
    body = [
        "<defs>" + "".join(defs) + "</defs>",
        f'<rect class="md-background" width="100%" height="100%" fill="{PAPER}"/>',
        _panel("objects", fitted.panels["objects"], layout.panels["objects"], objects),
        _panel("storages", fitted.panels["storages"], layout.panels["storages"], storages),
        f'<g class="md-storage-arrows"{hidden}>' + "".join(arrows) + "</g>",
        _panel("graph", fitted.panels["graph"], layout.panels["graph"], graph, "#f6f6f6", MUTED),
    ]
    label = title + (". " + narration.split("\n", 1)[0] if narration else "")
    arrangements = json.dumps([a.as_json() for a in layout.arrangements], separators=(",", ":"))
    vw, vh = round(fitted.width), round(fitted.height)
    w, h = round(fitted.width * fitted.scale), round(fitted.height * fitted.scale)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="md-diagram" role="img" '
        f'width="{w}" height="{h}" viewBox="0 0 {vw} {vh}" style="max-width:100%;height:auto" '
        f'data-arrangement="{fitted.name}" data-arrangements={quoteattr(arrangements)} '
        f'aria-label={quoteattr(label)} aria-labelledby="{prefix}-title {prefix}-desc" '
        f'font-family="{FONT_FAMILY}" font-size="{B.FONT}" fill="{INK}">'
        f'<title id="{prefix}-title">{escape(title)}</title>'
        f'<desc id="{prefix}-desc">{escape(narration)}</desc>'
        + "".join(body) + "</svg>"
    )


_ROOT = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" class="md-diagram"[^>]*>')
_ARRANGEMENTS = re.compile(r"""data-arrangements=(?:'([^']*)'|"([^"]*)")""")


def fit_svg(svg, width):
    """``svg`` (made by ``render_svg``) re-arranged and scaled for ``width`` pixels.

    What ``static/widget.js`` does in the browser, done on the text: each
    panel moved (and shrunk, when stacked), the storage arrows shown or
    hidden, the root's size and viewBox set."""
    head = _ROOT.search(svg).group(0)
    found = _ARRANGEMENTS.search(head)
    fitted = L.fit(json.loads(html.unescape(found.group(1) or found.group(2))), width)
    w, h = round(fitted.width), round(fitted.height)
    new_head = re.sub(r' width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                      f' width="{int(w * fitted.scale)}" height="{int(h * fitted.scale)}" viewBox="0 0 {w} {h}"',
                      head, count=1)
    new_head = re.sub(r'data-arrangement="[^"]*"', f'data-arrangement="{fitted.name}"', new_head, count=1)
    svg = svg.replace(head, new_head, 1)
    for name, placed in fitted.panels.items():
        svg = re.sub(rf'(<g class="md-panel md-panel-{name}" data-panel="{name}") transform="[^"]*"',
                     rf'\1 transform="{_transform(*placed)}"', svg, count=1)
    hidden = "" if fitted.arrows else ' display="none"'
    return re.sub(r'<g class="md-storage-arrows"[^>]*>', f'<g class="md-storage-arrows"{hidden}>', svg, count=1)


def _placed(objects, positions):
    """``(label, object, x, y)`` for each of ``objects``, at its top-left corner in ``positions``."""
    for label, thing in objects.items():
        x, y = positions[label]
        yield label, thing, x, y


def _draw_names(snap, layout, marks, arrow):
    out = []
    for name, target in snap.names.items():
        x, y = layout.names[name]
        tx, ty = layout.tensors[target]
        changed = "name:" + name in marks
        body = (_frame(x, y, layout.name_w, L.NAME_H, rx=12, fill=PAPER, stroke=INK)
                + _text(x + layout.name_w / 2, y + 16, name, anchor="middle", weight="bold"))
        if changed:
            body += _outline(x, y, layout.name_w, L.NAME_H)
        body += _arrow(x + layout.name_w, y + L.NAME_H / 2, tx - 2, ty + 14, "md-arrow-name", arrow)
        out.append(_group("md-name", {"name": name, "target": target}, body, changed))
    return out


def _tensor_badge(label, changes):
    if label in changes.new_tensors:
        return _("new")
    if label in changes.changed_tensors:
        return _("changed")
    if label in changes.grads:
        return _(".grad changed") if changes.grads[label][0] is not None else _(".grad filled")
    return None


def _draw_tensors(snap, layout, changes, prefix):
    out = []
    w, h = layout.tensor_w, L.TENSOR_H
    for label, t, x, y in _placed(snap.tensors, layout.tensors):
        word = _tensor_badge(label, changes)
        body = (_frame(x, y, w, h, fill=PAPER, stroke=colour(layout.colour_index[label]),
                       extra=' stroke-width="2"')
                + f'<rect class="md-swatch" x="{x}" y="{y}" width="{L.SWATCH}" height="{h}" '
                  f'fill="url(#{prefix}-fill-{label})"/>')
        body += _text(x + L.TEXT_X, y + 16, B.tensor_head(snap, label), weight="bold")
        for i, line in enumerate(B.tensor_lines(t), start=1):
            hot = i == B.GRAD_LINE and label in changes.grads
            body += _text(x + L.TEXT_X, y + 16 + B.LINE * i, line, "md-field",
                          weight="bold" if hot else None, fill=CHANGE if hot else None)
        if word:
            body += _outline(x, y, w, h) + _badge(x + w - 6, y - 4, word)
        out.append(_group("md-tensor", {
            "label": label, "names": " ".join(t.names), "storage": t.storage,
            "counter": t.counter or "", "version": "" if t.version is None else t.version,
            "grad-fn": t.grad_fn or "", "grad": t.grad or "",
        }, body, bool(word)))
    return out


def _draw_grad_links(snap, layout, changes, arrow):
    """``.grad``: an arrow from the owner's ``.grad`` line, out to the left and into the gradient's box."""
    out = []
    for label, t in snap.tensors.items():
        if t.grad is None:
            continue
        x, y = layout.tensors[label]
        gx, gy = layout.tensors[t.grad]
        y1 = y + 16 + B.LINE * B.GRAD_LINE - 4
        path = _arrow(x, y1, gx - 2, gy + 34, "md-arrow-grad", arrow, colour(layout.colour_index[label]),
                      dash="5 3", bend=-L.GUTTER + 8)
        out.append(_group("md-grad", {"tensor": label, "grad": t.grad}, path, label in changes.grads))
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
            bx, by = x + layout.tensor_w - L.TAG_W - 6, y + L.TENSOR_H - L.TAG_H - 5
            ys.append(by + 8)
            body += (f'<g class="md-counter-tag">'
                     + _frame(bx, by, L.TAG_W, L.TAG_H, rx=8, fill=PAPER, stroke=INK,
                              extra=' stroke-dasharray="3 2"')
                     + _text(bx + L.TAG_W / 2, by + 13, B.counter_tag(c), anchor="middle", size=B.BADGE)
                     + "</g>")
            if label in layout.lanes:
                lane = layout.lanes[label]
                body += (f'<path class="md-lane-stub" d="M{bx + L.TAG_W},{by + 8} H{lane}" stroke="{INK}" '
                         'stroke-width="1.4" stroke-dasharray="4 3" fill="none"/>'
                         f'<circle cx="{lane}" cy="{by + 8}" r="3" fill="{INK}"/>')
        if label in layout.lanes and len(ys) > 1:
            lane = layout.lanes[label]
            body += (f'<path class="md-lane" d="M{lane},{min(ys)} V{max(ys)}" stroke="{INK}" '
                     'stroke-width="2" stroke-dasharray="4 3" fill="none"/>')
        if changed:
            word = _("new counter")
            if label in changes.bumped_counters:
                before, after = changes.bumped_counters[label]
                word = f"v+{after - before}" if before is not None and after is not None else _("bumped")
            for t in c.tensors:
                x, y = layout.tensors[t]
                body += _badge(x + layout.tensor_w - L.TAG_W - 10, y + L.TENSOR_H - 9, word)
        out.append(_group("md-counter", {"label": label, "version": c.version,
                                         "tensors": " ".join(c.tensors), "how": c.how}, body, changed))
    return out


def _draw_storages(snap, layout, changes, prefix):
    out = []
    changed_slots = changes.changed_values
    for label, s in snap.storages.items():
        x, y, cw, count, bw, bh = layout.storages[label]
        changed = label in changes.new_storages or label in changed_slots
        left = x + L.BLOCK_PAD
        cells_x = left + L.VIEWER_LABEL_W
        big, small = B.storage_title(s)
        body = _frame(x, y, bw, bh, "md-storage-frame", rx=6, stroke="#c8c8c8")
        body += _text(left, y + 16, big, weight="bold") + _text(left, y + 30, small, size=B.SMALL, fill=MUTED)
        values = s.values or ()
        strip_y = y + L.STRIP_TOP
        body += _text(left, strip_y + 17, _("value"), size=B.SMALL, fill=MUTED)
        for i in range(count):
            cx = cells_x + i * cw
            hot = i in changed_slots.get(label, ())
            body += (f'<rect class="md-cell{" md-changed-cell" if hot else ""}" data-slot="{i}" x="{cx}" '
                     f'y="{strip_y}" width="{cw}" height="{L.STRIP_H}" fill="{PAPER}" '
                     f'stroke="{CHANGE if hot else INK}" stroke-width="{2.5 if hot else 1}"'
                     f'{_DASHED if hot else ""}/>')
            if i < len(values):
                text = B.cell_text(values[i])
                if text_width(text, B.FONT) <= cw - 3:
                    body += _text(cx + cw / 2, strip_y + 17, text, "md-value", anchor="middle",
                                  weight="bold" if hot else None)
        for t in s.tensors:
            row_y = layout.rows[(label, t)]
            covered = set(snap.tensors[t].slots)
            index_at = {}
            for flat, slot in enumerate(snap.tensors[t].positions):
                index_at.setdefault(slot, []).append(flat)
            row = _text(left, row_y + 13, t, size=B.BADGE)
            for i in range(count):
                cx = cells_x + i * cw
                if i in covered:
                    row += (f'<rect class="md-cell md-covered" data-slot="{i}" x="{cx + 1}" y="{row_y + 2}" '
                            f'width="{cw - 2}" height="{L.ROW_H - 4}" fill="url(#{prefix}-fill-{t})" '
                            f'stroke="{colour(layout.colour_index[t])}"/>')
                    held = index_at[i]
                    mark = f"#{held[0]}" + ("+" if len(held) > 1 else "")
                    if text_width(mark, B.SMALL) + 4 <= cw:
                        row += _text(cx + cw / 2, row_y + 13, mark, "md-index", anchor="middle", size=B.SMALL)
                else:
                    row += (f'<rect class="md-cell" data-slot="{i}" x="{cx + 1}" y="{row_y + 2}" '
                            f'width="{cw - 2}" height="{L.ROW_H - 4}" fill="none" stroke="#d0d0d0"/>')
            body += _group("md-view", {"tensor": t, "storage": label,
                                       "slots": " ".join(map(str, sorted(covered)))}, row, False)
        if changed:
            body += _outline(x, y, bw, bh)
            body += _badge(x + bw - 6, y - 4, _("values changed") if label in changed_slots else _("new"))
        out.append(_group("md-storage", {"label": label, "nbytes": s.nbytes,
                                         "tensors": " ".join(s.tensors)}, body, changed))
    return out


def _draw_storage_arrows(snap, layout, objects_at, storages_at, arrow):
    """One arrow per tensor, from its box to its row in its storage (in figure coordinates)."""
    out = []
    (ox, oy), (sx, sy) = objects_at, storages_at
    for label, t, tx, ty in _placed(snap.tensors, layout.tensors):
        x = layout.storages[t.storage][0]
        row_y = layout.rows[(t.storage, label)]
        out.append(_arrow(ox + tx + layout.tensor_w, oy + ty + 40, sx + x - 2, sy + row_y + L.ROW_H / 2,
                          "md-arrow-storage", arrow, colour(layout.colour_index[label])))
    return out


def _draw_edges(snap, layout, arrow):
    """One arrow per edge of the graph, from a node's bottom to the top of the next one."""
    nw, nh = layout.node_w, layout.node_h
    return [f'<path class="md-edge" data-from="{label}" data-to="{m}" '
            f'd="M{x + nw / 2},{y + nh} L{layout.nodes[m][0] + nw / 2},{layout.nodes[m][1] - 2}" '
            f'stroke="{INK}" stroke-width="1.6" marker-end="url(#{arrow})"/>'
            for label, n, x, y in _placed(snap.nodes, layout.nodes) for m in n.next]


def _draw_graph(snap, layout, changes, arrow):
    out = _draw_edges(snap, layout, arrow)
    nw, nh = layout.node_w, layout.node_h
    for label, n, x, y in _placed(snap.nodes, layout.nodes):
        accumulate = n.variable is not None
        body = _frame(x, y, nw, nh, rx=4 if accumulate else 12, fill=PAPER, stroke=INK,
                      extra=' stroke-width="1.5"' + (_DOTTED if accumulate else ""))
        baseline = y + 17
        for i, (text, size) in enumerate(B.node_lines(snap, label)):
            saved_line = text in {_(words) for words in B.SAVED_WORDS.values()}
            hot = saved_line and label in changes.saved
            body += _text(x + nw / 2, baseline, text, anchor="middle", size=None if size == B.FONT else size,
                          fill=CHANGE if hot else (None if i == 0 else MUTED), weight="bold" if hot else None)
            baseline += 13
        if accumulate:
            leaf = B.leaf_text(snap, n.variable)
            lw = text_width(leaf, B.FONT) + 16
            lx, ly = x + (nw - lw) / 2, y + nh + 30
            body += (f'<path class="md-edge md-edge-leaf" d="M{x + nw / 2},{y + nh} '
                     f'L{x + nw / 2},{ly - 2}" stroke="{INK}" stroke-width="1.6" stroke-dasharray="2 3" '
                     f'marker-end="url(#{arrow})"/>'
                     f'<g class="md-leaf" data-tensor="{n.variable}">'
                     + _frame(lx, ly, lw, L.LEAF_H, rx=3, fill=PAPER,
                              stroke=colour(layout.colour_index[n.variable]), extra=' stroke-width="2"')
                     + _text(lx + lw / 2, ly + 14, leaf, anchor="middle") + "</g>")
        word = None
        if label in changes.new_nodes:
            word = _("new")
        elif label in changes.saved:
            word = {"freed": _("freed"), "modified": _("modified")}.get(changes.saved[label][1], _("changed"))
        if word:
            body += _outline(x, y, nw, nh) + _badge(x + nw - 6, y - 4, word)
        out.append(_group("md-node", {"label": label, "name": n.name, "next": " ".join(n.next),
                                      "variable": n.variable or "", "saved": n.saved or ""}, body,
                          bool(word)))
    if not snap.nodes:
        out.append(_text(12, L.TOP + 10, _("(empty: no grad_fn)"), fill=MUTED))
    return out
