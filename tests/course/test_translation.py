"""The course in Chinese is generated from catalogs keyed by cell, and cannot drift unnoticed (issue 27).

English (course/*.ipynb, exercises/*/*.ipynb) is the only source; course/locale/zh/*.po
holds one entry per paragraph; course/zh/ is what ``python -m coursebook.translate
generate`` writes. See src/coursebook/translate/.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import polib
import pytest

from coursebook.translate.__main__ import finished, main as translate_main
from coursebook.translate.drift import drift, load
from coursebook.translate.glossary import Term, prose, inconsistencies, load_glossary
from coursebook.translate.layout import REPO, documents, twin_finder
from coursebook.language import SETUP_LINE
from coursebook.translate.comments import comments, replace
from coursebook.translate import docstrings as doc
from coursebook.translate.notebook import render, speaking, translate
from coursebook.translate.catalog import markdown_file_as_notebook
from coursebook.translate.paragraphs import fenced_code, join, split
from stored import stored_bytes, stored_notebook

DOCUMENTS = documents("zh")
NOTEBOOK_DOCUMENTS = [d for d in DOCUMENTS if d.is_notebook]
GLOSSARY = REPO / "course" / "locale" / "zh" / "glossary.toml"


def _name(document):
    return document.name


def _stored_english(document):
    """The English as git stores it: a learner who filled the English exercise in place (its
    solution cells' comments too) changes nothing the catalog follows."""
    return stored_notebook(document.source) if document.is_notebook else None


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_english_paragraph_has_a_current_catalog_entry(document):
    found = drift(document, source=_stored_english(document))
    problems = [found.describe(kind) for kind in ("missing", "stale", "unused") if getattr(found, kind)]
    assert not problems, (
        "the Chinese catalog does not follow the English: " + "; ".join(problems)
        + ". Run `python -m coursebook.translate update`, then translate the fuzzy and empty entries"
    )


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_a_finished_document_has_no_untranslated_paragraph(document):
    found = drift(document, source=_stored_english(document))
    listed = document.name in finished("zh")
    if listed:
        assert not found.untranslated, found.describe("untranslated") + " (it is listed in finished.toml)"
    else:
        assert found.untranslated or found.stale or found.missing, (
            f"{document.name} is fully translated: list it in course/locale/zh/finished.toml"
        )


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_the_committed_chinese_notebook_is_what_generate_writes(document):
    english = stored_bytes(document.source).decode() if document.is_notebook else None  # as git stores it
    expected = render(translate(document, load(document.catalog), twin_finder("zh"), source_text=english))
    assert document.target.exists(), f"{document.target} is missing: run `python -m coursebook.translate generate`"
    assert stored_bytes(document.target).decode() == expected, (
        f"{document.target.relative_to(REPO)} drifted from its English and its catalog: "
        "run `python -m coursebook.translate generate`"
    )


def _comment_words_blanked(source: str) -> str:
    """``source`` with the words of its comments and of its docstrings blanked: what translation keeps."""
    source = doc.replace(source, ["..."] * len(doc.docstrings(source)))
    return replace(source, ["..."] * len(comments(source)))


@pytest.mark.parametrize("document", NOTEBOOK_DOCUMENTS, ids=_name)
def test_chinese_code_cells_are_the_english_code_cells_byte_for_byte_but_the_comments_and_docstrings_words(
        document):
    # both as git stores them: a learner who filled the English stubs in place changes neither
    english = stored_notebook(document.source)
    chinese = stored_notebook(document.target)
    assert [c.id for c in chinese.cells] == [c.id for c in english.cells], "cells added, lost or reordered"
    code = [c.id for c in english.cells if c.cell_type == "code"]
    for en, zh in zip(english.cells, chinese.cells):
        if code and en.id == code[0] and not document.name.startswith("exercises/"):
            # a chapter's first code cell says its language first (coursebook.language)
            assert _comment_words_blanked(zh.source) == _comment_words_blanked(speaking(en.source, "zh")) \
                and zh.metadata == en.metadata, (
                f"{document.name}: the first code cell is not the English one after {SETUP_LINE!r}")
        elif en.cell_type != "markdown":
            assert len(comments(zh.source)) == len(comments(en.source)), (document.name, en.id)
            assert len(doc.docstrings(zh.source)) == len(doc.docstrings(en.source)), (document.name, en.id)
            # a translated docstring's continuation lines are indented as the English ones
            assert all(z.indent == e.indent for z, e in zip(doc.docstrings(zh.source), doc.docstrings(en.source))
                       if "\n" in z.text.strip()), (document.name, en.id)
            assert ((zh.cell_type, _comment_words_blanked(zh.source), zh.metadata)
                    == (en.cell_type, _comment_words_blanked(en.source), en.metadata)), (
                f"{document.name}: code cell {en.id} differs from the English one "
                "(beyond its comments' and docstrings' words)"
            )


@pytest.mark.parametrize("document", NOTEBOOK_DOCUMENTS, ids=_name)
def test_every_comment_in_a_chinese_code_cell_is_chinese(document):
    chinese = stored_notebook(document.target)
    english = [f"cell {cell.id}: # {comment.text}" for cell in chinese.cells if cell.cell_type == "code"
               for comment in comments(cell.source) if not re.search(r"[\u4e00-\u9fff]", comment.text)]
    assert not english, (f"{document.name} (Chinese): English comments in code cells; translate their "
                         "#comment entries in the catalog:\n" + "\n".join(english))


@pytest.mark.parametrize("document", NOTEBOOK_DOCUMENTS, ids=_name)
def test_every_docstring_in_a_chinese_code_cell_is_chinese(document):
    # a build-it stub's docstring tells the learner what to build: prose, read in Chinese
    chinese = stored_notebook(document.target)
    english = [f"cell {cell.id}: {docstring.text!r}" for cell in chinese.cells if cell.cell_type == "code"
               for docstring in doc.docstrings(cell.source) if not re.search(r"[\u4e00-\u9fff]", docstring.text)]
    assert not english, (f"{document.name} (Chinese): English docstrings in code cells; translate their "
                         "#docstring entries in the catalog:\n" + "\n".join(english))


def test_the_build_it_stubs_of_chapter_02_and_the_clone_exercise_have_chinese_docstrings():
    # the test above holds vacuously for a notebook without docstrings: these must have some
    found = [d.text for path in (REPO / "course" / "zh" / "02_names_and_objects.ipynb",
                                 REPO / "course" / "zh" / "exercises" / "clone" / "clone.ipynb")
             for cell in stored_notebook(path).cells if cell.cell_type == "code"
             for d in doc.docstrings(cell.source)]
    assert len(found) == 4 and all(re.search(r"[\u4e00-\u9fff]", text) for text in found), found


def test_a_docstring_is_found_by_the_parser_and_only_its_words_are_replaced():
    source = ('%%key\n"""Module words."""\nx = "not a docstring"\n'
              'class A:\n    r"""First line.\n\n      Indented more.\n    Last.\n    """\n'
              '    def f(self):\n        "a" "b"  # two literals: left alone\n'
              '        return """not one either"""\n'
              'def g():\n    pass\n    """after a statement: not a docstring"""\n')
    found = doc.docstrings(source)
    assert [(d.text, d.indent) for d in found] == [
        ("Module words.", ""), ("First line.\n\n  Indented more.\nLast.", "    ")]
    translated = doc.replace(source, ["模块。", "第一行。\n\n  缩进更多。\n最后。"])
    assert translated == source.replace("Module words.", "模块。").replace(
        "First line.\n\n      Indented more.\n    Last.", "第一行。\n\n      缩进更多。\n    最后。")
    assert doc.replace(source, [None, "一行。"]) == source.replace(
        "First line.\n\n      Indented more.\n    Last.", "一行。")
    assert doc.docstrings("def broken(:\n    '''words'''\n") == []  # unreadable: kept as it is


def test_a_docstring_is_an_entry_keyed_by_its_cell_in_code_and_in_a_fenced_block():
    from coursebook.translate.catalog import paragraphs_of
    code = nbformat.v4.new_code_cell('def f():\n    """Do it."""  # now\n')
    code.id = "c1"
    text = nbformat.v4.new_markdown_cell('Read this.\n\n```python\ndef g():\n    "Shown."\n```')
    text.id = "m1"
    found = [(p.key, p.text) for p in paragraphs_of(nbformat.v4.new_notebook(cells=[code, text]))]
    assert found == [("c1#comment0", "now"), ("c1#docstring0", "Do it."), ("m1#0", "Read this."),
                     ("m1#1#docstring0", "Shown.")]


def _cells(path):
    # a notebook as git stores it (a learner may fill either language's exercise in place)
    return (stored_notebook(path) if path.suffix == ".ipynb" else markdown_file_as_notebook(path)).cells


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_a_fenced_code_block_in_chinese_prose_is_the_english_one_but_its_comments_words(document):
    # a prediction's program, or a README's commands, shown in markdown: its comments are
    # translated as a code cell's are, and every one of them has its translation in the catalog
    translated = {e.msgctxt for e in load(document.catalog) if e.msgstr and "fuzzy" not in e.flags}
    for en, zh in zip(_cells(document.source), _cells(document.target)):
        if en.cell_type != "markdown":
            continue
        for index, (en_text, zh_text) in enumerate(zip(split(en.source)[0], split(zh.source)[0])):
            code = fenced_code(en_text)
            if code is None:
                continue
            zh_code = fenced_code(zh_text)
            assert zh_code is not None and _comment_words_blanked(zh_code) == _comment_words_blanked(code), (
                f"{document.name}: the fenced block {en.get('id')}#{index} differs from the English one")
            missing = [c.text for k, c in enumerate(comments(code))
                       if f"{en.get('id')}#{index}#comment{k}" not in translated]
            missing += [d.text for k, d in enumerate(doc.docstrings(code))
                        if doc.key(en.get("id"), k, index) not in translated]
            assert not missing, f"{document.name}: untranslated comments in block {en.get('id')}#{index}: {missing}"


def test_the_comments_of_a_prediction_block_are_chinese_in_chapter_07():
    # the test above holds vacuously for a document without blocks: this one must see some
    zh = REPO / "course" / "zh" / "07_no_grad_and_inference_mode.ipynb"
    blocks = [fenced_code(p) for cell in _cells(zh) if cell.cell_type == "markdown"
              for p in split(cell.source)[0] if fenced_code(p) is not None]
    words = [c.text for code in blocks for c in comments(code)]
    assert "1：原地写入" in words and not any(re.fullmatch(r"[0-9: A-Za-z]+", w) for w in words), words


def test_a_comment_is_found_by_the_tokenizer_and_only_its_words_are_replaced():
    source = ('%%key\nx = "# not a comment"  #  two spaces, kept\n'
              'def f():\n    return 1 # one\n# 3')
    found = comments(source)
    assert [(c.line, c.text) for c in found] == [(1, "two spaces, kept"), (3, "one")]  # "# 3" holds no words
    assert replace(source, ["两个空格，保留", None]) == source.replace("two spaces, kept", "两个空格，保留")
    assert comments("def broken(:\n    pass  # words\n") == []  # unreadable: kept as it is


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_relative_link_of_a_chinese_notebook_resolves(document):
    import re

    text = stored_bytes(document.target).decode()
    markdown = ([c.source for c in nbformat.reads(text, as_version=4).cells if c.cell_type == "markdown"]
                if document.is_notebook else [text])
    broken = []
    for source in markdown:
        for target in re.findall(r"\]\(([^)#\s]+)", source):
            if "://" not in target and not target.startswith("mailto:"):
                if not (document.target.parent / target).exists():
                    broken.append(target)
    assert not broken, f"{document.name} (Chinese): links to missing files {broken}"


def test_chinese_chapters_link_the_chinese_chapters_not_the_english_ones():
    index = next(d for d in DOCUMENTS if d.name == "00_index")
    text = "\n".join(c.source for c in nbformat.read(index.target, as_version=4).cells if c.cell_type == "markdown")
    assert "](08_clone.ipynb" in text and "](../08_clone.ipynb" not in text


def test_a_markdown_cell_cut_into_paragraphs_joins_back_byte_for_byte():
    sources = [c.source for d in NOTEBOOK_DOCUMENTS for c in nbformat.read(d.source, as_version=4).cells
               if c.cell_type == "markdown"]
    assert sources
    changed = [s[:60] for s in sources if join(*split(s)) != s]
    assert not changed, changed


def test_a_fenced_code_block_with_blank_lines_stays_one_paragraph():
    paragraphs, _ = split("Text.\n\n```python\na = 1\n\nb = 2\n```\n\nMore.")
    assert paragraphs == ["Text.", "```python\na = 1\n\nb = 2\n```", "More."]


def _scratch(tmp_path: Path) -> Path:
    """A copy of what the catalog check reads: course/ and exercises/, as git stores them (a
    learner's saved outputs and filled stubs are not the course)."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "course", "exercises"],
                            capture_output=True, text=True)
    if listed.returncode != 0 or not listed.stdout.strip():  # not a git checkout: the folders
        for folder in ("course", "exercises"):
            shutil.copytree(REPO / folder, tmp_path / folder)
        return tmp_path
    for relative in listed.stdout.splitlines():
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(stored_bytes(REPO / relative))
    return tmp_path


def _run(command: str, repo: Path) -> subprocess.CompletedProcess:
    """``python -m coursebook.translate COMMAND --repo REPO``, run in this process (its ``main``):
    the exit code and what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = translate_main([command, "--repo", str(repo)])
    return subprocess.CompletedProcess(["coursebook.translate", command], code, printed.getvalue(), "")


def _check(repo: Path) -> subprocess.CompletedProcess:
    return _run("check", repo)


def _check_command(repo: Path) -> subprocess.CompletedProcess:
    """The check as a learner or CI runs it: a command of its own, whose exit code says red or green."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    return subprocess.run([sys.executable, "-m", "coursebook.translate", "check", "--repo", str(repo)],
                          capture_output=True, text=True, env=env, timeout=300)


def test_changing_one_english_paragraph_turns_the_catalog_check_red_naming_the_cell_until_it_is_translated(tmp_path):
    repo = _scratch(tmp_path)
    po = repo / "course" / "locale" / "zh" / "08_clone.po"
    catalog = polib.pofile(str(po))
    entry = next(e for e in catalog if e.msgctxt == "aa19520f#0")
    if not entry.msgstr:  # the chapter not translated yet: translate this paragraph in the copy
        entry.msgstr = "`b` 打印时带着 `grad_fn=<CloneBackward0>`：它由 autograd 记录下来的操作产生。"
        catalog.save()
        _run("generate", repo)
    old_translation = entry.msgstr
    assert _check(repo).returncode == 0, _check(repo).stdout

    chapter = repo / "course" / "08_clone.ipynb"
    nb = nbformat.read(chapter, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "markdown" and c.id == "aa19520f")
    cell.source = cell.source.replace("autograd recorded", "autograd wrote down")
    nbformat.write(nb, chapter)
    red = _check_command(repo)
    assert red.returncode == 1 and "08_clone: 1 stale (cell aa19520f#0)" in red.stdout, red.stdout

    # update: the old translation is kept, marked fuzzy, with the old English beside it
    _run("update", repo)
    entry = next(e for e in polib.pofile(str(po)) if e.msgctxt == "aa19520f#0")
    assert "autograd wrote down" in entry.msgid and entry.msgstr == old_translation
    assert "fuzzy" in entry.flags and "autograd recorded" in entry.previous_msgid
    _run("generate", repo)
    still_red = _check(repo)
    assert still_red.returncode == 1 and "08_clone: 1 stale (cell aa19520f#0)" in still_red.stdout, still_red.stdout
    chinese = nbformat.read(repo / "course" / "zh" / "08_clone.ipynb", as_version=4)
    shown = next(c for c in chinese.cells if c.id == "aa19520f").source
    assert "autograd wrote down" in shown and old_translation not in shown, "a stale translation was shown"

    # the translator revises the entry: green again
    catalog = polib.pofile(str(po))
    entry = next(e for e in catalog if e.msgctxt == "aa19520f#0")
    entry.msgstr = old_translation.replace("记录", "记下")
    entry.flags = [f for f in entry.flags if f != "fuzzy"]
    entry.previous_msgid = None
    catalog.save()
    _run("generate", repo)
    green = _check(repo)
    assert green.returncode == 0, green.stdout


def test_a_new_english_paragraph_is_a_missing_entry_named_by_its_cell(tmp_path):
    repo = _scratch(tmp_path)
    chapter = repo / "course" / "08_clone.ipynb"
    nb = nbformat.read(chapter, as_version=4)
    cell = next(c for c in nb.cells if c.id == "aa19520f")
    cell.source += "\n\nA paragraph nobody translated."
    nbformat.write(nb, chapter)
    document = next(d for d in documents("zh", repo) if d.name == "08_clone")
    found = drift(document)
    index = len(split(cell.source)[0]) - 1
    assert found.missing == [f"aa19520f#{index}"]


def test_glossary_terms_are_rendered_one_way_everywhere():
    terms = load_glossary(GLOSSARY)
    found = [f"{d.name} {line}" for d in DOCUMENTS for line in inconsistencies(load(d.catalog), terms)]
    assert not found, "inconsistent terms:\n" + "\n".join(found)


def test_the_course_says_self_check_one_way():
    """自检, never 自查, in every chapter's, exercise's and the README's catalog and in the code's
    (the glossary's self-check entry, with the one wrong rendering the grader's catalog still uses)."""
    terms = [Term("self-check", "自检", ("自查",), required=True)]
    catalogs = [(d.name, load(d.catalog)) for d in DOCUMENTS]
    catalogs.append(("coursebook", polib.pofile(str(REPO / "src" / "coursebook" / "locale" / "zh" / "coursebook.po"))))
    found = [f"{name} {line}" for name, catalog in catalogs for line in inconsistencies(catalog, terms)]
    assert not found, "\n".join(found)


def test_chinese_prose_quotes_with_chinese_quotation_marks():
    """“” in Chinese prose, not ASCII quotes: outside code and HTML tags no translation holds a `"`."""
    found = []
    for document in DOCUMENTS:
        for entry in load(document.catalog):
            text = re.sub(r"<[a-zA-Z/][^>]*>", " ", prose(entry.msgstr))
            if '"' in text:
                found.append(f"{document.name} {entry.msgctxt}: {entry.msgstr[:80]!r}")
    assert not found, "ASCII quotes in Chinese prose:\n" + "\n".join(found)


def test_the_glossary_check_flags_a_wrong_rendering_and_a_missing_required_one():
    terms = load_glossary(GLOSSARY)
    assert {"张量", "视图", "存储", "步长", "版本计数器", "计算图", "叶子张量", "原地", "浅拷贝", "深拷贝"} <= {
        t.rendering for t in terms}
    catalog = polib.POFile()
    catalog.append(polib.POEntry(msgctxt="c1#0", msgid="Each view has its own strides.", msgstr="每个视图有自己的步幅。"))
    catalog.append(polib.POEntry(msgctxt="c2#0", msgid="The version counter goes up.", msgstr="计数加一。"))
    catalog.append(polib.POEntry(msgctxt="c3#0", msgid="The version counter goes up.", msgstr="版本计数器加一。"))
    found = inconsistencies(catalog, terms)
    assert any(line.startswith("c1#0") and "步幅" in line for line in found), found
    assert any(line.startswith("c2#0") and "version counter" in line for line in found), found
    assert not any(line.startswith("c3#0") for line in found), found


def test_a_cell_moved_to_another_chapter_keeps_its_translation(tmp_path):
    repo = _scratch(tmp_path)
    source, target = repo / "course" / "08_clone.ipynb", repo / "course" / "09_detach_and_data.ipynb"
    eight, nine = nbformat.read(source, as_version=4), nbformat.read(target, as_version=4)
    moved = next(c for c in eight.cells if c.id == "daff8c53")
    eight.cells.remove(moved)
    nine.cells.insert(1, moved)
    nbformat.write(eight, source)
    nbformat.write(nine, target)
    assert _check(repo).returncode == 1  # 08 has an unused entry, 09 a missing one

    _run("update", repo)
    _run("generate", repo)
    green = _check(repo)
    assert green.returncode == 0, green.stdout
    entry = next(e for e in polib.pofile(str(repo / "course" / "locale" / "zh" / "09_detach_and_data.po"))
                 if e.msgctxt == "daff8c53#0")
    assert entry.msgstr and "fuzzy" not in entry.flags


def test_a_chinese_key_cell_answers_the_question_its_english_twin_answers():
    """Matched by code, its comments' words left out: the twin's comments are Chinese."""
    from coursebook.predict.questions import question_of_cell, questions

    translated = 0
    for q in questions():
        english = stored_notebook(REPO / "course" / q.chapter)
        keys = [c.id for c in english.cells if c.cell_type == "code" and c.source.startswith("%%key")]
        chinese = stored_notebook(REPO / "course" / "zh" / q.chapter)
        twin = next(c.source for c in chinese.cells if c.id == keys[q.index])
        assert question_of_cell(twin.split("%%key\n", 1)[1]) == q, q.id
        translated += twin.split("%%key\n", 1)[1] != q.program
    assert translated, "no key cell has a translated comment: this test tests nothing"
