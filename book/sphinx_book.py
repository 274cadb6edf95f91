"""The book's own Sphinx extension: what each page's templates need, and search that reads Chinese.

Registered in ``book/conf.py``. Through Sphinx's public events and registry:

* ``config-inited``: the title of the language being built;
* ``html-page-context``: the values the templates in ``book/_templates``
  use: the link to the same page in the other language, and, on a chapter or
  an exercise page, where its notebook is (in the repository, on Binder, in
  the learner's ``make lab`` and in the JupyterLite site: ``book_lite_url``).
  It also gives the diagrams of a page distinct ids
  (``memdiagram.distinct_ids``): two kernels' diagrams, or the wide and the
  phone picture of one step, would otherwise define the same ``id``;
* ``add_search_language``: Chinese is written without spaces, and Sphinx's
  own Chinese search indexes Chinese words only through jieba's dictionary (and
  none without it). ``ChineseBigrams`` indexes every pair of neighbouring
  Chinese characters, and the query is cut the same way in the browser
  (``zh_search.js``): a page is found when it holds every pair of the query,
  so 版本计数器 finds the pages that say 版本计数器, with no dictionary.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

from sphinx.search.zh import SearchChinese

from coursebook.workspace import WORKSPACE
from memdiagram import distinct_ids

from .languages import BY_SPHINX, other
from .sources import REPOSITORY, notebook_of

ROOT = Path(__file__).resolve().parents[1]
BINDER = "https://mybinder.org/v2/gh/tensor-copies/copy-semantics-course/main?urlpath=lab/tree/"
# What ``make lab`` serves (coursebook.lab, default port): a notebook of the
# learner's copy in workspace/ (coursebook.workspace) opens at LAB + its path,
# once the lab has been opened with the address make lab prints (its token).
LAB = "http://127.0.0.1:8888/lab/tree/"
CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


class ChineseBigrams(SearchChinese):
    """Sphinx's Chinese search, with Chinese text indexed as overlapping character pairs."""

    js_splitter_code = Path(__file__).with_name("zh_search.js").read_text(encoding="utf-8")
    # Latin words are stemmed as English, in the index and in the browser. Sphinx names the
    # browser's stemmer after language_name; its own "Chinese" names one that does not exist.
    language_name = "English"

    def split(self, input: str) -> list[str]:
        pairs = []
        for run in CJK_RUN.findall(input):
            pairs += [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
        latin = self.latin1_letters.findall(input)
        self.latin_terms.update(latin)
        return pairs + latin

    def word_filter(self, stemmed_word: str) -> bool:
        return len(stemmed_word) > 1 or bool(CJK_RUN.match(stemmed_word))


def _language(app):
    return BY_SPHINX[app.config.language]


def set_title(app, config) -> None:
    language = BY_SPHINX[config.language]
    config.html_title = language.words["title"]


def _up(language) -> str:
    """From a page of ``language`` to the top of the site (the English pages)."""
    return "../" * len([part for part in language.folder.split("/") if part])


def page_context(app, pagename, templatename, context, doctree) -> None:
    language = _language(app)
    twin = other(language)
    up = _up(language)
    context["language"] = language.html_lang  # the <html lang>: zh-CN, not Sphinx's zh_CN
    context["book_words"] = language.words
    context["book_code"] = language.code
    context["book_twin"] = twin
    context["book_switch_href"] = up + (f"{twin.folder}/" if twin.folder else "") + f"{pagename}.html"
    if "body" in context:
        context["body"] = distinct_ids(context["body"])
    chapters = {("index" if p.stem.startswith("00_") else p.stem): p.name
                for p in (ROOT / language.course).glob("[0-9][0-9]_*.ipynb")}
    if pagename not in chapters and not pagename.startswith("exercise-"):
        return
    where = notebook_of(pagename, language, chapters)
    context["book_notebook"] = where
    context["book_exercise"] = pagename.startswith("exercise-")
    context["book_lab"] = language.lab
    context["book_copy"] = f"{WORKSPACE}/{where}"
    context["book_local"] = f"{LAB}{WORKSPACE}/{where}"
    context["book_repo"] = f"{REPOSITORY}/blob/main/{where}"
    context["book_binder"] = f"{BINDER}{where}"
    context["book_run_href"] = f"{up}{app.config.book_lite_url}lab/index.html?path={quote(where)}"


def setup(app):
    app.add_config_value("book_lite_url", "../../lite/", "html", types=[str])
    app.add_search_language(ChineseBigrams)
    app.connect("config-inited", set_title)
    app.connect("html-page-context", page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
