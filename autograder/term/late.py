"""Due dates and the late penalty, through nbgrader's own late-submission machinery.

* **Due dates** are set per assignment in the course configuration
  (``autograder/nbgrader_config.py``)::

      c.DueDates.dates = {"clone": "2025-03-07T23:59:00+01:00"}

  as ISO 8601 times (UTC when no offset is given).  ``generate`` and
  ``autograde`` write them into the gradebook (nbgrader's ``Assignment.duedate``,
  through its ``Gradebook`` API), where nbgrader reads them; an assignment
  without one is never late.
* **Submission times** are ``collect``'s ``timestamp.txt``: the inbox's own
  file time, or the LMS manifest's timestamp (``--manifest``).  nbgrader
  computes ``seconds late = submission time - due date``.
* **The penalty** is nbgrader's ``AssignLatePenalties`` step with this
  module's :class:`LatePenalty` as its plugin (``c.AssignLatePenalties.plugin_class``):
  ``percent_per_day`` of the notebook's score for each started day late
  (after ``grace_minutes``), at most the whole score.  nbgrader stores it as
  the notebook's ``late_submission_penalty``; export and feedback subtract it.
"""

import datetime
import math

from nbgrader.api import Gradebook
from nbgrader.plugins import LateSubmissionPlugin
from traitlets import Dict, Float, Unicode
from traitlets.config import Configurable

from ..course import CourseError, db_url

DAY = 24 * 60 * 60


class DueDates(Configurable):
    """``{assignment: ISO 8601 due time}`` (``c.DueDates.dates`` in nbgrader_config.py)."""

    dates = Dict(value_trait=Unicode(), help="Due time of each assignment, ISO 8601").tag(config=True)


class LatePenalty(LateSubmissionPlugin):
    """``percent_per_day`` of the score per started day late, after ``grace_minutes``."""

    percent_per_day = Float(10.0, help="Percent of the score lost per started day late").tag(config=True)
    grace_minutes = Float(0.0, help="Minutes after the due time that are not late").tag(config=True)

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        late = total_seconds_late - 60 * self.grace_minutes
        if late <= 0 or not score:
            return 0.0
        days = math.ceil(late / DAY)
        return round(min(1.0, days * self.percent_per_day / 100.0) * score, 6)


def parse_due(text, assignment="?"):
    """An ISO 8601 time as a naive UTC datetime (how nbgrader stores times)."""
    try:
        when = datetime.datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise CourseError("due date of %s: %r is not an ISO 8601 time (e.g. "
                          "2025-03-07T23:59:00+01:00)" % (assignment, text)) from None
    if when.tzinfo is not None:
        when = when.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return when


def due_dates(config):
    """``{assignment: naive UTC datetime}`` from the course configuration."""
    return {a: parse_due(text, a) for a, text in DueDates(config=config).dates.items()}


def record_due_dates(config, assignments):
    """Write the configured due date of each of ``assignments`` into the gradebook."""
    dates = due_dates(config)
    with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        for assignment in assignments:
            if assignment in dates:
                gb.update_or_create_assignment(assignment, duedate=dates[assignment])
