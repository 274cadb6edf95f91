"""The built book, opened page by page in headless Chromium with the network blocked.

The session fixture runs what ``make book`` runs (``python -m book``) once, in
a network namespace that has only loopback (``unshare -n``) where the machine
can make one: every chapter executed in ``_build/book``, English and Chinese,
then Sphinx's pages in each language (the Chinese ones in ``zh/``). The pages
are served by a local HTTP server (``_build/`` at its root, so that the book's
"Run this page" links reach where ``make lite`` puts the JupyterLite site);
every request to any other host fails in Chromium and is recorded, so a page that needs
the network fails here. The checks of every page (console errors, links and
anchors, ids, alt text, 390 px) run on the pages of both languages.
"""

import functools
import os
import pathlib
import resource
import re
import subprocess
import sys
import time
from urllib.parse import parse_qs, unquote, urljoin, urlparse

import nbformat
import pytest

from coursebook.workspace import WORKSPACE
from static_site import local_only_context, loopback_only, serving

pytestmark = pytest.mark.browser

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = REPO / "_build"
# Where ``make lite`` puts the JupyterLite site, which each chapter's "Run this page" opens.
LITE = BUILD / "lite"
CHAPTERS = sorted(p.stem for p in (REPO / "course").glob("[0-9][0-9]_*.ipynb"))
EXERCISES = sorted(p.parent.name for p in (REPO / "exercises").glob("*/*.ipynb"))
# The README's Binder badge opens chapter 00; an exercise's link is the same address for its notebook.
BINDER_BADGE = re.search(r"\(https://mybinder\.org/v2/gh/[^)]*\)", (REPO / "README.md").read_text()).group(0)[1:-1]
REPOSITORY = "https://github.com/" + re.search(r"/v2/gh/([^/]+/[^/]+)/", BINDER_BADGE).group(1)
LAB_ROOT = WORKSPACE


def _cpu_seconds():
    """CPU seconds used so far by this process's finished children (and theirs: the kernels)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture(scope="session")
def built():
    """(the folder of the built site, whether it was built with only loopback); building it is
    ``make book``'s command.

    Its time (wall clock, and the CPU seconds of the build and its kernels) is
    printed, not asserted: the target of at most 5 minutes on 2 cores is a figure
    for ``make bench`` on a quiet machine, not a test on a shared one."""
    offline = loopback_only()
    start, cpu = time.perf_counter(), _cpu_seconds()
    run = subprocess.run((offline or []) + [sys.executable, "-m", "book"], cwd=REPO, capture_output=True,
                         text=True, timeout=900)
    seconds, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
    assert run.returncode == 0, f"make book failed:\n{run.stderr[-3000:]}"
    index = pathlib.Path(run.stdout.strip().splitlines()[-1])
    assert index.name == "index.html" and index.is_file(), f"the last line is not the built index: {run.stdout!r}"
    print(f"book (English and Chinese) built in {seconds:.0f} s, {cpu:.0f} CPU seconds"
          f"{', with only loopback' if offline else ''}")
    return index.parent, offline is not None


@pytest.fixture(scope="session")
def book(built):
    return built[0]


@pytest.fixture(scope="session")
def server(book):
    """The base URL of a local HTTP server whose root is ``_build/``."""
    with serving(BUILD) as url:
        yield url


def _url(server, path):
    """The address of a file of ``_build/`` on the test server."""
    return server + pathlib.Path(path).relative_to(BUILD).as_posix()


def _file(server, url):
    """The file of ``_build/`` that a test server's address serves."""
    return BUILD / unquote(urlparse(url).path).removeprefix("/")


def test_the_book_builds_with_the_network_cut_to_loopback(built):
    if not built[1]:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must build the book with only loopback, but `unshare -n` cannot run here")
        pytest.skip("unshare -n (util-linux, as root) is not available: the book was built with the network on")
    assert (built[0] / "index.html").is_file()


def _pages(book):
    """The English pages."""
    return sorted(book.glob("*.html"))


def _chinese_pages(book):
    return sorted((book / "zh").glob("*.html"))


def _all_pages(book):
    return _pages(book) + _chinese_pages(book)


@functools.cache
def _ids_in(file):
    """The ``id="..."`` attributes of a page (the fragment of a link may be written raw or decoded);
    read once per page, not once per link to it."""
    return set(re.findall(r'\bid="[^"]*"', file.read_text(encoding="utf-8")))


def _name(book, path):
    return path.relative_to(book).as_posix()


