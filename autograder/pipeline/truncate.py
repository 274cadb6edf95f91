"""``TruncateOutputs``: bound the size of errors and results, without changing a score.

``GuardedExecute`` caps printed output as it arrives, but an error or a
result is kept whole, because nbgrader scores from them: any ``error`` output
gives the cell 0, and the first ``execute_result`` that reads as a number
gives that many points.  One ``raise ValueError("x" * 50_000_000)`` would
still make a notebook of hundreds of megabytes.  This step, run by
``GuardedExecute`` on each cell as soon as it finishes and again as a
preprocessor after execution (``Autograde.autograde_preprocessors``), cuts

* an error's message and traceback to ``max_chars`` characters, keeping the
  error (and its name), so the cell still scores 0;
* each representation of a result to ``max_chars`` characters; a
  ``text/plain`` that reads as a number is kept as that number, so partial
  credit is unchanged; html, json and images, which a cut would break, are
  kept whole up to ``max_rich_chars`` (a plot is tens of kilobytes) and
  dropped above it;
* the *number* of outputs of a cell to ``max_outputs``: ``GuardedExecute``
  asks :meth:`TruncateOutputs.refuse_output` before it keeps a printed or
  displayed output, so a flood of hundreds of thousands of tiny outputs stops
  at the cap with a note (an ``error`` and the ``execute_result``, which
  decide the score, are always kept; so is the fact that something was
  written to stderr, which makes nbgrader score the cell 0).  A cell that goes
  on to make ``flood_factor`` times as many outputs as the cap is interrupted
  once (the grader's own work on each message would otherwise slow everyone
  else's grading).  The step after execution cuts any cell over the cap the
  same way.
"""

import re

from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Integer

NOTE = " ...[cut by the autograder: %d characters]"
_NOTE_AT_END = re.compile(r" \.\.\.\[cut by the autograder: \d+ characters\]$")
REST = "[rest of the traceback cut by the autograder]"
COUNT_NOTE = "\n[autograder: outputs beyond the first %d of this cell were dropped]\n"
COUNT_MESSAGE = "made more than %d outputs; the rest were dropped"
FLOOD_MESSAGE = "made more than %d outputs and was interrupted"
STDERR_NOTE = "[stderr output dropped]\n"
SCORED = ("error", "execute_result")  # what nbgrader scores from: never dropped


def _cut(text, limit):
    """``text`` cut to ``limit`` characters plus a note; a text cut before is left as it is."""
    text = text if isinstance(text, str) else "".join(text) if isinstance(text, list) else str(text)
    if len(text) <= limit:
        return text
    already = _NOTE_AT_END.search(text)
    if already and already.start() <= limit:
        return text
    return text[:limit] + NOTE % len(text)


def keep_stderr_mark(outputs):
    """A write to stderr was dropped from a cell whose outputs are ``outputs``: make sure they
    still hold one stderr output (``STDERR_NOTE`` if none), so nbgrader scores the cell 0 as it
    would have with the write kept."""
    if not any(o.get("output_type") == "stream" and o.get("name") == "stderr" for o in outputs):
        outputs.append(new_output("stream", name="stderr", text=STDERR_NOTE))


def _number_text(text):
    try:
        return str(float(text))
    except (TypeError, ValueError, OverflowError):
        return None


