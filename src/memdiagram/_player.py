"""A step-through diagram as one HTML fragment that steps with no kernel and no script.

Where the widget cannot run (a static site built from executed notebooks),
``player_html`` gives the same steps as plain HTML and CSS. Every step's SVG
is in the page, each in its own panel; one radio button per step decides
which panel shows (a CSS rule per step: the checked button's panel is
displayed, the others are not). So:

* the row of step buttons: click a number to jump there;
* **◀ back** and **forward ▶** in each panel are labels of the previous and
  next step's button;
* the arrow keys move between radio buttons by themselves once one has the
  focus (clicking a step, back or forward gives it the focus).

That much needs no script and no ``on...`` attribute, so it survives HTML
sanitizers that remove scripts (GitHub, nbviewer's safe mode). Where scripts
run (the book's pages), a few lines of inline script, written in the fragment
and loading nothing, add the rest:

* a **slider** (``<input type="range">``, hidden until the script shows it)
  that moves through the steps and follows the other controls;
* the **left and right arrow keys** step back and forward whenever the player
  has the focus (it is focusable: click the picture or Tab to it), not only
  when a step button has it.

Nothing is loaded from the network. The
SVGs are the widget's own (``svgs`` of ``MemoryDiagram``), unchanged; they
scale to the width they get (``max-width:100%``); where the wide arrangement
would be shrunk too much, each step also carries the same SVG arranged for a
phone (``fitted_svg``, what ``static/widget.js`` does at that width, its ids
suffixed ``-narrow`` so that the page defines each id once), and a
CSS container query shows that one in a narrow figure. The narration of each step
(``changes_html``) sits under its picture, as in the widget.
"""

from html import escape, unescape
import hashlib
import itertools
import json
import math
import re

from ._ids import with_suffix
from ._layout import fit

_ids = itertools.count(1)

# The words of the player's controls. ``player_html(..., words=...)`` takes a
# dict with any of these keys, to put the controls in the page's language (the
# book's Chinese pages); the pictures and their narration are the widget's.
PLAYER_WORDS = {
    "label": "Memory diagram. Choose a step; the left and right arrow keys move between steps.",
    "role": "step-through memory diagram",
    "step": "step",
    "step_of": "step {i} of {n}",
    "position": "step {i} of {n}:",
    "slide": "slide",
    "back": "\u25c0 back",
    "forward": "forward \u25b6",
}

_CSS = """
.md-player{font-family:system-ui,sans-serif;font-size:14px;line-height:1.45;max-width:100%;min-width:0}
.md-player .mdp-radio{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.md-player .mdp-ticks{display:flex;flex-wrap:wrap;gap:4px;margin:4px 0 8px;align-items:center}
.md-player .mdp-ticks label{display:inline-block;min-width:2em;text-align:center;padding:2px 6px;
 border:1px solid #bbb;border-radius:4px;cursor:pointer;background:#fff}
.md-player .mdp-frame{display:none}
.md-player .mdp-nav{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 6px}
.md-player .mdp-nav label{cursor:pointer;padding:2px 10px;border:1px solid #888;border-radius:4px;background:#f4f4f4}
.md-player .mdp-nav .mdp-off{padding:2px 10px;border:1px solid #ddd;border-radius:4px;color:#aaa}
.md-player .mdp-stmt{white-space:pre-wrap;overflow-wrap:anywhere}
.md-player .mdp-figure{border:1px solid #ddd;border-radius:6px;background:#fff;overflow:hidden}
.md-player .mdp-figure{container-type:inline-size}
.md-player .mdp-figure svg{display:block;max-width:100%;height:auto}
.md-player .mdp-narrow{display:none}
@container (max-width: 560px){.md-player .mdp-wide{display:none}.md-player .mdp-narrow{display:block}}
.md-player .mdp-narration{margin-top:8px;padding:6px 10px;background:#f6f6f6;border-radius:6px;overflow-wrap:anywhere}
.md-player .mdp-narration p{margin:0 0 4px}
.md-player .mdp-narration ul{margin:0;padding-left:1.4em}
.md-player:focus-visible{outline:3px solid #0072B2;outline-offset:2px}
.md-player .mdp-slide{display:flex;align-items:center;gap:8px;margin:0 0 6px}
.md-player .mdp-slide[hidden]{display:none}
.md-player .mdp-slider{flex:1 1 auto;min-width:0;max-width:420px;accent-color:#D55E00}
"""

