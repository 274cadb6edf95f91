"""``generate``: make the student version of each assignment with nbgrader.

``nbgrader generate_assignment`` reads ``solutions/<a>/<a>.ipynb``, records
every test cell (hidden tests included) and its points in the gradebook,
and writes the student version with the solutions replaced by
``raise NotImplementedError()``, the hidden tests removed, the outputs
cleared and the test cells locked.  The gradebook entries are what
autograde later restores tests from, so generate must run (on the
instructor's machine) before autograde.  The assignment's due date, if the
course configuration sets one (``autograder.term.late``), goes into the gradebook
too.

nbgrader writes into a scratch folder of the state folder first;
``exercises/<a>/<a>.ipynb`` is then replaced only if it is missing, already
equal to the new version, or exactly what generate last wrote there (the
hash kept in ``<state>/generated.json``, or, in a fresh clone, the version
committed in git).  Anything else is someone's work (a learner who edited
the exercise in place): it is left alone and named, unless ``force``.
"""

import copy
import hashlib
import json
import os
import shutil
import subprocess

from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory

from ..course import check_assignment, release_notebook, source_assignments, state_dir
from .late import record_due_dates

RECORD = "generated.json"


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _committed(root, path):
    """The bytes of ``path`` in git's HEAD, or None (no git, not tracked)."""
    try:
        done = subprocess.run(["git", "-C", root, "show", "HEAD:./" + os.path.relpath(path, root)],
                              capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _record(config):
    path = state_dir(config, RECORD)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def may_replace(config, assignment, new):
    """None if ``exercises/<a>/<a>.ipynb`` may become ``new``, else why not."""
    target = release_notebook(config, assignment)
    current = _read(target)
    if current is None or current == new:
        return None
    if _record(config).get(assignment) == _sha(current):
        return None
    if current == _committed(config.CourseDirectory.root, target):
        return None
    return ("%s differs from what generate last wrote there (edited by hand, or a learner's "
            "work?); it was left as it is: move it away, or pass --force to overwrite it"
            % os.path.relpath(target, config.CourseDirectory.root))


def generate(config, assignments=None, force=False):
    """Generate ``assignments`` (default: all in solutions/); returns ``{a: success}``."""
    os.makedirs(state_dir(config, "exchange"), exist_ok=True)  # nbgrader checks it exists
    record = _record(config)
    results = {}
    for assignment in assignments or source_assignments(config):
        check_assignment(config, assignment)
        results[assignment] = _generate_one(config, assignment, force, record)
    with open(state_dir(config, RECORD), "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    record_due_dates(config, list(results))
    return results


def _generate_one(config, assignment, force, record):
    scratch = state_dir(config, "generating")
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        temporary = copy.deepcopy(config)
        temporary.CourseDirectory.release_directory = os.path.relpath(scratch, config.CourseDirectory.root)
        api = NbGraderAPI(CourseDirectory(config=temporary), config=temporary)
        result = api.generate_assignment(assignment, force=True, create=True)
        if not result["success"]:
            print("%s: FAILED" % assignment)
            print(result.get("log", "") + result.get("error", ""))
            return False
        new = _read(os.path.join(scratch, assignment, assignment + ".ipynb"))
        refusal = None if force else may_replace(config, assignment, new)
        if refusal:
            print("%s: not written: %s" % (assignment, refusal))
            return False
        target = os.path.dirname(release_notebook(config, assignment))
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(os.path.join(scratch, assignment), target)
        record[assignment] = _sha(new)
        print("%s: generated" % assignment)
        return True
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

