"""A code cell's comments: the ``# ...`` text a translator translates, and nothing else of the code.

A comment is found with Python's own tokenizer, so a ``#`` inside a string is
code, not a comment. A cell magic or shell line (``%%key``, ``!pip``) is read
as a blank line. The text of comment ``k`` of a cell is its words after ``#``
and the spaces that follow it (key ``<cell id>#comment<k>``); a translated
cell is the English cell with only those words replaced, so the code, the
strings, the ``#`` and the spaces around the words stay byte for byte.
A cell the tokenizer cannot read keeps its comments in English.

A markdown paragraph that is a fenced code block and nothing else (a prediction's
program) has its comments translated the same way, keyed
``<cell id>#<paragraph index>#comment<k>``.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

__all__ = ["Comment", "comments", "key", "replace"]


@dataclass(frozen=True)
class Comment:
    line: int     # 0-based line of the cell
    start: int    # where the words start on that line
    end: int      # where they end
    text: str     # the words


def key(cell_id: str, k: int, block: int | None = None) -> str:
    """Comment ``k`` of a code cell, or of the fenced code block that is paragraph ``block`` of a
    markdown cell."""
    return f"{cell_id}#comment{k}" if block is None else f"{cell_id}#{block}#comment{k}"


def comments(source: str) -> list[Comment]:
    """The comments of a code cell that hold words, in order."""
    lines = source.split("\n")
    readable = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(readable + "\n").readline):
            if token.type != tokenize.COMMENT:
                continue
            row, col = token.start
            lead = len(token.string) - len(token.string[1:].lstrip()) if token.string[1:].strip() else 0
            words = token.string[lead:].rstrip()
            if re.search(r"[A-Za-z\u4e00-\u9fff]", words):
                found.append(Comment(row - 1, col + lead, col + lead + len(words), words))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return found


def replace(source: str, translated: list[str | None]) -> str:
    """``source`` with comment ``k``'s words replaced by ``translated[k]`` (None: kept)."""
    lines = source.split("\n")
    for comment, words in reversed(list(zip(comments(source), translated))):
        if words is not None:
            line = lines[comment.line]
            lines[comment.line] = line[:comment.start] + words + line[comment.end:]
    return "\n".join(lines)
