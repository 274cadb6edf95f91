"""How far a catalog is from its English notebook, named by cell.

For every translatable paragraph of the English notebook (key ``<cell id>#<i>``):

* **missing**: the catalog has no entry with that key (the catalog was not
  updated after a paragraph was added);
* **stale**: the entry's English is not the paragraph's English any more, or
  the entry is fuzzy (updated, but its translation not yet revised);
* **untranslated**: the entry has no translation yet.

Entries whose key no longer exists in the notebook are **unused**.
``python -m coursebook.translate update`` fixes missing and unused entries; a
translator fixes stale and untranslated ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polib

from coursebook.translate.catalog import paragraphs_of
from coursebook.translate.layout import Document

__all__ = ["Drift", "drift", "load"]


@dataclass
class Drift:
    document: str
    total: int = 0
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    untranslated: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)

    @property
    def translated(self) -> int:
        return self.total - len(self.missing) - len(self.stale) - len(self.untranslated)

    def describe(self, kind: str, limit: int = 8) -> str:
        keys = getattr(self, kind)
        shown = ", ".join(f"cell {k}" for k in keys[:limit]) + (" ..." if len(keys) > limit else "")
        return f"{self.document}: {len(keys)} {kind} ({shown})"


def load(path: Path) -> polib.POFile:
    """The catalog at ``path``; an empty one when there is none yet."""
    if Path(path).exists():
        return polib.pofile(str(path), wrapwidth=0)
    return polib.POFile(wrapwidth=0)


def drift(document: Document, catalog: polib.POFile | None = None, source=None) -> Drift:
    """Compare ``document``'s catalog (or ``catalog``) with its English (or ``source``, a path)."""
    catalog = load(document.catalog) if catalog is None else catalog
    entries = {e.msgctxt: e for e in catalog if not e.obsolete}
    found = Drift(document.name)
    paragraphs = paragraphs_of(source or document.source)
    found.total = len(paragraphs)
    for paragraph in paragraphs:
        entry = entries.get(paragraph.key)
        if entry is None:
            found.missing.append(paragraph.key)
        elif entry.msgid != paragraph.text or "fuzzy" in entry.flags:
            found.stale.append(paragraph.key)
        elif not entry.msgstr:
            found.untranslated.append(paragraph.key)
    keys = {p.key for p in paragraphs}
    found.unused = [k for k in entries if k not in keys]
    return found
