"""Before a submission runs: rebuild it from the release, and say what was repaired.

``RebuildFromRelease`` is the first step of nbgrader's sanitize pipeline
(``Autograde.sanitize_preprocessors`` in ``nbgrader_config.py``).  It hands
the submission to ``autograder.pipeline.rebuild`` with a reference made of the release
notebook's cells, in release order, whose content and nbgrader metadata come
from the gradebook: every locked cell, tests included (hidden parts too), is
the gradebook's; the student's answer cells contribute only their source;
duplicated, added and unknown cells are left out.  So nbgrader's own check
that follows (CheckCellMetadata) always sees a well-formed notebook, one that
already holds everything nbgrader's OverwriteCells and OverwriteKernelspec
would write (the course's list leaves them out), and a correct notebook with duplicated, deleted or metadata-stripped
cells scores full marks.  The repairs become messages in the notebook's
``autograder`` metadata, which ``autograder.kernels.execute.GuardedExecute`` shows.

A file that is not a notebook at all never gets here: ``autograder.pipeline.submission``
puts the flagged release in its place.
"""

import contextlib
import copy
import functools
import json
import os
import re

import nbformat
from nbformat import NotebookNode
from nbgrader.api import Gradebook
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor

from .rebuild import RefCell, kind_of, nbgrader_meta, rebuild, without_hidden_tests


def _note(nb, message):
    nb.metadata.setdefault("autograder", {}).setdefault("messages", []).append(message)


# db_url -> how to borrow the gradebook a caller lends while it grades (lend_gradebook). Module state:
# a grading worker grades one submission at a time, in one thread.
_lent = {}


@contextlib.contextmanager
def lend_gradebook(db_url, borrow):
    """While in this block, :class:`RebuildFromRelease` reads the gradebook at ``db_url`` through
    ``borrow()``, a context manager that yields a ``Gradebook`` open already with its statements
    compiled (a grading worker's, for the whole run) and closes its session on leaving, rather than
    opening one of its own for each notebook."""
    _lent[db_url] = borrow
    try:
        yield
    finally:
        _lent.pop(db_url, None)


class RebuildFromRelease(NbGraderPreprocessor):
    """Rebuild the submission on the release, with the gradebook's cells and metadata."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        release = self._release(info["assignment"], info["notebook"])
        borrow = _lent.get(info["db_url"])
        with (borrow() if borrow is not None else Gradebook(info["db_url"])) as gb:
            known = _gradebook_cells(gb.find_notebook(info["notebook"], info["assignment"]))
        reference, metadata = _reference(release, known, self.log)
        state = nb.get("metadata", {}).get("autograder", {})
        flagged = isinstance(state, dict) and (state.get("unreadable") or state.get("not_graded"))
        submitted = nbformat.from_dict({"cells": [], "metadata": nb.metadata}) if flagged else nb
        rebuilt, notes = rebuild(submitted, reference, metadata)
        if not flagged:
            for message in notes:
                _note(rebuilt, message)
        return rebuilt, resources

    def _release(self, assignment, notebook):
        """The release notebook (for cell order and plain cells), or None when it is missing."""
        cd = CourseDirectory(config=self.config)
        path = os.path.join(cd.root, cd.release_directory, assignment, notebook + ".ipynb")
        try:
            return copy.deepcopy(_read_release(path, os.stat(path).st_mtime_ns))
        except (OSError, ValueError) as error:
            self.log.warning("release notebook %s not readable (%s); cells follow the gradebook's "
                             "order", path, error)
            return None


@functools.lru_cache(maxsize=32)
def _read_release(path, mtime_ns):
    """The release, parsed once per version of the file (a shard grades many submissions)."""
    return nbformat.read(path, as_version=4)


def _gradebook_cells(record):
    """``{grade_id: (cell_type, source, nbgrader metadata)}`` for one gradebook notebook."""
    grades = {c.name: c.max_score for c in record.grade_cells}
    tasks = {c.name: c.max_score for c in record.task_cells}
    solutions = {c.name for c in record.solution_cells}
    cells = {}
    for source in record.source_cells:
        meta = {"grade": source.name in grades, "grade_id": source.name,
                "locked": bool(source.locked) and source.name not in solutions,
                "schema_version": 3, "solution": source.name in solutions,
                "task": source.name in tasks, "cell_type": source.cell_type,
                "checksum": source.checksum}
        if source.name in grades or source.name in tasks:
            meta["points"] = grades.get(source.name, tasks.get(source.name))
        cells[source.name] = (source.cell_type, source.source or "", meta)
    kernelspec = json.loads(record.kernelspec) if record.kernelspec else None
    return {"cells": cells, "kernelspec": kernelspec}


def _forced_cell(grade_id, known, release_cell=None):
    cell_type, source, meta = known["cells"][grade_id]
    cell = NotebookNode(cell_type=cell_type, metadata={"nbgrader": dict(meta)}, source=source)
    if cell_type == "code":
        cell.outputs, cell.execution_count = [], None
    if not meta["solution"]:
        cell.metadata["editable"] = False
    cell.metadata["deletable"] = False
    if release_cell is not None and release_cell.get("id"):
        cell.id = release_cell.id
    else:  # a cell the release lacks: an id of the form nbformat requires
        cell.id = re.sub(r"[^A-Za-z0-9_-]", "-", grade_id)[:64] or "cell"
    kind = kind_of(cell)
    shown = release_cell.source if release_cell is not None else without_hidden_tests(source)
    if kind != "locked":
        cell.source = shown
    return RefCell(grade_id, kind, cell, shown)


def _reference(release, known, log):
    """The reference cells (release order, gradebook content) and the notebook metadata."""
    reference, seen = [], set()
    for position, cell in enumerate(release.cells if release is not None else []):
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in known["cells"] and grade_id not in seen:
            reference.append(_forced_cell(grade_id, known, cell))
            seen.add(grade_id)
        elif kind_of(cell) == "plain":
            plain = copy.deepcopy(cell)
            plain.metadata = {}
            reference.append(RefCell("#%s" % (cell.get("id") or position), "plain", plain,
                                     cell.source))
        else:
            log.warning("release cell %s is not in the gradebook; it is left out", grade_id)
    for grade_id in known["cells"]:
        if grade_id not in seen:
            if release is not None:
                log.warning("gradebook cell %s is not in the release; it is added at the end", grade_id)
            reference.append(_forced_cell(grade_id, known))
    metadata = copy.deepcopy(release.metadata) if release is not None else {}
    metadata.pop("autograder", None)
    if known["kernelspec"]:
        metadata["kernelspec"] = known["kernelspec"]
    return reference, metadata
