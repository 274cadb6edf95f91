"""Autograde a whole class: shards of students in parallel, one writer for the gradebook.

``autograde(config, assignment, workers=2)``:

1. splits the students who submitted into ``workers`` shards (round robin);
2. gives each shard a private course folder with a copy of the gradebook and
   starts ``python -m autograder.shard`` on it: stock nbgrader Autograde, with
   kernels forked from a warm zygote unless ``warm=False``;
3. shows one progress bar fed by the shards' "graded" lines;
4. when all shards are done, merges each student's grades into the course
   gradebook (``autograder.merge``) and copies the graded notebooks back.

Only this process writes the course gradebook, and only the rows of the
students it graded.  A student whose grading failed gets 0 with the reason;
every other student's grade is left exactly as it was.  With ``workers=1``
the same code runs as one shard, so sequential and parallel runs go through
identical steps and give identical scores.
"""

import dataclasses
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from tqdm import tqdm

from .course import (CourseError, autograded_dir, check_assignment, db_url, submitted_students)
from .merge import merge_student, open_gradebook, record_failure


@dataclasses.dataclass
class GradeRun:
    assignment: str
    graded: list
    failed: dict          # student -> reason
    timings: list         # one dict per notebook: kernel_start, imports, tests, total
    seconds: float
    workers: int


def split(students, workers):
    """Round-robin shards, so each gets a similar mix of early and late students."""
    shards = [students[i::workers] for i in range(workers)]
    return [shard for shard in shards if shard]


def _read_lines(shard_id, stream, events):
    for line in stream:
        try:
            events.put((shard_id, json.loads(line)))
        except json.JSONDecodeError:
            continue  # not ours (a library printed something)
    events.put((shard_id, None))


def _ensure_in_gradebook(config, assignment):
    with open_gradebook(db_url(config), config.CourseDirectory.course_id) as gb:
        names = [a.name for a in gb.assignments]
    if assignment not in names:
        raise CourseError("assignment %r is not in the gradebook yet: run "
                          "`python -m autograder generate %s` first" % (assignment, assignment))


def autograde(config, assignment, students=None, **options):
    """Grade every submission of ``assignment`` (or only ``students``); returns a GradeRun."""
    return autograde_all(config, [assignment], {assignment: students} if students else None,
                         **options)[assignment]


def autograde_all(config, assignments, students=None, workers=2, warm=True, progress=True,
                  shard_config=None, keep_shards=False):
    """Grade several assignments in one set of shards: ``{assignment: GradeRun}``.

    ``students`` optionally maps an assignment to the students to grade.
    The shards' start-up (Python, nbgrader, the zygote's ``import torch``) is
    paid once for all the assignments.
    """
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
    runs = {a: GradeRun(a, [], {}, [], 0.0, workers) for a in assignments}
    shards = []  # {assignment: [students]} per shard
    for assignment, group in plan.items():
        for index, part in enumerate(split(group, max(1, workers))):
            while len(shards) <= index:
                shards.append({})
            shards[index][assignment] = part
    total = sum(len(group) for group in plan.values())
    work = tempfile.mkdtemp(prefix="autograder-shards-")
    try:
        if total:
            timings = _run_shards(config, shards, work, warm, progress, shard_config, runs, total)
            _merge(config, shards, work, runs)
            for run in runs.values():
                run.timings = timings
    finally:
        if not keep_shards:
            shutil.rmtree(work, ignore_errors=True)
    for run in runs.values():
        run.seconds = time.perf_counter() - started
    return runs


def _run_shards(config, shards, work, warm, progress, shard_config, runs, total):
    """Start one ``autograder.shard`` process per shard; follow them with a progress bar."""
    db_file = db_url(config)[len("sqlite:///"):]
    processes = {}
    events = queue.Queue()
    for shard_id, plan in enumerate(shards):
        shard_root = os.path.join(work, "shard%d" % shard_id)
        os.makedirs(os.path.join(shard_root, "autograder"))
        shutil.copy(db_file, os.path.join(shard_root, "autograder", "gradebook.db"))
        spec = {"root": config.CourseDirectory.root, "shard_root": shard_root, "plan": plan,
                "warm": warm, "config": shard_config or {}}
        spec_path = os.path.join(work, "shard%d.json" % shard_id)
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        log = open(os.path.join(work, "shard%d.log" % shard_id), "w")
        process = subprocess.Popen([sys.executable, "-m", "autograder.shard", spec_path],
                                   stdout=subprocess.PIPE, stderr=log, text=True)
        processes[shard_id] = (process, log)
        threading.Thread(target=_read_lines, args=(shard_id, process.stdout, events),
                         daemon=True).start()
    reported = set()
    timings = []
    running = set(processes)
    label = "autograde " + ", ".join(runs)
    with tqdm(total=total, desc=label, unit="submission", disable=not progress,
              file=sys.stderr) as bar:
        while running:
            shard_id, event = events.get()
            if event is None:
                running.discard(shard_id)
            elif "timings" in event:
                timings.extend(event["timings"])
            elif "graded" in event or "failed" in event:
                student = event.get("graded") or event.get("failed")
                reported.add((event["assignment"], student))
                if "failed" in event:
                    runs[event["assignment"]].failed[student] = event["error"]
                bar.update(1)
    for shard_id, (process, log) in processes.items():
        process.wait()
        log.close()
        for assignment, group in shards[shard_id].items():
            for student in group:
                if (assignment, student) not in reported:
                    with open(log.name) as f:
                        tail = f.read().strip().splitlines()[-1:] or ["no output"]
                    runs[assignment].failed[student] = ("the grading process crashed (%s)"
                                                        % tail[0][:300])
    return timings


def _merge(config, shards, work, runs):
    course_id = config.CourseDirectory.course_id
    with open_gradebook(db_url(config), course_id) as main:
        for shard_id, plan in enumerate(shards):
            shard_root = os.path.join(work, "shard%d" % shard_id)
            shard_db = "sqlite:///" + os.path.join(shard_root, "autograder", "gradebook.db")
            with open_gradebook(shard_db, course_id) as shard:
                for assignment, group in plan.items():
                    run = runs[assignment]
                    for student in group:
                        target = autograded_dir(config, student, assignment)
                        if student in run.failed:
                            shutil.rmtree(target, ignore_errors=True)
                            record_failure(main, assignment, student, run.failed[student], target)
                            continue
                        merge_student(main, shard, assignment, student)
                        source = os.path.join(shard_root, config.CourseDirectory.autograded_directory,
                                              student, assignment)
                        shutil.rmtree(target, ignore_errors=True)
                        shutil.copytree(source, target)
                        run.graded.append(student)
    for run in runs.values():
        run.graded.sort()
