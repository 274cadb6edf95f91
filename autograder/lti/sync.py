"""The LMS's roster into the course, and the course's grades into the LMS's grade book.

:func:`roster_from_lms` reads the course's members (NRPS), keeps the active
learners, and imports them as the roster with nbgrader's own student import
(:func:`autograder.term.roster.import_roster`). A learner's roster id is the
``lis_person_sourcedid`` the LMS gives (the institution's id for the person):
the same id the hub's LTI login names the learner by, when the tool's
registration sets the custom parameter ``username=$Person.sourcedId``. A
learner without one is named in the report and left out. What ties a roster
id to the LMS's ``user_id`` is kept in ``<state>/lti_people.json``.

:func:`send_scores` sends, for each graded assignment, every graded
submission's score after the late penalty (as ``export`` computes it) to the
assignment's line item, which it finds by its ``resourceId`` (the
assignment's name) or makes. Each score carries the submission time
(``submission.submittedAt``) and says the grading is done. What was sent is
kept in ``<state>/lti_sent.json``; a score already sent, unchanged, is not
sent again. Without that record (another machine, a lost state folder) the
LMS's own result is read first, and an equal one is not sent again either.
"""

import csv
import dataclasses
import datetime
import os
import tempfile

from ..course import state_dir
from ..term.export import table
from ..term.records import read_record, write_record
from ..term.roster import COLUMNS, import_roster
from ..term.students import student_id
from .registration import load, private_key
from .roles import is_learner
from .services import Platform

PEOPLE_FILE = "lti_people.json"
SENT_FILE = "lti_sent.json"
LINE_ITEM_TAG = "autograder"


def platform(config):
    return Platform(load(config), private_key(config))


def is_active_learner(member):
    return is_learner(member.get("roles")) and member.get("status", "Active") == "Active"


@dataclasses.dataclass
class RosterReport:
    imported: list
    without_id: list  # names (or LMS user ids) of learners the LMS gives no usable id for

    def lines(self):
        out = ["imported %d learner(s) from the LMS as the roster" % len(self.imported)]
        if self.without_id:
            out.append("left out, without an institution id (lis_person_sourcedid) usable as a "
                       "student id: " + ", ".join(self.without_id))
        return out


def _text(member, key):
    value = member.get(key)
    return value.strip() if isinstance(value, str) else ""


def roster_from_lms(config, lms=None):
    """Import the LMS course's active learners as the roster; a :class:`RosterReport`."""
    lms = lms or platform(config)
    rows, people, without = [], {}, []
    for member in lms.members():
        if not is_active_learner(member):
            continue
        sourced = _text(member, "lis_person_sourcedid")
        user_id = _text(member, "user_id")
        if not sourced or student_id(sourced) != sourced or not user_id:
            without.append(_text(member, "name") or user_id or "?")
            continue
        rows.append({"id": sourced, "first_name": _text(member, "given_name"),
                     "last_name": _text(member, "family_name"), "email": _text(member, "email")})
        people[sourced] = user_id
    if rows:
        with tempfile.TemporaryDirectory() as folder:
            listed = os.path.join(folder, "roster.csv")
            with open(listed, "w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, fieldnames=COLUMNS)
                writer.writeheader()
                writer.writerows(rows)
            import_roster(config, listed)
        write_record(state_dir(config, PEOPLE_FILE), people)
    return RosterReport(sorted(people), sorted(without))


@dataclasses.dataclass
class ScoresReport:
    sent: list = dataclasses.field(default_factory=list)        # (assignment, student, score)
    unchanged: list = dataclasses.field(default_factory=list)   # (assignment, student)
    not_in_lms: list = dataclasses.field(default_factory=list)  # (assignment, student)
    made: list = dataclasses.field(default_factory=list)        # assignments whose line item was made

    def lines(self):
        out = ["sent %d score(s) to the LMS; %d already there, unchanged"
               % (len(self.sent), len(self.unchanged))]
        if self.made:
            out.append("made line items for: " + ", ".join(self.made))
        if self.not_in_lms:
            out.append("not sent, as the LMS roster does not know these students (import it with "
                       "`roster --lti`): " + ", ".join(sorted({s for _, s in self.not_in_lms})))
        return out


def _line_item(lms, assignment, maximum, report):
    found = lms.line_items(resource_id=assignment)
    if found:
        return found[0]
    report.made.append(assignment)
    return lms.create_line_item(assignment, maximum, assignment, LINE_ITEM_TAG)


def _already_there(lms, item, user_id, score):
    return any(isinstance(r.get("resultScore"), (int, float)) and abs(r["resultScore"] - score) < 1e-9
               for r in lms.results(item, user_id))


def send_scores(config, assignments=None, lms=None, now=None):
    """Send every graded submission's score to the LMS's grade book; a :class:`ScoresReport`."""
    lms = lms or platform(config)
    people = read_record(state_dir(config, PEOPLE_FILE))
    sent_path = state_dir(config, SENT_FILE)
    record = read_record(sent_path)
    report = ScoresReport()
    rows = [row for row in table(config, assignments=assignments).rows if row["timestamp"]]
    items = {}
    for row in rows:
        assignment, student = row["assignment"], row["student_id"]
        user_id = people.get(student)
        if not user_id:
            report.not_in_lms.append((assignment, student))
            continue
        if assignment not in items:
            items[assignment] = _line_item(lms, assignment, row["max_score"], report)
        item = items[assignment]
        score = round(float(row["score"]), 6)
        entry = {"score": score, "maximum": float(row["max_score"]), "submitted": row["timestamp"]}
        kept = record.setdefault(item["id"], {})
        if kept.get(user_id) == entry or (user_id not in kept and _already_there(lms, item, user_id, score)):
            kept[user_id] = entry
            report.unchanged.append((assignment, student))
            continue
        when = (now or datetime.datetime.now(datetime.timezone.utc)).isoformat(timespec="milliseconds")
        lms.send_score(item, {
            "userId": user_id, "scoreGiven": score, "scoreMaximum": entry["maximum"],
            "activityProgress": "Completed", "gradingProgress": "FullyGraded",
            "timestamp": when, "submission": {"submittedAt": row["timestamp"]}})
        kept[user_id] = entry
        write_record(sent_path, record)  # after each score: a failure later loses no record of it
        report.sent.append((assignment, student, score))
    write_record(sent_path, record)
    return report
