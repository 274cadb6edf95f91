"""The course as a book: every chapter executed once, built by Sphinx into a static site.

``python -m book`` (what ``make book`` runs, see ``book.build``) executes the
chapters in a copy of ``course/`` (``book.execute``), turns the executed
notebooks into Sphinx sources (``book.sources``) and builds them with MyST-NB
and sphinx-book-theme (``book/conf.py``), English in ``_build/book/html`` and
Chinese in ``_build/book/html/zh``. Every page is made by the theme's
templates and ours (``book/_templates``); ``book.sphinx_book`` gives them the
language switch, the "Run this page" link to the JupyterLite site, and a
search that finds Chinese words. Nothing is fetched from the network, when
building or when reading. Why this stack: docs/decisions/0005-book-on-sphinx.md.
"""
