"""``python -m autograder <command>``: the instructor's command line, and the learner's check.

Commands (each takes ``--root`` to work on a course folder other than this
repository; see autograder/README.md for a whole term):

    generate  [a ...]                    solutions/ -> exercises/ (nbgrader generate_assignment)
    collect   FOLDER [--assignment a]    zips or folders of submissions -> autograder/submitted/
    autograde [a ...] [--workers N]      grade everyone who submitted (parallel workers, a
              [--students s ...] [--cold]   sandbox per kernel; default: every assignment)
              [--unsandboxed]
    feedback  [a ...]                    HTML feedback without hidden tests
    export    [--to grades.csv]          one CSV row per student and assignment
    report    [a ...] [--plots DIR]      per-assignment and per-test summary + histograms
    check     NOTEBOOK                   the learner's self-check (no gradebook needed)
"""

import argparse
import os
import sys

from .course import CourseError, course_config, source_assignments


def _config(args):
    return course_config(args.root)


def cmd_generate(args):
    from .generate import generate

    config = _config(args)
    failures = [a for a, ok in generate(config, args.assignments or None).items() if not ok]
    return 1 if failures else 0


def cmd_collect(args):
    from .collect import collect

    report = collect(_config(args), args.folder, args.assignment)
    for line in report.lines():
        print(line)
    return 1 if report.rejected else 0


def cmd_autograde(args):
    from .grade import autograde_all

    config = _config(args)
    assignments = args.assignments or source_assignments(config)
    students = {a: args.students for a in assignments} if args.students else None
    if args.unsandboxed:
        print("warning: grading without a sandbox: the notebooks run with your rights",
              file=sys.stderr)
    runs = autograde_all(config, assignments, students, workers=args.workers,
                         warm=not args.cold, progress=not args.no_progress,
                         unsandboxed=args.unsandboxed)
    for run in runs.values():
        print("%s: graded %d submission(s)" % (run.assignment, len(run.graded)))
        for student, reason in sorted(run.failed.items()):
            print("  %s: 0 points: %s" % (student, reason))
    seconds = next(iter(runs.values())).seconds if runs else 0.0
    print("done in %.1f s with %d worker(s), %s kernels"
          % (seconds, args.workers, "fresh" if args.cold else "warm (forked)"))
    return 0


def cmd_feedback(args):
    from .feedback import generate_feedback

    results = generate_feedback(_config(args), args.assignments or None, args.student)
    for assignment, ok in results.items():
        print("%s: feedback %s" % (assignment, "written" if ok else "FAILED"))
    return 0 if all(results.values()) else 1


def cmd_export(args):
    from .export import export_csv

    rows = export_csv(_config(args), args.to)
    print("wrote %d row(s) to %s" % (rows, args.to))
    return 0


def cmd_report(args):
    from .report import report

    print(report(_config(args), args.assignments or None, args.plots))
    return 0


def cmd_check(args):
    from .learner_check import check

    result = check(args.notebook, timeout=args.timeout)
    print(result.format())
    return 0 if result.all_passed else 1


def build_parser():
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", help="course folder (default: this repository)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("generate", help="make exercises/ from solutions/")
    p.add_argument("assignments", nargs="*")
    p.set_defaults(run=cmd_generate)

    p = sub.add_parser("collect", help="bring in a folder of zips or folders, one per student")
    p.add_argument("folder")
    p.add_argument("--assignment", help="the assignment these submissions are for")
    p.set_defaults(run=cmd_collect)

    p = sub.add_parser("autograde", help="grade every submission (default: of every assignment)")
    p.add_argument("assignments", nargs="*")
    p.add_argument("--students", nargs="*", help="only these students")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="parallel workers (default: number of cores)")
    p.add_argument("--cold", action="store_true",
                   help="start each kernel from scratch (stock nbgrader) instead of forking warm ones")
    p.add_argument("--unsandboxed", action="store_true",
                   help="run kernels without a sandbox, with your rights (trusted notebooks only)")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(run=cmd_autograde)

    p = sub.add_parser("feedback", help="HTML feedback (hidden tests removed)")
    p.add_argument("assignments", nargs="*")
    p.add_argument("--student")
    p.set_defaults(run=cmd_feedback)

    p = sub.add_parser("export", help="grades as CSV")
    p.add_argument("--to", default="grades.csv")
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("report", help="per-assignment and per-test summary, with histograms")
    p.add_argument("assignments", nargs="*")
    p.add_argument("--plots", default=None, help="folder for the histogram PNGs")
    p.set_defaults(run=cmd_report)

    p = sub.add_parser("check", help="self-check one notebook (for learners)")
    p.add_argument("notebook")
    p.add_argument("--timeout", type=int, default=60, help="seconds per cell")
    p.set_defaults(run=cmd_check)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (CourseError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2

