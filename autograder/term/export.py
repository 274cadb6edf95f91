"""``export``: the gradebook as a CSV, for a spreadsheet or an LMS gradebook.

Two shapes:

* **long** (default): one row per student and assignment, with the columns
  ``assignment, student_id, first_name, last_name, email, timestamp,
  raw_score, late_submission_penalty, score, max_score, needs_manual_grade,
  messages, misconceptions``.  A student with no submission for an assignment
  still gets a row, with score 0 and the message "no submission".
* **wide** (``--wide``): one row per student (everyone in the gradebook: the
  roster and whoever was graded), the roster columns ``student_id,
  first_name, last_name, email``, then per assignment its score after the late
  penalty (column ``<a>``, 0 without a submission) and its submission time
  (``<a> submitted``): what an LMS gradebook imports.

Options for both: ``tests`` adds a column per test (``<a>: <grade id>``, in
notebook order), ``misconceptions`` (wide) a column ``<a> misconceptions``
with the tags of the student's failed tests (``clone/shares-memory;
clone/keeps-offset``; see ``autograder.term.misconceptions``), and
``assignments`` chooses which assignments.  An assignment nobody handed in is
left out and named (:attr:`Table.skipped`).  Times are ISO 8601 in UTC
(``2025-03-07T22:59:00+00:00``).  ``messages`` joins what the autograder told
the student (``messages.json`` next to the graded notebook), so a 0 comes
with its reason.  Every text field is written as plain text
(``autograder.pipeline.notes.csv_text``): a field never starts with a character a
spreadsheet would run as a formula.
"""

import csv
import dataclasses
import datetime
import json
import os

from nbgrader.api import Gradebook, MissingEntry

from ..course import CourseError, autograded_dir, db_url, state_dir, test_order
from ..pipeline.notes import MESSAGES_FILE
from .misconceptions import student_tags
from ..pipeline.notes import csv_text

COLUMNS = ["assignment", "student_id", "first_name", "last_name", "email", "timestamp",
           "raw_score", "late_submission_penalty", "score", "max_score", "needs_manual_grade",
           "messages", "misconceptions"]
ROSTER_COLUMNS = ["student_id", "first_name", "last_name", "email"]


@dataclasses.dataclass
class Table:
    columns: list
    rows: list            # dicts
    skipped: list         # assignments left out: nothing graded


def messages(config, student, assignment):
    path = os.path.join(autograded_dir(config, student, assignment), MESSAGES_FILE)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def iso(timestamp):
    """nbgrader's naive UTC time as ISO 8601 with its offset ('' for none)."""
    if not timestamp:
        return ""
    if isinstance(timestamp, str):
        timestamp = datetime.datetime.fromisoformat(timestamp)
    if timestamp.tzinfo is None:
        timestamp = timestamp.replace(tzinfo=datetime.timezone.utc)
    return timestamp.astimezone(datetime.timezone.utc).isoformat(timespec="seconds")


def _test_names(config, assignment, gb):
    """The assignment's grade ids in notebook order (the gradebook's order for any others)."""
    order = [name for name in test_order(config, assignment) if name]
    known = [c.name for nb in gb.find_assignment(assignment).notebooks for c in nb.grade_cells]
    return [n for n in order if n in known] + sorted(n for n in known if n not in order)


def _chosen(gb, assignments):
    names = sorted(a.name for a in gb.assignments)
    if assignments:
        unknown = [a for a in assignments if a not in names]
        if unknown:
            raise CourseError("not in the gradebook: %s (known: %s)"
                              % (", ".join(unknown), ", ".join(names) or "none"))
        names = [a for a in names if a in assignments]
    graded = [a for a in names if gb.assignment_submissions(a)]
    return graded, [a for a in names if a not in graded]


def _submission(config, gb, assignment, student, tests):
    """The fields of one (assignment, student): score, time, tests... (a non-submission scores 0)."""
    try:
        sub = gb.find_submission(assignment, student)
    except MissingEntry:
        out = dict(timestamp="", raw_score=0.0, late_submission_penalty=0.0, score=0.0,
                   needs_manual_grade=False, messages="no submission", misconceptions="")
        out.update({"%s: %s" % (assignment, t): 0.0 for t in tests})
        return out
    grades = {g.name: g.score for nb in sub.notebooks for g in nb.grades}
    out = dict(timestamp=iso(sub.timestamp), raw_score=sub.score,
               late_submission_penalty=sub.late_submission_penalty,
               score=max(0.0, sub.score - sub.late_submission_penalty),
               needs_manual_grade=sub.needs_manual_grade,
               messages=" | ".join(messages(config, student, assignment)),
               misconceptions="; ".join(student_tags(config, student, assignment)))
    out.update({"%s: %s" % (assignment, t): grades.get(t, 0.0) for t in tests})
    return out


def table(config, wide=False, tests=False, misconceptions=False, assignments=None):
    """The export as a :class:`Table` (see the module docstring)."""
    with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        chosen, skipped = _chosen(gb, assignments)
        per_test = {a: (_test_names(config, a, gb) if tests else []) for a in chosen}
        students = sorted(gb.students, key=lambda s: s.id)
        columns = list(COLUMNS) if not wide else list(ROSTER_COLUMNS)
        if wide:
            for a in chosen:
                columns += [a, a + " submitted"] + (["%s: %s" % (a, t) for t in per_test[a]])
                columns += [a + " misconceptions"] if misconceptions else []
        else:
            columns += ["%s: %s" % (a, t) for a in chosen for t in per_test[a]]
        rows = []
        for student in students:
            person = {"student_id": student.id, "first_name": student.first_name or "",
                      "last_name": student.last_name or "", "email": student.email or ""}
            if wide:
                row = dict(person)
            for a in chosen:
                fields = _submission(config, gb, a, student.id, per_test[a])
                if wide:
                    row[a] = fields["score"]
                    row[a + " submitted"] = fields["timestamp"]
                    row.update({k: v for k, v in fields.items() if k.startswith(a + ": ")})
                    if misconceptions:
                        row[a + " misconceptions"] = fields["misconceptions"]
                else:
                    max_score = gb.find_assignment(a).max_score
                    rows.append(dict(person, assignment=a, max_score=max_score, **fields))
            if wide:
                rows.append(row)
        if not wide:
            rows.sort(key=lambda r: (r["assignment"], r["student_id"]))
    return Table(columns, rows, skipped)


def default_target(config):
    """``<state>/grades.csv``."""
    return state_dir(config, "grades.csv")


def export_csv(config, target=None, **options):
    """Write the CSV (default ``<state>/grades.csv``); returns the :class:`Table` written."""
    found = table(config, **options)
    target = target or default_target(config)
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with open(target, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=found.columns, restval="")
        writer.writeheader()
        writer.writerows({key: csv_text(value) for key, value in row.items()} for row in found.rows)
    return found
