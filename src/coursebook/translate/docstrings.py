"""A code cell's docstrings: the words between the quotes, which a translator translates as prose.

A docstring is what Python itself calls one: the first statement of a module,
function or class body when it is a string constant (:mod:`ast` finds it; the
:mod:`tokenize` STRING token at the same place gives its exact text). Its words
run from the first to the last non-blank character between the quotes. The
text of docstring ``k`` of a cell (key ``<cell id>#docstring<k>``) is those
words with the continuation lines' common indentation taken off; a translated
cell is the English cell with only those words replaced, every continuation
line of the translation indented as the English ones were, so the quotes, the
prefix, the code and the indentation stay byte for byte. A docstring made of
several string literals, or a cell Python cannot parse, stays English.

As for comments (:mod:`.comments`), a cell magic or shell line is read as a
blank line, and a markdown paragraph that is a fenced code block has its
docstrings keyed ``<cell id>#<paragraph index>#docstring<k>``.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

__all__ = ["Docstring", "docstrings", "key", "replace"]


@dataclass(frozen=True)
class Docstring:
    start: int    # offset in the source where the words start
    end: int      # where they end
    indent: str   # the continuation lines' common indentation, taken off ``text``
    text: str     # the words


def key(cell_id: str, k: int, block: int | None = None) -> str:
    """Docstring ``k`` of a code cell, or of the fenced code block that is paragraph ``block`` of a
    markdown cell."""
    return f"{cell_id}#docstring{k}" if block is None else f"{cell_id}#{block}#docstring{k}"


def _char_column(line: str, byte_column: int) -> int:
    return len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="replace"))


def docstrings(source: str) -> list[Docstring]:
    """The docstrings of a code cell that hold words, in the order they appear."""
    lines = source.split("\n")
    readable = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
    try:
        tree = ast.parse(readable)
        tokens = {t.start: t for t in tokenize.generate_tokens(io.StringIO(readable + "\n").readline)
                  if t.type == tokenize.STRING}
    except (tokenize.TokenError, SyntaxError, ValueError):
        return []
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        first = node.body[0] if node.body else None
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            continue
        value = first.value
        start = (value.lineno, _char_column(lines[value.lineno - 1], value.col_offset))
        end = (value.end_lineno, _char_column(lines[value.end_lineno - 1], value.end_col_offset))
        token = tokens.get(start)
        if token is None or token.end != end:
            continue  # several literals side by side: left as they are
        quoted = token.string
        prefix = len(quoted) - len(quoted.lstrip("rRbBuUfF"))
        quote = 3 if quoted[prefix:prefix + 3] in ('"""', "'''") else 1
        inner = quoted[prefix + quote:len(quoted) - quote]
        if not re.search(r"[A-Za-z\u4e00-\u9fff]", inner):
            continue
        lead = len(inner) - len(inner.lstrip())
        words = inner.strip()
        continuation = [line for line in words.split("\n")[1:] if line.strip()]
        indent = min((line[:len(line) - len(line.lstrip())] for line in continuation), key=len, default="")
        text = "\n".join([words.split("\n")[0]] + [line[len(indent):] for line in words.split("\n")[1:]])
        offset = starts[start[0] - 1] + start[1] + prefix + quote + lead
        found.append(Docstring(offset, offset + len(words), indent, text))
    return sorted(found, key=lambda d: d.start)


def _indented(text: str, indent: str) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first] + [indent + line if line.strip() else line for line in rest])


def replace(source: str, translated: list[str | None]) -> str:
    """``source`` with docstring ``k``'s words replaced by ``translated[k]`` (None: kept), its
    continuation lines indented as the English ones."""
    for docstring, words in reversed(list(zip(docstrings(source), translated))):
        if words is not None:
            source = source[:docstring.start] + _indented(words, docstring.indent) + source[docstring.end:]
    return source
