"""``export``: the gradebook as one CSV, one row per student and assignment.

Columns: ``assignment, student_id, first_name, last_name, email, timestamp,
raw_score, late_submission_penalty, score, max_score, needs_manual_grade,
messages``.  A student with no submission for an assignment still gets a row,
with score 0 and the message "no submission", as ``nbgrader export`` does.
``messages`` joins what the autograder told the student (``messages.json``
next to the graded notebook: timeouts, dead kernels, repaired cells,
tampering, unreadable files), so a 0 in the spreadsheet comes with its reason.
Every text field is written as plain text (``autograder.notes.csv_text``): a
field never starts with a character a spreadsheet would run as a formula.
``misconceptions`` lists the tags of the student's failed tests
(``clone/shares-memory; clone/keeps-offset``; see ``autograder.misconceptions``).
"""

import csv
import json
import os

from nbgrader.api import Gradebook, MissingEntry

from .course import autograded_dir, db_url
from .execute import MESSAGES_FILE
from .notes import csv_text
from .misconceptions import student_tags

COLUMNS = ["assignment", "student_id", "first_name", "last_name", "email", "timestamp",
           "raw_score", "late_submission_penalty", "score", "max_score", "needs_manual_grade",
           "messages", "misconceptions"]


def messages(config, student, assignment):
    path = os.path.join(autograded_dir(config, student, assignment), MESSAGES_FILE)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def rows(config):
    """The export's rows, as dicts, sorted by assignment then student."""
    out = []
    with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        for assignment in sorted(gb.assignments, key=lambda a: a.name):
            for student in sorted(gb.students, key=lambda s: s.id):
                row = {"assignment": assignment.name, "student_id": student.id,
                       "first_name": student.first_name or "", "last_name": student.last_name or "",
                       "email": student.email or "", "max_score": assignment.max_score}
                try:
                    sub = gb.find_submission(assignment.name, student.id)
                except MissingEntry:
                    row.update(timestamp="", raw_score=0.0, late_submission_penalty=0.0, score=0.0,
                               needs_manual_grade=False, messages="no submission", misconceptions="")
                else:
                    row.update(timestamp=sub.timestamp or "", raw_score=sub.score,
                               late_submission_penalty=sub.late_submission_penalty,
                               score=max(0.0, sub.score - sub.late_submission_penalty),
                               needs_manual_grade=sub.needs_manual_grade,
                               messages=" | ".join(messages(config, student.id, assignment.name)),
                               misconceptions="; ".join(student_tags(config, student.id, assignment.name)))
                out.append(row)
    return out


def export_csv(config, path):
    """Write the CSV to ``path``; returns the number of rows."""
    table = rows(config)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows({key: csv_text(value) for key, value in row.items()} for row in table)
    return len(table)
