"""``collect``: bring an inbox of submissions into ``autograder/submitted/``, losing nothing.

The inbox holds one entry per student, named after the student::

    inbox/alice.zip            a zip with the notebook(s) anywhere inside
    inbox/bob/clone.ipynb      or a folder
    inbox/carol.ipynb          or, with ``--assignment``, a single notebook

1. **Who** (``autograder.term.students``): the entry's name gives the student id
   (Unicode-aware), or the roster does (``--roster``, or the one imported
   with ``python -m autograder roster``; the roster's students without a
   submission are reported as missing).  Two entries that would get the same
   id are an error naming both; neither is collected, and no earlier
   submission is replaced.
2. **What** (``autograder.term.inbox``): the entry's notebooks, read without
   trusting anything (links refused, zip bombs and oversized files refused
   before reading; a notebook's size limit counts what is graded, not its
   outputs or embedded images).  Only notebooks are collected; other files are
   left out and named in a note.
3. **Which assignment**: a notebook's name (``clone.ipynb``), or, when it was
   renamed, the cell ids inside it that only that assignment's release has
   (ids several releases share, such as ``self-check``, never count), or,
   with ``--assignment``, being the only notebook in the entry.  Several
   notebooks for one assignment in one entry are reported; ``--pick newest``
   takes the most recently modified one (by the times recorded inside the
   entry: they only choose among the student's own files), ``--pick ask``
   asks, and by default that assignment is refused for that entry.
4. **Stored** as ``submitted/<student>/<assignment>/<assignment>.ipynb``
   without any ``autograder`` metadata (where the grader keeps its own
   messages: a student cannot forge them), with ``timestamp.txt`` (the
   inbox's own file time, or the manifest's; never a date stored inside a
   zip) and, when there is something to tell the student, the grader's own
   ``collect_notes.json`` beside it (grading shows those notes in the
   feedback).  Collecting again replaces that student's earlier submission of
   that assignment; nothing else in ``submitted/`` is touched.

Every line of the report is printable text (:func:`printable`): a file name
with terminal escape codes, other control characters or bidirectional
overrides is shown with them escaped as ``\\x1b``, ``\\u202e``..., never raw.
"""

import dataclasses
import datetime
import json
import os
import shutil
import unicodedata

from ..course import CourseError, check_assignment, release_notebook, source_assignments, submitted_dir
from ..pipeline.notes import NOTES_FILE
from ..pipeline.releases import match_by_ids, unique_ids
from .inbox import Limits, Refused, entry_kind, read_entry
from .roster import current_roster
from .students import id_key, read_manifest, read_roster, roster_id, student_id

TIMESTAMP_FILE = "timestamp.txt"
PICK_RULES = ("refuse", "newest", "ask")


