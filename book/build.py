"""``make book``: execute the chapters once, then let Sphinx build one site per language.

1. ``book.execute``: every chapter, English and Chinese, run in a copy of
   ``course/`` in ``_build/book/course`` (``course/`` is only read);
2. ``book.sources``: the executed notebooks and the exercises' descriptions as
   Sphinx sources in ``_build/book/src/en`` and ``_build/book/src/zh``;
3. Sphinx (``book/conf.py``: MyST-NB, sphinx-book-theme, ``book.sphinx_book``),
   once per language: English in ``_build/book/html``, Chinese in
   ``_build/book/html/zh``.

The last line printed is the English ``index.html``.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from sphinx.cmd.build import build_main

from .execute import BUILD, ROOT, execute_chapters
from .languages import CHINESE, ENGLISH, LANGUAGES
from .sources import write_sources

CONF = Path(__file__).resolve().parent


def exercises_of(language) -> list[Path]:
    return sorted(p for p in (ROOT / language.exercises).glob("*/*.ipynb") if p.stem == p.parent.name)


def sphinx(language, build: Path = BUILD) -> int:
    """Build ``language``'s pages from ``<build>/src/<code>``; Sphinx's exit status."""
    site = build / "html" / language.folder
    return build_main(["-q", "-b", "html", "-c", str(CONF), "-d", str(build / "doctrees" / language.code),
                       "-D", f"language={language.sphinx}",
                       # the fold over a question's printout (book.sources), in the page's language
                       "-D", f"nb_code_prompt_show={language.words['show_printout']}",
                       "-D", f"nb_code_prompt_hide={language.words['hide_printout']}",
                       str(build / "src" / language.code), str(site)])


def main(argv=None) -> int:
    start = time.perf_counter()
    english, chinese = execute_chapters()
    print(f"{len(english)} English and {len(chinese)} Chinese chapters executed in "
          f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    chapters = {ENGLISH: english, CHINESE: chinese}
    for language in LANGUAGES:
        write_sources(chapters[language], exercises_of(language), language, BUILD / "src" / language.code)
    if (BUILD / "html").exists():
        shutil.rmtree(BUILD / "html")
    for language in LANGUAGES:
        status = sphinx(language)
        if status:
            print(f"Sphinx failed on the {language.name} book", file=sys.stderr)
            return status
    print(f"site written in {time.perf_counter() - start:.0f} s in all", file=sys.stderr)
    print(BUILD / "html" / "index.html")
    return 0
