"""The grader's words in the learner's language: the self-check and the feedback page.

The language is the notebook's, read as data from the notebook itself: a
translated exercise (``course/zh/exercises/<a>/<a>.ipynb``, written by
``python -m coursebook.translate generate``) carries
``"coursebook": {"language": "zh"}`` in its metadata. No environment variable
decides it, so one class can hand in both languages and each submission's
feedback speaks its own.

The translations are a gettext catalog, ``autograder/locale/zh/autograder.po``
(read with polib, as ``coursebook.language`` reads the course's), with two
kinds of entry:

* ``msgctxt "misconception"``: a misconception's tag (``clone/shares-memory``,
  the stable name the checks end every failure with; or a family: ``*/wrong-values``
  for that belief in every exercise, ``rules/*`` for every rule) and its Chinese
  *name*, then ``：`` and the Chinese *explanation*;
* ``msgctxt "line"``: a line the grader or the checks print, as a format
  template (``"input: {0}"``); a printed line is matched against the templates
  and rebuilt in Chinese, its values (numbers, torch's own error texts) kept
  as they were printed.

A check's failure reads, in Chinese: the misconception's name and explanation,
then its evidence lines, each translated when a template matches, else left as
printed. torch's own error and warning texts are never translated: they stay
in English, followed by a Chinese line saying what they are.

Messages in the grader's code are marked ``N_("...")`` (they stay English in
the code); ``tests/autograder/test_grader_messages_zh.py`` finds every marked
message and every misconception tag of ``autograder/checks`` and fails when
one has no Chinese entry, or when an entry is stale (fuzzy, or its English is
no longer printed).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

__all__ = ["LANGUAGE_KEY", "LANGUAGES", "N_", "notebook_language", "catalog", "gettext", "line",
           "misconception", "check_failure", "error_message", "result_message", "TAG_LINE"]

LANGUAGE_KEY = "coursebook"       # nb.metadata["coursebook"]["language"]
LANGUAGES = ("en", "zh")
LOCALE = Path(__file__).resolve().parents[1] / "locale"   # autograder/locale
TAG_LINE = "misconception: "      # the checks' last line (autograder.checks._observe.TAG_LINE)
MAX_MATCHED = 500   # longer lines are not matched against the templates (they may hold a student's
                    # text: a template's fields could otherwise backtrack a long time over it)


def N_(message: str) -> str:
    """Mark an English message for the catalog; it is translated where it is printed."""
    return message


def notebook_language(nb) -> str:
    """``"zh"`` when the notebook's metadata says so, else ``"en"`` (anything else a student's
    JSON may hold there counts as English)."""
    metadata = nb.get("metadata") if isinstance(nb, dict) else None
    mark = metadata.get(LANGUAGE_KEY) if isinstance(metadata, dict) else None
    chosen = mark.get("language") if isinstance(mark, dict) else None
    return chosen if isinstance(chosen, str) and chosen in LANGUAGES else "en"


@functools.lru_cache(maxsize=None)
def catalog(lang: str) -> dict[tuple[str, str], str]:
    """``{(context, English): translation}`` of the usable entries (translated, not fuzzy)."""
    path = LOCALE / lang / "autograder.po"
    if lang == "en" or not path.exists():
        return {}
    import polib

    return {(e.msgctxt or "", e.msgid): e.msgstr for e in polib.pofile(str(path))
            if e.msgstr and "fuzzy" not in e.flags and not e.obsolete}


@functools.lru_cache(maxsize=None)
def _templates(lang: str):
    """``[(regex, translation)]`` of the line templates with fields, the longest first."""
    found = []
    for (context, english), chinese in catalog(lang).items():
        if context != "line" or "{" not in english.replace("{{", ""):
            continue
        pattern = ""
        for n, part in enumerate(re.split(r"(\{\d+\})", english)):
            literal = part.replace("{{", "{").replace("}}", "}")
            pattern += "(.+?)" if n % 2 else re.escape(literal)
        found.append((re.compile(pattern + r"\Z", re.S), chinese, len(english)))
    return [(regex, chinese) for regex, chinese, _ in sorted(found, key=lambda t: -t[2])]


def gettext(message: str, lang: str) -> str:
    """``message`` (a marked English message) in ``lang``."""
    return catalog(lang).get(("line", message), message) if lang != "en" else message


def line(text: str, lang: str, depth: int = 0) -> str:
    """A printed line in ``lang``: its exact entry, else the first template it matches (the values
    it holds translated in turn when they are lines of the catalog), else as printed."""
    if lang == "en" or not text:
        return text
    table = catalog(lang)
    exact = table.get(("line", text))
    if exact is not None:
        return exact
    if len(text) > MAX_MATCHED:
        return text
    for regex, chinese in _templates(lang):
        found = regex.match(text)
        if found:
            values = [line(v, lang, depth + 1) if depth < 2 else v for v in found.groups()]
            return chinese.format(*values)   # the English's fields are numbered in order
    return text


def misconception(tag: str, lang: str) -> tuple[str, str] | None:
    """``(name, explanation)`` of a misconception tag in ``lang``, or None. A tag of a shape the
    checks share (``<topic>/not-written``) is found by its suffix (``*/not-written``), a tag of a
    family named as a whole (``rules/calls-the-op``) by its topic (``rules/*``)."""
    table = catalog(lang)
    entry = table.get(("misconception", tag))
    if entry is None and "/" in tag:
        topic, name = tag.split("/", 1)
        entry = table.get(("misconception", "*/" + name)) or table.get(("misconception", topic + "/*"))
    if entry is None:
        return None
    name, _, explanation = entry.partition("：")
    return name.strip(), explanation.strip()


def check_failure(text: str, lang: str) -> str | None:
    """A check's failure message (first line the belief, indented evidence, last the tag) in
    ``lang``; None when ``text`` is not one."""
    lines = text.splitlines()
    if not lines or not lines[-1].strip().startswith(TAG_LINE):
        return None
    tag = lines[-1].strip()[len(TAG_LINE):].strip()
    if lang == "en":
        return text
    named = misconception(tag, lang)
    if named is None:
        head = gettext(N_("Misconception {0}: {1}"), lang).format(tag, lines[0])
    else:
        head = gettext(N_("Misconception \u201c{0}\u201d: {1}"), lang).format(*named)
    evidence = []
    said = line(lines[0], lang)
    if said != lines[0]:   # a first line the catalog knows (a rule broken: which, where) says more
        evidence.append("    " + said)
    for printed in lines[1:-1]:
        indent = printed[:len(printed) - len(printed.lstrip())]
        evidence.append(indent + line(printed.strip(), lang))
    tag_line = lines[-1][:len(lines[-1]) - len(lines[-1].lstrip())] + gettext(N_("misconception tag: {0}"),
                                                                              lang).format(tag)
    return "\n".join([head] + evidence + [tag_line])


# the grader's own error outputs (autograder.kernels.execute): its words, not Python's or torch's
GRADER_ERRORS = ("NotGraded", "NotRun", "KernelDied", "Stopped", "TamperingDetected", "CellTimeoutError")


def error_message(ename: str, evalue: str, lang: str) -> str:
    """An error a test cell raised, as ``ename: evalue`` in ``lang``: a check's failure in
    Chinese; any other error (torch's, Python's, the learner's own) in its own English words,
    followed by a Chinese line saying what it is."""
    text = ("%s: %s" % (ename, evalue)).strip(": ")
    if lang == "en":
        return text
    failure = check_failure(str(evalue), lang) if ename in ("AssertionError", "RuleBroken") else None
    if failure is not None:
        return failure if ename == "AssertionError" else "%s: %s" % (ename, failure)
    if ename in GRADER_ERRORS:
        return "%s: %s" % (ename, line(str(evalue), lang))
    return text + "\n" + gettext(N_("(the error above is Python's or torch's own text, left as it "
                                    "was printed: the test raised it, so it scores 0)"), lang)


_ERROR_NAME = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Interrupt|Exit|Detected|Broken)\b: ", re.S)


def result_message(message: str, lang: str) -> str:
    """A test's message of the self-check (``"AssertionError: <a check's failure>"``, ``"did not
    run"``, ``"RuntimeError: <torch's text>"``...) in ``lang``."""
    if lang == "en" or not message:
        return message
    found = _ERROR_NAME.match(message)
    if found:
        ename, evalue = message[:found.end() - 2], message[found.end():]
        if ename == "RuleBroken" and check_failure(evalue, lang) is None:   # a run-time refusal
            return "%s: %s" % (ename, line(evalue, lang))
        return error_message(ename, evalue, lang)
    return line(message, lang)