def _offline_page(browser, width, server):
    context, blocked = local_only_context(browser, server, width)
    errors = []
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, blocked, errors


def test_a_page_asking_another_host_is_refused_and_recorded(book, browser, server):
    """What lets the checks below fail: a page's request to any other host fails, and is recorded."""
    context, page, blocked, _errors = _offline_page(browser, 1366, server)
    page.goto(_url(server, book / "index.html"))
    outcome = page.evaluate("() => fetch('https://example.com/x.js').then(() => 'fetched', (e) => e.name)")
    context.close()
    assert outcome == "TypeError" and blocked == ["https://example.com/x.js"], (outcome, blocked)


def test_the_book_has_one_page_per_chapter_and_an_index(book):
    names = {p.name for p in _pages(book)}
    expected = ({"index.html", "search.html"} | {f"{c}.html" for c in CHAPTERS if not c.startswith("00_")}
                | {f"exercise-{e}.html" for e in EXERCISES})
    assert names == expected


def test_the_chinese_book_has_the_same_pages_as_the_english_one(book):
    chinese = {p.name for p in _chinese_pages(book)}
    assert chinese == {p.name for p in _pages(book)}, \
        f"pages in one language only: {sorted(chinese ^ {p.name for p in _pages(book)})}"
    for name in ["index.html", "01_reading_memory_diagrams.html", "exercise-clone.html"]:
        text = (book / "zh" / name).read_text(encoding="utf-8")
        assert re.search(r'<html[^>]*\slang="zh-CN"', text) and re.search(r"<h1[^>]*>[^<]*[\u4e00-\u9fff]", text), \
            f"zh/{name} is not the Chinese chapter"


PICTURES = """() => {
  const out = [];
  for (const img of document.querySelectorAll('img')) {
    out.push({kind: 'img', what: img.className || img.getAttribute('src').slice(0, 30),
              alt: (img.getAttribute('alt') || '').trim()});
  }
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.parentElement.closest('svg') || svg.getAttribute('aria-hidden') === 'true') continue;
    let alt = (svg.getAttribute('aria-label') || '').trim();
    if (!alt) {
      alt = (svg.getAttribute('aria-labelledby') || '').split(/\\s+/)
        .map(id => document.getElementById(id)).filter(e => e).map(e => e.textContent).join(' ').trim();
    }
    out.push({kind: 'svg', what: svg.getAttribute('class') || 'svg', alt: alt});
  }
  return out;
}"""
NO_DESCRIPTION = {"", "image", "picture", "plot", "figure", "diagram", "no description has been provided for this image"}


REPEATED_IDS = """() => {
  const seen = new Map();
  for (const e of document.querySelectorAll('[id]')) seen.set(e.id, (seen.get(e.id) || 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id, n]) => id + ' x' + n);
}"""
# Each "Run this page" link: its href, and whether it is visible as Playwright's is_visible() says
# (a non-empty box, and not visibility: hidden).
RUN_LINKS = """() => [...document.querySelectorAll('a.book-run')].map((a) => {
  const box = a.getBoundingClientRect();
  return [a.getAttribute('href'), box.width > 0 && box.height > 0 && getComputedStyle(a).visibility !== 'hidden'];
})"""
# What an exercise page says about its exercise: the first title's text, and every element of the
# others (each must be there once): the how-to-run paragraph's text, the links' hrefs, the
# repository link's text; and how many code cells it shows.
EXERCISE_PARTS = """() => {
  const all = (selector, read) => [...document.querySelectorAll(selector)].map(read);
  const h1 = document.querySelector('h1');
  return {title: h1 ? h1.textContent : null, live: all('.book-live', (e) => e.textContent),
          local: all('a.book-open-local', (a) => a.getAttribute('href')),
          repo: all('a.book-open-repo', (a) => [a.textContent, a.getAttribute('href')]),
          binder: all('a.book-open-binder', (a) => a.getAttribute('href')),
          cells: document.querySelectorAll('.cell_input, .input_area').length};
}"""


