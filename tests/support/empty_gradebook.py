"""A throw-away course's gradebook starts as a copy of an empty one that nbgrader made in this process.

nbgrader makes a gradebook where there is none (``nbgrader.api.Gradebook`` on a missing SQLite
file) by creating its tables, then running ``alembic heads`` in a process of its own to stamp the
schema's version. The tests make dozens of throw-away courses, and each paid that process. Here
nbgrader makes one empty gradebook per course id and test process, the same way, and each course
starts from a copy of it: nbgrader then finds its tables and the version stamped, adds the
course's row, and goes on as with a gradebook it made itself.
"""

import os
import shutil
import tempfile

from nbgrader.api import Gradebook

_FOLDER = None   # a TemporaryDirectory of this process, removed when it exits
_EMPTY = {}      # course id -> an empty gradebook nbgrader made for it in _FOLDER


def start_gradebook(url, course_id):
    """Put an empty gradebook at ``url`` (a SQLite file's URL) unless one is there already."""
    global _FOLDER
    if not url.startswith("sqlite:///"):
        return
    target = url[len("sqlite:///"):]
    if os.path.exists(target):
        return
    if course_id not in _EMPTY:
        _FOLDER = _FOLDER or tempfile.TemporaryDirectory(prefix="empty-gradebooks-")
        made = os.path.join(_FOLDER.name, f"{len(_EMPTY)}.db")
        Gradebook(f"sqlite:///{made}", course_id=course_id).close()
        _EMPTY[course_id] = made
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(_EMPTY[course_id], target)