class TruncateOutputs(NbGraderPreprocessor):

    max_chars = Integer(
        10_000, help="Characters kept of an error's message and traceback, and of each result field."
    ).tag(config=True)
    max_rich_chars = Integer(
        2_000_000, help="Characters kept of an image, html or json result before it is dropped."
    ).tag(config=True)

    max_outputs = Integer(
        1000, help="Outputs kept per cell (printed and displayed ones; errors and results always)."
    ).tag(config=True)

    flood_factor = Integer(
        10, help="A cell that makes this many times max_outputs outputs is interrupted (0: never)."
    ).tag(config=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._full = set()  # cells that reached max_outputs
        self._refused = {}  # cell index -> outputs dropped so far

    def preprocess_cell(self, cell, resources, cell_index):
        self.truncate_cell(cell)
        return cell, resources

    def refuse_output(self, outs, msg, cell_index):
        """Whether to drop the output ``msg`` of the cell whose outputs so far are ``outs``.

        ``None``: keep it.  Else it is dropped, and the first time for a cell a
        note is added to ``outs`` and the returned text says what happened
        (``""`` afterwards).  A dropped write to stderr still leaves one stderr
        output in the cell, so nbgrader scores it 0 as it would have.  When the
        flood reaches ``flood_factor`` times the cap the text starts with
        ``"interrupt: "``: the caller interrupts the kernel (once).
        """
        if msg["msg_type"] in SCORED or len(outs) < self.max_outputs:
            return None
        said = ""
        refused = self._refused[cell_index] = self._refused.get(cell_index, 0) + 1
        if self.flood_factor and refused == self.max_outputs * (self.flood_factor - 1):
            said = "interrupt: " + FLOOD_MESSAGE % (self.max_outputs * self.flood_factor)
        if cell_index not in self._full:
            self._full.add(cell_index)
            outs.append(new_output("stream", name="stdout", text=COUNT_NOTE % self.max_outputs))
            said = COUNT_MESSAGE % self.max_outputs
        if msg["msg_type"] == "stream" and msg.get("content", {}).get("name") == "stderr":
            keep_stderr_mark(outs)
        return said

    def _cap_count(self, cell):
        outputs = cell.get("outputs", [])
        if len(outputs) <= self.max_outputs + 2 or sum(  # room for the notes added while it ran
                o.get("output_type") not in SCORED for o in outputs) <= self.max_outputs + 2:
            return
        kept, others, stderr_dropped = [], 0, False
        for output in outputs:
            kind = output.get("output_type")
            if kind in SCORED or others < self.max_outputs:
                kept.append(output)
                others += kind not in SCORED
            elif kind == "stream" and output.get("name") == "stderr":
                stderr_dropped = True
        kept.append(new_output("stream", name="stdout", text=COUNT_NOTE % self.max_outputs))
        if stderr_dropped:
            keep_stderr_mark(kept)
        cell["outputs"] = kept

    def truncate_cell(self, cell):
        self._cap_count(cell)
        for output in cell.get("outputs", []):
            kind = output.get("output_type")
            if kind == "error":
                self._truncate_error(output)
            elif kind in ("execute_result", "display_data"):
                self._truncate_data(output, keep_number=kind == "execute_result")
        return cell

    def _truncate_error(self, output):
        """Cut message and traceback; cutting again changes nothing (it runs twice per cell)."""
        limit = self.max_chars
        output["ename"] = _cut(output.get("ename", "Error"), 200)
        output["evalue"] = _cut(output.get("evalue", ""), limit)
        kept, used = [], 0
        for line in output.get("traceback", []):
            if used >= limit:
                kept.append(REST)
                break
            line = _cut(line, max(limit - used, 200))
            kept.append(line)
            used += len(line)
        output["traceback"] = kept

    def _truncate_data(self, output, keep_number):
        data = output.get("data", {})
        for mime in list(data):
            value = data[mime]
            size = len(value) if isinstance(value, (str, list)) else len(str(value))
            rich = not mime.startswith("text/") or mime == "text/html"
            if size <= (self.max_rich_chars if rich else self.max_chars):
                continue
            if mime == "text/plain":
                number = _number_text(value) if keep_number else None
                data[mime] = number if number is not None else _cut(value, self.max_chars)
            elif not rich:
                data[mime] = _cut(value, self.max_chars)
            else:  # html, images, json: a cut copy would be broken; the text/plain stays
                del data[mime]
        if not data:
            data["text/plain"] = "[output too large; cut by the autograder]"
