"""The class list: a roster CSV imported into the gradebook with nbgrader's own student import.

``python -m autograder roster roster.csv`` reads a CSV with the columns
``id,first_name,last_name,email`` (``autograder.term.students.read_roster`` checks
every id first, so a bad row is named before anything changes), keeps a clean
copy as ``<state>/roster.csv`` (UTF-8, those four columns), and imports that
copy with ``nbgrader db student import``: each student is created or updated
in the gradebook, so export and formgrader show names and emails.

From then on ``collect`` maps inbox entries to roster ids with that copy
(``--roster`` still names another file), and reports the roster's students
who handed nothing in.
"""

import csv
import os
import subprocess
import sys
import tempfile

from ..course import CourseError, db_url, state_dir
from .students import read_roster

COLUMNS = ("id", "first_name", "last_name", "email")
ROSTER_FILE = "roster.csv"


def roster_path(config):
    """``<state>/roster.csv``: the imported roster (it may not exist)."""
    return state_dir(config, ROSTER_FILE)


def current_roster(config):
    """The imported roster's rows, or None when no roster was imported."""
    path = roster_path(config)
    return read_roster(path) if os.path.exists(path) else None


def import_roster(config, source):
    """Import the roster CSV ``source``; returns the number of students."""
    rows = read_roster(source)
    if not rows:
        raise CourseError("roster %s lists no students" % source)
    seen = {}
    for row in rows:
        if row["id"] in seen:
            raise CourseError("roster %s lists %r twice" % (source, row["id"]))
        seen[row["id"]] = row
    target = roster_path(config)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows({key: (row.get(key) or "").strip() for key in COLUMNS} for row in rows)
    command = [sys.executable, "-m", "nbgrader", "db", "student", "import", target,
               "--CourseDirectory.db_url=" + db_url(config),
               "--CourseDirectory.course_id=" + config.CourseDirectory.course_id]
    with tempfile.TemporaryDirectory() as elsewhere:  # no nbgrader_config.py is read from here
        done = subprocess.run(command, cwd=elsewhere, capture_output=True, text=True,
                              env=dict(os.environ, PYTHONUTF8="1"))
    if done.returncode != 0:
        raise CourseError("nbgrader could not import the roster:\n" + done.stderr[-2000:])
    return len(rows)
