"""The course gradebook: its one writer, the workers' snapshot, and moving it to Postgres.

The gradebook is nbgrader's (``nbgrader.api.Gradebook``) at the course's
``db_url``: a SQLite file in the course-state folder by default, or a
Postgres database (``--db postgresql://...``) that several graders share.

- :func:`record_result` writes one graded submission, as a worker returned
  it (``autograder.engine.worker.read_grades``), through nbgrader's own API,
  in one transaction: a student is either fully updated or not at all, and no
  other student's rows are touched.  Only the grader's process calls it.
- :func:`record_failure` gives a student who could not be graded 0 on every
  test and keeps the reason in ``messages.json``.
- :func:`snapshot` is the gradebook as SQLite bytes: what every worker grades
  against (nbgrader's ``Autograde`` needs the assignment's cells in a
  gradebook) without ever writing the course's.
- :func:`migrate` copies every row of one gradebook into another, empty one
  (``python -m autograder gradebook migrate --to postgresql://...``).

SQLAlchemy's ``SAWarning``s ("Object of type <SubmittedAssignment> not in
session, add operation along 'Assignment.submissions' will not proceed", and
the same along 'Student.submissions' and for <SubmittedNotebook> along
'Notebook.submissions': three each time a submission is made) come from
nbgrader's ``add_submission``: it links the new submission and its notebooks
to the assignment's and the student's existing rows *before* the new
submission is in the session, and the session's autoflush, set off by loading
the assignment's notebooks and cells, finds objects it cannot save.  :func:`create_submission` makes the same rows with
autoflush paused (SQLAlchemy's public ``Session.no_autoflush``); the commit at
the end saves them all at once.  Every path that makes a submission goes
through it first, so nbgrader then only updates it: no warning is printed,
and none is hidden.
"""

import json
import os
import sqlite3
import tempfile

from nbgrader.api import Base, Gradebook, MissingEntry
from sqlalchemy import create_engine, select, text

from ..course import database_url
from ..pipeline.notes import MESSAGES_FILE

STUDENT_FIELDS = ("first_name", "last_name", "email", "lms_user_id")
# what a worker decided, copied field by field into the course gradebook
GRADE_FIELDS = ("auto_score", "manual_score", "extra_credit", "needs_manual_grade")
COMMENT_FIELDS = ("auto_comment", "manual_comment")


def open_gradebook(db_url, course_id):
    return Gradebook(db_url, course_id)


def create_submission(gb, assignment, student, **fields):
    """``student``'s submission of ``assignment`` with all its rows, made if missing (see above)."""
    gb.update_or_create_student(student)
    try:
        return gb.find_submission(assignment, student)
    except MissingEntry:
        with gb.db.no_autoflush:
            return gb.add_submission(assignment, student, **fields)


def record_result(main, result):
    """Write one worker ``result`` into the gradebook ``main`` (one transaction)."""
    assignment, student = result["assignment"], result["student"]
    try:
        main.update_or_create_student(student, **result["student_fields"])
        create_submission(main, assignment, student)
        target = main.update_or_create_submission(assignment, student, timestamp=result["timestamp"])
        notebooks = _by_name(target.notebooks)
        for notebook in result["notebooks"]:
            target_nb = _named(notebooks, notebook["name"], "notebook", assignment, student)
            target_nb.flagged = notebook["flagged"]
            target_nb.late_submission_penalty = notebook["late_submission_penalty"]
            # by name, as the worker read them (read_grades): the notebook's rows in one query each,
            # not one query per grade joining six tables (nbgrader's find_grade)
            grades, comments = _by_name(target_nb.grades), _by_name(target_nb.comments)
            for name, fields in notebook["grades"].items():
                copy = _named(grades, name, "grade", assignment, student)
                for field in GRADE_FIELDS:
                    setattr(copy, field, fields[field])
            for name, fields in notebook["comments"].items():
                copy = _named(comments, name, "comment", assignment, student)
                for field in COMMENT_FIELDS:
                    setattr(copy, field, fields[field])
        main.db.commit()
        return target
    except Exception:
        main.db.rollback()
        raise


