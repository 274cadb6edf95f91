"""Where each translated document comes from and goes.

For language ``<lang>``:

=====================================  ======================================  ==========================================
English source                         catalog                                 translated notebook
=====================================  ======================================  ==========================================
``course/<name>.ipynb``                ``course/locale/<lang>/<name>.po``      ``course/<lang>/<name>.ipynb``
``exercises/<a>/<a>.ipynb``            ``course/locale/<lang>/exercises/<a>.po``  ``course/<lang>/exercises/<a>/<a>.ipynb``
``README.md``                          ``course/locale/<lang>/README.po``      ``README.<lang>.md``
=====================================  ======================================  ==========================================

The README is one markdown file, read as a single cell whose id is ``README``.

An exercise's prose is read from its release (``exercises/``, what
``python -m autograder generate`` writes from ``solutions/``): the learner's notebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["REPO", "LANGUAGES", "Document", "documents", "twin_finder"]

REPO = Path(__file__).resolve().parents[3]
LANGUAGES = ("zh",)


@dataclass(frozen=True)
class Document:
    source: Path
    catalog: Path
    target: Path

    @property
    def name(self) -> str:
        """How tests and messages call it: ``08_clone`` or ``exercises/clone``."""
        if self.source.parent.parent.name == "exercises":
            return f"exercises/{self.source.stem}"
        return self.source.stem

    @property
    def language(self) -> str:
        """The translation's language: the catalog's folder under ``locale`` (``zh``)."""
        parts = self.catalog.parts
        return parts[parts.index("locale") + 1]

    @property
    def is_notebook(self) -> bool:
        return self.source.suffix == ".ipynb"


def documents(language: str = "zh", repo: Path = REPO) -> list[Document]:
    """Every translated document of ``language``: the chapters, then the exercises."""
    course = repo / "course"
    found = [Document(p, course / "locale" / language / f"{p.stem}.po", course / language / p.name)
             for p in sorted(course.glob("*.ipynb"))]
    for p in sorted((repo / "exercises").glob("*/*.ipynb")):
        if p.stem == p.parent.name:
            found.append(Document(p, course / "locale" / language / "exercises" / f"{p.stem}.po",
                                  course / language / "exercises" / p.stem / p.name))
    readme = repo / "README.md"
    if readme.exists():
        found.append(Document(readme, course / "locale" / language / "README.po", repo / f"README.{language}.md"))
    return found


def twin_finder(language: str = "zh", repo: Path = REPO):
    """``twin(path)``: the translated twin of an English notebook's absolute path, or None."""
    twins = {d.source.resolve(): d.target for d in documents(language, repo)}
    return lambda path: twins.get(Path(path).resolve())
