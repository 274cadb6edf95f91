"""How a student finds a cell: by the name of its test, or by the heading above it.

A student never sees cell numbers, so whatever the autograder says about a
cell (the feedback's summary, "the kernel died in ...") names it the way the
notebook shows it: its nbgrader grade id (``clone-memory``) together with the
words that introduce it, which are the first line of the markdown cell just
above when that line is a heading or a bold lead-in
(``**New object, new memory, same numbers.**``), else the nearest heading above.
"""

import re

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BOLD_LEAD = re.compile(r"^\s*\*\*(.+?)\*\*")
MAX_CHARS = 80


def _plain(text):
    text = re.sub(r"[`*_]", "", text).strip()
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS - 1].rstrip() + "…"


def _first_line(cell):
    lines = [line for line in cell.get("source", "").splitlines() if line.strip()]
    return lines[0] if lines else ""


def heading_above(cells, index):
    """The words that introduce ``cells[index]`` ("" when nothing does)."""
    if index > 0 and cells[index - 1].get("cell_type") == "markdown":
        line = _first_line(cells[index - 1])
        found = _HEADING.match(line) or _BOLD_LEAD.match(line)
        if found:
            return _plain(found.group(1))
    for cell in reversed(cells[:index]):
        if cell.get("cell_type") != "markdown":
            continue
        headings = [m.group(1) for m in map(_HEADING.match, cell.get("source", "").splitlines()) if m]
        if headings:
            return _plain(headings[-1])
    return ""


def grade_id(cell):
    return (cell.get("metadata", {}).get("nbgrader") or {}).get("grade_id")


def test_name(cells, index):
    """``clone-memory: New object, new memory, same numbers.`` (grade id, then the heading)."""
    gid, heading = grade_id(cells[index]), heading_above(cells, index)
    if gid and heading:
        return "%s: %s" % (gid, heading)
    return gid or heading or "an unnamed cell"


def describe(cells, index):
    """A cell as a sentence fragment a student can look up: ``the test "clone-memory: ..."``."""
    meta = cells[index].get("metadata", {}).get("nbgrader") or {}
    if meta.get("grade") and not meta.get("solution"):
        return 'the test "%s"' % test_name(cells, index)
    if meta.get("solution"):
        return 'your answer cell "%s"' % test_name(cells, index)
    heading = heading_above(cells, index)
    return 'the code cell under "%s"' % heading if heading else "the first code cell"
