"""Autograde a whole class: one task per submission on dask.distributed, one writer of grades.

``autograde(config, assignment, workers=2)``:

1. lists the submissions to grade (every student who submitted, or those named);
2. refuses to go on if kernels cannot be sandboxed here (``autograder.kernels.sandbox``),
   unless ``unsandboxed=True``;
3. grades them with the engine (``autograder.engine``): one task per
   submission, on a local cluster of ``workers`` processes (the default), on
   a farm of ``dask worker`` processes (``scheduler="tcp://HOST:8786"``), or
   in a loop in this process (``scheduler="in-process"``), with one progress
   bar.  Each task is given the submission's files and a snapshot of the
   gradebook, and *returns* its student's grades and graded notebook; a
   result is accepted only as the answer to the task that asked for that
   student.  Kernels cannot reach the channel results travel on;
4. writes each student's grades into the course gradebook
   (``autograder.engine.gradebook.record_result``) and the graded notebooks
   into the course-state folder as soon as that student's result is in, while
   the workers grade the next submissions.

Only this process writes the course gradebook -- a SQLite file, or a Postgres
database several graders share (``db_url``) -- and only the rows of the
students it graded, one transaction per student.  A student whose grading
failed gets 0 with the reason; every other student's grade is left exactly as
it was.  A worker that dies mid-run has its submissions graded by another; a
whole-run deadline (``deadline`` seconds, by default enough for every
notebook to run into its own time limit) guarantees the run ends: past it,
the submissions not graded get 0 with that reason.  Sequential and parallel
runs go through the identical task function and give identical scores.
"""

import contextlib
import dataclasses
import logging
import math
import os
import shutil
import time
import uuid

from .course import (TERM_CONFIG, CourseError, autograded_dir, check_assignment, db_url, state_dir,
                     submitted_dir, submitted_students)
from .engine.cluster import grade_tasks
from .engine.gradebook import open_gradebook, record_failure, record_result, snapshot
from .engine.worker import read_submission
from .term.late import record_due_dates
from .kernels.sandbox import require_sandbox

# Seconds each submission may take before the whole-run deadline, by default:
# the notebook's own limit (GuardedExecute.notebook_timeout) plus nbgrader's work.
SECONDS_PER_SUBMISSION = 300 + 60
STARTUP_SECONDS = 120


@dataclasses.dataclass
class GradeRun:
    assignment: str
    graded: list
    failed: dict          # student -> reason
    timings: list         # one dict per notebook: kernel_start, imports, tests, total, student
    seconds: float
    workers: int


def _ensure_in_gradebook(config, assignment):
    with open_gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        names = [a.name for a in gb.assignments]
    if assignment not in names:
        raise CourseError("assignment %r is not in the gradebook yet: run "
                          "`python -m autograder generate %s` first" % (assignment, assignment))
    record_due_dates(config, [assignment])  # the configured due date, as of now


def autograde(config, assignment, students=None, **options):
    """Grade every submission of ``assignment`` (or only ``students``); returns a GradeRun."""
    return autograde_all(config, [assignment], {assignment: students} if students else None,
                         **options)[assignment]


def autograde_all(config, assignments, students=None, workers=2, warm=True, progress=True,
                  shard_config=None, unsandboxed=False, deadline=None, scheduler=None):
    """Grade several assignments in one run: ``{assignment: GradeRun}``.

    ``students`` optionally maps an assignment to the students to grade.
    ``scheduler``: where the tasks run (see ``autograder.engine.cluster``);
    ``workers``: the local cluster's processes.  ``shard_config``: nbgrader
    configuration overrides for the grading (``{"Section.name": value}``).
    ``deadline``: seconds the whole run may take (default: see
    ``SECONDS_PER_SUBMISSION``).
    """
    if not unsandboxed:
        require_sandbox(with_cgroups=(shard_config or {}).get("GradingKernelManager.cgroups", True))
    plan = {}
    for assignment in assignments:
        check_assignment(config, assignment)
        _ensure_in_gradebook(config, assignment)
        everyone = submitted_students(config, assignment)
        wanted = (students or {}).get(assignment)
        if wanted:
            unknown = sorted(set(wanted) - set(everyone))
            if unknown:
                raise CourseError("no submission of %s from: %s" % (assignment, ", ".join(unknown)))
            everyone = [s for s in everyone if s in wanted]
        plan[assignment] = everyone
    started = time.perf_counter()
    workers = max(1, workers)
    runs = {a: GradeRun(a, [], {}, [], 0.0, workers) for a in assignments}
    tasks = [(a, s, read_submission(submitted_dir(config, s, a))) for a, group in plan.items() for s in group]
    if deadline is None:
        deadline = STARTUP_SECONDS + SECONDS_PER_SUBMISSION * math.ceil(len(tasks) / workers)
    if tasks:
        term = state_dir(config, TERM_CONFIG)
        spec = {"run": uuid.uuid4().hex, "root": config.CourseDirectory.root,
                "term_config": open(term).read() if os.path.exists(term) else None,
                "warm": warm, "unsandboxed": unsandboxed, "config": shard_config or {},
                "deadline": time.time() + deadline, "log_level": logging.WARNING}
        gradebook = snapshot(db_url(config), config.CourseDirectory.course_id)
        # opened at the first result: a local cluster's workers are forked from this process
        # when the run starts, and none of them should hold a copy of this connection
        with contextlib.ExitStack() as opened:
            main = []

            def accept(task, result):
                if not main:
                    main.append(opened.enter_context(
                        open_gradebook(db_url(config), config.CourseDirectory.course_id)))
                _record(config, main[0], runs[task[0]], task[1], result)

            grade_tasks(spec, gradebook, tasks, scheduler=scheduler, workers=workers,
                        progress=progress, label=", ".join(runs), accept=accept)
        for run in runs.values():
            run.graded.sort()
            run.timings.sort(key=lambda timing: timing["student"])
    for run in runs.values():
        run.seconds = time.perf_counter() - started
    return runs


def _record(config, main, run, student, result):
    """Write one student's result into the course (gradebook ``main``, graded files)."""
    assignment = run.assignment
    run.timings.extend(dict(timing, student=student) for timing in result.get("timings", []))
    target = autograded_dir(config, student, assignment)
    shutil.rmtree(target, ignore_errors=True)
    if result["error"]:
        run.failed[student] = result["error"]
        record_failure(main, assignment, student, result["error"], target)
        return
    record_result(main, result)
    os.makedirs(target)
    for name, data in result["files"].items():
        with open(os.path.join(target, os.path.basename(name)), "wb") as f:
            f.write(data)
    run.graded.append(student)
