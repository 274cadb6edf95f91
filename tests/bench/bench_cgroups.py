"""Benchmark: what a control group per kernel costs: the same class graded with and without.

    python tests/bench/bench_cgroups.py [--students 8] [--workers 2] [--rounds 2]
                                        [--assignment clone]

Builds a throw-away course (as ``bench_autograde.py`` does: a third of the
students full marks, a third blank, a third mixtures) and grades it
``--rounds`` times each way, alternating (with, without, without, with, ...)
so that a change in the shared machine's load falls on both:

  cgroups     the default: each sandboxed kernel in its control group
              (memory, CPU weight and quota, pids; ``autograder.kernels.cgroups``)
  no-cgroups  ``--GradingKernelManager.cgroups=False``: the same sandbox, no group

It prints each run's wall time and the mean time of one notebook (kernel
start, imports and cells), then the cost of the control groups as a share of
grading time, against the target (at most 10 %), and checks that both ways
gave the same scores.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile

from bench_autograde import FIXTURE, REPO, build_base, copy_course, read_scores

from autograder.kernels.cgroups import why_unavailable as cgroups_unavailable
from autograder.grade import autograde
from autograder.kernels.sandbox import why_unavailable

TARGET = 0.10


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--assignment", default=None)
    args = parser.parse_args()
    why = why_unavailable() or cgroups_unavailable()
    if why:
        print("bench_cgroups: cannot run here: %s" % why)
        return 1
    assignment = args.assignment
    if assignment is None:
        assignment = "clone" if os.path.isdir(os.path.join(REPO, "solutions", "clone")) else "fixture"
    source = FIXTURE if assignment == "fixture" else os.path.join(REPO, "solutions", assignment)
    work = tempfile.mkdtemp(prefix="bench-cgroups-")
    try:
        base = os.path.join(work, "base")
        students = build_base(base, assignment, source, args.students)
        print("assignment %s, %d students, %d workers, %d cores, load average %.1f"
              % (assignment, len(students), args.workers, os.cpu_count(), os.getloadavg()[0]),
              flush=True)
        walls = {"cgroups": [], "no-cgroups": []}
        notebooks = {"cgroups": [], "no-cgroups": []}
        scores = {}
        order = []
        for n in range(args.rounds):
            order += ["cgroups", "no-cgroups"] if n % 2 == 0 else ["no-cgroups", "cgroups"]
        for n, label in enumerate(order):
            config = copy_course(base, os.path.join(work, "%s-%d" % (label, n)), students, assignment)
            run = autograde(config, assignment, workers=args.workers, progress=False,
                            shard_config={"GradingKernelManager.cgroups": label == "cgroups"})
            assert not run.failed, run.failed
            per = statistics.mean(t["total"] for t in run.timings)
            walls[label].append(run.seconds)
            notebooks[label] += [t["total"] for t in run.timings]
            print("%-10s wall %6.1f s   one notebook %.3f s (mean of %d)"
                  % (label, run.seconds, per, len(run.timings)), flush=True)
            scores.setdefault(label, read_scores(config, assignment))
        same = scores["cgroups"] == scores["no-cgroups"]
        wall = {k: statistics.mean(v) for k, v in walls.items()}
        notebook = {k: statistics.mean(v) for k, v in notebooks.items()}
        wall_cost = wall["cgroups"] / wall["no-cgroups"] - 1
        notebook_cost = notebook["cgroups"] / notebook["no-cgroups"] - 1
        print("mean wall: with %.1f s, without %.1f s: %+.1f %%"
              % (wall["cgroups"], wall["no-cgroups"], 100 * wall_cost))
        print("mean notebook: with %.3f s, without %.3f s: %+.1f %%"
              % (notebook["cgroups"], notebook["no-cgroups"], 100 * notebook_cost))
        print("load average now %.1f" % os.getloadavg()[0])
        print("scores identical with and without cgroups: %s" % ("yes" if same else "NO"))
        print("target (cgroups cost at most %d %% of grading time): %s"
              % (100 * TARGET, "met" if max(wall_cost, notebook_cost) <= TARGET else "NOT met"))
        return 0 if same else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
