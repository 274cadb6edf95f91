"""The autograder's notes to a student, always shown as plain text.

A note may quote what a student controls: a file name from their zip, the
first line of a cell they added.  So a note is never markup: in the graded
notebook's notes cell (markdown, rendered as HTML in feedback) every character
that markdown or HTML would interpret is escaped, and each note stays on one
line; in the CSV export a cell never starts with a character a spreadsheet
reads as a formula.
"""

import html
import re

# ASCII punctuation CommonMark lets a backslash escape, minus the three html.escape handles
# Where the grader's notes on one graded submission are kept, beside the graded notebook.
MESSAGES_FILE = "messages.json"
# Where the collector's notes on one submission are kept, beside the submitted notebook.
NOTES_FILE = "collect_notes.json"

_MARKDOWN_PUNCTUATION = re.compile(r"([!\"#$%'()*+,\-./:;=?@\[\\\]^_`{|}~])")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def one_line(text):
    """``text`` as a single line without control characters."""
    return re.sub(r"[\x00-\x1f\x7f]+", " ", str(text)).strip()


def markdown_text(text):
    """``text`` as markdown that renders exactly as the characters of ``text``."""
    return html.escape(_MARKDOWN_PUNCTUATION.sub(r"\\\1", one_line(text)), quote=False)


def notes_markdown(messages):
    """The notes cell: a heading and one escaped bullet per message."""
    return "**Autograder notes**\n\n" + "\n".join("- " + markdown_text(m) for m in messages)


def csv_text(value):
    """A CSV field a spreadsheet shows as text (a leading ``'`` disarms formulas)."""
    if not isinstance(value, str):
        return value
    value = one_line(value)
    return "'" + value if value.startswith(_FORMULA_START) else value
