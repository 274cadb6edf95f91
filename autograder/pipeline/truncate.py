"""``TruncateOutputs``: bound the size of errors and results, without changing a score.

``GuardedExecute`` caps printed output as it arrives (``autograder.kernels.output_cap``), but an
error or a result is kept whole, because nbgrader scores from them: any ``error`` output gives
the cell 0, and the first ``execute_result`` that reads as a number gives that many points.  One
``raise ValueError("x" * 50_000_000)`` would still make a notebook of hundreds of megabytes.  This
step, run by ``GuardedExecute`` on each cell as soon as it finishes and again as a preprocessor
after execution (``Autograde.autograde_preprocessors``), holds each cell to the limits of its
``OutputBudget`` (``autograder.pipeline.output_budget``).  It keeps no state: cutting a cell
again changes nothing.  It cuts

* an error's message and traceback to ``max_chars`` characters, keeping the
  error (and its name), so the cell still scores 0;
* each representation of a result to ``max_chars`` characters; a
  ``text/plain`` that reads as a number is kept as that number, so partial
  credit is unchanged; html, json and images, which a cut would break, are
  kept whole up to ``max_rich_chars`` (a plot is tens of kilobytes) and
  dropped above it;
* the *number* of outputs of a cell to ``max_outputs``, with a note (errors and results are kept,
  and so is the fact that something was written to stderr, which makes nbgrader score the cell 0).
"""

import re

from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Instance, default

from .output_budget import COUNT_NOTE, SCORED, OutputBudget, keep_stderr_mark

NOTE = " ...[cut by the autograder: %d characters]"
_NOTE_AT_END = re.compile(r" \.\.\.\[cut by the autograder: \d+ characters\]$")
REST = "[rest of the traceback cut by the autograder]"


def _cut(text, limit):
    """``text`` cut to ``limit`` characters plus a note; a text cut before is left as it is."""
    text = text if isinstance(text, str) else "".join(text) if isinstance(text, list) else str(text)
    if len(text) <= limit:
        return text
    already = _NOTE_AT_END.search(text)
    if already and already.start() <= limit:
        return text
    return text[:limit] + NOTE % len(text)


def _number_text(text):
    try:
        return str(float(text))
    except (TypeError, ValueError, OverflowError):
        return None


class TruncateOutputs(NbGraderPreprocessor):

    budget = Instance(OutputBudget, help="The limits a cell is held to (configured as OutputBudget).")

    @default("budget")
    def _budget_default(self):
        return OutputBudget(parent=self)

    def preprocess_cell(self, cell, resources, cell_index):
        self.truncate_cell(cell)
        return cell, resources

    def _cap_count(self, cell):
        limit = self.budget.max_outputs
        outputs = cell.get("outputs", [])
        if len(outputs) <= limit + 2 or sum(  # room for the notes added while it ran
                o.get("output_type") not in SCORED for o in outputs) <= limit + 2:
            return
        kept, others, stderr_dropped = [], 0, False
        for output in outputs:
            kind = output.get("output_type")
            if kind in SCORED or others < limit:
                kept.append(output)
                others += kind not in SCORED
            elif kind == "stream" and output.get("name") == "stderr":
                stderr_dropped = True
        kept.append(new_output("stream", name="stdout", text=COUNT_NOTE % limit))
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
        limit = self.budget.max_chars
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
        limit, rich_limit = self.budget.max_chars, self.budget.max_rich_chars
        data = output.get("data", {})
        for mime in list(data):
            value = data[mime]
            size = len(value) if isinstance(value, (str, list)) else len(str(value))
            rich = not mime.startswith("text/") or mime == "text/html"
            if size <= (rich_limit if rich else limit):
                continue
            if mime == "text/plain":
                number = _number_text(value) if keep_number else None
                data[mime] = number if number is not None else _cut(value, limit)
            elif not rich:
                data[mime] = _cut(value, limit)
            else:  # html, images, json: a cut copy would be broken; the text/plain stays
                del data[mime]
        if not data:
            data["text/plain"] = "[output too large; cut by the autograder]"
