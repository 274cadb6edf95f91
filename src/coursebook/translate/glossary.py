"""One rendering per term: ``course/locale/<lang>/glossary.toml``.

Each ``[[term]]`` gives the English term, the one allowed ``rendering`` and
the ``wrong`` renderings a translator might reach for. A term marked
``required = true`` must appear in its rendering in every translation whose
English contains it (outside backticks).

:func:`inconsistencies` lists, per catalog entry, a wrong rendering used (an
occurrence that is part of the right rendering does not count: 版本计数 inside
版本计数器) or a required rendering missing.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import polib

__all__ = ["Term", "load_glossary", "inconsistencies", "prose"]


@dataclass(frozen=True)
class Term:
    english: str
    rendering: str
    wrong: tuple[str, ...] = ()
    required: bool = False


def load_glossary(path: Path) -> list[Term]:
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    return [Term(t["english"], t["rendering"], tuple(t.get("wrong", ())), bool(t.get("required", False)))
            for t in data.get("term", [])]


_CODE = re.compile(r"`[^`]*`|```.*?```", re.S)


def prose(text: str) -> str:
    """``text`` with its code (inline and fenced) blanked out: what the glossary reads."""
    return _CODE.sub(" ", text)


def inconsistencies(catalog: polib.POFile, terms: list[Term]) -> list[str]:
    """``"<cell id>#<i>: ..."`` for each inconsistent use of a term in the translated entries."""
    found = []
    for entry in catalog:
        if not entry.msgstr or entry.obsolete:
            continue
        translated = prose(entry.msgstr)
        english = prose(entry.msgid).lower()
        for term in terms:
            without_right = translated.replace(term.rendering, "\0")
            for wrong in term.wrong:
                if wrong in without_right:
                    found.append(f"{entry.msgctxt}: {wrong!r} for {term.english!r} (the glossary says {term.rendering!r})")
            if term.required and re.search(rf"\b{re.escape(term.english.lower())}", english) \
                    and term.rendering not in translated:
                found.append(f"{entry.msgctxt}: {term.english!r} is not rendered as {term.rendering!r}")
    return found
