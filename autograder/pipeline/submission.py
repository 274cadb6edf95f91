"""A submission as nbgrader finds it: a renamed notebook, a file that is no notebook, the collector's notes.

Three steps that ``nbgrader_config.py`` enables, so that ``python -m autograder
autograde`` (whose workers run stock nbgrader ``Autograde``) and plain
``nbgrader autograde`` run from ``autograder/`` treat every submission alike:

* :func:`graded_under_its_name` (``Autograde.pre_convert_hook``): a folder
  whose only notebook has another name than the assignment's (``clone
  (1).ipynb``) gets a copy under the right name, which is graded, and a note
  saying so; the student's file stays as it was;
* :class:`SubmissionExporter` (``Autograde.exporter_class``): a file that is not
  a readable notebook is never run: the release takes its place, flagged, so
  every test scores 0 with the reason (``GuardedExecute``), and its bytes are
  kept as ``<a>.ipynb.unreadable`` beside the graded notebook;
* :class:`CollectorNotes` (the first sanitize preprocessor): the notes the
  collector left in ``collect_notes.json`` beside the notebook (a renamed
  notebook, one picked among several, files left out) become messages in it,
  which the student reads in the feedback.
"""

import json
import os
import shutil

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor

from .failsafe import FailSafeExporter
from .notes import NOTES_FILE

UNREADABLE_SUFFIX = ".unreadable"


def _add_note(nb, message):
    nb.metadata.setdefault("autograder", {}).setdefault("messages", []).append(message)


def read_notes(folder):
    """The collector's notes for the submission in ``folder`` (a list of strings)."""
    try:
        with open(os.path.join(folder, NOTES_FILE), encoding="utf-8") as f:
            notes = json.load(f)
    except (OSError, ValueError):
        return []
    return [str(n) for n in notes] if isinstance(notes, list) else []


def graded_under_its_name(assignment=None, student=None, notebooks=None, **_):
    """nbgrader's pre-convert hook: a lone notebook with another name is graded under the assignment's.

    ``notebooks`` is the list nbgrader is about to grade for one submission folder
    (``<submitted>/<student>/<assignment>/*.ipynb``); it is updated in place."""
    if not notebooks or len(notebooks) != 1:
        return
    found = notebooks[0]
    folder = os.path.dirname(found)
    expected = os.path.join(folder, os.path.basename(folder) + ".ipynb")
    if found == expected or os.path.exists(expected):
        return
    shutil.copyfile(found, expected)
    notes = read_notes(folder) + ["the notebook was submitted as %r; it was graded as %r"
                                  % (os.path.basename(found), os.path.basename(expected))]
    with open(os.path.join(folder, NOTES_FILE), "w", encoding="utf-8") as f:
        json.dump(notes, f, indent=1)
    notebooks[:] = [expected]


def unreadable_reason(error):
    """Why a file is not a notebook, in the student's words."""
    first = (str(error).splitlines() or [type(error).__name__])[0][:200]
    if isinstance(error, (json.JSONDecodeError, nbformat.reader.NotJSONError, UnicodeDecodeError)):
        return "it is not valid JSON (%s)" % first
    return "it is not a valid notebook (%s)" % first


def flagged_release(release_path, reason):
    """The release notebook in place of an unreadable file: never run, every test 0 with ``reason``."""
    nb = nbformat.read(release_path, as_version=4)
    nb.metadata["autograder"] = {"unreadable": reason}
    return nb


class SubmissionExporter(FailSafeExporter):
    """The fail-safe exporter, which also takes the release in place of a file that is no notebook."""

    def from_file(self, file_stream, resources=None, **kw):
        try:
            nb = nbformat.reads(file_stream.read(), as_version=4)
        except Exception as error:  # nbformat raises several kinds for a broken file
            nb = self._substitute(getattr(file_stream, "name", None), unreadable_reason(error),
                                  resources if resources is not None else ResourcesDict())
        return self.from_notebook_node(nb, resources, **kw)

    def _substitute(self, path, reason, resources):
        info = resources.get("nbgrader", {})
        cd = CourseDirectory(config=self.config)
        assignment, notebook = info.get("assignment"), info.get("notebook")
        release = os.path.join(cd.root, cd.release_directory, assignment, notebook + ".ipynb")
        if path:
            kept = os.path.join(cd.format_path(cd.autograded_directory, info.get("student"), assignment),
                                os.path.basename(path) + UNREADABLE_SUFFIX)
            os.makedirs(os.path.dirname(kept), exist_ok=True)
            shutil.copyfile(path, kept)
        self.log.warning("%s/%s: %s; graded as the blank release", info.get("student"), assignment, reason)
        return flagged_release(release, reason)


class CollectorNotes(NbGraderPreprocessor):
    """The collector's notes (``collect_notes.json`` beside the submitted notebook), as messages in it."""

    def preprocess(self, nb, resources):
        folder = (resources.get("metadata") or {}).get("path")
        if folder:
            for note in read_notes(folder):
                _add_note(nb, note)
        return nb, resources