@pytest.fixture(scope="module")
def desktop_visits(book, browser, server):
    """Every page, English and Chinese, opened once offline at 1366 px, and what the page checks
    below read from it: ``({path: {"hrefs", "twice", "pictures", "runs"}}, requests sent elsewhere,
    console errors)``, and on an exercise page ``"exercise"`` too. One visit per page serves every
    check of this width."""
    context, page, blocked, errors = _offline_page(browser, 1366, server)
    visits = {}
    for path in _all_pages(book):
        page.goto(_url(server, path))
        visits[path] = {"hrefs": page.eval_on_selector_all("a[href]", "as => as.map(a => a.getAttribute('href'))"),
                        "twice": page.evaluate(REPEATED_IDS), "pictures": page.evaluate(PICTURES),
                        "runs": page.evaluate(RUN_LINKS)}
        if path.name.startswith("exercise-"):
            visits[path]["exercise"] = page.evaluate(EXERCISE_PARTS)
    context.close()
    return visits, blocked, errors


def test_every_page_opens_offline_without_console_errors_and_every_internal_link_resolves(book, desktop_visits):
    visits, blocked, errors = desktop_visits
    broken = []
    for path, seen in visits.items():
        for href in seen["hrefs"]:
            if re.match(r"^(https?:|mailto:)", href) or href == "#":
                continue
            target, _, anchor = href.partition("#")
            target = target.partition("?")[0]
            file = (path.parent / target).resolve() if target else path
            if file.is_relative_to(LITE):
                continue  # "Run this page": the JupyterLite site, checked by its own test
            if not file.is_file():
                broken.append(f"{_name(book, path)}: {href} (no such page)")
            elif anchor and not {f'id="{anchor}"', f'id="{unquote(anchor)}"'} & _ids_in(file):
                broken.append(f"{_name(book, path)}: {href} (no such anchor)")
    assert len(visits) == len(_all_pages(book))
    assert blocked == [], f"pages asked the network for {sorted(set(blocked))[:5]}"
    assert errors == [], f"console errors: {errors[:5]}"
    assert broken == [], f"broken internal links: {broken[:10]}"


def test_no_page_gives_two_elements_the_same_id(book, desktop_visits):
    """Diagrams share a page: an id defined twice (an arrow marker, a fill pattern) makes
    ``url(#...)`` and ``aria-labelledby`` point into whichever diagram comes first."""
    visits, _blocked, _errors = desktop_visits
    repeated = [f"{_name(book, path)}: {seen['twice'][:5]}" for path, seen in visits.items() if seen["twice"]]
    assert repeated == [], f"pages that define an id more than once: {repeated[:10]}"


def test_every_page_switches_language_to_the_same_page(book, browser, server):
    context, page, blocked, errors = _offline_page(browser, 1366, server)
    wrong = []
    for path in _all_pages(book):
        chinese = path.parent.name == "zh"
        twin = (book / path.name) if chinese else (book / "zh" / path.name)
        text = path.read_text(encoding="utf-8")
        switch = re.search(r'<a class="book-lang" href="([^"]+)"[^>]*>\s*([^<]+?)\s*</a>', text)
        if not switch:
            wrong.append(f"{_name(book, path)}: no language switch")
        elif (path.parent / switch.group(1)).resolve() != twin.resolve():
            wrong.append(f"{_name(book, path)}: the switch goes to {switch.group(1)}, not {_name(book, twin)}")
        elif switch.group(2) != ("English" if chinese else "中文"):
            wrong.append(f"{_name(book, path)}: the switch says {switch.group(2)!r}")
    for start, lang in [(book / "index.html", "zh-CN"), (book / "zh" / "08_clone.html", "en"),
                        (book / "06_version_counter.html", "zh-CN")]:
        page.goto(_url(server, start))
        page.locator("a.book-lang").click()
        page.wait_for_load_state()
        target = _file(server, page.url)
        assert target.name == start.name and page.locator("html").get_attribute("lang") == lang, \
            f"the switch on {_name(book, start)} opened {page.url}, not the same page in {lang}"
    context.close()
    assert wrong == [], f"pages whose language switch is missing or goes elsewhere: {wrong[:10]}"
    assert blocked == [] and errors == []


def test_every_image_in_the_book_has_alt_text_that_says_what_it_shows(book, desktop_visits):
    visits, _blocked, _errors = desktop_visits
    without, seen = [], {}
    for path, visit in visits.items():
        for picture in visit["pictures"]:
            seen[picture["what"]] = seen.get(picture["what"], 0) + 1
            if picture["alt"].lower().rstrip(".") in NO_DESCRIPTION or len(picture["alt"]) < 20:
                without.append(f"{_name(book, path)}: {picture['kind']} {picture['what']!r} alt={picture['alt']!r}")
    plot_alt = next(p["alt"] for p in visits[book / "22_decision_guide.html"]["pictures"]
                    if p["kind"] == "img" and "book-plot" in p["what"].split())
    assert without == [], f"images a screen reader cannot describe (no alt, or an empty or generic one): {without[:10]}"
    assert seen.get("md-diagram", 0) >= 20 and seen.get("book-plot", 0) >= 2, \
        f"the book shows fewer diagrams or plots than the course draws: {seen}"
    assert "median time" in plot_alt, f"the plot's alt text does not describe the plot: {plot_alt!r}"


