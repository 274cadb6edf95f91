"""``python -m autograder <command>``: the instructor's command line, and the learner's check.

Commands (each takes ``--root`` to work on a course folder other than this
repository; see autograder/README.md for a whole term):

    generate  [a ...]                    solutions/ -> exercises/ (nbgrader generate_assignment)
    collect   FOLDER [--assignment a]    zips or folders of submissions -> autograder/submitted/
              [--roster CSV] [--manifest CSV] [--pick refuse|newest|ask]
    autograde [a ...] [--workers N]      grade everyone who submitted (parallel workers, a
              [--students s ...] [--cold]   sandbox per kernel; default: every assignment)
              [--unsandboxed]
    feedback  [a ...]                    HTML feedback without hidden tests
    export    [--to grades.csv]          one CSV row per student and assignment
    report    [a ...] [--plots DIR]      per-assignment and per-test summary + histograms
    check     NOTEBOOK [--release NB]    the learner's self-check (no gradebook needed)
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

    report = collect(_config(args), args.folder, args.assignment, roster=args.roster,
                     manifest=args.manifest, pick=args.pick, ask=_ask_on_terminal)
    for line in report.lines():
        print(line)
    return 1 if report.rejected else 0


def _ask_on_terminal(entry, assignment, names):
    """``--pick ask``: the instructor chooses one of several notebooks (None: refuse)."""
    if not sys.stdin.isatty():
        return None
    print("%s has %d notebooks for %s:" % (entry, len(names), assignment))
    for number, name in enumerate(names, start=1):
        print("  %d. %s" % (number, name))
    answer = input("number to collect (Enter: none): ").strip()
    return int(answer) - 1 if answer.isdigit() else None


def cmd_autograde(args):
    from .failsafe import log_path as failure_log
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
        for student in run.graded:  # graded as 0 because grading itself raised
            log = failure_log(config, student, run.assignment)
            if os.path.exists(log):
                print("  %s: grading failed, 0 points; traceback in %s" % (student, log))
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

    result = check(args.notebook, timeout=args.timeout, notebook_timeout=args.notebook_timeout,
                   release=args.release, root=args.root)
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
    p.add_argument("--roster", help="CSV id,first_name,last_name,email: student ids come from it")
    p.add_argument("--manifest", help="CSV file,student,timestamp from the LMS: submission times")
    p.add_argument("--pick", choices=("refuse", "newest", "ask"), default="refuse",
                   help="several notebooks for one assignment in one entry: refuse (default), "
                        "take the newest, or ask")
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
    p.add_argument("--notebook-timeout", type=int, default=300,
                   help="seconds for the whole notebook, then its kernel is killed")
    p.add_argument("--release", help="the release notebook to rebuild on (default: found in "
                                     "the course's exercises/)")
    p.set_defaults(run=cmd_check)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (CourseError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2

