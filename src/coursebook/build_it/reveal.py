"""The reference answer of a build-it cell, closed until the learner opens it.

``reveal(reftorch._strides.contiguous_strides)`` shows the package's own
source (read by :class:`coursebook.source.Source`, the same reader as
``show_source``) inside a ``<details>`` block: one click opens it.  The code
appears once, in ``src/reftorch``; the chapter only points at it.
"""

from __future__ import annotations

import html

from coursebook.language import _
from coursebook.source import Source

__all__ = ["Reveal", "reveal"]


class Reveal:
    """A reftorch object's source, folded under "Reference answer"."""

    def __init__(self, obj):
        self.source = Source(obj)

    def _repr_mimebundle_(self, include=None, exclude=None):
        source = self.source
        summary = html.escape(_("Reference answer: {header} (open it after you tried)").format(header=source.header))
        markup = (f"<details><summary>{summary}</summary>\n\n"
                  f"<pre class='coursebook-source'>{html.escape(source.text)}</pre>\n\n</details>")
        data = {
            "text/html": markup,
            "text/plain": self.__repr__(),
        }
        metadata = source._repr_mimebundle_()[1]
        return data, metadata

    def __repr__(self):
        return "# " + _("Reference answer, {header}").format(header=self.source.header) + "\n" + self.source.text


def reveal(obj) -> Reveal:
    """The reference answer for a build-it cell: ``obj``'s source, opened on click."""
    return Reveal(obj)
