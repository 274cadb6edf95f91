"""The translated notebook: the English one with its prose replaced, paragraph by paragraph.

* code cells (and raw cells) are the English cells, byte for byte, ids included,
  so the translated chapter computes exactly what the English one does, except
  for the words of their comments (:mod:`.comments`) and docstrings (:mod:`.docstrings`),
  translated as paragraphs are; and a
  chapter's first code cell starts with one more line, ``from coursebook.language
  import use; use("zh")`` (:func:`speaking`), so what the course's code shows in
  that chapter's kernel speaks its language wherever it runs (an exercise's
  cells stay as nbgrader sealed them: its self-check reads the metadata);
* a markdown paragraph takes its catalog entry's translation when the entry
  is translated, not fuzzy, and has the paragraph's current English; otherwise
  it stays English (never a stale translation);
* relative links then point at the translated twins (:mod:`.links`);
* the notebook says its language in its metadata (``"coursebook": {"language": "zh"}``):
  the self-check and the grader's feedback read it, per notebook, to answer in it.
"""

from __future__ import annotations

import copy

import nbformat
import polib

from coursebook.language import SETUP_LINE
from coursebook.translate.catalog import markdown_file_as_notebook
from coursebook.translate.comments import comments, key as comment_key, replace
from coursebook.translate import docstrings as doc
from coursebook.translate.layout import Document, twin_finder
from coursebook.translate.links import relink
from coursebook.translate.paragraphs import fenced_code, join, split, translatable, with_fenced_code

__all__ = ["LANGUAGE_KEY", "translations", "translate", "render", "speaking"]

LANGUAGE_KEY = "coursebook"   # nb.metadata["coursebook"]["language"]: the notebook's language


def translations(catalog: polib.POFile) -> dict[tuple[str, str], str]:
    """``{(key, English): translation}`` of the usable entries (translated, not fuzzy)."""
    return {(e.msgctxt, e.msgid): e.msgstr for e in catalog
            if e.msgstr and "fuzzy" not in e.flags and not e.obsolete}


def speaking(source: str, language: str) -> str:
    """A chapter's first code cell in ``language``: the line that sets it, then the English cell."""
    return SETUP_LINE.format(lang=language) + "\n" + source


def translate(document: Document, catalog: polib.POFile, twin=None, source_text=None):
    """The translated notebook of ``document`` (a nbformat node; for a markdown file, a notebook of
    its one cell, which :func:`render` writes back as markdown).  ``source_text``: the English
    notebook's text, when not the file on disk (the tests read git's stored copy)."""
    twin = twin or twin_finder()
    if document.is_notebook and source_text is not None:
        notebook = nbformat.reads(source_text, as_version=4)
    elif document.is_notebook:
        notebook = nbformat.read(str(document.source), as_version=4)
    else:
        notebook = markdown_file_as_notebook(document.source)
    usable = translations(catalog)
    out = copy.deepcopy(notebook)
    if document.is_notebook:
        out.metadata[LANGUAGE_KEY] = {"language": document.language}
        code = [cell for cell in out.cells if cell.cell_type == "code"]
        if code and not document.name.startswith("exercises/"):
            code[0].source = speaking(code[0].source, document.language)
    for cell in out.cells:
        if cell.cell_type == "code":
            cell.source = _code(cell.source, cell.id, usable)
        if cell.cell_type != "markdown":
            continue
        paragraphs, separators = split(cell.source)
        for index, text in enumerate(paragraphs):
            if translatable(text):
                paragraphs[index] = usable.get((f"{cell.id}#{index}", text), text)
            elif (code := fenced_code(text)) is not None:
                paragraphs[index] = with_fenced_code(text, _code(code, cell.id, usable, index))
        cell.source = relink(join(paragraphs, separators), document.source, document.target, twin)
    return out


def _code(source: str, cell_id: str, usable, block: int | None = None) -> str:
    """``source`` with its docstrings' words, then its comments' words, translated."""
    source = doc.replace(source, [usable.get((doc.key(cell_id, k, block), d.text))
                                  for k, d in enumerate(doc.docstrings(source))])
    return replace(source, [usable.get((comment_key(cell_id, k, block), c.text))
                            for k, c in enumerate(comments(source))])


def render(notebook) -> str:
    """The file's text: a notebook written as the English notebooks are, or the markdown of a
    markdown file's one cell."""
    if len(notebook.cells) == 1 and notebook.cells[0].get("id") == "README":
        return notebook.cells[0].source
    return nbformat.writes(notebook)