def printable(text):
    """``text`` with every character that is not printable (control characters, terminal
    escapes, bidirectional overrides, other formatting characters) escaped as Python's repr
    escapes it; spaces are kept."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


@dataclasses.dataclass
class CollectReport:
    collected: list = dataclasses.field(default_factory=list)  # (student, assignment, note)
    rejected: list = dataclasses.field(default_factory=list)   # (entry, reason)
    notes: list = dataclasses.field(default_factory=list)      # (entry, remark): nothing lost
    missing: dict = dataclasses.field(default_factory=dict)    # assignment -> roster ids without one

    def lines(self):
        out = ["%s: %s%s" % (student, assignment, " (%s)" % note if note else "")
               for student, assignment, note in self.collected]
        out += ["note %s: %s" % (entry, remark) for entry, remark in self.notes]
        out += ["skipped %s: %s" % (entry, reason) for entry, reason in self.rejected]
        out += ["missing %s: %s (on the roster, no submission)" % (assignment, ", ".join(ids))
                for assignment, ids in sorted(self.missing.items()) if ids]
        out.append("collected %d submission(s), skipped %d" % (len(self.collected), len(self.rejected)))
        return [printable(line) for line in out]


# -- matching notebooks to assignments -----------------------------------------------------

def _releases(config):
    out = {}
    for a in source_assignments(config):
        try:
            with open(release_notebook(config, a), encoding="utf-8") as f:
                out[a] = json.load(f)
        except (OSError, ValueError):
            out[a] = {}
    return out


def _assign(found, known, unique, wanted):
    """``({assignment: [(Found, note)]}, [unmatched Found])`` for one entry."""
    matched, unmatched = {}, []
    for item in found:
        stem = os.path.basename(item.inner)[:-len(".ipynb")]
        if stem in known:
            matched.setdefault(stem, []).append((item, ""))
            continue
        by_ids = match_by_ids(item.nb, None, unique) if item.nb is not None else None
        if by_ids in known:
            renamed = "renamed from %r" % os.path.basename(item.inner)
            matched.setdefault(by_ids, []).append((item, renamed))
        else:
            unmatched.append(item)
    if wanted and wanted not in matched and len(found) == 1:
        matched[wanted] = [(found[0], "renamed from %r" % os.path.basename(found[0].inner))]
        unmatched = []
    return matched, unmatched


def _pick(entry, assignment, candidates, rule, ask):
    """One (Found, note) among several for one assignment; Refused when the rule cannot choose."""
    if len(candidates) == 1:
        return candidates[0], ""
    names = ", ".join(repr(item.inner) for item, _ in candidates)
    refusal = ("%d notebooks for %s (%s); choose with --pick newest or --pick ask"
               % (len(candidates), assignment, names))
    if rule == "newest":
        ordered = sorted(candidates, key=lambda c: c[0].recorded)
        if ordered[-1][0].recorded == ordered[-2][0].recorded:
            raise Refused(refusal + " (they have the same time)")
        chosen = ordered[-1]
    elif rule == "ask" and ask is not None:
        index = ask(entry, assignment, [item.inner for item, _ in candidates])
        if index is None or not 0 <= index < len(candidates):
            raise Refused(refusal + " (no choice made)")
        chosen = candidates[index]
    else:
        raise Refused(refusal)
    how = "the newest" if rule == "newest" else "the one chosen by the instructor"
    return chosen, ("%d notebooks for %s were handed in (%s); %s, %r, was graded"
                    % (len(candidates), assignment, names, how, chosen[0].inner))


# -- storing -------------------------------------------------------------------------------

def _without_grader_metadata(item):
    """The notebook's bytes with every ``autograder`` metadata entry removed; whether any was."""
    nb = item.nb
    if nb is None:
        return item.data, False
    removed = False
    meta = nb.get("metadata")
    if isinstance(meta, dict) and "autograder" in meta:
        del meta["autograder"]
        removed = True
    for cell in nb.get("cells") if isinstance(nb.get("cells"), list) else []:
        cell_meta = cell.get("metadata") if isinstance(cell, dict) else None
        if isinstance(cell_meta, dict):
            for key in ("autograder", "autograder_notes"):
                if key in cell_meta:
                    del cell_meta[key]
                    removed = True
    if not removed:
        return item.data, False
    return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), True


