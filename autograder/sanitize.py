"""Before a submission runs: restore what the student may not change, and say so.

nbgrader's OverwriteCells already puts back the instructor's version of every
locked cell (tests included) and of each cell's points and type.  Subclassed
here to *record* each repair as a plain message for the student, and to put
back test cells that were deleted (``add_missing_cells``), so that deleting a
test cannot make it vanish from the grade.  Messages travel in the
notebook's metadata to ``autograder.execute.GuardedExecute``, which shows them.

:func:`substitute_unreadable` handles a file that is not a notebook at all.
"""

import json

import nbformat
from nbgrader.preprocessors import OverwriteCells
from traitlets import Bool, Unicode


def _note(nb, message):
    nb.metadata.setdefault("autograder", {}).setdefault("messages", []).append(message)


class RecordingOverwriteCells(OverwriteCells):

    add_missing_cells = Bool(True).tag(config=True)

    missing_cell_notification = Unicode(
        "The autograder put this cell ({cell_id}) back: it was missing from the submission.\n\n"
    ).tag(config=True)

    _WHAT = {
        "checksum": "the locked cell {name} was edited; the original was restored and run",
        "cell_type": "the type of cell {name} was changed; it was restored",
        "locked": "cell {name} was unlocked; it was locked again",
        "points": "the points of cell {name} were changed; they were restored",
    }

    def preprocess(self, nb, resources):
        self._found = []
        before = {c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells}
        nb, resources = super().preprocess(nb, resources)
        after = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells]
        for grade_id in after:
            if grade_id and grade_id not in before:
                self._found.append("the cell %s was missing (deleted, or its metadata removed); "
                                   "it was put back and run" % grade_id)
        for message in self._found:
            _note(nb, message)
        return nb, resources

    def preprocess_cell(self, cell, resources, cell_index):
        submitted = cell.source
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.source != submitted and _visible_part(cell.source) != submitted.strip():
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            self._found.append(self._WHAT["checksum"].format(name=grade_id))
        return cell, resources

    def report_change(self, name, attr, old, new):
        super().report_change(name, attr, old, new)
        if attr != "checksum":  # the source itself is compared in preprocess_cell
            self._found.append(self._WHAT[attr].format(name=name))


def _visible_part(source):
    """The source as released: without its ``BEGIN/END HIDDEN TESTS`` region."""
    kept, hidden = [], False
    for line in source.split("\n"):
        if "BEGIN HIDDEN TESTS" in line:
            hidden = True
        elif "END HIDDEN TESTS" in line:
            hidden = False
        elif not hidden:
            kept.append(line)
    return "\n".join(kept).strip()


def substitute_unreadable(path, release_path):
    """If ``path`` is not a readable notebook, replace it by the released one, flagged.

    The original bytes are kept as ``<path>.unreadable``.  The substitute is
    never run (see GuardedExecute): its tests get 0 with the reason.  Returns
    the reason, or None when the file was fine.
    """
    try:
        nbformat.read(path, as_version=4)
        return None
    except (json.JSONDecodeError, nbformat.reader.NotJSONError) as error:
        reason = "it is not valid JSON (%s)" % str(error).splitlines()[0][:200]
    except Exception as error:  # valid JSON but not a notebook, unknown nbformat, ...
        reason = "it is not a valid notebook (%s)" % str(error).splitlines()[0][:200]
    with open(path, "rb") as original, open(path + ".unreadable", "wb") as kept:
        kept.write(original.read())
    nb = nbformat.read(release_path, as_version=4)
    nb.metadata["autograder"] = {"unreadable": reason}
    nbformat.write(nb, path)
    return reason
