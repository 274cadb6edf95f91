"""A markdown cell as paragraphs: the unit a translator translates.

Paragraphs are separated by blank lines, except inside a fenced code block
(```` ``` ````), which stays whole however many blank lines it holds. The
separators are kept, so :func:`join` of :func:`split` gives back the cell
byte for byte.

A paragraph is *translatable* when it holds words: a fenced code block alone,
a bare HTML tag (``</details>``) or a rule (``---``) is copied as it is.
"""

from __future__ import annotations

import re

__all__ = ["split", "join", "translatable", "fenced_code", "with_fenced_code"]

_FENCE = re.compile(r"^\s*(```|~~~)")
_BLANK = re.compile(r"^[ \t]*$")


def split(source: str) -> tuple[list[str], list[str]]:
    """``(paragraphs, separators)``: ``separators[i]`` follows ``paragraphs[i]`` (the last is ``""``
    or the cell's trailing newlines)."""
    lines = source.split("\n")
    paragraphs: list[str] = []
    separators: list[str] = []
    current: list[str] = []
    gap: list[str] = []
    fenced = False
    for line in lines:
        if not fenced and _BLANK.match(line):
            if current:
                gap.append(line)
            else:  # blank lines before the first paragraph
                gap.append(line)
            continue
        if gap and current:
            paragraphs.append("\n".join(current))
            separators.append("\n" + "\n".join(gap) + "\n")
            current, gap = [], []
        elif gap and not current:
            # leading blank lines: kept as an empty first paragraph
            paragraphs.append("")
            separators.append("\n".join(gap) + "\n")
            gap = []
        current.append(line)
        if _FENCE.match(line):
            fenced = not fenced
    if current:
        paragraphs.append("\n".join(current))
        separators.append("\n".join([""] + gap) if gap else "")
    elif gap:
        paragraphs.append("")
        separators.append("\n".join(gap))
    return paragraphs, separators


def join(paragraphs: list[str], separators: list[str]) -> str:
    return "".join(p + s for p, s in zip(paragraphs, separators))


_TAG_ONLY = re.compile(r"^\s*(</?[a-zA-Z][^>]*>\s*)+$")


def translatable(paragraph: str) -> bool:
    """Whether ``paragraph`` holds prose (not only a fenced block, a tag, or punctuation)."""
    text = paragraph.strip()
    if not text or _TAG_ONLY.match(text):
        return False
    if fenced_code(paragraph) is not None:
        return False
    return bool(re.search(r"[A-Za-z\u4e00-\u9fff]", text))


def _fences(paragraph: str) -> tuple[int, int] | None:
    """The lines of the two fences of a paragraph that is one fenced block and nothing else."""
    lines = paragraph.split("\n")
    filled = [i for i, line in enumerate(lines) if line.strip()]
    fences = [i for i, line in enumerate(lines) if _FENCE.match(line)]
    if len(fences) == 2 and filled and fences == [filled[0], filled[-1]]:
        return fences[0], fences[1]
    return None


def fenced_code(paragraph: str) -> str | None:
    """The code of a paragraph that is one fenced block and nothing else (its lines between the
    fences), else None. Its comments are translated as a code cell's are (:mod:`.comments`)."""
    fences = _fences(paragraph)
    return None if fences is None else "\n".join(paragraph.split("\n")[fences[0] + 1:fences[1]])


def with_fenced_code(paragraph: str, code: str) -> str:
    """``paragraph`` (one fenced block) with ``code`` between its fences."""
    first, last = _fences(paragraph)
    lines = paragraph.split("\n")
    return "\n".join(lines[:first + 1] + [code] + lines[last:])