PHONE = """() => { const h = document.querySelector('.bd-article h1');
  return {width: document.documentElement.scrollWidth, top: h ? h.getBoundingClientRect().top + window.scrollY : null}; }"""


@pytest.fixture(scope="module")
def phone_visits(book, browser, server):
    """Every page, English and Chinese, opened once offline at 390 px: ``{path: {"width": the
    page's scroll width, "top": where its title starts, or None}}``."""
    context, page, _blocked, _errors = _offline_page(browser, 390, server)
    visits = {}
    for path in _all_pages(book):
        page.goto(_url(server, path))
        visits[path] = page.evaluate(PHONE)
    context.close()
    return visits


def test_no_page_scrolls_sideways_on_a_390_px_phone(book, phone_visits):
    wide = [f"{_name(book, path)}: {seen['width']} px" for path, seen in phone_visits.items() if seen["width"] > 390]
    assert len(phone_visits) == len(_all_pages(book))
    assert wide == [], f"pages wider than a 390 px phone (only tables and code may scroll, inside themselves): {wide}"


def test_a_phone_page_starts_with_its_own_text(book, phone_visits):
    """On a 390 px phone the header, the buttons and the how-to-run note take less than half of
    the first screen (900 px): every page's title is in its top half, not after screens of links."""
    late = [f"{_name(book, path)}: {seen['top']}" for path, seen in phone_visits.items()
            if path.name != "search.html"  # the search page has no text of its own
            and (seen["top"] is None or seen["top"] > 450)]
    assert late == [], f"pages whose title is not in the top half of a phone's first screen: {late}"


