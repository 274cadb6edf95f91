"""Links in a translated notebook, which lives somewhere else than its English source.

A relative link is resolved where the English notebook is, then:

* if the target has a translated twin (a chapter in ``course/<lang>/``, an
  exercise in ``course/<lang>/exercises/``), the link points at the twin;
* otherwise (a source file, a data file, an untranslated page) at the target itself;

and is written relative to the translated notebook. Absolute links, anchors
in the same page and ``mailto:`` are left as they are.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable

__all__ = ["relink"]

# markdown links and images: ](target) or ](target#anchor "title"); HTML href/src
_MARKDOWN = re.compile(r"(\]\()([^)\s#]+)([^)]*\))")
_HTML = re.compile(r"""((?:href|src)=["'])([^"'#]+)""")


def _is_relative(target: str) -> bool:
    return not (re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith(("/", "#")))


def relink(text: str, source: Path, translated: Path, twin: Callable[[Path], Path | None]) -> str:
    """``text`` (markdown of ``source``) with its relative links fit for ``translated``.

    ``twin(path)`` gives the translated twin of an absolute path, or None.
    """

    def moved(target: str) -> str:
        if not _is_relative(target):
            return target
        absolute = Path(os.path.normpath(source.parent / target))
        destination = twin(absolute) or absolute
        return Path(os.path.relpath(destination, translated.parent)).as_posix()

    text = _MARKDOWN.sub(lambda m: m.group(1) + moved(m.group(2)) + m.group(3), text)
    return _HTML.sub(lambda m: m.group(1) + moved(m.group(2)), text)
