"""``OutputBudget``: how much output one cell of a graded notebook may keep.

One set of limits, configured once (``c.OutputBudget.…`` in ``nbgrader_config.py``), read by
the two places that hold a cell to it:

* while the cell runs, ``GuardedExecute`` (``autograder.kernels.output_cap``) drops printed and
  displayed output beyond ``max_stream_chars`` characters or ``max_outputs`` outputs, and
  interrupts a cell that floods on to ``flood_factor`` times that many;
* once it has run, the pipeline step ``TruncateOutputs`` (``autograder.pipeline.truncate``) cuts
  errors and results, which nbgrader scores from, to ``max_chars`` (``max_rich_chars`` for html,
  json and images) without changing the score, and cuts any cell still over ``max_outputs``.

An ``error`` and the ``execute_result`` are never dropped, and neither is the fact that a cell
wrote to stderr: nbgrader scores from them.
"""

from nbformat.v4 import new_output
from traitlets import Integer
from traitlets.config import Configurable

SCORED = ("error", "execute_result")  # what nbgrader scores from: never dropped
COUNT_NOTE = "\n[autograder: outputs beyond the first %d of this cell were dropped]\n"
STDERR_NOTE = "[stderr output dropped]\n"


class OutputBudget(Configurable):
    max_stream_chars = Integer(100_000, help="Characters of printed and displayed output kept per cell "
                               "while it runs.").tag(config=True)
    max_outputs = Integer(1000, help="Outputs kept per cell (printed and displayed ones; errors and "
                          "results always).").tag(config=True)
    flood_factor = Integer(10, help="A cell that makes this many times max_outputs outputs is "
                           "interrupted (0: never).").tag(config=True)
    max_chars = Integer(10_000, help="Characters kept of an error's message and traceback, and of "
                        "each result field.").tag(config=True)
    max_rich_chars = Integer(2_000_000, help="Characters kept of an image, html or json result "
                             "before it is dropped.").tag(config=True)


def keep_stderr_mark(outputs):
    """A write to stderr was dropped from a cell whose outputs are ``outputs``: make sure they
    still hold one stderr output (``STDERR_NOTE`` if none), so nbgrader scores the cell 0 as it
    would have with the write kept."""
    if not any(o.get("output_type") == "stream" and o.get("name") == "stderr" for o in outputs):
        outputs.append(new_output("stream", name="stderr", text=STDERR_NOTE))