# The slider and the player-wide arrow keys (the fragment's only script). It
# keeps the radio buttons as the one record of the current step: the slider
# checks a radio button, and follows whichever radio button is checked.
_SCRIPT = """(function(){var p=document.getElementById("%(uid)s");if(!p||p.getAttribute("data-live"))return;
p.setAttribute("data-live","1");var r=[].slice.call(p.querySelectorAll("input.mdp-radio"));
var s=p.querySelector("input.mdp-slider"),o=p.querySelector("output.mdp-slide-value");
function at(){for(var i=0;i<r.length;i++)if(r[i].checked)return i;return 0}
function show(){var i=at();s.value=String(i+1);s.setAttribute("aria-valuetext",r[i].getAttribute("aria-label"));
o.textContent=(i+1)+" / "+r.length}
function go(i){i=Math.max(0,Math.min(r.length-1,i));r[i].checked=true;show()}
s.parentNode.hidden=false;show();
s.addEventListener("input",function(){go(parseInt(s.value,10)-1)});
p.addEventListener("change",function(e){if(e.target!==s)show()});
p.addEventListener("keydown",function(e){var t=e.target;if(t===s||(t.classList&&t.classList.contains("mdp-radio")))return;
if(e.key==="ArrowLeft"){go(at()-1);e.preventDefault()}else if(e.key==="ArrowRight"){go(at()+1);e.preventDefault()}});
})();"""


NARROW = 360  # px: a 390 px phone less the page's margins


def fitted_svg(svg, width):
    """``svg`` (one step of ``render_svg``) with its panels arranged for ``width`` pixels.

    The same choice as ``static/widget.js``'s ``fit`` (``_layout.fit``): the
    panels are moved (their ``transform``), the storage arrows hidden when the
    arrangement has none, and the size set. ``None`` when the SVG lists no
    arrangements."""
    found = re.search(r" data-arrangements='([^']*)'", svg)
    if not found:
        return None
    f = fit(json.loads(unescape(found.group(1))), width)
    for name, (x, y, scale) in f.panels.items():
        transform = f"translate({round(x)},{round(y)})" + (f" scale({scale:.4f})" if scale != 1 else "")
        svg = re.sub(rf'(<g class="md-panel[^"]*" data-panel="{name}") transform="[^"]*"',
                     rf'\1 transform="{transform}"', svg, count=1)
    if not f.arrows:
        svg = svg.replace('<g class="md-storage-arrows">', '<g class="md-storage-arrows" display="none">', 1)
    w, h = round(f.width), round(f.height)
    head, rest = svg.split(">", 1)
    head = re.sub(r' width="[^"]*"', f' width="{math.floor(w * f.scale)}"', head, count=1)
    head = re.sub(r' height="[^"]*"', f' height="{math.floor(h * f.scale)}"', head, count=1)
    head = re.sub(r' viewBox="[^"]*"', f' viewBox="0 0 {w} {h}"', head, count=1)
    head = re.sub(r' data-arrangement="[^"]*"', f' data-arrangement="{f.name}"', head, count=1)
    return head + ">" + rest


def _figure(svg):
    narrow = fitted_svg(svg, NARROW)
    wide = re.search(r' data-arrangement="([^"]*)"', svg)
    if narrow is None or (wide and f' data-arrangement="{wide.group(1)}"' in narrow):
        return f'<div class="mdp-figure">{svg}</div>'
    narrow = with_suffix(narrow, "-narrow")  # the same picture twice in a page: its ids once each
    return f'<div class="mdp-figure"><div class="mdp-wide">{svg}</div><div class="mdp-narrow">{narrow}</div></div>'


