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
"""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from pygments.formatters import HtmlFormatter

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
@media (max-width:800px){.book{display:block}.book-nav{position:static;max-height:none;border-right:0;border-bottom:1px solid #e3e3e3}main{padding:12px}}
"""


def _title(nb, fallback: str) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return re.sub(r"[`*]", "", line[2:]).strip()
    return fallback


def _rewrite_links(source: str) -> str:
    def fix(match):
        target = match.group(1)
        if re.match(r"^00_[a-z0-9_]+\.ipynb(#.*)?$", target):
            return "](index.html" + target.partition("#")[1] + target.partition("#")[2] + ")"
        if re.match(r"^\d\d_[a-z0-9_]+\.ipynb(#.*)?$", target):
            return f"]({target.replace('.ipynb', '.html', 1)})"
        exercise = re.match(r"^\.\./exercises/([a-z0-9_]+)/\1\.ipynb$", target)
        if exercise:
            return f"](exercise-{exercise.group(1)}.html)"
        if target.startswith("../"):
            return f"]({REPOSITORY}/blob/main/{target[3:]})"
        if not re.match(r"^(https?:|#|mailto:)", target):
            return f"]({REPOSITORY}/blob/main/course/{target})"
        return match.group(0)
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


def prepare(nb):
    """The notebook as the page shows it: static diagrams, pictures with alt text, links that work from the site."""
    words_above = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _rewrite_links(cell.source)
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


SEARCH_FORM = ('<form class="book-search" action="search.html" role="search">'
               '<input type="search" name="q" aria-label="Search the book" placeholder="Search the book"></form>')


def _page(title: str, nav: str, main: str, scripts: str = "") -> str:
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><link rel="stylesheet" href="book.css"></head>'
            f'<body><div class="book"><nav class="book-nav" aria-label="Chapters">{SEARCH_FORM}<ul>{nav}</ul></nav>'
            f'<main>{main}</main></div>{scripts}</body></html>\n')


def _exercise_page(path: Path, exporter) -> tuple:
    """(path, page name, title, body) of an exercise: its description, not its code."""
    nb = nbformat.read(path, as_version=4)
    nb.cells = [cell for cell in nb.cells if cell.cell_type == "markdown"]
    for cell in nb.cells:
        cell.source = _rewrite_links(cell.source)
    body, _ = exporter.from_notebook_node(nb)
    where = f"exercises/{path.parent.name}/{path.name}"
    how = (f'<p class="book-live">An auto-graded exercise; this page shows its description only. '
           f'To solve it on your machine: <code>make lab</code>, then '
           f'<a class="book-open-local" href="{LAB}{WORKSPACE}/{where}">open it in that lab</a> '
           f'(your copy, <code>{WORKSPACE}/{where}</code>, of <a class="book-open-repo" '
           f'href="{REPOSITORY}/blob/main/{where}"><code>{where}</code></a> in the repository). '
           f'Nothing to install: <a class="book-open-binder" href="{BINDER}{where}">open it on Binder</a>. '
           f'Its own cells check your answer.</p>')
    return path, f"exercise-{path.parent.name}.html", _title(nb, path.stem), how + body


def build_site(chapters: list[Path], out: Path, exercises: list[Path] = ()) -> Path:
    """One page per executed chapter (and per exercise) in ``out``; returns ``out/index.html`` (chapter 00)."""
    out.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter(template_name="basic")
    pages = []
    for path in chapters:
        nb = prepare(nbformat.read(path, as_version=4))
        body, _ = exporter.from_notebook_node(nb)
        name = "index.html" if path.stem.startswith("00_") else path.stem + ".html"
        pages.append((path, name, _title(nb, path.stem), body))
    exercise_pages = [_exercise_page(path, exporter) for path in exercises]
    css = CSS + HtmlFormatter(style="default").get_style_defs(".highlight")
    (out / "book.css").write_text(css, encoding="utf-8")
    def navigation(current):
        def item(n, t):
            return f'<li><a href="{n}"{" aria-current=page" if n == current else ""}>{html.escape(t)}</a></li>'
        return ("".join(item(n, t) for _p, n, t, _b in pages)
                + '<li class="book-nav-part">Exercises</li>'
                + "".join(item(n, t.removeprefix("Exercise: ")) for _p, n, t, _b in exercise_pages))

    for path, name, title, body in exercise_pages:
        (out / name).write_text(_page(title, navigation(name), body), encoding="utf-8")
    for i, (path, name, title, body) in enumerate(pages):
        nav = navigation(name)
        prev_link = f'<a href="{pages[i - 1][1]}">\u2190 {html.escape(pages[i - 1][2])}</a>' if i else "<span></span>"
        next_link = (f'<a href="{pages[i + 1][1]}">{html.escape(pages[i + 1][2])} \u2192</a>'
                     if i + 1 < len(pages) else "<span></span>")
        live = (f'<p class="book-live">This page shows the chapter run once, with its outputs. To run it '
                f'and try the build-it cells: <code>make lab</code>, then <a href="{LAB}{WORKSPACE}/course/{path.name}">'
                f'open it in that lab</a> (your copy, <code>{WORKSPACE}/course/{path.name}</code>), '
                f'or <a href="{BINDER}course/{path.name}">open it on Binder</a>.</p>')
        page = _page(title, nav, f'{live}{body}<nav class="book-pager" aria-label="Previous and next">'
                     f'{prev_link}{next_link}</nav>')
        (out / name).write_text(page, encoding="utf-8")
    index = [{"page": name, "title": title, "text": _plain_text(body)}
             for _p, name, title, body in pages + exercise_pages]
    (out / "search-index.js").write_text("window.BOOK_INDEX = " + json.dumps(index) + ";\n", encoding="utf-8")
    shutil.copyfile(Path(__file__).with_name("search.js"), out / "search.js")
    nav = navigation("search.html")
    search = ('<h1>Search</h1><form id="book-search-page" action="search.html" role="search">'
              '<input type="search" name="q" aria-label="Search the book" placeholder="a word or a phrase"></form>'
              '<div id="book-results" aria-live="polite"></div>')
    (out / "search.html").write_text(
        _page("Search the book", nav, search, '<script src="search-index.js"></script><script src="search.js"></script>'),
        encoding="utf-8")
    return out / "index.html"
