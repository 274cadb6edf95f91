"""Who handed in an inbox entry, and when: student ids, the roster, the LMS manifest.

* :func:`student_id` turns an entry's name into an id, Unicode-aware: letters,
  marks and digits of any script are kept, with ``.``, ``_`` and ``-``;
  anything else becomes ``_`` (``"Zoë Smith.zip"`` -> ``Zoë_Smith``,
  ``李雷.zip`` -> ``李雷``).  Names are NFC-normalised first, so a name typed
  on a Mac (decomposed accents) gives the same id.  No id can be a path
  (``/``), start with a dot, or hold glob characters nbgrader would expand.
* :func:`id_key` is what two ids must not share: the same name up to case
  (and compatibility forms), which a case-insensitive file system would store
  in one folder.  ``Zoë`` and ``Zoé`` differ; ``alice`` and ``Alice`` collide.
* A roster is a CSV with the columns ``id,first_name,last_name,email``.  With
  one, an entry's id is the roster's: the entry's name must equal one row's
  id, email, email user name, "first last" or "last first" (case, accents in
  compatibility form, spaces and punctuation ignored).
* A manifest is the LMS's record of who handed in which file when: a CSV with
  the columns ``file,student,timestamp``; ``file`` is the entry's name in the
  inbox, ``student`` (may be empty) the student's id, ``timestamp`` an ISO
  8601 time (``2025-03-01T23:59:00+01:00``; UTC when it has no offset).
"""

import csv
import datetime
import re
import unicodedata

from ..course import CourseError
from .inbox import Refused

MAX_ID_CHARS = 64


# -- student ids ---------------------------------------------------------------------------

def student_id(entry_name):
    """``"Zoë Smith.zip"`` -> ``"Zoë_Smith"``: letters, marks, digits, ``.``, ``_``, ``-``."""
    stem = entry_name[:-4] if entry_name.lower().endswith(".zip") else entry_name
    text = unicodedata.normalize("NFC", stem)
    kept = "".join(ch if unicodedata.category(ch)[0] in "LMN" or ch in "._-" else "_" for ch in text)
    kept = re.sub("_+", "_", kept).strip("._-")[:MAX_ID_CHARS].strip("._-")
    return kept or None


def id_key(student):
    """Two ids that are the same folder on a case-insensitive file system have the same key."""
    return unicodedata.normalize("NFKC", student).casefold()


def _fold(text):
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def read_roster(path):
    """Rows of a roster CSV (``id,first_name,last_name,email``), each id checked."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    if rows and "id" not in rows[0]:
        raise CourseError("roster %s has no 'id' column (expected id,first_name,last_name,email)" % path)
    for n, row in enumerate(rows, start=2):
        if student_id(row.get("id") or "") != (row.get("id") or "").strip() or not row.get("id"):
            raise CourseError("roster %s, line %d: %r is not usable as a student id (letters, "
                              "digits, '.', '_' and '-' only)" % (path, n, row.get("id")))
    return rows


def roster_id(name, roster):
    """The roster id an entry named ``name`` belongs to; Refused when none or several."""
    stem = name[:-4] if name.lower().endswith(".zip") else name
    stem = stem[:-6] if stem.lower().endswith(".ipynb") else stem
    key = _fold(stem)
    found = []
    for row in roster:
        first, last = row.get("first_name") or "", row.get("last_name") or ""
        email = row.get("email") or ""
        names = {row["id"], email, email.split("@")[0], first + " " + last, last + " " + first}
        if key and key in {_fold(n) for n in names if n.strip()}:
            found.append(row["id"])
    if not found:
        raise Refused("not on the roster")
    if len(set(found)) > 1:
        raise Refused("matches several roster rows: %s" % ", ".join(sorted(set(found))))
    return found[0]


def read_manifest(path):
    """``{entry name: (student or None, UTC datetime)}`` from an LMS manifest CSV."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    if rows and not {"file", "timestamp"} <= set(rows[0]):
        raise CourseError("manifest %s needs the columns file,student,timestamp" % path)
    out = {}
    for n, row in enumerate(rows, start=2):
        try:
            when = datetime.datetime.fromisoformat((row["timestamp"] or "").strip())
        except ValueError:
            raise CourseError("manifest %s, line %d: %r is not an ISO 8601 time"
                              % (path, n, row["timestamp"])) from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.timezone.utc)
        name = unicodedata.normalize("NFC", (row["file"] or "").strip())
        if name in out:
            raise CourseError("manifest %s, line %d: %r is listed twice" % (path, n, name))
        out[name] = ((row.get("student") or "").strip() or None, when.astimezone(datetime.timezone.utc))
    return out
