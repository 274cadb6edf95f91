"""Autograde a whole class: a pool of workers, one writer for the gradebook.

``autograde(config, assignment, workers=2)``:

1. lists the submissions to grade (every student who submitted, or those named);
2. refuses to go on if kernels cannot be sandboxed here (``autograder.kernels.sandbox``),
   unless ``unsandboxed=True``;
3. grades them with a ``concurrent.futures.ProcessPoolExecutor`` of ``workers``
   processes (``autograder.shard``), one task per submission, with one
   progress bar.  Each task *returns* its student's grades and graded notebook;
   a result is accepted only as the answer to the task that asked for that
   student.  Kernels cannot reach the pool's pipes;
4. merges each student's grades into the course gradebook (``autograder.merge``)
   and writes the graded notebooks.

A whole-run deadline (``deadline`` seconds, by default enough for every
notebook to run into its own time limit) guarantees the run ends: past it,
the submissions not graded get 0 with that reason and every worker ends
itself, taking its kernels with it.  A worker that dies takes the pool down
(that is how ``concurrent.futures`` reports it); its unfinished submissions
are graded again once, in a fresh pool, before they get 0.

Only this process writes the course gradebook, and only the rows of the
students it graded.  A student whose grading failed gets 0 with the reason;
every other student's grade is left exactly as it was.  With ``workers=1``
the same code runs with one worker, so sequential and parallel runs go through
identical steps and give identical scores.
"""

import concurrent.futures
import dataclasses
import math
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures.process import BrokenProcessPool

from tqdm import tqdm

from . import shard
from .course import (CourseError, autograded_dir, check_assignment, db_url, state_dir,
                     submitted_students)
from .term.late import record_due_dates
from .merge import merge_student, open_gradebook, record_failure
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
                  shard_config=None, keep_shards=False, unsandboxed=False, deadline=None):
    """Grade several assignments with one pool of workers: ``{assignment: GradeRun}``.

    ``students`` optionally maps an assignment to the students to grade.
    The workers' start-up (Python, nbgrader, the zygote's ``import torch``) is
    paid once for all the assignments.  ``deadline``: seconds the whole run
    may take (default: see ``SECONDS_PER_SUBMISSION``).
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
    tasks = [(a, s) for a, group in plan.items() for s in group]
    if deadline is None:
        deadline = STARTUP_SECONDS + SECONDS_PER_SUBMISSION * math.ceil(len(tasks) / workers)
    work = tempfile.mkdtemp(prefix="autograder-run-")
    try:
        if tasks:
            spec = {"root": config.CourseDirectory.root, "state": state_dir(config), "work": work,
                    "gradebook": db_url(config)[len("sqlite:///"):], "warm": warm,
                    "unsandboxed": unsandboxed, "config": shard_config or {},
                    "deadline": time.monotonic() + deadline}
            results = _grade_in_pool(spec, tasks, workers, progress, ", ".join(runs))
            _merge(config, results, runs)
    finally:
        if not keep_shards:
            shutil.rmtree(work, ignore_errors=True)
    for run in runs.values():
        run.seconds = time.perf_counter() - started
    return runs


def _failure(task, reason):
    return {"assignment": task[0], "student": task[1], "error": reason, "timings": []}


def _grade_in_pool(spec, tasks, workers, progress, label):
    """``{(assignment, student): result}`` for every task, whatever happens to the workers."""
    results = {}
    pending = list(tasks)
    with tqdm(total=len(tasks), desc="autograde " + label, unit="submission",
              disable=not progress, file=sys.stderr) as bar:
        for attempt in range(2):
            if not pending or time.monotonic() >= spec["deadline"]:
                break
            pending = _one_pool(spec, pending, workers, results, bar)
    for task in tasks:
        if task not in results:
            reason = ("the grading worker crashed while grading it (twice)" if task in pending
                      else "the run's deadline passed before it was graded")
            results[task] = _failure(task, reason)
    return results


def _one_pool(spec, tasks, workers, results, bar):
    """Grade ``tasks`` in a fresh pool; returns the tasks lost to a worker that died."""
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, len(tasks)), mp_context=multiprocessing.get_context("spawn"),
        initializer=shard.start_worker, initargs=(spec,))
    futures = {pool.submit(shard.grade_submission, *task): task for task in tasks}
    lost = []
    finished = False
    try:
        for future in concurrent.futures.as_completed(futures, max(0.0, spec["deadline"] - time.monotonic())):
            task = futures[future]
            try:
                result = future.result()
            except BrokenProcessPool:
                lost.append(task)
                continue
            except Exception as error:  # noqa: BLE001 - the grader's own failure, for this student
                result = _failure(task, "grading failed: %s: %s" % (type(error).__name__, error))
            if not isinstance(result, dict) or (result.get("assignment"), result.get("student")) != task:
                result = _failure(task, "the grading worker returned a result for someone else")
            results[task] = result
            bar.update(1)
        finished = True
    except concurrent.futures.TimeoutError:
        pass  # the workers end themselves at the deadline
    finally:
        pool.shutdown(wait=finished, cancel_futures=True)
    return lost


def _merge(config, results, runs):
    course_id = config.CourseDirectory.course_id
    with open_gradebook(db_url(config), course_id) as main:
        for (assignment, student), result in sorted(results.items()):
            run = runs[assignment]
            run.timings.extend(dict(timing, student=student) for timing in result.get("timings", []))
            target = autograded_dir(config, student, assignment)
            shutil.rmtree(target, ignore_errors=True)
            if result["error"]:
                run.failed[student] = result["error"]
                record_failure(main, assignment, student, result["error"], target)
                continue
            merge_student(main, result)
            os.makedirs(target)
            for name, data in result["files"].items():
                with open(os.path.join(target, os.path.basename(name)), "wb") as f:
                    f.write(data)
            run.graded.append(student)
    for run in runs.values():
        run.graded.sort()
