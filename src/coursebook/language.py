"""The learner's language for what the course's code prints (issue 27).

``COURSEBOOK_LANG=zh`` (set by ``make lab LANG=zh``, ``python -m coursebook.lab
--lang zh``) makes the build-it checks, the self-check's lines and the
misconceptions speak Chinese. The translations are a gettext catalog,
``src/coursebook/locale/<lang>/coursebook.po``, read with polib (no compiled
``.mo`` file to build or commit). A message with no translation, or any other
language, is the English.

Messages are format strings: ``_("{n} of {total} cases fail.").format(...)``.
torch's own error and warning texts are never passed through here: the
learner's screen shows them in English, as torch prints them.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import polib

__all__ = ["LANGUAGE_VARIABLE", "language", "gettext", "_"]

LANGUAGE_VARIABLE = "COURSEBOOK_LANG"
LOCALE = Path(__file__).resolve().parent / "locale"


def language() -> str:
    """``"zh"`` when ``COURSEBOOK_LANG`` starts with zh; otherwise ``"en"``."""
    chosen = os.environ.get(LANGUAGE_VARIABLE, "").strip().lower()
    return "zh" if chosen.startswith("zh") else "en"


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


_ = gettext
