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
* :func:`collect_exchange` reads ``inbound/`` as root and hands each
  student's newest submission of each assignment to :func:`autograder.term.collect.collect`,
  the same intake as the LMS inbox (names checked against the roster, links,
  special files and oversized notebooks refused, metadata stripped, the
  notebook matched to its assignment; grading then rebuilds it on the
  release).  Who handed it in is the folder's owner (its uid), not the name
  the student's server wrote into the folder's name; when it was handed in is
  the folder's latest change time (``ctime``, which no user can set back),
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
import json
import os
import pwd
import shutil
import stat
import tempfile

from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default import ExchangeReleaseAssignment
from nbgrader.exchange.abc.exchange import ExchangeError
from nbgrader.utils import notebook_hash

from ..term.collect import CollectReport, collect, printable
from ..course import CourseError, check_assignment, feedback_dir, source_assignments, state_dir
from ..term.inbox import Limits

DEFAULT_EXCHANGE = "/srv/nbgrader/exchange"
RECORD = "exchange_submissions.json"
NBGRADER_FILES = {"timestamp.txt", "submission_secret.txt"}


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

def _changed(path):
    """The latest change time (ctime, never followed through a link) in a submission folder."""
    latest = os.lstat(path).st_ctime
    for here, dirs, files in os.walk(path):
        for name in dirs + files:
            latest = max(latest, os.lstat(os.path.join(here, name)).st_ctime)
    return latest


def _copy_submission(source, target, limits, refused):
    """Copy a submission folder's regular files (never following a link) into ``target``.

    A link, a special file or a file over the notebook file limit is not copied (nor read): it is
    named in ``refused`` with the reason, as the inbox's intake names what it refuses.
    """
    os.makedirs(target)
    for here, dirs, files in os.walk(source):
        relative = os.path.relpath(here, source)
        for name in list(dirs):
            if os.path.islink(os.path.join(here, name)):
                refused.append((os.path.normpath(os.path.join(relative, name)), "a symbolic link"))
                dirs.remove(name)
            else:
                os.makedirs(os.path.join(target, relative, name), exist_ok=True)
        for name in files:
            inner = os.path.normpath(os.path.join(relative, name))
            if relative == "." and name in NBGRADER_FILES:
                continue
            path = os.path.join(here, name)
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                refused.append((inner, "a symbolic link or special file"))
                continue
            if info.st_size > limits.max_file_bytes:   # the notebook size limit applies once parsed
                refused.append((inner, "too large to grade (%.1f MiB; a notebook file may be at most %d MiB)"
                                % (info.st_size / 2 ** 20, limits.max_file_bytes // 2 ** 20)))
                continue
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as src, open(os.path.join(target, inner), "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.utime(os.path.join(target, inner), (info.st_mtime, info.st_mtime))


def _when(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def inbound_submissions(config, exchange, assignments):
    """``({(student, assignment): [(time, folder name)] newest last}, [(folder, reason)])``."""
    inbound = os.path.join(exchange, course_id(config), "inbound")
    found, refused = {}, []
    if not os.path.isdir(inbound):
        return found, refused
    for name in sorted(os.listdir(inbound)):
        path = os.path.join(inbound, name)
        info = os.lstat(path)
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
        if owner != claimed:
            refused.append((name, "handed in by %s under the name %r; not collected"
                            % (owner or "uid %d" % info.st_uid, claimed)))
            continue
        found.setdefault((owner, assignment), []).append((_changed(path), name))
    for times in found.values():
        times.sort()
    return found, refused


def collect_exchange(config, exchange, assignments=None, limits=None):
    """Collect the newest submission of each student and assignment from the exchange.

    Returns a :class:`autograder.term.collect.CollectReport` (the inbox's, one for all
    assignments), with a note for every student who handed in more than once.
    """
    assignments = assignments or source_assignments(config)
    for assignment in assignments:
        check_assignment(config, assignment)
    limits = limits or Limits()
    found, refused = inbound_submissions(config, exchange, assignments)
    report = CollectReport()
    report.rejected.extend(("exchange: %s" % name, reason) for name, reason in refused)
    inbound = os.path.join(exchange, course_id(config), "inbound")
    record_path = state_dir(config, RECORD)
    record = _read_record(record_path)
    with tempfile.TemporaryDirectory(prefix="exchange-inbox-") as work:
        for assignment in assignments:
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
                left_out = []
                _copy_submission(os.path.join(inbound, folder), os.path.join(inbox, student), limits,
                                 left_out)
                for inner, reason in left_out:
                    report.rejected.append(("%s: %s" % (student, inner), reason))
                rows.append((student, student, _when(when).isoformat()))
                secrets[student] = {"folder": folder, "time": _when(when).isoformat(),
                                    "secret": _read_secret(os.path.join(inbound, folder))}
            if not rows:
                continue
            manifest = os.path.join(work, assignment + "-manifest.csv")
            with open(manifest, "w", newline="", encoding="utf-8") as f:
                writer = csv.writer(f)
                writer.writerow(["file", "student", "timestamp"])
                writer.writerows(rows)
            part = collect(config, inbox, assignment, manifest=manifest, limits=limits)
            report.collected.extend(part.collected)
            report.rejected.extend(part.rejected)
            report.notes.extend(part.notes)
            report.missing.update(part.missing)
            for student, collected, _ in part.collected:
                record.setdefault(student, {})[collected] = secrets[student]
    _write_record(record_path, record)
    return report


def _read_secret(folder):
    path = os.path.join(folder, "submission_secret.txt")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, encoding="ascii", errors="replace") as f:
            return f.read(1024)
    except OSError:
        return None  # an older nbgrader, or a student who removed it: no feedback through the exchange


def _read_record(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_record(path, record):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


# -- return ---------------------------------------------------------------------------------

def return_feedback(config, exchange, assignments=None):
    """Put each collected submission's feedback page where the student's ``fetch_feedback`` looks.

    Returns ``(lines, missing)``: one line per page returned, and the submissions without a page
    (not graded yet, or no secret to name it by).
    """
    assignments = assignments or source_assignments(config)
    record = _read_record(state_dir(config, RECORD))
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
