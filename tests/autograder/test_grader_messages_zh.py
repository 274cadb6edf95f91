"""The grader speaks the language of the learner's notebook (issue 27): self-check and feedback.

A Chinese exercise (``course/zh/exercises/<a>/<a>.ipynb``) says ``"coursebook":
{"language": "zh"}`` in its metadata. The self-check of it prints Chinese (its
verdicts, the score line, the misconception's name and explanation), and its
graded feedback page is Chinese, frame and check messages, while an English
submission of the same class gets English: the language is each notebook's, read
as data, not a variable of the grading process. The judge writes each verdict in
that language where it is made (``autograder.judge.language``, issue 38): the
graded notebook of a Chinese submission holds Chinese verdicts, with the tags the
class report counts left as they are.

The catalog (``autograder/locale/zh/autograder.po``) is checked like the course's:
every misconception tag the checks can raise and every message the grader marks
``N_()`` has a Chinese entry, and no entry is stale (fuzzy, or English no longer
printed): a budget of 0.
"""

import functools
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import nbformat
import polib
import pytest

from autograder.judge.language import (LANGUAGE_KEY, LOCALE, catalog, gettext, misconception, notebook_language,
                                       speaking)
from autograder.pipeline.language import error_message, line, result_message
from autograder.term.misconceptions import _BUILT as BUILT, _GENERIC as GENERIC
from autograder.term.misconceptions import _HYPHENATED as HYPHENATED, _LITERAL as FULL_TAG
from synthetic_course import run_cli, REPO, make_course, write_submission

GRADER = Path(REPO) / "autograder"
CHECKS = GRADER / "checks"
CATALOG = LOCALE / "zh" / "autograder.po"
ZH_CLONE = Path(REPO) / "course" / "zh" / "exercises" / "clone" / "clone.ipynb"
EN_CLONE = Path(REPO) / "exercises" / "clone" / "clone.ipynb"

# the learner's wrong answer: "b = a is a copy"
RETURNS_SOURCE = ("def my_clone(self, *, memory_format=torch.preserve_format):\n"
                  "    \"\"\"A copy of `self` in new memory that stays in the autograd graph.\"\"\"\n"
                  "    return self\n")
NAME_ZH = misconception("clone/returns-source", "zh")[0] if CATALOG.exists() else ""

# --- the catalog --------------------------------------------------------------------------------

# How tags are written (FULL_TAG, HYPHENATED), the tags a check builds from a variable (BUILT) and
# the generic ones of every topic (GENERIC) are the grader's own tables (autograder.term.misconceptions);
# the finder below is this test's own, narrower than the grader's (which keeps every hyphenated
# string of a topic module).


def check_tags():
    """Every misconception tag the checks of ``autograder/checks`` can end a failure with: the
    literal tags, the topic modules' ``_tag("name", ...)``, their tables of names and messages
    files (``<module>.toml``), the tags derived from another module's (``data/`` from ``detach/``,
    ``tensor/`` from ``new_tensor/``), and the generic ones of every topic."""
    found, topics = set(), set()
    for path in sorted(CHECKS.glob("*.py")):
        text = "".join(p.read_text(encoding="utf-8") for p in (path, path.with_suffix(".toml")) if p.exists())
        found |= set(FULL_TAG.findall(text))
        topic = re.search(r'^TOPIC = "([a-z_]+)"', text, re.M)
        if topic:
            t = topic.group(1)
            names = set(re.findall(r'_tag\(\s*"([a-z0-9\-]+)"', text))
            names |= set(re.findall(r'^tag = "([a-z0-9\-]+)"', text, re.M))   # its messages file
            names |= set(re.findall(r'\(\s*"(%s)",' % HYPHENATED, text))
            names |= set(re.findall(r'^\s+"(%s)": \(?"' % HYPHENATED, text, re.M))
            found |= {f"{t}/{n}" for n in names | set(BUILT.get(t, ()))}
    found |= {t.replace("detach/", "data/") for t in found if t.startswith("detach/")}
    found |= {t.replace("new_tensor/", "tensor/") for t in found if t.startswith("new_tensor/")}
    topics = {t.split("/")[0] for t in found}
    found |= {f"{t}/{g}" for t in topics for g in GENERIC}
    return found | {"rules/calls-the-op", "integrity/tampering"}


