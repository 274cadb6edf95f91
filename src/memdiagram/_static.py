"""A diagram as a plain output: SVG plus text, shown anywhere a notebook is.

``StaticDiagram`` is what ``show()`` returns. Its ``_repr_mimebundle_`` gives
``image/svg+xml`` and ``text/plain`` (the narration), so the picture appears
in JupyterLab, on GitHub, on nbviewer and in nbconvert exports, with no
JavaScript. ``filmstrip_svg`` stacks the steps of a step-through into one
SVG, which is the static fallback of the stepping widget.
"""

from xml.sax.saxutils import escape, quoteattr

from ._export import save_png, save_svg


class StaticDiagram:
    """One rendered picture with its narration."""

    def __init__(self, snapshot, svg, narration):
        self.snapshot = snapshot
        self.svg = svg
        self.narration = narration

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"image/svg+xml": self.svg, "text/plain": self.narration}

    def save_svg(self, path):
        return save_svg(self.svg, path)

    def save_png(self, path, scale=2):
        return save_png(self.svg, path, scale)

    def __repr__(self):
        return self.narration


def _size_of(svg):
    head = svg[: svg.index(">")]
    width = float(head.split(' width="', 1)[1].split('"', 1)[0])
    height = float(head.split(' height="', 1)[1].split('"', 1)[0])
    return width, height


def filmstrip_svg(svgs, captions, title):
    """All steps one under the other, each under its statement, in one SVG."""
    parts, y, width = [], 0.0, 0.0
    for svg, caption in zip(svgs, captions):
        w, h = _size_of(svg)
        parts.append(f'<text class="md-caption" x="8" y="{y + 20:.0f}" font-weight="bold">'
                     f'{escape(caption)}</text>')
        inner = svg.replace("<svg ", f'<svg x="0" y="{y + 28:.0f}" ', 1).replace(
            ' style="max-width:100%;height:auto"', "", 1)  # a nested svg keeps its own size
        parts.append(inner)
        y += h + 40
        width = max(width, w)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="md-filmstrip" role="img" width="{width:.0f}" '
        f'height="{y:.0f}" viewBox="0 0 {width:.0f} {y:.0f}" style="max-width:100%;height:auto" '
        f'aria-label={quoteattr(title)} '
        f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="13">'
        f'<title>{escape(title)}</title><rect width="100%" height="100%" fill="#fff"/>'
        + "".join(parts) + "</svg>"
    )