def _store(config, student, assignment, item, when, notes):
    dest = submitted_dir(config, student, assignment)
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    data, removed = _without_grader_metadata(item)
    if removed:
        notes.append("the notebook carried autograder metadata of its own; it was removed")
    with open(os.path.join(dest, assignment + ".ipynb"), "wb") as f:
        f.write(data)
    with open(os.path.join(dest, TIMESTAMP_FILE), "w") as f:
        f.write(when.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
    if notes:
        with open(os.path.join(dest, NOTES_FILE), "w") as f:
            json.dump(notes, f, indent=1)  # ASCII (escaped): readable whatever the locale


# -- the inbox -----------------------------------------------------------------------------

def _student(entry, kind, roster, manifest):
    name = entry[:-len(".ipynb")] if kind == "notebook" else entry
    listed = manifest.get(unicodedata.normalize("NFC", entry)) if manifest is not None else None
    if manifest is not None and listed is None:
        raise Refused("not in the manifest")
    if listed is not None and listed[0]:
        name = listed[0]
        if roster is None:
            if student_id(name) != name:
                raise Refused("the manifest's student id %r is not usable (letters, digits, '.', "
                              "'_' and '-' only)" % name)
            return name
    if roster is not None:
        return roster_id(name, roster)
    student = student_id(name)
    if student is None:
        raise Refused("no student name in it")
    return student


def _plan(folder, entries, wanted, roster, manifest, report):
    """``[(entry, kind, student)]`` with collisions refused (before anything is written)."""
    plan = []
    for entry in entries:
        try:
            kind = entry_kind(os.path.join(folder, entry), entry, wanted)
            plan.append((entry, kind, _student(entry, kind, roster, manifest)))
        except Refused as why:
            report.rejected.append((entry, str(why)))
    by_key = {}
    for entry, kind, student in plan:
        by_key.setdefault(id_key(student), []).append((entry, student))
    clashes = {key for key, group in by_key.items() if len(group) > 1}
    for key in clashes:
        group = by_key[key]
        for entry, student in group:
            others = ", ".join(repr(e) for e, _ in group if e != entry)
            report.rejected.append((entry, "collides with %s: both would be student %r; rename one "
                                    "(or use a roster); neither was collected" % (others, student)))
    return [(e, k, s) for e, k, s in plan if id_key(s) not in clashes]


def _existing_clash(config, student):
    base = submitted_dir(config)
    if not os.path.isdir(base):
        return None
    for other in os.listdir(base):
        if other != student and id_key(other) == id_key(student):
            return other
    return None


def collect(config, folder, assignment=None, roster=None, manifest=None, pick="refuse", ask=None,
            limits=None):
    """Collect every student entry in ``folder``; returns a CollectReport.

    ``roster`` and ``manifest`` are CSV paths (see the module's docstring);
    ``pick`` is ``"refuse"``, ``"newest"`` or ``"ask"`` (then ``ask(entry,
    assignment, names)`` returns the index chosen, or None).
    """
    if assignment:
        check_assignment(config, assignment)
    if pick not in PICK_RULES:
        raise CourseError("--pick must be one of %s" % ", ".join(PICK_RULES))
    limits = limits or Limits()
    report = CollectReport()
    if not os.path.isdir(folder):
        report.rejected.append((folder, "not a folder"))
        return report
    roster_rows = read_roster(roster) if roster else current_roster(config)
    manifest_rows = read_manifest(manifest) if manifest else None
    own_files = {os.path.realpath(p) for p in (roster, manifest) if p}
    entries = sorted(e for e in os.listdir(folder) if not e.startswith(".")
                     and os.path.realpath(os.path.join(folder, e)) not in own_files)
    if manifest_rows is not None:
        present = {unicodedata.normalize("NFC", e) for e in entries}
        for name in sorted(set(manifest_rows) - present):
            report.rejected.append((name, "in the manifest but not in the inbox"))
    releases = _releases(config)
    unique = unique_ids(releases)
    known = [assignment] if assignment else list(releases)
    for entry, kind, student in _plan(folder, entries, assignment, roster_rows, manifest_rows, report):
        clash = _existing_clash(config, student)
        if clash:
            report.rejected.append((entry, "student %r collides with the earlier submission folder "
                                    "%r (same name but for case); neither was changed"
                                    % (student, clash)))
            continue
        _collect_entry(config, folder, entry, kind, student, known, unique, assignment,
                       manifest_rows, pick, ask, limits, report)
    if roster_rows is not None:
        for name in sorted({a for _, a, _ in report.collected} | ({assignment} if assignment else set())):
            report.missing[name] = sorted(row["id"] for row in roster_rows
                                          if not os.path.isdir(submitted_dir(config, row["id"], name)))
    return report


def _collect_entry(config, folder, entry, kind, student, known, unique, wanted, manifest, pick, ask,
                   limits, report):
    path = os.path.join(folder, entry)
    refused, extras = [], []
    try:
        found = read_entry(path, kind, limits, refused, extras)
    except Refused as why:
        report.rejected.append((entry, str(why)))
        return
    except OSError as error:
        report.rejected.append((entry, "could not be read (%s)" % error))
        return
    for inner, reason in refused:
        report.rejected.append(("%s: %s" % (entry, inner), reason))
    matched, unmatched = _assign(found, known, unique, wanted)
    for item in unmatched:
        report.notes.append((entry, "%r was not matched to %s; not collected"
                             % (item.inner, wanted or "any assignment")))
    if not matched:
        if not refused:
            report.rejected.append((entry, "no notebook for %s in it" % (wanted or "any assignment")))
        return
    left_out = sorted(extras) + ["%s (%s)" % (inner, reason) for inner, reason in refused]
    for name in sorted(matched):
        try:
            (item, renamed), picked = _pick(entry, name, matched[name], pick, ask)
        except Refused as why:
            report.rejected.append((entry, str(why)))
            continue
        notes = []
        if renamed:
            notes.append("the notebook was submitted under another name (%s); it was graded as %s.ipynb"
                         % (renamed.replace("renamed from ", ""), name))
        if picked:
            notes.append(picked)
        if item.note:
            notes.append(item.note)
        if left_out:
            more = " and %d more" % (len(left_out) - 10) if len(left_out) > 10 else ""
            shown = ", ".join(left_out[:10]) + more
            notes.append("only notebooks are collected; left out: %s" % shown)
        if manifest is not None:
            when = manifest[unicodedata.normalize("NFC", entry)][1]
        else:
            when = datetime.datetime.fromtimestamp(item.inbox_time, datetime.timezone.utc)
        _store(config, student, name, item, when, notes)
        report.collected.append((student, name, "; ".join(filter(None, [renamed, picked and "picked"]))))
