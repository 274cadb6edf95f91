"""A grading worker: one process of the pool that autogrades submissions one at a time.

``autograder.grade`` starts its workers with ``concurrent.futures``.  When a
worker starts (:func:`start_worker`) it makes a private folder that looks
like the course, its *worker root*::

    <worker>/solutions/<a>     -> symlink to the course's source folder
    <worker>/exercises/<a>     -> symlink to the release (for unreadable files)
    <worker>/autograder/gradebook.db          a copy of the course gradebook (the worker's
    <worker>/autograder/submitted/<student>/<a>/   state folder), and the submissions it grades

starts its kernel zygote (``warm``: torch is imported once, in the
background) and arms the run's deadline: past it the worker ends itself, and
every kernel it started ends with it.

For each task, :func:`grade_submission` copies one submission in, runs stock
nbgrader ``Autograde`` on that one student with the course's configuration,
and *returns* the result: the student's grades and comments read back from
the worker's gradebook, and the graded notebook.  Returned values travel back
through the pool's own pipe: no kernel holds it (kernels run in sandboxes and
inherit no file descriptor), so no notebook can forge or hide a result, and
``autograder.grade`` accepts each result only as the answer to the task that
asked for that student.
"""

import logging
import os
import shutil
import threading
import time

from nbgrader.api import Gradebook
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory

from .kernels import execute, grading_kernels
from .pipeline import failsafe, submission
from . import shared_engine
from .course import TERM_CONFIG, autograded_dir, course_config, db_url, release_notebook, submitted_dir
from .merge import COMMENT_FIELDS, GRADE_FIELDS, STUDENT_FIELDS

# Files of a graded submission that go back to the course (nothing the student shipped).
# the graded notebook, its notes, and the traceback of a grading that raised (failsafe)
RETURNED_FILES = (".ipynb", execute.MESSAGES_FILE, failsafe.LOG_FILE, submission.UNREADABLE_SUFFIX)


def prepare_submission(source_dir, dest_dir, assignment, release_path):
    """Copy one submission into the shard.  A renamed notebook, a file that is no notebook and the
    collector's notes are nbgrader's own pipeline steps (``autograder.pipeline.submission``, enabled
    in ``nbgrader_config.py``), shared with plain ``nbgrader autograde``."""
    shutil.copytree(source_dir, dest_dir, symlinks=False)


class _ErrorLog(logging.Handler):
    """Keeps nbgrader's error log lines while one submission is graded."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


class Worker:
    """One worker's state: its private course folder, configuration and deadline."""

    def __init__(self, spec):
        self.spec = spec
        self.root = os.path.join(spec["work"], "worker-%d" % os.getpid())
        self.state = os.path.join(self.root, "autograder")  # the worker's own state folder
        os.makedirs(self.state)
        shutil.copy(spec["gradebook"], os.path.join(self.state, "gradebook.db"))
        term = os.path.join(spec["state"], TERM_CONFIG)  # the term's late penalty applies here too
        if os.path.exists(term):
            shutil.copy(term, os.path.join(self.state, TERM_CONFIG))
        self.course = course_config(spec["root"], spec["state"])
        overrides = dict(spec.get("config", {}))
        overrides["GradingKernelManager.warm"] = bool(spec.get("warm"))
        overrides["GradingKernelManager.unsandboxed"] = bool(spec.get("unsandboxed"))
        self.overrides = overrides
        self.log_level = spec.get("log_level", logging.WARNING)

    def link_assignment(self, assignment):
        cd = self.course.CourseDirectory
        for folder in (cd.source_directory, cd.release_directory):
            os.makedirs(os.path.join(self.root, folder), exist_ok=True)
            link = os.path.join(self.root, folder, assignment)
            if not os.path.lexists(link):
                os.symlink(os.path.join(cd.root, folder, assignment), link)

    def grade(self, assignment, student):
        self.link_assignment(assignment)
        config = course_config(self.root, self.state, **self.overrides)
        prepare_submission(submitted_dir(self.course, student, assignment),
                           submitted_dir(config, student, assignment),
                           assignment, release_notebook(self.course, assignment))
        config.CourseDirectory.assignment_id = assignment
        config.CourseDirectory.student_id = student
        converter = Autograde(coursedir=CourseDirectory(config=config), config=config)
        converter.force = True
        errors = _ErrorLog()
        converter.log.addHandler(errors)
        converter.log.setLevel(self.log_level)
        first_timing = len(execute.TIMINGS)
        error = None
        try:
            converter.start()
        except Exception as problem:  # nbgrader raises once at the end if the student failed
            lines = [line for line in errors.lines if "Traceback" not in line] or errors.lines
            error = (lines[-1].strip().splitlines()[-1] if lines and lines[-1].strip()
                     else "%s: %s" % (type(problem).__name__, problem))[:500]
        finally:
            converter.log.removeHandler(errors)
        graded = autograded_dir(config, student, assignment)
        if error is None and not os.path.exists(os.path.join(graded, assignment + ".ipynb")):
            error = "no notebook named %s.ipynb was submitted" % assignment
        result = {"assignment": assignment, "student": student, "error": error,
                  "timings": execute.TIMINGS[first_timing:]}
        if error is None:
            result.update(read_grades(config, assignment, student))
            result["files"] = {name: _read(os.path.join(graded, name)) for name in os.listdir(graded)
                               if name.endswith(RETURNED_FILES) and os.path.isfile(os.path.join(graded, name))}
        return result


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def read_grades(config, assignment, student):
    """The student's submission as plain data: what ``autograder.merge`` copies into the course."""
    with Gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        found = gb.find_student(student)
        submission = gb.find_submission(assignment, student)
        return {
            "student_fields": {name: getattr(found, name) for name in STUDENT_FIELDS
                               if getattr(found, name, None)},
            "timestamp": submission.timestamp,
            "notebooks": [{
                "name": nb.name, "flagged": nb.flagged,
                "late_submission_penalty": nb.late_submission_penalty,
                "grades": {g.name: {f: getattr(g, f) for f in GRADE_FIELDS} for g in nb.grades},
                "comments": {c.name: {f: getattr(c, f) for f in COMMENT_FIELDS} for c in nb.comments},
            } for nb in submission.notebooks],
        }


_worker = None


def _end_at_deadline(deadline):
    """Past the run's deadline this worker ends at once; its sandboxes and zygote die with it."""
    def expire():
        os._exit(70)
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), expire)
    timer.daemon = True
    timer.start()


def start_worker(spec):
    """``concurrent.futures`` initializer: set this worker up (see the module docstring)."""
    global _worker
    if spec.get("deadline") is not None:
        _end_at_deadline(spec["deadline"])
    shared_engine.install()
    # kernel folders inside the run's folder, which the parent removes (workers skip atexit)
    grading_kernels.use_kernel_folders(os.path.join(spec["work"], "kernels-%d" % os.getpid()))
    if spec.get("warm"):
        grading_kernels.start_zygote(sandboxed=not spec.get("unsandboxed"))  # imports torch now
    _worker = Worker(spec)


def grade_submission(assignment, student):
    """The task: grade one student's submission of one assignment, return the result (a dict)."""
    return _worker.grade(assignment, student)
