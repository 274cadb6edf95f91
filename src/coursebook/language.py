"""The learner's language for what the course's code shows.

The language is the notebook's own. A Chinese notebook (``course/zh``, written
by ``python -m coursebook.translate generate``) says so twice, both by
construction: its metadata holds ``"coursebook": {"language": "zh"}``, and its
first code cell starts with ``from coursebook.language import use; use("zh")``,
so the kernel that runs it knows the language wherever it runs: a lab, Binder,
the book's executor, a JupyterLite (Pyodide) kernel. A kernel that never ran
such a line speaks English.

``COURSEBOOK_LANG`` (set by ``make lab LANG=zh``, ``python -m coursebook.lab
--lang zh``, ``make book``) overrides the notebook's choice when it is set.

Everything the course's code shows (the build-it checks, the prediction
widget, the cross-check table, the memory diagrams, the index's widgets) comes
from a gettext catalog, ``src/coursebook/locale/<lang>/coursebook.po``, read
with polib (no compiled ``.mo`` file to build or commit). A message with no
translation, or any other language, is the English.

Messages are format strings: ``_("{n} of {total} cases fail.").format(...)``.
English kept as data (a misconception model's belief, a build-it case's
misconception) is marked ``N_("...")`` where it is written and translated with
``_()`` where it is shown. ``tests/course/test_learner_messages.py`` lists every
marked message and fails on one the Chinese catalog lacks. torch's own error
and warning texts are never passed through here: the learner's screen shows
them in English, as torch prints them.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import polib

__all__ = ["LANGUAGE_VARIABLE", "LANGUAGES", "SETUP_LINE", "use", "language", "gettext", "_", "N_"]

LANGUAGE_VARIABLE = "COURSEBOOK_LANG"
LANGUAGES = ("en", "zh")
LOCALE = Path(__file__).resolve().parent / "locale"
SETUP_LINE = 'from coursebook.language import use; use("{lang}")'  # a translated chapter's first line

_chosen = ["en"]   # the notebook's language, as its first cell said (one kernel runs one notebook)


def use(lang: str) -> None:
    """Speak ``lang`` in this kernel from now on: the notebook's own language (its first cell)."""
    chosen = str(lang).strip().lower()
    _chosen[0] = "zh" if chosen.startswith("zh") else "en"


def language() -> str:
    """``"zh"`` or ``"en"``: ``COURSEBOOK_LANG`` when set, else what the notebook chose with
    :func:`use`, else English."""
    override = os.environ.get(LANGUAGE_VARIABLE, "").strip().lower()
    if override:
        return "zh" if override.startswith("zh") else "en"
    return _chosen[0]


@functools.lru_cache(maxsize=None)
def _catalog(lang: str) -> dict[str, str]:
    path = LOCALE / lang / "coursebook.po"
    if not path.exists():
        return {}
    return {e.msgid: e.msgstr for e in polib.pofile(str(path))
            if e.msgstr and "fuzzy" not in e.flags and not e.obsolete}


def gettext(message: str) -> str:
    """``message`` in the learner's language."""
    lang = language()
    if lang == "en":
        return message
    return _catalog(lang).get(message, message)


def N_(message: str) -> str:
    """Mark English kept as data for the catalog; it is translated with ``_()`` where it is shown."""
    return message


_ = gettext
