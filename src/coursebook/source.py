"""Show a piece of reftorch inside a chapter, straight from the package.

A chapter never retypes reftorch's code into a cell.  It calls
``show_source(reftorch._clone.clone)`` and the learner reads the function as
it is in ``src/reftorch``, with the file name and line numbers.  The returned
object carries the qualified name and the text it showed in its display
metadata, so ``tests/course/test_shown_code.py`` can prove, on the executed
notebook, that what the learner saw is what the package runs.
"""

from __future__ import annotations

import hashlib
import html
import inspect
from pathlib import Path

from coursebook.language import _

__all__ = ["Source", "show_source"]


def _qualified_name(obj) -> str:
    module = inspect.getmodule(obj)
    name = getattr(obj, "__qualname__", getattr(obj, "__name__", ""))
    if inspect.ismodule(obj):
        return obj.__name__
    return f"{module.__name__}.{name}"


class Source:
    """The source text of one reftorch function, class or module, ready to display.

    A decorated function (``functools.wraps``, as grad-mode decorators do) is
    shown as the function that was decorated: its text, its lines and its
    file.  ``inspect.getsource`` already unwraps; ``inspect.getsourcefile``
    does not, and would name the decorator's file.
    """

    def __init__(self, obj):
        obj = inspect.unwrap(obj)
        # reftorch, or the reference of a build-it piece that torch has no function for
        if not _qualified_name(obj).startswith(("reftorch", "coursebook.build_it.pieces_")):
            raise TypeError(f"show_source shows reftorch code only, got {_qualified_name(obj)!r}")
        self.name = _qualified_name(obj)
        self.text = inspect.getsource(obj)
        lines, first = inspect.getsourcelines(obj)
        self.first_line = max(first, 1)
        self.last_line = self.first_line + len(lines) - 1
        path = Path(inspect.getsourcefile(obj))
        parts = path.parts
        root = "reftorch" if "reftorch" in parts else "coursebook" if "coursebook" in parts else None
        self.file = "/".join(parts[parts.index(root):]) if root else path.name

    @property
    def header(self) -> str:
        return _("{file}, lines {first}-{last}: {name}").format(file=self.file, first=self.first_line,
                                                                last=self.last_line, name=self.name)

    def _repr_mimebundle_(self, include=None, exclude=None):
        markdown = f"**`{self.header}`**\n\n```python\n{self.text}```\n"
        data = {
            "text/markdown": markdown,
            "text/plain": f"# {self.header}\n{self.text}",
        }
        metadata = {
            "coursebook": {
                "object": self.name,
                "sha256": hashlib.sha256(self.text.encode()).hexdigest(),
            }
        }
        return data, metadata

    def _repr_html_(self):  # used by nbconvert exporters that prefer HTML
        return f"<p><code>{html.escape(self.header)}</code></p><pre class='coursebook-source'>{html.escape(self.text)}</pre>"

    def __repr__(self):
        return f"# {self.header}\n{self.text}"


def show_source(obj) -> Source:
    """Return ``obj``'s source as a displayable object (the cell's last line shows it)."""
    return Source(obj)
