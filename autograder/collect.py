"""``collect``: bring a folder of submissions into ``autograder/submitted/``.

The folder holds one entry per student, named after the student::

    inbox/alice.zip            a zip with the notebook(s) anywhere inside
    inbox/bob/clone.ipynb      or a folder

Each notebook found is matched to an assignment: by its name
(``clone.ipynb``), or, when it was renamed (``clone (1).ipynb``,
``Copy of clone.ipynb``), by the nbgrader cell ids it carries, or, with
``--assignment``, because it is the only notebook in the entry.  It is copied
byte for byte (a broken file stays broken: grading gives it 0 with a reason)
to ``submitted/<student>/<assignment>/<assignment>.ipynb``, with the other
files next to it, and ``timestamp.txt`` records when it was last modified
(nbgrader uses it for late penalties).  A repair (a renamed notebook) is noted
in ``collect_notes.json``, which grading turns into a message for the student.

Collecting again replaces that student's earlier submission of that
assignment; nothing else in ``submitted/`` is touched.
"""

import dataclasses
import datetime
import json
import os
import re
import shutil
import tempfile
import zipfile

import nbformat

from .course import check_assignment, release_notebook, source_assignments, submitted_dir

NOTES_FILE = "collect_notes.json"
SKIPPED_PARTS = {"__MACOSX", ".ipynb_checkpoints"}


@dataclasses.dataclass
class CollectReport:
    collected: list = dataclasses.field(default_factory=list)  # (student, assignment, note)
    rejected: list = dataclasses.field(default_factory=list)   # (entry, reason)

    def lines(self):
        out = ["%s: %s%s" % (student, assignment, " (%s)" % note if note else "")
               for student, assignment, note in self.collected]
        out += ["skipped %s: %s" % (entry, reason) for entry, reason in self.rejected]
        out.append("collected %d submission(s), skipped %d" % (len(self.collected), len(self.rejected)))
        return out


def student_id(entry_name):
    """``"Alice Smith.zip"`` -> ``"Alice_Smith"``: letters, digits, ``.``, ``_`` and ``-`` only."""
    stem = entry_name[:-4] if entry_name.lower().endswith(".zip") else entry_name
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._") or None


def _safe_extract(zip_path, dest):
    """Extract ``zip_path`` into ``dest``, refusing members that would land outside it."""
    with zipfile.ZipFile(zip_path) as archive:
        times = {}
        for member in archive.infolist():
            target = os.path.realpath(os.path.join(dest, member.filename))
            if not target.startswith(os.path.realpath(dest) + os.sep):
                raise ValueError("unsafe path in zip: %r" % member.filename)
            archive.extract(member, dest)
            times[target] = datetime.datetime(*member.date_time)
    for target, when in times.items():
        if os.path.isfile(target):
            stamp = when.timestamp()
            os.utime(target, (stamp, stamp))


def _notebooks(folder):
    found = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_PARTS and not d.startswith("."))
        found += [os.path.join(here, f) for f in sorted(files) if f.endswith(".ipynb")]
    return found


def _grade_ids(path):
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception:  # not readable: only its name can tell
        return set()
    return {c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells} - {None}


def _match(config, notebooks, wanted):
    """``{assignment: (path, note)}`` for the notebooks of one student."""
    known = [wanted] if wanted else source_assignments(config)
    release_ids = {}
    for a in known:
        release = release_notebook(config, a)
        release_ids[a] = _grade_ids(release) if os.path.exists(release) else set()
    matched = {}
    for path in notebooks:  # exact names first
        name = os.path.basename(path)[:-len(".ipynb")]
        if name in known and name not in matched:
            matched[name] = (path, "")
    for path in notebooks:  # then renamed notebooks, by their cell ids
        if any(path == p for p, _ in matched.values()):
            continue
        ids = _grade_ids(path)
        scores = {a: len(ids & release_ids[a]) for a in known if a not in matched}
        best = max(scores, key=scores.get, default=None)
        if best is not None and scores[best] > 0:
            matched[best] = (path, "renamed from %r" % os.path.basename(path))
    if wanted and wanted not in matched and len(notebooks) == 1:
        matched[wanted] = (notebooks[0], "renamed from %r" % os.path.basename(notebooks[0]))
    return matched


def _store(config, student, assignment, path, note):
    dest = submitted_dir(config, student, assignment)
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    folder = os.path.dirname(path)
    for name in os.listdir(folder):  # the files that came with the notebook
        source = os.path.join(folder, name)
        if os.path.isfile(source) and not name.endswith(".ipynb"):
            shutil.copy2(source, os.path.join(dest, name))
    shutil.copy2(path, os.path.join(dest, assignment + ".ipynb"))
    when = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
    with open(os.path.join(dest, "timestamp.txt"), "w") as f:
        f.write(when.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
    if note:
        with open(os.path.join(dest, NOTES_FILE), "w") as f:
            json.dump(["the notebook was submitted under another name (%s); it was graded as %s.ipynb"
                       % (note.replace("renamed from ", ""), assignment)], f)


def collect(config, folder, assignment=None):
    """Collect every student entry in ``folder``; returns a CollectReport."""
    if assignment:
        check_assignment(config, assignment)
    report = CollectReport()
    if not os.path.isdir(folder):
        report.rejected.append((folder, "not a folder"))
        return report
    for entry in sorted(os.listdir(folder)):
        if entry.startswith("."):
            continue
        path = os.path.join(folder, entry)
        student = student_id(entry)
        if student is None:
            report.rejected.append((entry, "no student name in it"))
            continue
        with tempfile.TemporaryDirectory(prefix="autograder-collect-") as scratch:
            if os.path.isdir(path):
                content = path
            elif entry.lower().endswith(".zip"):
                try:
                    _safe_extract(path, scratch)
                except (zipfile.BadZipFile, ValueError, OSError) as error:
                    report.rejected.append((entry, "not a usable zip file (%s)" % error))
                    continue
                content = scratch
            elif entry.endswith(".ipynb") and assignment:
                content = os.path.join(scratch, "single")
                os.makedirs(content)
                shutil.copy2(path, content)
                student = student_id(entry[:-len(".ipynb")])
            else:
                report.rejected.append((entry, "neither a folder nor a .zip"))
                continue
            notebooks = _notebooks(content)
            matched = _match(config, notebooks, assignment)
            if not matched:
                report.rejected.append((entry, "no notebook for %s in it" % (assignment or "any assignment")))
                continue
            for name, (nb_path, note) in sorted(matched.items()):
                _store(config, student, name, nb_path, note)
                report.collected.append((student, name, note))
    return report
