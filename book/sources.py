"""The executed notebooks as Sphinx sources: one folder per language, one notebook per page.

``write_sources`` fills ``<build>/src/en`` and ``<build>/src/zh``; Sphinx
(MyST-NB, execution off) renders each notebook there as it is. Page names are
the same in both languages: chapter 00 is ``index``, a chapter keeps its name
(``08_clone``), an exercise is ``exercise-<name>``. Before a notebook is
written there (the notebook's cells and outputs change, never their HTML):

* a stepping diagram's widget view is dropped, so its ``text/html`` player
  (``book.execute.static_diagrams``) is what the page shows (each step's SVG
  carries its own ``aria-label``);
* a diagram a cell shows as an SVG (``memdiagram.show``) moves to
  ``text/html``, so that it goes into the page inline with its ``aria-label``
  (what each tensor is, its storage and its version counter), not as an
  ``<img>`` that would hide it;
* any other picture a cell draws (a matplotlib plot) gets, through MyST-NB's
  cell metadata (``mystnb.image``), the class ``book-plot`` and an ``alt``
  that is the first paragraph of the markdown cell above it: the course
  describes each plot in words right before drawing it (``plot_alt``);
* a link to another chapter or to an exercise points to its source here
  (MyST turns it into a link to its page, and warns if it has none); any
  other link out of ``course/`` points to the repository;
* the key cell that answers a "Predict the output" question keeps its
  printout folded (MyST-NB's ``hide-output`` tag, a ``<details>`` the reader
  opens, labelled in the page's language by ``book.build``): the book
  prints every cell, and the question's "Answer" fold would otherwise sit
  right above the printout that gives the answer away;
* an exercise keeps its markdown cells only (its description);
* chapter 00 gets a hidden table of contents (MyST's ``toctree``), which
  becomes the sidebar of every page.
"""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path

import nbformat

from .execute import WIDGET_VIEW
from .languages import Language

REPOSITORY = "https://github.com/tensor-copies/copy-semantics-course"
IMAGES = ("image/png", "image/jpeg", "image/svg+xml")
# An SVG that names itself (memdiagram's pictures: role="img" and an aria-label
# with what the diagram shows) goes into the page as it is, inline.
LABELLED_SVG = re.compile(r'^\s*<svg\b[^>]*\brole="img"[^>]*\baria-label="[^"]{20,}"')


def docname(chapter: Path) -> str:
    """The page name of an executed chapter: chapter 00 is the index."""
    return "index" if chapter.stem.startswith("00_") else chapter.stem


def exercise_docname(name: str) -> str:
    return f"exercise-{name}"


def docname_of(repo_path: str, language: Language) -> str | None:
    """The page of ``language``'s book that shows the notebook at ``repo_path``, if any."""
    folder, name = posixpath.split(repo_path)
    if folder == language.course and re.match(r"^\d\d_[a-z0-9_]+\.ipynb$", name):
        return docname(Path(name))
    exercise = re.match(rf"^{re.escape(language.exercises)}/([a-z0-9_]+)/\1\.ipynb$", repo_path)
    if exercise:
        return exercise_docname(exercise.group(1))
    return None


def notebook_of(name: str, language: Language, chapters: dict) -> str:
    """The repository path of the notebook behind page ``name`` (``chapters``: page -> file name)."""
    if name.startswith("exercise-"):
        exercise = name.removeprefix("exercise-")
        return f"{language.exercises}/{exercise}/{exercise}.ipynb"
    return f"{language.course}/{chapters[name]}"


def rewrite_links(source: str, folder: str, language: Language) -> str:
    """Markdown links of a notebook in ``folder`` (relative to the repository) as the book's:
    a chapter or an exercise of ``language`` -> its source notebook, any other file -> the repository."""
    def fix(match):
        target = match.group(1)
        if re.match(r"^(https?:|#|mailto:)", target):
            return match.group(0)
        path, hash_mark, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(folder, path))
        page = docname_of(resolved, language)
        if page:
            return f"]({page}.ipynb{hash_mark}{anchor})"
        return f"]({REPOSITORY}/blob/main/{resolved}{hash_mark}{anchor})"
    return re.sub(r"\]\(([^)\s]+)\)", fix, source)


def plot_alt(markdown: str) -> str:
    """The alt text of a picture: the first paragraph of the words above it, as plain text."""
    paragraph = markdown.strip().split("\n\n", 1)[0]
    paragraph = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", paragraph)  # links: their words
    paragraph = re.sub(r"^#+\s*|[`*_]", "", paragraph, flags=re.M)
    return " ".join(paragraph.split())


def answers_a_question(source: str) -> bool:
    """Whether a code cell is the ``%%key`` cell of a "Predict the output" question."""
    from coursebook.predict.questions import question_of_cell

    head, _, program = source.partition("\n")
    return head.strip() == "%%key" and question_of_cell(program) is not None


def prepare(nb, folder: str, language: Language):
    """The executed notebook as its page shows it (see the module's docstring)."""
    words_above = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = rewrite_links(cell.source, folder, language)
            words_above = cell.source
            continue
        if answers_a_question(cell.source):
            tags = cell.metadata.setdefault("tags", [])
            if "hide-output" not in tags:
                tags.append("hide-output")
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and "text/html" in data:
                del data[WIDGET_VIEW]
            svg = data.get("image/svg+xml")
            if svg and "text/html" not in data and LABELLED_SVG.match(svg):
                data["text/html"] = data.pop("image/svg+xml")
            if any(k in data for k in IMAGES) and "text/html" not in data and plot_alt(words_above):
                cell.metadata["mystnb"] = {"image": {"alt": plot_alt(words_above), "classes": "book-plot"}}
    nb.metadata.pop("widgets", None)
    return nb


def exercise_source(path: Path, language: Language):
    """An exercise's description: its markdown cells, links fixed."""
    nb = nbformat.read(path, as_version=4)
    nb.cells = [cell for cell in nb.cells if cell.cell_type == "markdown"]
    folder = f"{language.exercises}/{path.parent.name}"
    for cell in nb.cells:
        cell.source = rewrite_links(cell.source, folder, language)
    return nb


def table_of_contents(chapters: list[str], exercises: list[str], language: Language):
    """A markdown cell with the book's two hidden tables of contents: chapters, then exercises."""
    def toctree(caption, names):
        return "\n".join(["```{toctree}", ":hidden:", f":caption: {caption}", "", *names, "```"])
    return nbformat.v4.new_markdown_cell(
        toctree(language.words["chapters"], chapters) + "\n\n" + toctree(language.words["exercises"], exercises))


def write_sources(chapters: list[Path], exercises: list[Path], language: Language, target: Path) -> dict:
    """Write ``language``'s pages' notebooks to ``target``; page name -> chapter file name."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    pages = {docname(path): path.name for path in chapters}
    exercise_pages = [exercise_docname(path.parent.name) for path in exercises]
    for path in chapters:
        nb = prepare(nbformat.read(path, as_version=4), language.course, language)
        if docname(path) == "index":
            nb.cells.append(table_of_contents([p for p in pages if p != "index"], exercise_pages, language))
        nbformat.write(nb, target / f"{docname(path)}.ipynb")
    for path, name in zip(exercises, exercise_pages):
        nbformat.write(exercise_source(path, language), target / f"{name}.ipynb")
    return pages
