"""The worker's side: grade one submission, return the result as data.

A grading task (:func:`grade_submission`) runs in a ``dask worker`` process
(or, for a sequential run, in the grader's own process).  What it needs
travels with it as data: the run's *spec* (the course folder, the
configuration overrides, the term's settings, the deadline), a snapshot of
the course gradebook (SQLite bytes, see ``autograder.engine.gradebook``) and
the student's submitted files.  The machine it runs on needs only the course
checkout at the same path (for the assignment's source and release) and
bubblewrap; it needs neither the course-state folder nor the gradebook.

Each worker process keeps, for its whole life, its kernel folders and its
warm kernel zygote (``autograder.kernels.grading_kernels``: torch imported
once, each kernel forked from it into its own sandbox), both started by the
``GradingPlugin`` when the worker starts (``autograder.engine.plugin``), and
one :class:`WorkerState` (made by its first task).  For each run it makes a private
folder that looks like the course, its *workspace*::

    <scratch>/autograder-run-<run>/worker-<pid>/solutions/<a>   -> symlink to the course's source
    <scratch>/autograder-run-<run>/worker-<pid>/exercises/<a>   -> symlink to the release
    <scratch>/autograder-run-<run>/worker-<pid>/autograder/gradebook.db   the snapshot
    <scratch>/autograder-run-<run>/worker-<pid>/autograder/submitted/<student>/<a>/

(``<scratch>``: memory-backed ``/dev/shm`` when it has room, else ``/tmp``; see :func:`scratch_root`)

and grades there with stock nbgrader ``Autograde``, one student at a time
(a lock: a worker started with several threads still grades one at a time).
The result -- the student's grades and comments read back from the
workspace's gradebook, and the graded notebook -- is *returned*; only the
grader's process writes the course gradebook (``autograder.grade``).  No
kernel holds the channel the result travels on (kernels run in sandboxes and
inherit no file descriptor), so no notebook can forge or hide a result.
"""

import contextlib
import functools
import logging
import os
import shutil
import tempfile
import threading
import time

from nbgrader.api import Gradebook
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory

from ..kernels import execute
from ..pipeline import failsafe, sanitize, submission
from ..course import TERM_CONFIG, autograded_dir, course_config, db_url, submitted_dir
from . import plugin
from .gradebook import COMMENT_FIELDS, GRADE_FIELDS, STUDENT_FIELDS, create_submission

# Files of a graded submission that go back to the course (nothing the student shipped):
# the graded notebook, its notes, and the traceback of a grading that raised (failsafe)
RETURNED_FILES = (".ipynb", execute.MESSAGES_FILE, failsafe.LOG_FILE, submission.UNREADABLE_SUFFIX)
# A workspace nobody has graded in for this long belongs to a finished run: removed.
IDLE_WORKSPACE_SECONDS = 3600


def read_submission(folder):
    """A submitted folder as data: ``{relative path: bytes}`` (regular files only, no links)."""
    files = {}
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(top, d)))
        for name in sorted(names):
            full = os.path.join(top, name)
            if os.path.isfile(full) and not os.path.islink(full):
                with open(full, "rb") as f:
                    files[os.path.relpath(full, folder)] = f.read()
    return files


def write_submission(files, dest_dir):
    """Write a submission (:func:`read_submission`) into ``dest_dir``, inside it only."""
    os.makedirs(dest_dir)
    for relative, data in files.items():
        target = os.path.normpath(os.path.join(dest_dir, relative))
        if os.path.commonpath([target, dest_dir]) != dest_dir:
            continue  # a name that climbs out of the folder: not a file of this submission
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)


def prepare_submission(files, dest_dir):
    """Write one submission into the workspace, as it was handed in.  A renamed notebook, a file
    that is no notebook and the collector's notes are nbgrader's own pipeline steps
    (``autograder.pipeline.submission``, enabled in ``nbgrader_config.py``), shared with plain
    ``nbgrader autograde``."""
    write_submission(files, dest_dir)


