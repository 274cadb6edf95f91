"""One shard: autograde a group of students in a private copy of the course.

nbgrader keeps every grade in one SQLite gradebook and has no parallel mode;
two nbgrader processes writing the same gradebook would step on each other.
So each shard works in its own *shard root*, a throw-away folder that looks
like the course::

    <shard>/solutions/<a>     -> symlink to the course's source folder (read only)
    <shard>/exercises/<a>     -> symlink to the release (for unreadable files)
    <shard>/autograder/gradebook.db          a copy of the course gradebook
    <shard>/autograder/submitted/<student>/<a>/   copies of this shard's submissions

and runs stock nbgrader ``Autograde`` there, with the course's own
configuration.  Only the kernels differ when ``warm`` is on: they are forked
from a zygote that imported torch once (``autograder.warm_kernels``).  The
parent (``autograder.grade``) copies the results back into the course
gradebook (``autograder.merge``).

Run as ``python -m autograder.shard spec.json``, where the spec's ``plan``
maps each assignment to this shard's students; it prints one JSON line per
submission as it finishes (``{"assignment": a, "graded": id}`` or
``{"assignment": a, "failed": id, "error": ...}``), then ``{"timings": [...]}``.
"""

import json
import logging
import os
import shutil
import sys

import nbformat
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory

from . import execute, shared_engine
from .course import course_config, release_notebook
from .collect import NOTES_FILE
from .sanitize import substitute_unreadable


def _emit(**record):
    sys.__stdout__.write(json.dumps(record) + "\n")
    sys.__stdout__.flush()


def _note_in_notebook(path, message):
    nb = nbformat.read(path, as_version=4)
    nb.metadata.setdefault("autograder", {}).setdefault("messages", []).append(message)
    nbformat.write(nb, path)


def prepare_submission(source_dir, dest_dir, assignment, release_path):
    """Copy one submission into the shard, repairing what can be repaired.

    A notebook saved under another name (the only notebook in the folder) is
    renamed back; a file that is not a notebook is replaced by the flagged
    release (``substitute_unreadable``).  Each repair, and each note the
    collector left (``collect_notes.json``), becomes a message in the notebook.
    """
    shutil.copytree(source_dir, dest_dir, symlinks=False)
    notes = []
    notes_file = os.path.join(dest_dir, NOTES_FILE)
    if os.path.exists(notes_file):
        with open(notes_file) as f:
            notes = json.load(f)
    expected = os.path.join(dest_dir, assignment + ".ipynb")
    if not os.path.exists(expected):
        others = [f for f in os.listdir(dest_dir) if f.endswith(".ipynb")]
        if len(others) != 1:
            return  # nbgrader gives 0 to a missing notebook; the merge says why
        os.rename(os.path.join(dest_dir, others[0]), expected)
        notes.append("the notebook was submitted as %r; it was graded as %r"
                     % (others[0], assignment + ".ipynb"))
    substitute_unreadable(expected, release_path)
    for note in notes:
        _note_in_notebook(expected, note)


def build_shard_root(spec):
    root, shard = spec["root"], spec["shard_root"]
    config = course_config(root)
    cd = config.CourseDirectory
    for assignment, students in spec["plan"].items():
        for folder in (cd.source_directory, cd.release_directory):
            os.makedirs(os.path.join(shard, folder), exist_ok=True)
            link = os.path.join(shard, folder, assignment)
            if not os.path.lexists(link):
                os.symlink(os.path.join(root, folder, assignment), link)
        for student in students:
            prepare_submission(os.path.join(root, cd.submitted_directory, student, assignment),
                               os.path.join(shard, cd.submitted_directory, student, assignment),
                               assignment, release_notebook(config, assignment))


class _ErrorsByStudent(logging.Handler):
    """Keeps nbgrader's error log lines, keyed by the student being graded."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.current = None
        self.errors = {}

    def emit(self, record):
        if self.current:
            self.errors.setdefault(self.current, []).append(record.getMessage())


def grade_assignment(config, assignment, students, log_level):
    """Run nbgrader's Autograde on ``students``; emits one line per student."""
    config.CourseDirectory.assignment_id = assignment
    submitted = os.path.join(config.CourseDirectory.root, config.CourseDirectory.submitted_directory)
    errors = _ErrorsByStudent()
    graded = set()

    def student_of(notebooks):  # nbgrader passes the glob "*" as student; the path has the id
        return os.path.relpath(notebooks[0], submitted).split(os.sep)[0] if notebooks else None

    def before(assignment, student, notebooks):
        errors.current = student_of(notebooks)

    def after(assignment, student, notebooks):
        graded.add(student_of(notebooks))
        _emit(assignment=config.CourseDirectory.assignment_id, graded=student_of(notebooks))

    config.BaseConverter.pre_convert_hook = before
    config.BaseConverter.post_convert_hook = after
    converter = Autograde(coursedir=CourseDirectory(config=config), config=config)
    converter.force = True
    converter.log.addHandler(errors)
    converter.log.setLevel(log_level)
    try:
        converter.start()
    except Exception as error:  # nbgrader raises once at the end if any student failed
        if not errors.errors and not set(students) - graded:
            raise
        converter.log.info("shard finished with failures: %s", error)
    finally:
        converter.log.removeHandler(errors)
    for student in students:
        if student not in graded:
            missing = "no notebook named %s.ipynb was submitted" % assignment
            lines = errors.errors.get(student) or [missing]
            detail = [line for line in lines if "Traceback" not in line][-1:] or lines[-1:]
            _emit(assignment=assignment, failed=student,
                  error=detail[0].strip().splitlines()[-1][:500])


def run_shard(spec):
    shared_engine.install()
    if spec.get("warm"):
        from .warm_kernels import start_zygote
        start_zygote()  # imports torch in the background while nbgrader starts
    build_shard_root(spec)
    overrides = dict(spec.get("config", {}))
    if spec.get("warm"):
        overrides["GuardedExecute.kernel_manager_class"] = "autograder.warm_kernels.ForkedKernelManager"
    for assignment, students in spec["plan"].items():
        config = course_config(spec["shard_root"], **overrides)
        grade_assignment(config, assignment, students, spec.get("log_level", logging.WARNING))
    _emit(timings=execute.TIMINGS)


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    run_shard(spec)


if __name__ == "__main__":
    main()
