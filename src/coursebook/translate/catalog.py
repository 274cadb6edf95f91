"""A notebook's catalog: one gettext entry per translatable paragraph, keyed by cell.

``msgctxt`` is ``"<cell id>#<paragraph index>"`` (the index counts every paragraph
of the cell, see :mod:`.paragraphs`), ``msgid`` the English paragraph. A code
cell's comments are entries too, ``"<cell id>#comment<k>"`` (:mod:`.comments`), and so are the
comments of a markdown cell's fenced code block, ``"<cell id>#<paragraph index>#comment<k>"``;
docstrings likewise, ``"<cell id>#docstring<k>"`` (:mod:`.docstrings`). Cell ids
are stable (the course's notebooks keep them), so an entry follows its
paragraph wherever the cell moves.

:func:`update` brings a catalog in line with the English:

* a paragraph whose entry has the same key and the same English keeps its
  translation;
* an English paragraph already translated elsewhere in the catalog (moved to
  another cell, or a new paragraph inserted before it), or in another catalog
  (``memory``: a section moved to another chapter), takes that translation;
* a paragraph whose English changed keeps its old translation, marked
  ``fuzzy``, with the old English as ``#| msgid`` (the previous msgid), so the
  translator sees what changed;
* a new paragraph gets an empty entry; entries whose paragraph is gone are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import nbformat
import polib

from coursebook.translate.comments import comments, key as comment_key
from coursebook.translate.docstrings import docstrings, key as docstring_key
from coursebook.translate.paragraphs import fenced_code, split, translatable

__all__ = ["Paragraph", "paragraphs_of", "markdown_file_as_notebook", "new_catalog", "translation_memory", "update",
           "HEADER"]

HEADER = {
    "Project-Id-Version": "copy-semantics-course",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
}


@dataclass(frozen=True)
class Paragraph:
    """One translatable paragraph of a notebook."""

    cell_id: str
    index: int
    text: str

    comment: bool = False  # a comment (``index`` counts the comments of its code)
    block: int | None = None  # a comment of the fenced block that is this paragraph of a markdown cell
    docstring: bool = False  # a docstring (``index`` counts the docstrings of its code)

    @property
    def key(self) -> str:
        if self.docstring:
            return docstring_key(self.cell_id, self.index, self.block)
        return comment_key(self.cell_id, self.index, self.block) if self.comment else f"{self.cell_id}#{self.index}"

    @classmethod
    def of_comment(cls, cell_id: str, k: int, text: str, block: int | None = None) -> "Paragraph":
        return cls(cell_id, k, text, comment=True, block=block)

    @classmethod
    def of_docstring(cls, cell_id: str, k: int, text: str, block: int | None = None) -> "Paragraph":
        return cls(cell_id, k, text, block=block, docstring=True)


MARKDOWN_CELL_ID = "README"


def markdown_file_as_notebook(path: Path):
    """A markdown file (the README) as a notebook of one markdown cell, id ``README``."""
    cell = nbformat.v4.new_markdown_cell(Path(path).read_text(encoding="utf-8"))
    cell.id = MARKDOWN_CELL_ID
    return nbformat.v4.new_notebook(cells=[cell])


def paragraphs_of(notebook) -> list[Paragraph]:
    """The translatable paragraphs of ``notebook`` (a path, of a notebook or a markdown file, or a
    nbformat node), in order."""
    if isinstance(notebook, (str, Path)):
        path = Path(notebook)
        notebook = (markdown_file_as_notebook(path) if path.suffix == ".md"
                    else nbformat.read(str(path), as_version=4))
    found = []
    for cell in notebook.cells:
        if cell.cell_type == "code":
            found += [Paragraph.of_comment(cell.id, k, c.text) for k, c in enumerate(comments(cell.source))]
            found += [Paragraph.of_docstring(cell.id, k, d.text) for k, d in enumerate(docstrings(cell.source))]
        if cell.cell_type != "markdown":
            continue
        for index, text in enumerate(split(cell.source)[0]):
            if translatable(text):
                found.append(Paragraph(cell.id, index, text))
            elif (code := fenced_code(text)) is not None:
                found += [Paragraph.of_comment(cell.id, k, c.text, block=index) for k, c in enumerate(comments(code))]
                found += [Paragraph.of_docstring(cell.id, k, d.text, block=index)
                          for k, d in enumerate(docstrings(code))]
    return found


def new_catalog(language: str) -> polib.POFile:
    catalog = polib.POFile(wrapwidth=0)
    catalog.metadata = dict(HEADER, Language=language)
    return catalog


def translation_memory(catalogs) -> dict[str, str]:
    """``{English: translation}`` of every translated, not fuzzy entry of ``catalogs``."""
    memory = {}
    for catalog in catalogs:
        for entry in catalog:
            if entry.msgstr and "fuzzy" not in entry.flags and not entry.obsolete:
                memory.setdefault(entry.msgid, entry.msgstr)
    return memory


def update(catalog: polib.POFile, paragraphs: list[Paragraph], source_name: str,
           memory: dict[str, str] | None = None) -> tuple[polib.POFile, dict]:
    """A new catalog for ``paragraphs``, carrying over ``catalog``'s translations (and, for an
    English paragraph it has no translation of, ``memory``'s).

    Returns it with counts: ``kept``, ``moved``, ``fuzzy`` (English changed), ``new``, ``dropped``.
    """
    by_key = {e.msgctxt: e for e in catalog if not e.obsolete}
    by_english = dict(memory or {})
    for entry in catalog:
        if entry.msgstr and "fuzzy" not in entry.flags and not entry.obsolete:
            by_english[entry.msgid] = entry.msgstr  # this catalog's own translation first
    fresh = new_catalog(catalog.metadata.get("Language", ""))
    fresh.metadata = dict(catalog.metadata) or fresh.metadata
    counts = dict(kept=0, moved=0, fuzzy=0, new=0, dropped=0)
    for paragraph in paragraphs:
        old = by_key.get(paragraph.key)
        entry = polib.POEntry(msgctxt=paragraph.key, msgid=paragraph.text, msgstr="",
                              occurrences=[(source_name, paragraph.key)])
        if old is not None and old.msgid == paragraph.text:
            entry.msgstr, entry.flags = old.msgstr, list(old.flags)
            entry.previous_msgid = old.previous_msgid
            counts["kept"] += 1
        elif paragraph.text in by_english:
            entry.msgstr = by_english[paragraph.text]
            counts["moved"] += 1
        elif old is not None and old.msgstr:
            entry.msgstr, entry.flags = old.msgstr, ["fuzzy"]
            entry.previous_msgid = old.previous_msgid if "fuzzy" in old.flags and old.previous_msgid else old.msgid
            counts["fuzzy"] += 1
        else:
            counts["new"] += 1
        fresh.append(entry)
    keys = {p.key for p in paragraphs}
    counts["dropped"] = sum(1 for e in catalog if not e.obsolete and e.msgctxt not in keys)
    return fresh, counts