def _by_name(rows):
    return {row.name: row for row in rows}


def _named(rows, name, kind, assignment, student):
    """``rows[name]``, or nbgrader's ``MissingEntry`` as its ``find_*`` methods raise it."""
    if name not in rows:
        raise MissingEntry("No such %s: %s in %s for %s" % (kind, name, assignment, student))
    return rows[name]


def record_failure(main, assignment, student, reason, autograded_dir):
    """Give ``student`` 0 on every test of ``assignment``, with ``reason`` kept."""
    try:
        submission = create_submission(main, assignment, student)
        for notebook in submission.notebooks:
            for grade in notebook.grades:
                grade.auto_score = 0
                grade.needs_manual_grade = False
        main.db.commit()
    except Exception:
        main.db.rollback()
        raise
    os.makedirs(autograded_dir, exist_ok=True)
    with open(os.path.join(autograded_dir, MESSAGES_FILE), "w") as f:
        json.dump(["not graded, 0 points: " + reason], f, indent=1)


def _sqlite_path(url):
    return url[len("sqlite:///"):] if url.startswith("sqlite:///") else None


def snapshot(db_url, course_id):
    """The gradebook at ``db_url`` as the bytes of a SQLite file (a consistent copy)."""
    with tempfile.TemporaryDirectory(prefix="autograder-snapshot-") as folder:
        copy = os.path.join(folder, "gradebook.db")
        source = _sqlite_path(db_url)
        if source is not None:
            live, target = sqlite3.connect("file:%s?mode=ro" % source, uri=True), sqlite3.connect(copy)
            try:
                live.backup(target)  # the stdlib's online backup: one consistent state
            finally:
                target.close()
                live.close()
        else:
            migrate(db_url, "sqlite:///" + copy, course_id)
        with open(copy, "rb") as f:
            return f.read()


class MigrateError(Exception):
    """The target gradebook cannot take the copy (worded for the instructor)."""


def migrate(source_url, target_url, course_id="default_course"):
    """Copy every row of the gradebook at ``source_url`` into the one at ``target_url``.

    The target is made by nbgrader (tables and alembic version) if it is new,
    and must hold no grading data yet: nothing is merged or overwritten.  All
    rows go in one transaction.  Returns ``{table: rows copied}``.
    """
    source_url, target_url = database_url(source_url), database_url(target_url)
    if _sqlite_path(source_url) is not None and not os.path.isfile(_sqlite_path(source_url)):
        raise MigrateError("there is no gradebook at %s to copy" % _sqlite_path(source_url))
    for url in (source_url, target_url):
        Gradebook(url, course_id).close()  # nbgrader's schema, at its alembic version
    source, target = create_engine(source_url), create_engine(target_url)
    copied = {}
    try:
        with source.connect() as read, target.begin() as write:
            for table in Base.metadata.sorted_tables:
                present = set(tuple(row) for row in write.execute(select(*table.primary_key.columns)))
                if present and table.name != "course":  # nbgrader adds the course it is opened for
                    raise MigrateError("the gradebook at %s already holds %s rows: migrate copies "
                                       "into an empty gradebook only" % (without_password(target_url), table.name))
                keys = [c.name for c in table.primary_key.columns]
                rows = [dict(row._mapping) for row in read.execute(select(table))]
                rows = [row for row in rows if tuple(row[k] for k in keys) not in present]
                if rows:
                    write.execute(table.insert(), rows)
                copied[table.name] = len(rows)
            version = read.execute(text("SELECT version_num FROM alembic_version")).scalar()
            write.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": version})
    finally:
        source.dispose()
        target.dispose()
    return copied


def without_password(url):
    """A database URL without its password."""
    head, sep, tail = url.partition("://")
    if "@" in tail:
        credentials, _, rest = tail.rpartition("@")
        tail = credentials.split(":")[0] + "@" + rest
    return head + sep + tail
