"""The stepping widget: every step is drawn in Python once, stepping is JavaScript.

``MemoryDiagram`` is an anywidget. The kernel runs the statements, renders
the SVG and the narration of every step, and sends them all to the browser as
widget state (``svgs``; ``narrations`` as plain text; ``changes_html``, what
each step changed, and ``state_html``, the full state shown on a click, as
HTML; ``statements``). The browser fits each SVG to the width it is given,
choosing how to arrange its panels (see ``_layout``). The browser-side
code (``static/widget.js``, read from this package, nothing loaded from the
network) shows one step at a time and moves between them with the buttons,
the slider or the arrow keys, without asking the kernel anything. So the
widget keeps working in Voila and in a notebook saved with its widget state.

Where no widget can run (GitHub, nbviewer, nbconvert without widget state),
the output falls back to ``image/svg+xml``: all steps stacked, each under
its statement, and ``text/plain``: the narration of every step.
"""

import pathlib

import anywidget
import traitlets

from ._export import save_png, save_svg
from ._narration import heading
from ._static import filmstrip_svg

from coursebook.language import _


def controls_words():
    """The words of the widget's controls (``static/widget.js`` falls back to English)."""
    return {
        "role": _("step-through memory diagram"),
        "label": _("Memory diagram. Use the left and right arrow keys to step."),
        "previous": _("previous step"), "next": _("next step"),
        "back": "\u25c0 " + _("back"), "forward": _("forward") + " \u25b6",
        "step": _("step"), "step_of": _("step {i} of {n}"), "full_state": _("Full state"),
        "this_step": _("this step"),
    }

_STATIC = pathlib.Path(__file__).parent / "static"


class MemoryDiagram(anywidget.AnyWidget):
    """A step-through memory diagram. Build it with ``memdiagram.step_through``."""

    _esm = (_STATIC / "widget.js").read_text(encoding="utf-8")
    _css = (_STATIC / "widget.css").read_text(encoding="utf-8")

    statements = traitlets.List(traitlets.Unicode()).tag(sync=True)
    svgs = traitlets.List(traitlets.Unicode()).tag(sync=True)
    narrations = traitlets.List(traitlets.Unicode()).tag(sync=True)
    changes_html = traitlets.List(traitlets.Unicode()).tag(sync=True)
    state_html = traitlets.List(traitlets.Unicode()).tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)   # 0-based index of the step shown
    words = traitlets.Dict().tag(sync=True)  # the controls' words, in the learner's language

    def __init__(self, snapshots, changes, svgs, narrations, **kwargs):
        """``narrations``: one ``_narration.Narration`` per step."""
        super().__init__(
            statements=[s.statement for s in snapshots], svgs=svgs,
            narrations=[n.text() for n in narrations],
            changes_html=[n.changes_html() for n in narrations],
            state_html=[n.state_html() for n in narrations], words=controls_words(), **kwargs
        )
        self.snapshots = snapshots
        self.changes = changes

    @traitlets.validate("step")
    def _clamp_step(self, proposal):
        return max(0, min(len(self.svgs) - 1, proposal["value"]))

    def static_svg(self):
        captions = [heading(i, len(self.svgs), s) for i, s in enumerate(self.statements, 1)]
        return filmstrip_svg(self.svgs, captions, _("Memory diagram, every step"))

    def text(self):
        return "\n\n".join(self.narrations)

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["image/svg+xml"] = self.static_svg()
        data["text/plain"] = self.text()
        return data, metadata

    def save_svg(self, path, step=None):
        """The SVG of one step (1-based), or of every step stacked when ``step`` is None."""
        return save_svg(self.static_svg() if step is None else self.svgs[step - 1], path)

    def save_png(self, path, step=None, scale=2):
        return save_png(self.static_svg() if step is None else self.svgs[step - 1], path, scale)
