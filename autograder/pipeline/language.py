"""The grader's own notes and errors, in the learner's language where the learner reads them.

A test cell's verdict is written in the notebook's language where it is made: the
judge reads the language from the notebook and the checks format each message from
the catalog (``autograder.judge.language``), so the graded notebook already holds it
in Chinese for a Chinese submission, and the feedback page and the self-check show
it as is.

What is still written in English where it is made, and translated here where a
learner reads it, is the grader's own word on the notebook as a whole:

* the notes of the rebuild and of the grading (``messages.json``, the graded
  notebook's notes cell, which the instructor reads in English; the self-check's
  notes and problems);
* the error outputs the grader itself puts in a test cell
  (``autograder.kernels.execute``: ``NotGraded``, ``NotRun``, ``KernelDied``,
  ``Stopped``, a timeout; a broken rule's ``RuleBroken``,
  ``autograder.pipeline.static_rules``).

Such a line is looked up in the catalog (``msgctxt "line"``): its exact entry, else
the first template it matches, its values (numbers, torch's own error texts) kept
as they were printed. An error that is Python's or torch's own text (an answer
cell's) stays in English, followed by a line saying what it is.
"""

from __future__ import annotations

import functools
import re

from ..judge.language import ERROR_IS_THEIRS, N_, TAG_LINE, catalog, gettext, misconception, tag_line

__all__ = ["line", "error_message", "result_message"]

MAX_MATCHED = 500   # longer lines are not matched against the templates (they may hold a student's
                    # text: a template's fields could otherwise backtrack a long time over it)


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


def _rule_broken(text: str, lang: str) -> str:
    """A broken rule's error (``rule broken: <rule> (<where>)``, then its tag, ``misconception:
    rules/<rule>``, on the last line) in ``lang``: the rule's name and explanation, what was found, the
    tag. A refusal at run time (no tag line) is its one line in ``lang``."""
    lines = text.splitlines()
    if len(lines) < 2 or not lines[-1].strip().startswith(TAG_LINE):
        return line(text, lang)
    tag = lines[-1].strip()[len(TAG_LINE):].strip()
    named = misconception(tag, lang)
    head = (gettext(N_("Misconception \u201c{0}\u201d: {1}"), lang).format(*named) if named
            else gettext(N_("Misconception {0}: {1}"), lang).format(tag, lines[0]))
    evidence = ["    " + line(printed.strip(), lang) for printed in lines[:-1]]
    return "\n".join([head] + evidence + ["    " + tag_line(tag, lang)])


# the grader's own error outputs in a test cell (autograder.kernels.execute): its words, in English
GRADER_ERRORS = ("NotGraded", "NotRun", "KernelDied", "Stopped", "CellTimeoutError")


def error_message(ename: str, evalue: str, lang: str, judged: bool = False) -> str:
    """An error output, as ``ename: evalue`` in ``lang``. The grader's own errors are translated
    here; a judged test cell's other errors were written in ``lang`` by the judge and are shown as
    they are (``judged``); any other error (an answer cell's: Python's, torch's, the learner's own)
    stays in its own English words, followed by a line in ``lang`` saying what it is."""
    text = ("%s: %s" % (ename, evalue)).strip(": ")
    if lang == "en":
        return text
    if ename == "RuleBroken":
        return "%s: %s" % (ename, _rule_broken(str(evalue), lang))
    if ename in GRADER_ERRORS:
        return "%s: %s" % (ename, line(str(evalue), lang))
    return text if judged else text + "\n" + gettext(ERROR_IS_THEIRS, lang)


def result_message(message: str, lang: str) -> str:
    """A test's message of the self-check in ``lang``: the grader's own errors (``"NotRun: ..."``,
    ``"RuleBroken: ..."``) translated here; any other message was written in ``lang`` where it was
    made (the judge's verdict, the self-check's own words) and is shown as it is."""
    if lang == "en" or not message:
        return message
    ename, sep, evalue = message.partition(": ")
    if sep and (ename == "RuleBroken" or ename in GRADER_ERRORS):
        return error_message(ename, evalue, lang, judged=True)
    return message
