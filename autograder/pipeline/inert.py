"""Student outputs are inert: plain text and images only, wherever someone else looks at them.

A student's notebook reaches other eyes as a page: the instructor's formgrader
(a page on the instructor's own server, with the instructor's session) and the
feedback page.  Any HTML or JavaScript a kernel produced would run there:
``display(HTML("<script>..."))``, an ``application/javascript`` output, an
ipywidget view, markdown or SVG carrying a script, an image whose metadata
smuggles an attribute into the ``<img>`` tag nbconvert writes.  So
:class:`InertOutputs` keeps, of every code cell's outputs, only

* ``stream`` outputs (``stdout``/``stderr``; any other stream name becomes
  ``stdout``), as text;
* ``error`` outputs: name, message and traceback as text;
* ``execute_result`` and ``display_data`` outputs with their ``text/plain``
  and ``image/png``/``image/jpeg`` data (an image only when its data is
  base64 and nothing else), with no output metadata (nbconvert writes an
  image's ``width``/``height`` metadata into the tag unquoted);

and drops everything else: ``text/html``, ``application/javascript``,
``text/markdown``, ``text/latex``, ``image/svg+xml``, widget views, unknown
types and output kinds.  An output whose data is all dropped keeps a
``text/plain`` line saying what was removed.  Every text is coerced to a
string, so nothing but text reaches a template.  Pages escape text; so no
student output is ever markup.

It runs twice (``nbgrader_config.py``):

* at grading time, as the last step of ``Autograde.autograde_preprocessors``,
  after ``SaveAutoGrades`` (so scores are computed from the outputs exactly as
  nbgrader always did, and the graded notebook that formgrader and feedback
  read holds only inert outputs);
* as the first preprocessor of every ``HTMLExporter`` (formgrader's page and
  ``FeedbackExporter``), so a notebook graded before this step existed, or
  written by hand into ``autograded/``, is rendered inert too.  At render
  time the answers of markdown cells the student wrote (nbgrader ``solution``
  cells) are also shown with their HTML as text (``<`` and ``>`` escaped);
  nbconvert's own ``sanitize_html`` then cleans what markdown produces.
"""

import html
import re

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

KEPT_MIME_TYPES = ("text/plain", "image/png", "image/jpeg")
IMAGE_TYPES = ("image/png", "image/jpeg")
STREAM_NAMES = ("stdout", "stderr")
BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*\Z")


def _text(value):
    """A string, whatever the notebook held (a list of lines, a number, a dict...)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "".join(value)
    return repr(value)


def inert_data(data):
    """``(kept data, names of dropped types)`` of one output's mime bundle."""
    kept, dropped = {}, []
    for mime, value in (data.items() if isinstance(data, dict) else []):
        if mime == "text/plain":
            kept[mime] = _text(value)
        elif mime in IMAGE_TYPES and isinstance(_text(value), str) and BASE64.match(_text(value)):
            kept[mime] = _text(value)
        else:
            dropped.append(str(mime))
    return kept, dropped


def _removed_note(dropped):
    shown = ", ".join(sorted(set(repr(m)[1:-1] for m in dropped))[:5])
    return "[output of type %s removed by the autograder: only text and images are shown]" % shown


def inert_output(output):
    """The output with only inert content, or None when nothing of it may be shown."""
    kind = output.get("output_type") if isinstance(output, dict) else None
    if kind == "stream":
        name = output.get("name") if output.get("name") in STREAM_NAMES else "stdout"
        return type(output)(output_type="stream", name=name, text=_text(output.get("text", "")))
    if kind == "error":
        traceback = output.get("traceback")
        lines = [_text(t) for t in traceback] if isinstance(traceback, list) else []
        return type(output)(output_type="error", ename=_text(output.get("ename", "")),
                            evalue=_text(output.get("evalue", "")), traceback=lines)
    if kind in ("execute_result", "display_data"):
        data, dropped = inert_data(output.get("data", {}))
        if dropped and "text/plain" not in data:
            data["text/plain"] = _removed_note(dropped)
        if not data:
            return None
        clean = type(output)(output_type=kind, data=data, metadata={})
        if kind == "execute_result":
            count = output.get("execution_count")
            clean["execution_count"] = count if isinstance(count, int) and not isinstance(count, bool) else None
        return clean
    return None


def inert_outputs(cell):
    """Replace the outputs of a code cell by their inert parts (in place); returns the cell."""
    if cell.get("cell_type") != "code":
        return cell
    outputs = cell.get("outputs")
    kept = []
    for output in outputs if isinstance(outputs, list) else []:
        clean = inert_output(output)
        if clean is not None:
            kept.append(clean)
    cell["outputs"] = kept
    return cell


def _student_markdown(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {}) if isinstance(cell.get("metadata"), dict) else {}
    return cell.get("cell_type") == "markdown" and isinstance(meta, dict) and meta.get("solution")


class InertOutputs(Preprocessor):
    """Keep only text and images of every output (see the module docstring)."""

    enabled = Bool(True).tag(config=True)
    escape_student_markdown = Bool(
        True, help="Show the HTML in the student's markdown answers as text.").tag(config=True)

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            inert_outputs(cell)
            if self.escape_student_markdown and _student_markdown(cell):
                cell.pop("attachments", None)  # images of the student's, outside any check
                cell.source = html.escape(_text(cell.get("source", "")), quote=False)
        return nb, resources


class InertGradedOutputs(InertOutputs):
    """:class:`InertOutputs` in the autograde pipeline: outputs only, answers kept as written."""

    escape_student_markdown = Bool(False).tag(config=True)
