"""Copy one worker's result into the course gradebook, one student at a time.

A worker (``autograder.shard``) autogrades a student in a copy of the
gradebook and returns what it found as plain data (``shard.read_grades``).
For each such result this module writes the submission (timestamp, late
penalty, flag) and every grade and comment into the course gradebook through
nbgrader's own ``Gradebook`` API, in one transaction per student: a student is
either fully updated or not at all, and no other student's rows are touched.
A student who could not be graded gets 0 on every test, and the reason is
kept in ``messages.json``.
"""

import json
import os
import warnings

from nbgrader.api import Gradebook
from sqlalchemy.exc import SAWarning

from .pipeline.notes import MESSAGES_FILE

STUDENT_FIELDS = ("first_name", "last_name", "email", "lms_user_id")
# what a worker decided, copied field by field into the course gradebook
GRADE_FIELDS = ("auto_score", "manual_score", "extra_credit", "needs_manual_grade")
COMMENT_FIELDS = ("auto_comment", "manual_comment")


def merge_student(main, result):
    """Write one worker ``result`` (see ``autograder.shard``) into the gradebook ``main``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SAWarning)  # nbgrader's own autoflush notices
        return _merge_student(main, result)


def _merge_student(main, result):
    assignment, student = result["assignment"], result["student"]
    try:
        main.update_or_create_student(student, **result["student_fields"])
        target = main.update_or_create_submission(assignment, student, timestamp=result["timestamp"])
        for notebook in result["notebooks"]:
            target_nb = main.find_submission_notebook(notebook["name"], assignment, student)
            target_nb.flagged = notebook["flagged"]
            target_nb.late_submission_penalty = notebook["late_submission_penalty"]
            for name, fields in notebook["grades"].items():
                copy = main.find_grade(name, notebook["name"], assignment, student)
                for field in GRADE_FIELDS:
                    setattr(copy, field, fields[field])
            for name, fields in notebook["comments"].items():
                copy = main.find_comment(name, notebook["name"], assignment, student)
                for field in COMMENT_FIELDS:
                    setattr(copy, field, fields[field])
        main.db.commit()
        return target
    except Exception:
        main.db.rollback()
        raise


def record_failure(main, assignment, student, reason, autograded_dir):
    """Give ``student`` 0 on every test of ``assignment``, with ``reason`` kept."""
    try:
        main.update_or_create_student(student)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SAWarning)
            submission = main.update_or_create_submission(assignment, student)
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


def open_gradebook(db_url, course_id):
    return Gradebook(db_url, course_id)
