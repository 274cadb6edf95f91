"""The "find your error" page, built from ``course/errors.toml``.

Each ``[[error]]`` entry of the TOML file becomes two cells of
``course/23_find_your_error.ipynb``: a markdown cell with torch's exact
message, the cause, the fix and links to the chapters that explain it, and a
code cell that makes the message happen. The code cell is a ``%%key`` cell
(so the page's cross-check replays it on reftorch), except for entries marked
``torch_only`` (reftorch does not reproduce them) and ``device = "cuda"``
(torch here has no GPU; the cell runs on reftorch's simulated one).

An entry may have an ``after`` program, run once the error is caught, to
show the state the failed call left behind.

``python -m coursebook.error_page`` rewrites the notebook from the TOML file;
``tests/course/test_find_your_error.py`` checks that the committed notebook
is exactly what this module builds, and that torch says exactly what the
entries say.
"""

from __future__ import annotations

import re
import sys
import textwrap
import tomllib
from pathlib import Path

import nbformat

__all__ = ["COURSE", "ERRORS_FILE", "PAGE", "load", "torch_program", "page_code", "entry_markdown", "build"]

COURSE = Path(__file__).resolve().parents[2] / "course"
ERRORS_FILE = COURSE / "errors.toml"
PAGE = COURSE / "23_find_your_error.ipynb"

_WARNING_KINDS = {"UserWarning", "DeprecationWarning", "FutureWarning"}
# torch marks a few words bold for a terminal (ESC [1m ... ESC [0m); the page's text shows the words
_TERMINAL_CODES = re.compile("\x1b\\[[0-9;]*m")


def load(path=ERRORS_FILE) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def _text(value: str) -> str:
    """A TOML multi-line string without the newline that opens it."""
    return value.strip("\n")


def is_warning(entry) -> bool:
    return entry["kind"] in _WARNING_KINDS


def torch_program(entry) -> str:
    """The program the test runs on real torch: setup, then the failing line(s), uncaught.

    For a GPU entry, the device is "meta" in place of "cuda" (torch here has no GPU).
    """
    program = _text(entry["setup"]) + "\n" + _text(entry["trigger"]) + "\n"
    if entry.get("device") == "cuda":
        program = program.replace('"cuda"', '"meta"')
    return program


def page_code(entry) -> str:
    """The entry's code cell: the program, with the error caught (or the warning recorded) and printed."""
    setup, trigger = _text(entry["setup"]), textwrap.indent(_text(entry["trigger"]), "    ")
    lines = []
    if entry.get("device") == "cuda":
        lines.append("# on reftorch's simulated GPU: this machine has none")
        setup = re.sub(r"\btorch\.", "reftorch.", setup)
        trigger = re.sub(r"\btorch\.", "reftorch.", trigger)
    elif "torch_only" in entry:
        lines.append("# torch only: reftorch does not reproduce this one (see the text above)")
    else:
        lines.append("%%key")
    if is_warning(entry):
        lines += ["import warnings"] + ([setup] if setup else []) + [
            "with warnings.catch_warnings(record=True) as caught:",
            '    warnings.simplefilter("always")',
            trigger,
            "for warning in caught:",
            '    print(f"{warning.category.__name__}: {warning.message}")',
        ]
    else:
        lines += ([setup] if setup else []) + [
            "try:",
            trigger,
            f"except {entry['kind']} as err:",
            f'    print(f"{entry["kind"]}: {{err}}")',
        ]
    if "after" in entry:
        lines.append(_text(entry["after"]))
    return "\n".join(lines)


def _link(chapters, chapter, section) -> str:
    label = chapters[chapter]
    if section:
        label += f", *{section}*"
    return f"[{label}]({chapter})"


def entry_markdown(entry, chapters) -> str:
    parts = [
        f"### {entry['title']}",
        "```text\n" + entry["kind"] + ": " + _TERMINAL_CODES.sub("", entry["message"]) + "\n```",
        "**What causes it.** " + " ".join(_text(entry["cause"]).split()),
        "**The fix.** " + " ".join(_text(entry["fix"]).split()),
        "**Explained in** " + " · ".join(_link(chapters, c, s) for c, s in entry["see"]) + ".",
    ]
    if "torch_only" in entry:
        parts.append("**Torch only.** " + " ".join(_text(entry["torch_only"]).split())
                     + " So the cell below runs on torch only and is not replayed on reftorch.")
    if entry.get("device") == "cuda":
        parts.append(
            "**Simulated GPU.** This machine has no GPU, so the cell below runs on reftorch's "
            "simulated `cuda` device. The text above is torch's: the test suite checks it on "
            "torch with the `meta` device, for which torch builds the same message with `meta` as "
            "the device."
        )
    return "\n\n".join(parts)


def _cell(kind, source, cell_id, tags=()):
    cell = nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source)
    cell.id = cell_id
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def build(data=None) -> nbformat.NotebookNode:
    """The whole page as a notebook, without outputs."""
    data = load() if data is None else data
    page, chapters = data["page"], data["chapters"]
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    nb.cells.append(_cell("markdown", f"# {page['title']}\n\n" + _text(page["intro"]), "page-intro"))
    imports = "%load_ext coursebook\nimport torch\nimport reftorch\nfrom coursebook import cross_check_key_cells"
    if "build_it" in data:
        imports += "\nfrom coursebook.build_it import check, reveal"
    nb.cells.append(_cell("code", imports, "page-imports"))
    nb.cells.append(_cell("markdown", _text(page["predict"]), "page-predict"))
    nb.cells.append(_cell("code", "%%key\n" + _text(page["predict_code"]), "page-predict-check"))
    for group in data["group"]:
        entries = [e for e in data["error"] if e["group"] == group["name"]]
        nb.cells.append(_cell("markdown", f"## {group['name']}", "group-" + _slug(group["name"])))
        for entry in entries:
            tag = f"error-{entry['id']}"
            nb.cells.append(_cell("markdown", entry_markdown(entry, chapters), tag, [tag]))
            nb.cells.append(_cell("code", page_code(entry), tag + "-run", [tag]))
    if "build_it" in data:
        nb.cells += _build_it_cells(data["build_it"])
    nb.cells.append(_cell("markdown", _text(page["outro"]), "page-outro"))
    nb.cells.append(_cell("code", "cross_check_key_cells()", "page-cross-check"))
    return nb


def _build_it_cells(build_it) -> list:
    """The page's build-it cell: its text, the stub, the check and the reference on click."""
    piece = build_it["piece"]
    return [
        _cell("markdown", _text(build_it["intro"]), "build-it-intro"),
        _cell("code", _text(build_it["stub"]), "build-it-stub"),
        _cell("code", f"check(my_{piece})", "build-it-check"),
        _cell("markdown", "The reference answer, the package's own code, opens on click:", "build-it-reference"),
        _cell("code", f"reveal({build_it['reference']})", "build-it-reveal"),
    ]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main(argv=None):
    nbformat.write(build(), PAGE)
    print(f"wrote {PAGE}", file=sys.stderr)


if __name__ == "__main__":
    main()
