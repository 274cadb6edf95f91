"""Benchmark: what a control group per kernel costs: the same class graded with and without one.

    python tests/bench/bench_cgroups.py [--students 8] [--workers 2] [--rounds 1]
                                        [--assignment clone]

Builds a throw-away course (as ``bench_autograde.py`` does: a third of the
students full marks, a third blank, a third mixtures) and grades it in one run
two ways, ``--rounds`` times each, in an order that changes every round so a
change in the shared machine's load falls on both:

  cgroups       the default: each sandboxed kernel in its control group (memory, CPU weight
                and quota, pids)
  no-cgroups    ``--GradingKernelManager.cgroups=False``: the same sandbox, no group

It prints each run's wall time and the mean time of one notebook (kernel
start, imports and cells), then the cost of the groups as a share of grading
time, against the target (at most 10 %), and checks that both ways gave the
same scores.
"""

import os
import shutil
import statistics
import sys
import tempfile

from synthetic_class import bench_arguments, build_base, cannot_run, choose_assignment, copy_course, read_scores

from autograder.kernels.cgroups import why_unavailable as cgroups_unavailable
from autograder.grade import autograde
from autograder.kernels.sandbox import why_unavailable

TARGET = 0.10
NO_CGROUPS = {"GradingKernelManager.cgroups": False}


def main():
    args = bench_arguments(__doc__, students=8, rounds=(1, None))
    if cannot_run("bench_cgroups", why_unavailable() or cgroups_unavailable(), "cannot run here"):
        return 1
    assignment, source = choose_assignment(args.assignment)
    work = tempfile.mkdtemp(prefix="bench-cgroups-")
    try:
        base = os.path.join(work, "base")
        students = build_base(base, assignment, source, args.students)
        print("assignment %s, %d students, %d workers, %d cores, load average %.1f"
              % (assignment, len(students), args.workers, os.cpu_count(), os.getloadavg()[0]),
              flush=True)
        ways = {"cgroups": {}, "no-cgroups": NO_CGROUPS}
        labels = list(ways)
        walls = {label: [] for label in labels}
        notebooks = {label: [] for label in labels}
        scores = {}
        order = []
        for n in range(args.rounds):
            order += labels if n % 2 == 0 else list(reversed(labels))
        for n, label in enumerate(order):
            config = copy_course(base, os.path.join(work, "%s-%d" % (label, n)), students)
            run = autograde(config, assignment, workers=args.workers, progress=False,
                            shard_config=ways[label])
            assert not run.failed, run.failed
            per = statistics.mean(t["total"] for t in run.timings)
            walls[label].append(run.seconds)
            notebooks[label] += [t["total"] for t in run.timings]
            print("%-12s wall %6.1f s   one notebook %.3f s (mean of %d)"
                  % (label, run.seconds, per, len(run.timings)), flush=True)
            scores.setdefault(label, read_scores(config, assignment))
        same = scores["cgroups"] == scores["no-cgroups"]
        wall = {k: statistics.mean(v) for k, v in walls.items()}
        notebook = {k: statistics.mean(v) for k, v in notebooks.items()}
        wall_cost = wall["cgroups"] / wall["no-cgroups"] - 1
        notebook_cost = notebook["cgroups"] / notebook["no-cgroups"] - 1
        worst = max(wall_cost, notebook_cost)
        print("the cgroups: wall %.1f s with, %.1f s without: %+.1f %%; one notebook %.3f s with, %.3f s "
              "without: %+.1f %%" % (wall["cgroups"], wall["no-cgroups"], 100 * wall_cost,
                                     notebook["cgroups"], notebook["no-cgroups"], 100 * notebook_cost))
        print("load average now %.1f" % os.getloadavg()[0])
        print("scores identical both ways: %s" % ("yes" if same else "NO"))
        print("target (the cgroups cost at most %d %% of grading time): %s"
              % (100 * TARGET, "met" if worst <= TARGET else "NOT met"))
        return 0 if same else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