def player_html(statements, svgs, changes_html=None, words=None):
    """The HTML fragment: every step's SVG, stepped by radio buttons and CSS.

    ``statements``, ``svgs`` and ``changes_html`` are the widget's lists, one
    entry per step. The first step shows first. ``words``: the controls' words
    (see ``PLAYER_WORDS``), English by default.
    """
    w = {**PLAYER_WORDS, **(words or {})}
    n = len(svgs)
    if n == 0 or len(statements) != n:
        raise ValueError(f"player_html needs one statement per SVG, got {len(statements)} and {n}")
    changes_html = changes_html if changes_html and len(changes_html) == n else [""] * n
    digest = hashlib.sha1("".join(svgs).encode("utf-8")).hexdigest()[:8]
    uid = f"mdp{next(_ids)}x{digest}"
    rid = [f"{uid}s{i}" for i in range(n)]
    rules = [_CSS.replace(".md-player", f"#{uid}")]
    for i in range(n):
        rules.append(f"#{rid[i]}:checked~.mdp-steps>.mdp-frame[data-step=\"{i + 1}\"]{{display:block}}")
        rules.append(f"#{rid[i]}:checked~.mdp-ticks label[for=\"{rid[i]}\"]"
                     "{background:#D55E00;color:#fff;border-color:#D55E00;font-weight:bold}")
        rules.append(f"#{rid[i]}:focus-visible~.mdp-ticks label[for=\"{rid[i]}\"]{{outline:3px solid #0072B2}}")
    out = [f'<div class="md-player" id="{uid}" role="group" data-steps="{n}" tabindex="0" '
           f'aria-roledescription="{escape(w["role"])}" aria-label="{escape(w["label"])}">',
           "<style>" + "".join(rules) + "</style>"]
    for i in range(n):
        checked = " checked" if i == 0 else ""
        out.append(f'<input class="mdp-radio" type="radio" name="{uid}" id="{rid[i]}" '
                   f'value="{i + 1}" aria-label="{escape(w["step_of"].format(i=i + 1, n=n))}"{checked}>')
    out.append(f'<div class="mdp-ticks" aria-hidden="true"><span>{escape(w["step"])}</span>')
    out += [f'<label for="{rid[i]}" title="{escape(statements[i])}">{i + 1}</label>' for i in range(n)]
    out.append('</div>')
    out.append(f'<div class="mdp-slide" hidden><label for="{uid}r">{escape(w["slide"])}</label>'
               f'<input class="mdp-slider" id="{uid}r" type="range" min="1" max="{n}" step="1" value="1">'
               f'<output class="mdp-slide-value" for="{uid}r">1 / {n}</output></div>')
    out.append('<div class="mdp-steps">')
    for i, (statement, svg, change) in enumerate(zip(statements, svgs, changes_html)):
        back = (f'<label class="mdp-back" for="{rid[i - 1]}">{escape(w["back"])}</label>' if i > 0
                else f'<span class="mdp-off mdp-back">{escape(w["back"])}</span>')
        forward = (f'<label class="mdp-forward" for="{rid[i + 1]}">{escape(w["forward"])}</label>' if i < n - 1
                   else f'<span class="mdp-off mdp-forward">{escape(w["forward"])}</span>')
        out.append(f'<div class="mdp-frame" data-step="{i + 1}">'
                   f'<div class="mdp-nav">{back}{forward}<span class="mdp-position">{escape(w["position"].format(i=i + 1, n=n))}</span> '
                   f'<code class="mdp-stmt">{escape(statement)}</code></div>'
                   f'{_figure(svg)}'
                   f'<div class="mdp-narration">{change}</div></div>')
    out.append("</div>")
    out.append("<script>" + _SCRIPT % {"uid": uid} + "</script></div>")
    return "".join(out)
