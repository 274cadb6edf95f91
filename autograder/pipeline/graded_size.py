"""How big a notebook is as it will be graded, and the two size limits every reader applies.

Grading never uses what a notebook saved besides its text: outputs are
cleared before it runs again, cell attachments (a screenshot pasted into a
markdown cell by JupyterLab) and images embedded as ``data:`` URIs in
markdown (Colab pastes them so) are left out of the rebuilt notebook
(``autograder.pipeline.rebuild``).  A careless student who saved a big
printout or pasted a screenshot has handed in the same work as one who did
not, so the size limits apply to what is graded:

* ``MAX_FILE_BYTES``: a file this large is not even parsed (the JSON of a
  notebook takes several times its size in memory);
* ``MAX_GRADED_BYTES``: the notebook's JSON once its outputs, execution
  counts, attachments and embedded images are dropped
  (:func:`graded_bytes`).

Every reader states its limits through these two (the inbox's ``Limits``,
the hub's submit check and exchange copy); nothing else names a size.
"""

import json
import re

MAX_FILE_BYTES = 100 * 2 ** 20     # any notebook file, to be parsed at all (a zip holds as much)
MAX_GRADED_BYTES = 20 * 2 ** 20    # the notebook as graded (an exercise is about 50 KB)

# an image embedded in markdown (``![x](data:image/png;base64,...)``, ``<img src="data:...">``):
# the media type, its parameters, and the base64 text, kept as ``data:,`` (an empty image)
DATA_URI = re.compile(r"data:[\w.+-]+/[\w.+-]+(?:;[\w.+-]+=[\w.+%-]+)*;base64,[A-Za-z0-9+/=]*")
EMPTY_DATA_URI = "data:,"


def without_embedded_images(text):
    """A markdown cell's text with every base64 ``data:`` URI replaced by an empty one."""
    return DATA_URI.sub(EMPTY_DATA_URI, text) if "data:" in text else text


def _source_text(source):
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def as_graded(nb):
    """A shallow copy of a parsed notebook (a dict, as ``json.loads`` gives it) with what grading
    never reads dropped: outputs, execution counts, attachments, embedded images in markdown."""
    if not isinstance(nb, dict):
        return nb
    cells = nb.get("cells")
    kept = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict):
            kept.append(cell)
            continue
        cell = {key: value for key, value in cell.items() if key not in ("outputs", "attachments")}
        if "execution_count" in cell:
            cell["execution_count"] = None
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
        elif cell.get("cell_type") == "markdown":
            cell["source"] = without_embedded_images(_source_text(cell.get("source")))
        kept.append(cell)
    return dict(nb, cells=kept) if isinstance(cells, list) else dict(nb)


def graded_bytes(nb):
    """The size in bytes of ``nb``'s JSON as it will be graded (see :func:`as_graded`)."""
    return len(json.dumps(as_graded(nb), ensure_ascii=False).encode("utf-8", "surrogatepass"))


def mib(n):
    """``n`` bytes in MiB, for messages (``"20 MiB"``, ``"31.4 MiB"``)."""
    value = n / 2 ** 20
    return ("%d MiB" % value) if value == int(value) else ("%.1f MiB" % value)
