"""The term through nbgrader's exchange: release, collect (through the inbox's intake rules), return.

The exchange is a shared folder (``/srv/nbgrader/exchange`` by default,
``--exchange`` or ``$AUTOGRADER_EXCHANGE``) laid out and permissioned as
nbgrader does it: the root ``1777`` (nbgrader documents ``ugo+rwx``; the
sticky bit only adds that nobody removes what another made), and per course
``outbound/`` (``0755``: every student reads the releases), ``inbound/``
(``2733``: every student hands in, nobody lists what others handed in) and
``feedback/`` (``0711``: a page is read only by whoever knows its name, a hash
of the secret kept with the student's own submission).

* :func:`release` is nbgrader's own release (``ExchangeReleaseAssignment``)
  of ``exercises/<a>/`` to ``outbound/<a>/``.
* :func:`collect_exchange` hands each student's newest submission of each
  assignment to :func:`autograder.term.collect.collect`, the same intake as
  the LMS inbox (names checked against the roster, links, special files and
  oversized notebooks refused, metadata stripped, the notebook matched to its
  assignment; grading then rebuilds it on the release).  Root only lists
  ``inbound/`` and reads each folder's owner; what is inside a folder is read
  by :mod:`autograder.hub.as_student`, with the rights of the student who
  owns it, following no link, within limits checked before anything is
  copied.  A submission that breaks a limit, or changes under the reader, is
  a skipped line naming that student, and the rest of the class is
  collected.  Who handed it in is the folder's owner (its uid), not the name
  the student's server wrote into the folder's name; when it was handed in
  is the folder's latest change time (``ctime``, which no user can set back),
  not the ``timestamp.txt`` the student's server wrote.  Older submissions
  stay in the exchange and the report names them.
* :func:`return_feedback` copies each graded submission's feedback page to
  ``feedback/<hash>.html``, the name nbgrader's ``fetch_feedback`` looks for
  (``nbgrader.utils.notebook_hash`` of the submission's secret and the
  notebook's name), so the student's assignment list fetches it.

What collect learnt from the exchange (each collected submission's secret,
folder and time) is kept in ``<state>/exchange_submissions.json``.
"""

import copy
import csv
import datetime
import os
import pwd
import shutil
import stat
import tempfile

from ..term.collect import CollectReport, collect, printable
from ..course import CourseError, check_assignment, feedback_dir, source_assignments, state_dir
from ..term.inbox import Limits
from ..term.records import read_record, write_record
from . import as_student

DEFAULT_EXCHANGE = "/srv/nbgrader/exchange"
RECORD = "exchange_submissions.json"


def exchange_root(given=None):
    """The exchange folder: ``given``, else ``$AUTOGRADER_EXCHANGE``, else nbgrader's default."""
    return os.path.abspath(given or os.environ.get("AUTOGRADER_EXCHANGE") or DEFAULT_EXCHANGE)


def course_id(config):
    return config.CourseDirectory.course_id


def ensure_exchange(root):
    """The exchange's root folder, ``1777`` (see the module's docstring)."""
    os.makedirs(root, exist_ok=True)
    os.chmod(root, 0o1777)
    return root


def _exchange_config(config, exchange, assignment):
    config = copy.deepcopy(config)
    config.Exchange.root = exchange
    config.CourseDirectory.assignment_id = assignment
    return config


def release(config, assignments, exchange):
    """nbgrader's release of each assignment to the exchange; returns one line per assignment."""
    # nbgrader is imported here, not above: `hub` reads this module at every start and needs none of it
    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange.abc.exchange import ExchangeError
    from nbgrader.exchange.default import ExchangeReleaseAssignment

    ensure_exchange(exchange)
    lines = []
    for assignment in assignments:
        check_assignment(config, assignment)
        cfg = _exchange_config(config, exchange, assignment)
        coursedir = CourseDirectory(config=cfg)
        releaser = ExchangeReleaseAssignment(coursedir=coursedir, authenticator=Authenticator(config=cfg),
                                             config=cfg)
        releaser.force = True  # releasing again replaces the release (students who fetched keep theirs)
        try:
            releaser.start()
        except ExchangeError as error:
            raise CourseError("%s: not released: %s" % (assignment, error)) from None
        lines.append("%s: released to %s" % (assignment, os.path.join(exchange, course_id(config),
                                                                        "outbound", assignment)))
    return lines


# -- collect --------------------------------------------------------------------------------

