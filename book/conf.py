"""Sphinx's configuration of the book: MyST-NB reads the executed notebooks, sphinx-book-theme lays them out.

``python -m book`` (``make book``) builds it once per language, with
``-D language=en`` into ``_build/book/html`` and ``-D language=zh_CN`` into
``_build/book/html/zh``; ``book.sphinx_book`` sets what depends on the
language (the title, the language switch, the Chinese search).
"""

project = "Clone or detach?"
extensions = ["myst_nb", "book.sphinx_book"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["book.css"]
html_theme = "sphinx_book_theme"
html_theme_options = {
    "article_header_end": ["book/header.html", "article-header-buttons.html"],
    "use_download_button": False,
    "home_page_in_toc": True,
    "show_toc_level": 1,
}
html_use_index = False
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None

# book.execute has run every notebook already (warm kernels, Chinese kernels
# with COURSEBOOK_LANG=zh): Sphinx only renders what they printed.
nb_execution_mode = "off"
# MyST-NB would load the widgets' JavaScript from a CDN; the book's diagrams
# are static HTML (memdiagram.player_html), so no page needs it.
nb_ipywidgets_js = {}

# Where the JupyterLite site is (make lite builds it in _build/lite/), as a
# URL relative to the English book's top folder (_build/book/html/): the
# "Run this page" link of a chapter is <book_lite_url>lab/index.html?path=<its
# notebook in the repository>, e.g. ../../lite/lab/index.html?path=course/08_clone.ipynb.
# Where the two sites are served side by side at other places, change this one value.
book_lite_url = "../../lite/"

# Light pages: the diagrams are drawn on white.
html_context = {"default_mode": "light"}
html_favicon = "_static/favicon.svg"
