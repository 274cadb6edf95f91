"""Colours and fill patterns that stay readable without colour.

The six colours are from the Okabe-Ito palette, chosen to be told apart with
the common colour-vision deficiencies. Colour never carries meaning alone:
each tensor also gets its own fill pattern (and its label is written next to
every row it owns), version-counter lanes are dashed, leaf edges dotted, and
every change is marked with a dashed outline *and* a word ("new", "v+1").
"""

COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#000000")
CHANGE = "#D55E00"   # vermillion, kept for change marks only
INK = "#1a1a1a"
MUTED = "#6b6b6b"
PAPER = "#ffffff"

PATTERNS = ("solid", "diagonal", "dots", "cross", "horizontal", "vertical")


def colour(index):
    return COLOURS[index % len(COLOURS)]


def pattern(index):
    # Pair colours and patterns differently on each round, so T1 and T7 differ in both.
    return PATTERNS[(index + index // len(COLOURS)) % len(PATTERNS)]


def pattern_svg(pattern_id, index):
    """An SVG <pattern> filling with the tensor's colour and texture."""
    c = colour(index)
    kind = pattern(index)
    marks = {
        "solid": "",
        "diagonal": f'<path d="M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2" stroke="{c}" stroke-width="2"/>',
        "dots": f'<circle cx="4" cy="4" r="1.8" fill="{c}"/>',
        "cross": f'<path d="M0,0 L8,8 M8,0 L0,8" stroke="{c}" stroke-width="1.4"/>',
        "horizontal": f'<path d="M0,2 H8 M0,6 H8" stroke="{c}" stroke-width="1.6"/>',
        "vertical": f'<path d="M2,0 V8 M6,0 V8" stroke="{c}" stroke-width="1.6"/>',
    }[kind]
    opacity = "0.55" if kind == "solid" else "0.22"
    # The texture is drawn half-transparent, so the "#k" marks written over it stay readable.
    return (
        f'<pattern id="{pattern_id}" patternUnits="userSpaceOnUse" width="8" height="8">'
        f'<rect width="8" height="8" fill="{c}" fill-opacity="{opacity}"/>'
        f'<g opacity="0.6">{marks}</g></pattern>'
    )
