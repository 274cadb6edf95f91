"""The executed chapters as static HTML pages: no kernel, nothing from the network.

Each executed chapter becomes one page (nbconvert's ``basic`` template: the
notebook's cells only, no script and no CDN), wrapped in our own page with a
local stylesheet, a contents list and previous/next links. Before converting:

* the widget view of a stepping diagram is dropped, so its ``text/html``
  player (``booksite.build.static_diagrams``) is what the page shows (each
  step's SVG carries its own ``aria-label``: the statement and the first line
  of its narration);
* a diagram a cell shows as an SVG (``memdiagram.show``) goes in inline: it
  carries its own ``aria-label`` (what each tensor is, its storage and its
  version counter);
* any other picture a cell draws (a matplotlib plot) becomes an ``<img>`` whose
  ``alt`` is the first paragraph of the markdown cell above it: the course
  describes each plot in words right before drawing it (``plot_alt``), so
  the description is written once;
* a link to another chapter (``06_version_counter.ipynb``) points to its page;
  a link to an exercise points to the exercise's page (its description, from
  its markdown cells, with how to open it locally and on Binder); any other
  link out of ``course/`` points to the repository.

The book has two languages (``LANGUAGES``): the English course (``course/``,
``exercises/``) at the top of the site and its Chinese twin (``course/zh/``,
``course/zh/exercises/``, generated from the catalogs) in ``zh/``. The page
names are the same in both, so each page's language switch (``.book-lang``)
links to the same chapter in the other language. Each language has its own
search index; the search matches substrings, so Chinese, written without
spaces, is found as it is (``search.js``). The stylesheet and the search
script are written once, in the English folder, and the Chinese pages use them.
No two elements of a page share an id: the diagrams of a page get distinct
ids (``memdiagram.distinct_ids``) when two of them would define the same one.
"""

from __future__ import annotations

import base64
import html
import json
import posixpath
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from pygments.formatters import HtmlFormatter

from memdiagram import distinct_ids

