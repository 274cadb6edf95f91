"""The reader's language: the notebook says which, the catalog holds the words.

The language is the notebook's, read as data from the notebook itself: a
translated exercise (``course/zh/exercises/<a>/<a>.ipynb``, written by
``python -m coursebook.translate generate``) carries
``"coursebook": {"language": "zh"}`` in its metadata. No environment variable
decides it, so one class can hand in both languages and each submission's
verdicts speak its own.

The judge reads it from the notebook it grades (``serving.judge_cell``) and
judges each test cell while :func:`speaking` it; a check then writes every
message directly in that language, gettext-style: ``_(N_("input: {0}")).format(
label)`` looks the English template up in the catalog and fills the translation
with the values. What the judge writes into the graded notebook is thus already
in the reader's language, and the feedback page and the self-check show it as is.

The catalog is ``autograder/locale/zh/autograder.po`` (read with polib), with two
kinds of entry:

* ``msgctxt "misconception"``: a misconception's tag (``clone/shares-memory``;
  or a family: ``*/wrong-values`` for that belief in every exercise, ``rules/*``
  for every rule) and its *name*, then ``：`` and its *explanation*;
* ``msgctxt "line"``: a message, as its English template (``"input: {0}"``),
  and its translation, with the same numbered fields.

Messages are marked ``N_("...")`` where they are written (they stay English in
the code); ``tests/autograder/test_grader_messages_zh.py`` finds every marked
message and every misconception tag of ``autograder/checks`` and fails when one
has no Chinese entry, or when an entry is stale.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from pathlib import Path

__all__ = ["LANGUAGE_KEY", "LANGUAGES", "LOCALE", "TAG_LINE", "N_", "_", "notebook_language", "catalog",
           "gettext", "misconception", "speaking", "language", "tag_line", "tag_prefixes", "ERROR_IS_THEIRS"]

LANGUAGE_KEY = "coursebook"       # nb.metadata["coursebook"]["language"]
LANGUAGES = ("en", "zh")
LOCALE = Path(__file__).resolve().parents[1] / "locale"   # autograder/locale
TAG_LINE = "misconception: "      # the last line of a check's failure, in English

_spoken = contextvars.ContextVar("autograder_language", default="en")


def N_(message: str) -> str:
    """Mark an English message for the catalog; :func:`_` or :func:`gettext` translate it."""
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


def gettext(message: str, lang: str) -> str:
    """``message`` (a marked English message or template) in ``lang``; as it is when the catalog
    has no entry for it."""
    return catalog(lang).get(("line", message), message) if lang != "en" else message


@contextlib.contextmanager
def speaking(lang: str):
    """Within the block, :func:`_` answers in ``lang`` (an unknown language is English)."""
    token = _spoken.set(lang if lang in LANGUAGES else "en")
    try:
        yield
    finally:
        _spoken.reset(token)


def language() -> str:
    """The language of the block being run (:func:`speaking`), English outside any."""
    return _spoken.get()


def _(message: str) -> str:
    """``message`` in the language being spoken: ``_(N_("input: {0}")).format(label)``."""
    return gettext(message, language())


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
    name, _sep, explanation = entry.partition("：")
    return name.strip(), explanation.strip()


def tag_line(tag: str, lang: str) -> str:
    """The last line of a failure, naming its tag: ``misconception: clone/shares-memory`` in English.
    The tag itself is never translated: the class report counts it in every language."""
    return TAG_LINE + tag if lang == "en" else gettext(N_("misconception tag: {0}"), lang).format(tag)


def tag_prefixes() -> tuple[str, ...]:
    """What precedes the tag on a failure's last line, in each language."""
    return tuple(dict.fromkeys(tag_line("", lang) for lang in LANGUAGES))


# said under an error whose text is Python's or torch's own (or the learner's): kept as raised
ERROR_IS_THEIRS = N_("(the error above is Python's or torch's own text, left as it was printed: the test "
                     "raised it, so it scores 0)")
