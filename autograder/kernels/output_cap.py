"""``OutputCap``: a notebook's cells held to the ``OutputBudget`` while their output arrives.

nbgrader's LimitOutput cuts lines only after a cell has run, and one line can be megabytes;
a flood of hundreds of thousands of tiny outputs costs the grader time on every message.
``GuardedExecute.output`` asks :meth:`OutputCap.refuse` before it keeps a printed or displayed
output; the errors and results that decide the score are always kept (the pipeline step
``TruncateOutputs`` bounds their size once the cell has run).
"""

from nbformat.v4 import new_output

from ..pipeline.output_budget import COUNT_NOTE, SCORED, keep_stderr_mark

CHARS_NOTE = "\n[autograder: output beyond %d characters was dropped]\n"
CHARS_MESSAGE = "printed more than %d characters; the rest was dropped"
COUNT_MESSAGE = "made more than %d outputs; the rest were dropped"
FLOOD_MESSAGE = "made more than %d outputs and was interrupted"
INTERRUPT = "interrupt: "
SHOWN = ("stream", "display_data", "update_display_data")   # what counts against max_stream_chars


class OutputCap:
    """The output kept so far by each cell of one notebook run, against ``budget``."""

    def __init__(self, budget):
        self.budget = budget
        self._chars = {}     # cell index -> characters printed or displayed so far
        self._full = set()   # cells that reached max_outputs
        self._refused = {}   # cell index -> outputs dropped for their number so far

    def refuse(self, outs, msg, cell_index):
        """Whether to drop the output ``msg`` of the cell whose outputs so far are ``outs``.

        ``None``: keep it.  Else it is dropped, and the first time a cell goes over a limit a note
        is added to ``outs`` and the returned text says what happened (``""`` afterwards).  A
        dropped write to stderr still leaves one stderr output in the cell, so nbgrader scores it
        0 as it would have.  When a flood reaches ``flood_factor`` times ``max_outputs`` the text
        starts with ``INTERRUPT``: the caller interrupts the kernel (once).
        """
        kind = msg["msg_type"]
        if kind in SCORED:
            return None
        said = self._refuse_count(outs, cell_index) if len(outs) >= self.budget.max_outputs else None
        if said is None and kind in SHOWN:
            said = self._refuse_chars(outs, msg["content"], cell_index)
        if said is not None and kind == "stream" and msg.get("content", {}).get("name") == "stderr":
            keep_stderr_mark(outs)
        return said

    def _refuse_count(self, outs, cell_index):
        limit, said = self.budget.max_outputs, ""
        refused = self._refused[cell_index] = self._refused.get(cell_index, 0) + 1
        if self.budget.flood_factor and refused == limit * (self.budget.flood_factor - 1):
            said = INTERRUPT + FLOOD_MESSAGE % (limit * self.budget.flood_factor)
        if cell_index not in self._full:
            self._full.add(cell_index)
            outs.append(new_output("stream", name="stdout", text=COUNT_NOTE % limit))
            said = COUNT_MESSAGE % limit
        return said

    def _refuse_chars(self, outs, content, cell_index):
        limit = self.budget.max_stream_chars
        size = len(content.get("text", "")) or sum(len(str(v)) for v in content.get("data", {}).values())
        used = self._chars.get(cell_index, 0)
        self._chars[cell_index] = used + size
        if used + size <= limit:
            return None
        if used > limit:
            return ""
        outs.append(new_output("stream", name="stdout", text=CHARS_NOTE % limit))  # the first time: say so
        return CHARS_MESSAGE % limit