REPOSITORY = "https://github.com/tensor-copies/copy-semantics-course"
BINDER = "https://mybinder.org/v2/gh/tensor-copies/copy-semantics-course/main?urlpath=lab/tree/"
# What ``make lab`` serves (coursebook.lab, default port): a notebook of the
# learner's copy in workspace/ (coursebook.workspace) opens at LAB + its path,
# once the lab has been opened with the address make lab prints (its token).
LAB = "http://127.0.0.1:8888/lab/tree/"
WORKSPACE = "workspace"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.55;color:#1b1b1b;background:#fff}
.book{display:flex;max-width:1280px;margin:0 auto}
.book-nav{flex:0 0 250px;padding:16px;border-right:1px solid #e3e3e3;font-size:14px;position:sticky;top:0;align-self:flex-start;max-height:100vh;overflow-y:auto}
.book-nav ul{list-style:none;padding-left:0;margin:0}
.book-nav li{margin:3px 0}
.book-nav .book-nav-part{margin-top:12px;font-weight:bold;color:#555}
.book-nav a[aria-current]{font-weight:bold}
main{flex:1 1 auto;min-width:0;padding:16px 28px 60px}
a{color:#0b5cad}
pre,code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px}
pre{overflow-x:auto;padding:8px 10px;background:#f7f7f7;border-radius:4px;white-space:pre}
.jp-OutputArea pre{background:#fff;border-left:3px solid #d0d0d0}
table{display:block;overflow-x:auto;max-width:100%;border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ddd;padding:3px 8px;vertical-align:top}
img,svg{max-width:100%;height:auto}
details{margin:8px 0;padding:6px 10px;border:1px solid #d8d8d8;border-radius:6px;background:#fbfbfb}
summary{cursor:pointer;font-weight:bold}
main{overflow-wrap:anywhere}
pre{overflow-wrap:normal}
.jp-InputPrompt,.jp-OutputPrompt,.prompt{display:none}
.book-pager{display:flex;justify-content:space-between;gap:12px;margin-top:40px;flex-wrap:wrap}
.book-search input{width:100%;font:inherit;padding:4px 6px;margin-bottom:12px}
#book-results li{margin-bottom:10px}
#book-results li p{margin:2px 0;font-size:14px;color:#444}
.book-live{font-size:14px;background:#eef5ff;border:1px solid #c9dcf5;border-radius:6px;padding:6px 10px}
.book-lang{display:inline-block;margin:0 0 10px;padding:2px 10px;border:1px solid #c9dcf5;border-radius:12px;background:#eef5ff;text-decoration:none;font-size:14px}
@media (max-width:800px){.book{display:block}.book-nav{position:static;max-height:none;border-right:0;border-bottom:1px solid #e3e3e3}main{padding:12px}}
"""


@dataclass(frozen=True, eq=False)
class Language:
    """One language of the book: where its notebooks are, where its pages go, its words."""
    code: str          # "en", "zh"
    html_lang: str     # the pages' lang attribute
    name: str          # its own name, on the other language's switch
    folder: str        # its folder in the site ("" for the top)
    course: str        # its chapters in the repository
    exercises: str     # its exercises in the repository
    lab: str           # the command that opens the course in this language
    words: dict


ENGLISH = Language("en", "en", "English", "", "course", "exercises", "make lab", {
    "chapters": "Chapters",
    "search": "Search the book",
    "search_title": "Search",
    "search_hint": "a word or a phrase",
    "exercises": "Exercises",
    "exercise_prefix": "Exercise: ",
    "pager": "Previous and next",
    "switch": "This page in English",
    "found_one": "1 page found",
    "found_many": "{n} pages found",
    "live": ('This page shows the chapter run once, with its outputs. To run it and try the build-it '
             'cells: <code>{lab}</code>, then <a href="{local}">open it in that lab</a> (your copy, '
             '<code>{copy}</code>), or <a href="{binder}">open it on Binder</a>.'),
    "exercise": ('An auto-graded exercise; this page shows its description only. To solve it on your '
                 'machine: <code>{lab}</code>, then <a class="book-open-local" href="{local}">open it in '
                 'that lab</a> (your copy, <code>{copy}</code>, of <a class="book-open-repo" href="{repo}">'
                 '<code>{where}</code></a> in the repository). Nothing to install: '
                 '<a class="book-open-binder" href="{binder}">open it on Binder</a>. '
                 'Its own cells check your answer.'),
})
CHINESE = Language("zh", "zh-CN", "中文", "zh", "course/zh", "course/zh/exercises", "make lab LANG=zh", {
    "chapters": "章节",
    "search": "搜索本书",
    "search_title": "搜索",
    "search_hint": "一个词或一句话",
    "exercises": "练习",
    "exercise_prefix": "练习：",
    "pager": "上一章和下一章",
    "switch": "本页的中文版",
    "found_one": "找到 1 页",
    "found_many": "找到 {n} 页",
    "live": ('本页是这一章运行一次后的样子，所有输出都在。想自己运行它、完成“动手实现”的单元：先执行 '
             '<code>{lab}</code>，再<a href="{local}">在那个 JupyterLab 里打开它</a>（你的副本，'
             '<code>{copy}</code>），或者<a href="{binder}">在 Binder 上打开</a>。'),
    "exercise": ('这是一道自动评分的练习；本页只列出它的说明。想在自己的机器上完成它：先执行 '
                 '<code>{lab}</code>，再<a class="book-open-local" href="{local}">在那个 JupyterLab 里打开它</a>'
                 '（你的副本 <code>{copy}</code>，来自仓库里的 <a class="book-open-repo" href="{repo}">'
                 '<code>{where}</code></a>）。什么都不用装：<a class="book-open-binder" href="{binder}">'
                 '在 Binder 上打开</a>。练习自带的单元会检查你的答案。'),
})
LANGUAGES = (ENGLISH, CHINESE)


def _title(nb, fallback: str) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return re.sub(r"[`*]", "", line[2:]).strip()
    return fallback


def page_of(repo_path: str, language: Language) -> str | None:
    """The page of ``language``'s site that shows the notebook at ``repo_path``, if any."""
    folder, name = posixpath.split(repo_path)
    if folder == language.course and re.match(r"^00_[a-z0-9_]+\.ipynb$", name):
        return "index.html"
    if folder == language.course and re.match(r"^\d\d_[a-z0-9_]+\.ipynb$", name):
        return name.replace(".ipynb", ".html")
    exercise = re.match(rf"^{re.escape(language.exercises)}/([a-z0-9_]+)/\1\.ipynb$", repo_path)
    if exercise:
        return f"exercise-{exercise.group(1)}.html"
    return None


def _rewrite_links(source: str, folder: str = "course", language: Language = ENGLISH) -> str:
    """Markdown links of a notebook in ``folder`` (relative to the repository) as the site's:
    a chapter or an exercise of ``language`` -> its page, any other file -> the repository."""
    def fix(match):
        target = match.group(1)
        if re.match(r"^(https?:|#|mailto:)", target):
            return match.group(0)
        path, hash_mark, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(folder, path))
        page = page_of(resolved, language)
        if page:
            return f"]({page}{hash_mark}{anchor})"
        return f"]({REPOSITORY}/blob/main/{resolved}{hash_mark}{anchor})"
    return re.sub(r"\]\(([^)\s]+)\)", fix, source)


IMAGES = ("image/png", "image/jpeg", "image/svg+xml")
# An SVG that names itself (memdiagram's pictures: role="img" and an aria-label
# with what the diagram shows) goes into the page as it is, inline.
LABELLED_SVG = re.compile(r'^\s*<svg\b[^>]*\brole="img"[^>]*\baria-label="[^"]{20,}"')


def plot_alt(markdown: str) -> str:
    """The alt text of a picture: the first paragraph of the words above it, as plain text."""
    paragraph = markdown.strip().split("\n\n", 1)[0]
    paragraph = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", paragraph)  # links: their words
    paragraph = re.sub(r"^#+\s*|[`*_]", "", paragraph, flags=re.M)
    return " ".join(paragraph.split())


def _image_with_alt(output, alt: str) -> None:
    data = output["data"]
    kind = next(k for k in IMAGES if k in data)
    if kind == "image/svg+xml":
        encoded = base64.b64encode(data.pop(kind).encode("utf-8")).decode("ascii")
    else:
        encoded = "".join(data.pop(kind).split())
    data["text/html"] = (f'<img class="book-plot" src="data:{kind};base64,{encoded}" '
                         f'alt="{html.escape(alt, quote=True)}">')


def prepare(nb, folder: str = "course", language: Language = ENGLISH):
    """The notebook as the page shows it: static diagrams, pictures with alt text, links that work from the site."""
    words_above = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _rewrite_links(cell.source, folder, language)
            words_above = cell.source
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and "text/html" in data:
                del data[WIDGET_VIEW]
            svg = data.get("image/svg+xml")
            if svg and "text/html" not in data and LABELLED_SVG.match(svg):
                data["text/html"] = data.pop("image/svg+xml")
            if any(k in data for k in IMAGES) and "text/html" not in data and plot_alt(words_above):
                _image_with_alt(output, plot_alt(words_above))
    nb.metadata.pop("widgets", None)
    return nb


def _plain_text(body: str) -> str:
    """The words of a page body, for the search index (pictures and styles left out)."""
    body = re.sub(r"<(svg|style|script)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _up(language: Language) -> str:
    """From a page of ``language`` to the top of the site."""
    return "../" * len([part for part in language.folder.split("/") if part])


def _switch(name: str, language: Language, other: Language, other_pages: set) -> str:
    """The link to this page (or, if it has no twin, the index) in the other language."""
    target = name if name in other_pages else "index.html"
    href = _up(language) + (f"{other.folder}/" if other.folder else "") + target
    return (f'<a class="book-lang" href="{href}" hreflang="{other.html_lang}" lang="{other.html_lang}" '
            f'title="{html.escape(other.words["switch"])}">{html.escape(other.name)}</a>')


def _page(title: str, nav: str, main: str, language: Language, switch: str, scripts: str = "") -> str:
    w, up = language.words, _up(language)
    form = (f'<form class="book-search" action="search.html" role="search"><input type="search" name="q" '
            f'aria-label="{w["search"]}" placeholder="{w["search"]}"></form>')
    return (f'<!doctype html>\n<html lang="{language.html_lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><link rel="stylesheet" href="{up}book.css"></head>'
            f'<body><div class="book"><nav class="book-nav" aria-label="{w["chapters"]}">{switch}{form}'
            f'<ul>{nav}</ul></nav><main>{main}</main></div>{scripts}</body></html>\n')


def _exercise_page(path: Path, exporter, language: Language) -> tuple:
    """(path, page name, title, body) of an exercise: its description, not its code."""
    nb = nbformat.read(path, as_version=4)
    nb.cells = [cell for cell in nb.cells if cell.cell_type == "markdown"]
    where = f"{language.exercises}/{path.parent.name}/{path.name}"
    for cell in nb.cells:
        cell.source = _rewrite_links(cell.source, posixpath.dirname(where), language)
    body, _ = exporter.from_notebook_node(nb)
    how = '<p class="book-live">' + language.words["exercise"].format(
        lab=language.lab, local=f"{LAB}{WORKSPACE}/{where}", copy=f"{WORKSPACE}/{where}",
        repo=f"{REPOSITORY}/blob/main/{where}", where=where, binder=f"{BINDER}{where}") + "</p>"
    return path, f"exercise-{path.parent.name}.html", _title(nb, path.stem), how + body


def write_assets(site: Path) -> None:
    """The stylesheet and the search script, once for both languages."""
    site.mkdir(parents=True, exist_ok=True)
    css = CSS + HtmlFormatter(style="default").get_style_defs(".highlight")
    (site / "book.css").write_text(css, encoding="utf-8")
    shutil.copyfile(Path(__file__).with_name("search.js"), site / "search.js")


def page_names(chapters: list[Path], exercises: list[Path] = ()) -> set:
    """The names of the pages ``build_site`` writes for these notebooks."""
    return ({"index.html" if p.stem.startswith("00_") else p.stem + ".html" for p in chapters}
            | {f"exercise-{p.parent.name}.html" for p in exercises} | {"search.html"})


def build_site(chapters: list[Path], site: Path, exercises: list[Path] = (), language: Language = ENGLISH,
               other: Language | None = None, other_pages: set = frozenset()) -> Path:
    """One page per executed chapter (and per exercise) of ``language`` in its folder of ``site``;
    returns that folder's ``index.html`` (chapter 00). With ``other``, each page links to the page
    of the same name in ``other``'s folder (``other_pages``: the names it has)."""
    out = site / language.folder if language.folder else site
    out.mkdir(parents=True, exist_ok=True)
    w = language.words
    exporter = HTMLExporter(template_name="basic")
    pages = []
    for path in chapters:
        nb = prepare(nbformat.read(path, as_version=4), language.course, language)
        body, _ = exporter.from_notebook_node(nb)
        name = "index.html" if path.stem.startswith("00_") else path.stem + ".html"
        pages.append((path, name, _title(nb, path.stem), distinct_ids(body)))
    exercise_pages = [_exercise_page(path, exporter, language) for path in exercises]

    def switch(name):
        return _switch(name, language, other, other_pages) if other else ""

    def navigation(current):
        def item(n, t):
            return f'<li><a href="{n}"{" aria-current=page" if n == current else ""}>{html.escape(t)}</a></li>'
        return ("".join(item(n, t) for _p, n, t, _b in pages)
                + f'<li class="book-nav-part">{w["exercises"]}</li>'
                + "".join(item(n, t.removeprefix(w["exercise_prefix"])) for _p, n, t, _b in exercise_pages))

    for path, name, title, body in exercise_pages:
        (out / name).write_text(_page(title, navigation(name), body, language, switch(name)), encoding="utf-8")
    for i, (path, name, title, body) in enumerate(pages):
        nav = navigation(name)
        prev_link = f'<a href="{pages[i - 1][1]}">\u2190 {html.escape(pages[i - 1][2])}</a>' if i else "<span></span>"
        next_link = (f'<a href="{pages[i + 1][1]}">{html.escape(pages[i + 1][2])} \u2192</a>'
                     if i + 1 < len(pages) else "<span></span>")
        where = f"{language.course}/{path.name}"
        live = '<p class="book-live">' + w["live"].format(
            lab=language.lab, local=f"{LAB}{WORKSPACE}/{where}", copy=f"{WORKSPACE}/{where}",
            binder=f"{BINDER}{where}") + "</p>"
        page = _page(title, nav, f'{live}{body}<nav class="book-pager" aria-label="{w["pager"]}">'
                     f'{prev_link}{next_link}</nav>', language, switch(name))
        (out / name).write_text(page, encoding="utf-8")
    index = [{"page": name, "title": title, "text": _plain_text(body)}
             for _p, name, title, body in pages + exercise_pages]
    (out / "search-index.js").write_text("window.BOOK_INDEX = " + json.dumps(index) + ";\n",
                                         encoding="utf-8")
    search = (f'<h1>{w["search_title"]}</h1><form id="book-search-page" action="search.html" role="search">'
              f'<input type="search" name="q" aria-label="{w["search"]}" placeholder="{w["search_hint"]}"></form>'
              f'<div id="book-results" aria-live="polite" data-found-one="{w["found_one"]}" '
              f'data-found-many="{w["found_many"]}"></div>')
    (out / "search.html").write_text(
        _page(w["search"], navigation("search.html"), search, language, switch("search.html"),
              f'<script src="search-index.js"></script><script src="{_up(language)}search.js"></script>'),
        encoding="utf-8")
    return out / "index.html"