def _open_inbound(config, exchange):
    """The fd of ``<exchange>/<course>/inbound``, or None when there is none yet.

    The exchange's own path is the instructor's; below it no link is followed, and the course
    folder and ``inbound/`` must belong to root, to whoever collects, or to the account that
    owns the course's state (the grader, should formgrader have released): a folder a student
    owns there could be swapped under every submission.
    """
    trusted = {0, os.geteuid()}
    if os.path.isdir(state_dir(config)):
        trusted.add(os.stat(state_dir(config)).st_uid)
    fds = []
    try:
        fds.append(os.open(exchange, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))
        for name in (course_id(config), "inbound"):
            fds.append(os.open(name, as_student.DIRECTORY, dir_fd=fds[-1]))
            owner = os.fstat(fds[-1]).st_uid
            if owner not in trusted:
                raise CourseError("%s in the exchange belongs to uid %d, not to root: a student could "
                                  "swap what is in it; give it to root (chown root) and collect again"
                                  % (name, owner))
        return fds.pop()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise CourseError("the exchange's inbound folder could not be opened (%s)" % error) from None
    finally:
        for fd in fds:
            os.close(fd)


def _when(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def inbound_submissions(inbound_fd, assignments, limits):
    """``({(student, assignment): [(time, folder name)] newest last}, [(folder, reason)])``.

    Only folder names and owners are read as root; each folder's time is found by walking it
    as its owner (:func:`autograder.hub.as_student.read_submission`).
    """
    found, refused = {}, []
    for name in sorted(os.listdir(inbound_fd)):
        try:
            info = os.stat(name, dir_fd=inbound_fd, follow_symlinks=False)
        except OSError as error:
            refused.append((name, "gone or changed while it was collected (%s)" % error.strerror))
            continue
        if stat.S_ISLNK(info.st_mode):
            refused.append((name, "a symbolic link, not a submission folder; refused, not followed"))
            continue
        if not stat.S_ISDIR(info.st_mode):
            refused.append((name, "not a submission folder"))
            continue
        parts = name.split("+")
        if len(parts) < 3:
            refused.append((name, "not named student+assignment+time"))
            continue
        claimed, assignment = parts[0], parts[1]
        if assignment not in assignments:
            continue
        try:
            owner = pwd.getpwuid(info.st_uid).pw_name
        except KeyError:
            owner = None
        if owner != claimed or info.st_uid == 0:
            refused.append((name, "handed in by %s under the name %r; not collected"
                            % (owner or "uid %d" % info.st_uid, claimed)))
            continue
        walked = as_student.read_submission(inbound_fd, name, info.st_uid, limits, contents=False)
        found.setdefault((owner, assignment), []).append((max(info.st_ctime, walked.changed), name))
    for times in found.values():
        times.sort()
    return found, refused


def _write_inbox(target, got):
    """The notebooks the student's reader sent, in ``target``; other files as empty names."""
    os.makedirs(target)
    for inner, data, mtime in got.files:
        path = os.path.join(target, *inner.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "xb") as f:
            f.write(data or b"")  # a file that is not a notebook: named (the intake says it is left out)
        os.utime(path, (mtime, mtime))


NOT_ON_ROSTER = ("{student} handed in {assignment} on the hub but is not on the roster, so it was not "
                 "collected: add {student} to the class list, import it (`python -m autograder roster "
                 "CSV`) and collect again")


def collect_exchange(config, exchange, assignments=None, limits=None):
    """Collect the newest submission of each student and assignment from the exchange.

    Returns a :class:`autograder.term.collect.CollectReport` (the inbox's, one for all
    assignments), with a note for every student who handed in more than once, and a skipped
    line, with the reason, for every submission that could not be collected.  With a roster
    imported, a hub user who is not on it is not collected, and the report names them
    (:data:`NOT_ON_ROSTER`).
    """
    assignments = assignments or source_assignments(config)
    for assignment in assignments:
        check_assignment(config, assignment)
    limits = limits or Limits()
    report = CollectReport()
    inbound_fd = _open_inbound(config, exchange)
    if inbound_fd is None:
        return report
    if os.geteuid() != 0:
        os.close(inbound_fd)
        raise CourseError("collect --exchange runs as root: it reads each submission with the "
                          "rights of the student who handed it in")
    try:
        found, refused = inbound_submissions(inbound_fd, assignments, limits)
        report.rejected.extend(("exchange: %s" % name, reason) for name, reason in refused)
        record_path = state_dir(config, RECORD)
        record = read_record(record_path)
        with tempfile.TemporaryDirectory(prefix="exchange-inbox-") as work:
            for assignment in assignments:
                _collect_assignment(config, inbound_fd, assignment, found, limits, work, record, report)
        write_record(record_path, record)
    finally:
        os.close(inbound_fd)
    return report


def _collect_assignment(config, inbound_fd, assignment, found, limits, work, record, report):
    inbox = os.path.join(work, assignment)
    os.makedirs(inbox)
    rows, secrets = [], {}
    for (student, name), times in sorted(found.items()):
        if name != assignment:
            continue
        when, folder = times[-1]
        if len(times) > 1:
            older = ", ".join(_when(t).strftime("%Y-%m-%d %H:%M:%S UTC") for t, _ in times[:-1])
            report.notes.append((student, "%s was handed in %d times; the newest (%s) is "
                                 "collected, the older ones (%s) stay in the exchange"
                                 % (assignment, len(times),
                                    _when(when).strftime("%Y-%m-%d %H:%M:%S UTC"), older)))
        try:
            info = os.stat(folder, dir_fd=inbound_fd, follow_symlinks=False)
            problem = None if stat.S_ISDIR(info.st_mode) else "it is no longer a folder"
        except OSError as error:
            info, problem = None, "it is gone (%s)" % error.strerror
        if problem is None and info.st_uid != pwd.getpwnam(student).pw_uid:
            problem = "it changed owner"
        got = as_student.read_submission(inbound_fd, folder, info.st_uid, limits) if problem is None else None
        problem = problem or got.problem
        if problem is not None:
            report.rejected.append(("%s: %s" % (student, assignment), "the submission %s was not "
                                    "collected: %s; nothing of it was copied (the student may "
                                    "submit again)" % (folder, problem)))
            continue
        when = max(when, got.changed)
        for inner, reason in got.refused:
            report.rejected.append(("%s: %s" % (student, inner), reason))
        _write_inbox(os.path.join(inbox, student), got)
        rows.append((student, student, _when(when).isoformat()))
        secrets[student] = {"folder": folder, "time": _when(when).isoformat(), "secret": got.secret}
    if not rows:
        return
    manifest = os.path.join(work, assignment + "-manifest.csv")
    with open(manifest, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["file", "student", "timestamp"])
        writer.writerows(rows)
    part = collect(config, inbox, assignment, manifest=manifest, limits=limits)
    report.collected.extend(part.collected)
    report.rejected.extend((entry, NOT_ON_ROSTER.format(student=entry, assignment=assignment)
                            if reason == "not on the roster" else reason)
                           for entry, reason in part.rejected)
    report.notes.extend(part.notes)
    report.missing.update(part.missing)
    for student, collected, _ in part.collected:
        record.setdefault(student, {})[collected] = secrets[student]


# -- return ---------------------------------------------------------------------------------

def return_feedback(config, exchange, assignments=None):
    """Put each collected submission's feedback page where the student's ``fetch_feedback`` looks.

    Returns ``(lines, missing)``: one line per page returned, and the submissions without a page
    (not graded yet, or no secret to name it by).
    """
    from nbgrader.utils import notebook_hash

    assignments = assignments or source_assignments(config)
    record = read_record(state_dir(config, RECORD))
    target = os.path.join(exchange, course_id(config), "feedback")
    os.makedirs(target, exist_ok=True)
    os.chmod(target, 0o711)  # nbgrader's: anyone may read a page whose name they know, nobody lists
    lines, missing = [], []
    for student in sorted(record):
        for assignment in sorted(record[student]):
            if assignment not in assignments:
                continue
            entry = record[student][assignment]
            page = os.path.join(feedback_dir(config, student, assignment), assignment + ".html")
            if not entry.get("secret") or not os.path.isfile(page):
                missing.append("%s: %s: no feedback to return (%s)" % (
                    student, assignment, "no feedback page yet" if entry.get("secret")
                    else "the submission had no secret"))
                continue
            name = notebook_hash(secret=entry["secret"], notebook_id=assignment)
            temporary = os.path.join(target, "%s-tmp.html" % name)
            shutil.copyfile(page, temporary)
            os.chmod(temporary, 0o644)
            os.replace(temporary, os.path.join(target, name + ".html"))
            lines.append("%s: %s: feedback returned" % (student, assignment))
    return [printable(line) for line in lines], [printable(line) for line in missing]