class _ErrorLog(logging.Handler):
    """Keeps nbgrader's error log lines while one submission is graded."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


# A workspace's gradebook is a scratch copy: nbgrader commits each grade to it (dozens of commits
# per submission), and on a disk each commit waits for the disk.  Kept in memory when the machine
# has a memory-backed folder with room to spare; the course gradebook is written by the grader.
MEMORY_FOLDER = "/dev/shm"
MEMORY_FOLDER_FREE_BYTES = 1 << 30


def scratch_root():
    """Where workspaces go: :data:`MEMORY_FOLDER` if it is a writable folder with at least
    :data:`MEMORY_FOLDER_FREE_BYTES` free, else the temporary folder."""
    try:
        stat = os.statvfs(MEMORY_FOLDER)
        if os.access(MEMORY_FOLDER, os.W_OK | os.X_OK) and stat.f_bavail * stat.f_frsize >= MEMORY_FOLDER_FREE_BYTES:
            return MEMORY_FOLDER
    except OSError:
        pass
    return tempfile.gettempdir()


def run_folder(run):
    """Where this machine's workers keep their workspaces of ``run``."""
    return os.path.join(scratch_root(), "autograder-run-" + run)


class Workspace:
    """One run's private course folder in this worker (see the module docstring)."""

    def __init__(self, spec, snapshot):
        self.spec = spec
        self.run = run_folder(spec["run"])
        self.root = os.path.join(self.run, "worker-%d" % os.getpid())
        self.state = os.path.join(self.root, "autograder")  # the workspace's own state folder
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(self.state)
        with open(os.path.join(self.state, "gradebook.db"), "wb") as f:
            f.write(snapshot)
        if spec.get("term_config") is not None:  # the term's late penalty applies here too
            with open(os.path.join(self.state, TERM_CONFIG), "w") as f:
                f.write(spec["term_config"])
        overrides = dict(spec.get("config", {}))
        overrides["GradingKernelManager.warm"] = bool(spec.get("warm"))
        overrides["GradingKernelManager.unsandboxed"] = bool(spec.get("unsandboxed"))
        self.overrides = overrides
        self.used = time.monotonic()
        self._gradebook = None

    def gradebook(self, config):
        """The workspace's gradebook, opened once for the run (:func:`read_grades`, and each
        submission's rows): its statements are compiled once, not once per submission, as every
        ``Gradebook`` has an engine and a statement cache of its own.  Its session is closed after
        each use (:meth:`released`), so it holds no connection while nbgrader writes, and reads what
        nbgrader wrote."""
        if self._gradebook is None:
            self._gradebook = Gradebook(db_url(config), config.CourseDirectory.course_id)
        return self._gradebook

    @contextlib.contextmanager
    def released(self, config):
        """The workspace's gradebook, its session closed afterwards (SQLAlchemy's public
        ``scoped_session.remove``: the engine and its statement cache stay)."""
        gb = self.gradebook(config)
        try:
            yield gb
        finally:
            gb.db.remove()

    def link_assignment(self, assignment):
        course = course_config(self.spec["root"], self.state)
        for folder in (course.CourseDirectory.source_directory, course.CourseDirectory.release_directory):
            os.makedirs(os.path.join(self.root, folder), exist_ok=True)
            link = os.path.join(self.root, folder, assignment)
            if not os.path.lexists(link):
                os.symlink(os.path.join(self.spec["root"], folder, assignment), link)
        return course

    def grade(self, assignment, student, files):
        self.used = time.monotonic()
        self.link_assignment(assignment)
        config = course_config(self.root, self.state, **self.overrides)
        limit = config.GuardedExecute.get("notebook_timeout", execute.GuardedExecute.notebook_timeout.default_value)
        left = int(self.spec["deadline"] - time.time())
        if not limit or left < limit:  # no kernel outlives the run's deadline
            config.GuardedExecute.notebook_timeout = max(1, left)
        target = submitted_dir(config, student, assignment)
        shutil.rmtree(target, ignore_errors=True)  # a task graded again on the same worker
        prepare_submission(files, target)
        # the submission's rows, made the way that does not trip SQLAlchemy's autoflush
        # (see autograder.engine.gradebook.create_submission); nbgrader then only updates them
        with self.released(config) as gb:
            create_submission(gb, assignment, student)
        config.CourseDirectory.assignment_id = assignment
        config.CourseDirectory.student_id = student
        converter = Autograde(coursedir=CourseDirectory(config=config), config=config)
        converter.force = True
        errors = _ErrorLog()
        converter.log.addHandler(errors)
        converter.log.setLevel(self.spec.get("log_level", logging.WARNING))
        first_timing = len(execute.TIMINGS)
        error = None
        try:
            with sanitize.lend_gradebook(db_url(config), functools.partial(self.released, config)):
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
                  "timings": execute.TIMINGS[first_timing:], "worker": os.getpid()}
        if error is None:
            with self.released(config) as gb:
                result.update(read_grades(gb, assignment, student))
            result["files"] = {name: _read(os.path.join(graded, name)) for name in os.listdir(graded)
                               if name.endswith(RETURNED_FILES) and os.path.isfile(os.path.join(graded, name))}
        shutil.rmtree(target, ignore_errors=True)
        shutil.rmtree(graded, ignore_errors=True)
        return result

    def remove(self):
        if self._gradebook is not None:
            self._gradebook.close()
            self._gradebook = None
        shutil.rmtree(self.root, ignore_errors=True)
        try:
            os.rmdir(self.run)  # empty once every worker of this machine has left it
        except OSError:
            pass


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def read_grades(gb, assignment, student):
    """The student's submission in the gradebook ``gb`` as plain data: what the grader writes into
    the course."""
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