@pytest.mark.parametrize("language", ["", "zh"], ids=["English", "Chinese"])
def test_every_questions_printout_is_folded_below_its_answer(book, language):
    """The book prints every cell; a question's key cell keeps its printout in a fold the reader
    opens (book.sources), in the page's language, so the Answer fold is not followed by the answer."""
    from book.languages import CHINESE, ENGLISH
    from coursebook.predict.questions import question_of_cell

    words = (CHINESE if language else ENGLISH).words
    wrong = []
    for chapter in sorted((REPO / "course").glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(chapter, as_version=4)
        asked = sum(1 for c in nb.cells if c.cell_type == "code" and c.source.startswith("%%key\n")
                    and question_of_cell(c.source.split("\n", 1)[1]) is not None)
        page = book / language / ("index.html" if chapter.stem.startswith("00") else f"{chapter.stem}.html")
        html = page.read_text(encoding="utf-8")
        folded = html.count("cell tag_hide-output")
        if folded != asked or (asked and words["show_printout"] not in html):
            wrong.append(f"{language or 'en'}/{chapter.stem}: {asked} questions, {folded} folded printouts")
    assert wrong == [], wrong


@pytest.mark.parametrize("folder", ["", "zh"], ids=["English", "Chinese"])
def test_chapter_01_page_diagram_is_visible_and_steps_without_a_kernel(book, browser, server, folder):
    context, page, _blocked, errors = _offline_page(browser, 1366, server)
    page.goto(_url(server, book / folder / "01_reading_memory_diagrams.html"))
    player = page.locator(".md-player").first
    shown = player.locator(".mdp-frame:visible")
    box = shown.locator("svg.md-diagram:visible").bounding_box()
    assert box and box["width"] > 200 and box["height"] > 100, "chapter 01's diagram is not visible"
    assert shown.get_attribute("data-step") == "1"
    forward = shown.locator(".mdp-forward")
    assert forward.text_content() == ("下一步 \u25b6" if folder == "zh" else "forward \u25b6"), \
        f"the diagram's controls are not in the page's language: {forward.text_content()!r}"
    forward.click()
    assert player.locator(".mdp-frame:visible").get_attribute("data-step") == "2"
    player.locator(".mdp-frame:visible .mdp-back").click()
    assert player.locator(".mdp-frame:visible").get_attribute("data-step") == "1"
    context.close()
    assert errors == []


@pytest.mark.parametrize("folder", ["", "zh"], ids=["English", "Chinese"])
def test_every_exercise_page_describes_it_and_opens_it_locally_and_on_binder(book, desktop_visits, browser, server,
                                                                               folder):
    """Read from the desktop sweep's visit of each exercise page; then a chapter's link to its
    exercise, clicked."""
    visits, blocked, errors = desktop_visits
    for name in EXERCISES:
        seen = visits[book / folder / f"exercise-{name}.html"]["exercise"]
        where = f"course/zh/exercises/{name}/{name}.ipynb" if folder else f"exercises/{name}/{name}.ipynb"
        assert (seen["title"] or "").startswith("练习" if folder else "Exercise"), f"{folder}/{name}: no description"
        assert [len(seen[part]) for part in ("live", "local", "repo", "binder")] == [1, 1, 1, 1], \
            f"{folder}/{name}: not one how-to-run paragraph and one link of each kind: {seen}"
        assert ("make lab LANG=zh" in seen["live"][0]) == bool(folder), \
            f"{folder}/{name}: the page does not name the lab of its language"
        local = seen["local"][0]
        assert local == f"http://127.0.0.1:8888/lab/tree/{LAB_ROOT}/{where}", \
            f"{name}: the link for make lab opens {local}, not the learner's copy"
        assert seen["repo"][0] == [where, f"{REPOSITORY}/blob/main/{where}"], \
            f"{name}: the page does not say where the exercise is in the repository"
        binder = seen["binder"][0]
        assert binder == BINDER_BADGE.replace("course/00_index.ipynb", where), \
            f"{name}: the Binder link {binder} is not the README badge's address for this exercise"
        assert seen["cells"] == 0, f"{name}: the page shows the exercise's code cells"
    context, page, clicked_blocked, clicked_errors = _offline_page(browser, 1366, server)
    page.goto(_url(server, book / folder / "08_clone.html"))
    page.locator("a[href='exercise-clone.html']").first.click()
    page.wait_for_url(f"**/{folder + '/' if folder else ''}exercise-clone.html")
    context.close()
    assert blocked == [] and errors == [] and clicked_blocked == [] and clicked_errors == []


def test_predict_answers_open_on_a_click(book, browser, server):
    context, page, _blocked, _errors = _offline_page(browser, 1366, server)
    page.goto(_url(server, book / "01_reading_memory_diagrams.html"))
    answer = page.locator("details:has(> summary:text-is('Answer'))").first
    assert not answer.evaluate("d => d.open"), "the predict answer is shown before the click"
    answer.locator("summary").click()
    assert answer.evaluate("d => d.open")
    context.close()


def _search_from(page, query):
    """Search the book from the page open in ``page``: its search button, the box it opens, Enter."""
    page.locator(".search-button-field:visible").first.click()
    box = page.locator("#pst-search-dialog input[name=q]")
    box.fill(query)
    box.press("Enter")
    page.wait_for_url("**/search.html?q=*")


def _results(page):
    """The links of the search page's results, once the search has finished."""
    page.locator("#search-results p.search-summary").wait_for()
    return page.locator("#search-results ul.search li > a").all()


def test_search_from_any_page_finds_version_counter_in_its_chapter_first(book, browser, server):
    context, page, blocked, errors = _offline_page(browser, 1366, server)
    page.goto(_url(server, book / "08_clone.html"))
    _search_from(page, "version counter")
    found = _results(page)
    assert found, "searching the book for 'version counter' finds nothing"
    assert found[0].get_attribute("href") == "06_version_counter.html", \
        f"the chapter on the version counter is not the first hit: {[a.text_content() for a in found[:3]]}"
    assert "version counter" in page.locator("#search-results li p.context").first.text_content().lower()
    assert f"found {len(found)} pages" in page.locator("#search-results p.search-summary").text_content()
    found[0].click()
    page.wait_for_url("**/06_version_counter.html")
    page.goto(_url(server, book / "search.html") + "?q=zzqqxx-nowhere")
    assert _results(page) == []
    assert "did not match any documents" in page.locator("#search-results p.search-summary").text_content()
    context.close()
    assert blocked == [] and errors == []


def test_chinese_search_finds_the_version_counter_chapter_first(book, browser, server):
    """Chinese is written without spaces: the search must find 版本计数器 inside a sentence."""
    context, page, blocked, errors = _offline_page(browser, 1366, server)
    page.goto(_url(server, book / "zh" / "08_clone.html"))
    _search_from(page, "版本计数器")
    assert "/zh/search.html" in page.url
    found = _results(page)
    assert len(found) >= 5, f"searching the Chinese book for 版本计数器 finds {len(found)} pages"
    assert found[0].get_attribute("href") == "06_version_counter.html", \
        f"the chapter on the version counter is not the first hit: {[a.text_content() for a in found[:3]]}"
    assert "版本计数器" in page.locator("#search-results li p.context").first.text_content()
    assert page.locator("#search-results p.search-summary").text_content() == \
        f"搜索完成，匹配搜索条件的有 {len(found)} 个页面。"
    found[0].click()
    page.wait_for_url("**/zh/06_version_counter.html")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    page.goto(_url(server, book / "zh" / "search.html") + "?q=版本计数器 视图")
    both = len(_results(page))
    assert 0 < both <= len(found), "two Chinese words, each found as a substring, should narrow the search"
    page.goto(_url(server, book / "zh" / "search.html") + "?q=zzqqxx-nowhere")
    assert _results(page) == []
    assert page.locator("#search-results p.search-summary").text_content().startswith("您的搜索没有匹配到文档")
    context.close()
    assert blocked == [] and errors == []


@pytest.mark.parametrize("folder", ["", "zh"], ids=["English", "Chinese"])
def test_every_chapter_page_runs_in_the_jupyterlite_site(book, desktop_visits, browser, server, folder):
    """"Run this page" opens the same notebook in the Lite site (``make lite``: _build/lite/),
    from the page's header, on a desktop and on a phone."""
    course = "course/zh" if folder else "course"
    chapters = {("index" if c.startswith("00_") else c): c for c in CHAPTERS}
    visits, blocked, errors = desktop_visits
    wrong = []
    for name, chapter in chapters.items():
        path = book / folder / f"{name}.html"
        runs = visits[path]["runs"]
        if len(runs) != 1 or not runs[0][1]:
            wrong.append(f"{folder}/{name}: {len(runs)} 'Run this page' links, visible: {runs[0][1] if runs else False}")
            continue
        address = urljoin(_url(server, path), runs[0][0])
        expected = f"{course}/{chapter}.ipynb"
        if address != f"{server}lite/lab/index.html?path={expected}" or not (REPO / expected).is_file():
            wrong.append(f"{folder}/{name}: opens {address}, not {expected} in the Lite site")
    context, page, phone_blocked, phone_errors = _offline_page(browser, 390, server)
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(_url(server, book / folder / "08_clone.html"))
    assert page.locator("a.book-run").is_visible(), "a phone does not see 'Run this page'"
    address = urljoin(page.url, page.locator("a.book-run").get_attribute("href"))
    assert parse_qs(urlparse(address).query)["path"] == [f"{course}/08_clone.ipynb"]
    assert page.locator("a.book-run").text_content().strip().endswith("运行本页" if folder else "Run this page")
    context.close()
    assert wrong == [], f"chapters whose 'Run this page' is missing or opens another notebook: {wrong[:10]}"
    assert blocked == [] and errors == [] and phone_blocked == [] and phone_errors == []


@pytest.mark.parametrize("width", [1366, 390])
def test_screenshots_of_the_index_and_chapter_01(book, browser, server, width, tmp_path):
    """The screenshots go to a temporary folder, so that a test run leaves the working tree as it
    was; BOOK_SCREENSHOTS=docs/images writes them where the READMEs show them, to refresh those."""
    folder = pathlib.Path(os.environ.get("BOOK_SCREENSHOTS", tmp_path))
    context, page, _blocked, _errors = _offline_page(browser, width, server)
    folder.mkdir(parents=True, exist_ok=True)
    for name, file in [("index", "index.html"), ("chapter-01", "01_reading_memory_diagrams.html")]:
        page.goto(_url(server, book / file))
        if name == "chapter-01":
            page.locator(".md-player").first.evaluate("e => e.scrollIntoView({block: 'start'})")
        target = folder / f"book-{name}-{width}.png"
        page.screenshot(path=str(target))
        assert target.stat().st_size > 5000
    context.close()


@pytest.mark.parametrize("language", ["", "zh"])
def test_no_page_shows_an_answer_above_its_question(book, language):
    """Issue 36: every answer is folded or below its question, on the page too (book_answers.py)."""
    from book_answers import answers_above_questions

    problems = answers_above_questions(book, language)
    assert not problems, "\n".join(problems)