@functools.lru_cache(maxsize=None)
def marked_messages():
    """{message: file} of every ``N_("...")`` with a literal message in autograder/."""
    import ast

    found = {}
    for path in GRADER.rglob("*.py"):
        if "state" in path.relative_to(GRADER).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found[node.args[0].value] = path.relative_to(GRADER).as_posix()
    return found


def grader_source():
    """The grader's code, adjacent string literals joined (a message written over two lines)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in GRADER.rglob("*.py")
                     if "state" not in p.relative_to(GRADER).parts)
    return re.sub(r'"\s*\n\s*f?"', "", text)


def entries():
    return list(polib.pofile(str(CATALOG)))


def test_every_misconception_the_checks_raise_has_a_chinese_name_and_explanation():
    tags = check_tags()
    assert len(tags) > 250, "the tag finder found too few tags: did autograder/checks move?"
    missing = sorted(t for t in tags if not misconception(t, "zh") or not all(misconception(t, "zh")))
    assert not missing, "misconceptions with no Chinese name and explanation in autograder.po: %s" % missing


def test_every_marked_grader_message_has_a_chinese_entry():
    messages = marked_messages()
    assert len(messages) >= 15
    missing = [f"{where}: {m!r}" for m, where in messages.items() if ("line", m) not in catalog("zh")]
    assert not missing, "grader messages with no Chinese in autograder.po:\n" + "\n".join(missing)


def test_no_catalog_entry_is_stale_or_fuzzy():
    tags = check_tags()
    suffixes = {t.split("/", 1)[1] for t in tags} | {t.split("/", 1)[0] for t in tags}
    source = grader_source()
    stale = []
    for e in entries():
        if "fuzzy" in e.flags or e.obsolete or not e.msgstr:
            stale.append(f"untranslated or fuzzy: {e.msgid}")
        elif e.msgctxt == "misconception":
            topic, _, name = e.msgid.partition("/")
            if not (e.msgid in tags or (topic == "*" and name in suffixes) or (name == "*" and topic in suffixes)):
                stale.append(f"no check raises {e.msgid}")
        elif e.msgctxt == "line":
            # still printed: marked, or its longest literal piece is in the grader's code
            piece = max(re.split(r"\{\d+\}", e.msgid), key=len).strip(" ,:()")
            if e.msgid not in marked_messages() and piece not in source:
                stale.append(f"no longer printed: {e.msgid}")
        else:
            stale.append(f"unknown context {e.msgctxt!r}: {e.msgid}")
    assert not stale, "stale entries in autograder.po (budget 0):\n" + "\n".join(stale)


def test_a_chinese_line_keeps_the_fields_of_its_english():
    def fields(text):
        return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)

    wrong = [e.msgid for e in entries() if e.msgctxt == "line" and fields(e.msgid) != fields(e.msgstr)]
    assert not wrong, wrong


def _clone_failure(my_clone, lang):
    """The failure ``check_clone_memory`` raises on ``my_clone`` (run here, on reftorch), in ``lang``."""
    from autograder.checks.clone import check_clone_memory

    with speaking(lang):
        with pytest.raises(AssertionError) as failed:
            check_clone_memory(my_clone)
    return str(failed.value)


def test_a_check_writes_its_failure_in_the_language_spoken_with_the_values_and_the_tag_as_they_are():
    def returns_source(self, *, memory_format=None):
        return self

    english, chinese = _clone_failure(returns_source, "en"), _clone_failure(returns_source, "zh")
    assert english.splitlines()[0].startswith("your clone returns the source itself")
    assert english.splitlines()[-1] == "    misconception: clone/returns-source"
    assert not re.search(r"[\u4e00-\u9fff]", english)
    name, explanation = misconception("clone/returns-source", "zh")
    lines = chinese.splitlines()
    assert lines[0] == "误解「%s」：%s" % (name, explanation)
    assert lines[1].startswith("    输入：") and "形状 " in lines[2] and "，步长 " in lines[2], chinese
    assert re.search(r"same_object：torch 的 clone 给出 False，你的给出 True", chinese), chinese
    assert lines[-1] == "    误解标签：clone/returns-source"
    assert len(lines) == len(english.splitlines())     # the same evidence, line for line
    assert "your clone" not in chinese


def test_an_input_on_the_gpu_is_named_in_chinese_whole():
    """A battery case whose name says the GPU is named through the GPU template in a Chinese verdict,
    not left in English because its whole name has no entry."""
    from autograder.checks._observe import case_label
    from autograder.judge.language import speaking
    from autograder.witness import battery

    on_the_gpu = [case for case in vars(battery).values() if isinstance(case, battery.Case) and case.on == "cuda"]
    assert on_the_gpu
    with speaking("zh"):
        named = [case_label(case) for case in on_the_gpu]
    assert all("GPU（cuda:0）上" in name and "on the GPU" not in name and "requires grad" not in name
               for name in named), named


def test_torchs_own_error_text_stays_english_inside_a_chinese_verdict():
    def raises(self, *, memory_format=None):
        raise RuntimeError("expected scalar type Float but found Double")

    chinese = _clone_failure(raises, "zh")
    assert "你的代码抛出了 RuntimeError: expected scalar type Float but found Double" in chinese, chinese
    assert chinese.splitlines()[-1] == "    误解标签：clone/raises"
    # an answer cell's error on the feedback page: torch's words, then a Chinese line saying what they are
    torch_error = error_message("RuntimeError", "expected scalar type Float but found Double", "zh")
    assert torch_error.startswith("RuntimeError: expected scalar type Float but found Double\n")
    assert re.search(r"[\u4e00-\u9fff]", torch_error.splitlines()[1])
    # a judged test cell's error was written by the judge, in the notebook's language: shown as it is
    assert error_message("AssertionError", chinese, "zh", judged=True) == "AssertionError: " + chinese
    assert result_message("AssertionError: " + chinese, "zh") == "AssertionError: " + chinese


def test_a_students_language_mark_is_read_as_data_and_only_a_known_language_counts():
    assert notebook_language({"metadata": {LANGUAGE_KEY: {"language": "zh"}}}) == "zh"
    for odd in ({}, {"metadata": []}, {"metadata": {LANGUAGE_KEY: "zh"}},
                {"metadata": {LANGUAGE_KEY: {"language": "<script>"}}}):
        assert notebook_language(odd) == "en"
    assert gettext("ok", "zh") == "通过" and gettext("ok", "en") == "ok"


def test_the_chinese_exercises_say_their_language_and_the_english_ones_do_not():
    assert notebook_language(nbformat.read(ZH_CLONE, as_version=4)) == "zh"
    assert notebook_language(nbformat.read(EN_CLONE, as_version=4)) == "en"


# --- a real self-check --------------------------------------------------------------------------

def _with_answer(source, answer):
    nb = nbformat.read(source, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "clone-solution":
            cell.source = answer
    return nb


def test_the_self_check_of_a_chinese_exercise_prints_chinese_verdicts_and_the_misconception(
        tmp_path, needs_sandbox):
    zh = write_submission(str(tmp_path / "zh"), _with_answer(ZH_CLONE, RETURNS_SOURCE), "clone.ipynb")
    en = write_submission(str(tmp_path / "en"), _with_answer(EN_CLONE, RETURNS_SOURCE), "clone.ipynb")
    runs = {}
    for lang, path in (("zh", zh), ("en", en)):
        runs[lang] = subprocess.run([sys.executable, "-m", "autograder", "check", path],
                                    capture_output=True, text=True, timeout=600, cwd=REPO)
        assert runs[lang].returncode == 1, runs[lang].stdout + runs[lang].stderr
    out = runs["zh"].stdout
    assert "自检 " in out and "只运行可见测试" in out, out
    assert re.search(r"未通过\s+clone-memory", out), out
    assert "was edited" not in out, out   # the Chinese prose is the exercise's, not an edit
    assert "误解「%s」" % NAME_ZH in out, out          # the misconception's Chinese name ...
    assert "误解标签：clone/returns-source" in out, out
    assert "误解「还没有写」" in out, out               # the untouched layout stub
    assert re.search(r"得分：\d+/\d+（\d+ 个测试未通过）", out), out
    assert "your clone returns the source itself" not in out
    english = runs["en"].stdout
    assert "FAIL  clone-memory" in english and "your clone returns the source itself" in english, english
    assert re.search(r"Score: \d+/\d+  \(\d+ test\(s\) failing\)", english), english
    assert not re.search(r"[\u4e00-\u9fff]", english), english


# --- a real grade of a class that mixes the languages ------------------------------------------

def cli(root, *args):
    return run_cli(root, *args).stdout


@pytest.fixture(scope="module")
def mixed_class(tmp_path_factory, needs_sandbox):
    root = str(tmp_path_factory.mktemp("mixed-class"))
    make_course(root, {"clone": os.path.join(REPO, "solutions", "clone")})
    inbox = str(tmp_path_factory.mktemp("inbox"))
    write_submission(os.path.join(inbox, "li_wei"), _with_answer(ZH_CLONE, RETURNS_SOURCE), "clone.ipynb")
    write_submission(os.path.join(inbox, "ada"), _with_answer(EN_CLONE, RETURNS_SOURCE), "clone.ipynb")
    added = _with_answer(ZH_CLONE, RETURNS_SOURCE)   # a cell of their own: the autograder notes it
    added.cells.append(nbformat.v4.new_code_cell("print('我自己的单元格')"))
    write_submission(os.path.join(inbox, "wang_fang"), added, "clone.ipynb")
    cli(root, "collect", inbox)
    cli(root, "autograde", "--workers", "1", "--no-progress")
    cli(root, "feedback", "clone")

    def page(student):
        path = os.path.join(root, "autograder", "state", "feedback", student, "clone", "clone.html")
        with open(path, encoding="utf-8") as f:
            return f.read()

    def graded(student):
        path = os.path.join(root, "autograder", "state", "autograded", student, "clone", "clone.ipynb")
        return nbformat.read(path, as_version=4)

    return page, graded


def test_a_chinese_submission_gets_chinese_feedback_and_an_english_one_english(mixed_class):
    page, graded = mixed_class
    chinese, english = page("li_wei"), page("ada")
    assert '<html lang="zh">' in chinese
    assert "(得分: " in chinese and "(Score: " not in chinese
    assert "误解「%s」" % NAME_ZH in chinese
    assert "误解标签：clone/returns-source" in chinese
    assert "你的给出" in chinese
    assert "评分单元格：" in chinese and "你的答案" in chinese and "Grade cell:" not in chinese
    assert "练习：自己写出" in chinese          # the exercise's prose, from its catalog
    assert "Exercise: write" not in chinese
    assert "Grade cell:" in english and "Exercise: write" in english
    assert "your clone returns the source itself" not in chinese
    assert "(Score: " in english and "your clone returns the source itself" in english
    assert not re.search(r"[\u4e00-\u9fff]", english)
    # the graded notebook keeps its mark, its verdicts were written in its language where they were
    # made (the judge), and the tag the class report counts is the same in both
    assert notebook_language(graded("li_wei")) == "zh" and notebook_language(graded("ada")) == "en"

    def verdicts(nb):
        return "\n".join(o.get("evalue", "") for c in nb.cells for o in c.get("outputs", [])
                         if o.get("output_type") == "error")

    assert "误解「%s」" % NAME_ZH in verdicts(graded("li_wei"))
    assert "\n    误解标签：clone/returns-source" in verdicts(graded("li_wei"))
    assert "\n    misconception: clone/returns-source" in verdicts(graded("ada"))
    assert not re.search(r"[\u4e00-\u9fff]", verdicts(graded("ada")))
    from autograder.term.misconceptions import test_tags

    assert "clone/returns-source" in test_tags(graded("li_wei")).values()
    assert test_tags(graded("li_wei")) == test_tags(graded("ada"))


def test_the_graders_chinese_uses_the_course_glossary():
    from coursebook.translate.glossary import inconsistencies, load_glossary

    terms = load_glossary(Path(REPO) / "course" / "locale" / "zh" / "glossary.toml")
    found = inconsistencies(polib.pofile(str(CATALOG)), terms)
    assert not found, "terms the glossary renders otherwise:\n" + "\n".join(found)


def test_a_chinese_submission_that_could_not_be_graded_gets_its_reason_in_chinese(tmp_path):
    from autograder.course import autograded_dir, course_config, feedback_dir, submitted_dir
    from autograder.pipeline.notes import MESSAGES_FILE
    from autograder.term.feedback import _pages_for_ungraded

    config = course_config(str(tmp_path))
    for student, source in (("li_wei", ZH_CLONE), ("ada", EN_CLONE)):
        folder = autograded_dir(config, student, "clone")
        os.makedirs(folder)
        with open(os.path.join(folder, MESSAGES_FILE), "w", encoding="utf-8") as f:
            f.write('["the autograder failed on this notebook (MemoryError), so no test was run; your '
                    'instructor has the details and can regrade it"]')
        write_submission(submitted_dir(config, student, "clone"), nbformat.read(source, as_version=4),
                         "clone.ipynb")
    _pages_for_ungraded(config, "clone")
    pages = {s: Path(feedback_dir(config, s, "clone"), "clone.html").read_text(encoding="utf-8")
             for s in ("li_wei", "ada")}
    assert "你提交的作业没能评分" in pages["li_wei"] and "评分程序处理这个 notebook 时出错了（MemoryError）" in pages["li_wei"]
    assert "could not be graded" in pages["ada"] and "(MemoryError)" in pages["ada"]
    assert not re.search(r"[\u4e00-\u9fff]", pages["ada"])


def _quickest_translation(notes, repeats=7):
    """The least time ``line`` took, over ``repeats`` tries, on each of ``notes``."""
    import time

    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for note in notes:
            line(note, "zh")
        best = min(best, time.perf_counter() - started)
    return best


def test_a_students_long_or_crafted_text_in_a_note_is_translated_quickly_or_left_as_it_is():
    # the grader's notes are still translated where they are read (autograder.pipeline.language),
    # and a note may quote a student's text (a cell's name, an error)
    crafted = ["x: size " + ", " * 5000, "cell " + "(" * 240 + "x",
               "the locked cell " + "cell " * 90 + " was edited; the original was restored and run"]
    for note in crafted:
        assert line(note, "zh")
    # no clock of its own: against lines of the same lengths that no template's fields can
    # backtrack over, in the same run (a template that backtracks is thousands of times slower)
    plain = ["y" * len(note) for note in crafted]
    assert _quickest_translation(crafted) < 50 * _quickest_translation(plain)
    huge = "this test did not run: " + "size 1, stride 2, " * 1000 + "end"
    assert result_message("NotRun: " + huge, "zh").startswith("NotRun: " + huge)


def test_the_autograder_notes_on_a_chinese_submission_are_chinese(mixed_class):
    page, graded = mixed_class
    chinese = page("wang_fang")
    assert "评分程序的说明" in chinese and "你添加的单元格不属于练习，没有运行" in chinese
    assert "Autograder notes" not in chinese
    assert "cells you added are not part of the assignment" in graded("wang_fang").cells[0].source


def test_the_class_report_can_name_each_misconception_in_chinese():
    from autograder.term.report import format_summary

    summary = {"name": "clone", "max_score": 11, "scores": [0, 11], "with_messages": 0, "tests": {},
               "misconceptions": [("clone/returns-source", 2), ("clone/not-written", 1)]}
    chinese = format_summary(summary, "zh")
    assert "      2  clone/returns-source  %s" % NAME_ZH in chinese
    assert "      1  clone/not-written  还没有写" in chinese
    assert "      2  clone/returns-source" in format_summary(summary)
    assert not any(re.search(r"[\u4e00-\u9fff]", line) for line in format_summary(summary))


def test_an_unwritten_stub_is_named_in_the_chinese_verdict_as_in_the_english_one():
    def stub(self, *, memory_format=None):
        raise NotImplementedError()

    english, chinese = _clone_failure(stub, "en"), _clone_failure(stub, "zh")
    assert english.splitlines()[0].startswith("your clone is not written yet"), english
    assert chinese.splitlines()[0] == ("误解「还没有写」：你的 clone 仍然抛出 NotImplementedError，"
                                       "把 `raise NotImplementedError()` 换成你的代码。"), chinese
    assert english.splitlines()[-1] == "    misconception: clone/not-written"
    assert chinese.splitlines()[-1] == "    误解标签：clone/not-written"
    assert len(chinese.splitlines()) == len(english.splitlines())