class WorkerState:
    """What one worker process keeps between tasks and runs: kernel folders, zygotes, workspaces."""

    def __init__(self):
        self.lock = threading.Lock()
        self.workspaces = {}
        self.kernels = plugin.kernel_folders()

    def workspace(self, spec, snapshot):
        now = time.monotonic()
        for run, space in list(self.workspaces.items()):
            if run != spec["run"] and now - space.used > IDLE_WORKSPACE_SECONDS:
                space.remove()
                del self.workspaces[run]
        if spec["run"] not in self.workspaces:
            self.workspaces[spec["run"]] = Workspace(spec, snapshot)
        return self.workspaces[spec["run"]]

    def grade(self, spec, snapshot, assignment, student, files):
        with self.lock:
            if time.time() >= spec["deadline"]:
                return failure(assignment, student, "the run's deadline passed before it was graded")
            if spec.get("warm"):
                plugin.warm_up(sandboxed=not spec.get("unsandboxed"))
            return self.workspace(spec, snapshot).grade(assignment, student, files)


def failure(assignment, student, reason):
    return {"assignment": assignment, "student": student, "error": reason, "timings": []}


_state = None


def _forget_state():
    """In a forked child (a worker of the grader's local cluster): the state of the process it was
    forked from -- its workspaces, its lock, perhaps held by another thread -- is not its own."""
    global _state
    _state = None


os.register_at_fork(after_in_child=_forget_state)


def worker_state():
    """This process's :class:`WorkerState`, made on first use."""
    global _state
    if _state is None:
        _state = WorkerState()
    return _state


def drop_workspace(run):
    """Remove this process's workspace of ``run`` (the run is over).  A worker still
    grading (past a deadline) keeps it until it has been idle an hour."""
    if _state is not None and run in _state.workspaces and _state.lock.acquire(blocking=False):
        try:
            _state.workspaces.pop(run).remove()
        finally:
            _state.lock.release()


def grade_submission(spec, snapshot, assignment, student, files):
    """The task: grade one student's submission of one assignment; returns the result (a dict)."""
    return worker_state().grade(spec, snapshot, assignment, student, files)
