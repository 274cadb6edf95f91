"""``python -m autograder <command>``: the instructor's command line, and the learner's check.

``HELP`` is what ``--help`` prints (plain text); autograder/README.md walks
through a whole term.
"""

import argparse
import json
import os
import sys

from .course import CourseError, course_config, db_url, source_assignments

HELP = """The instructor's grading commands, and the learner's self-check.

A term, in order (autograder/README.md shows each step):

  roster    CSV                     import the class list (id,first_name,last_name,email)
  roster    --lti                   or: the LMS course's learners (LTI 1.3; lti-key, STATE/lti.json)
  generate  [A ...] [--force]       solutions/ -> exercises/, tests into the gradebook
  collect   FOLDER                  an inbox of zips or folders, one per student
  collect   --exchange [DIR]        or: the newest submissions in nbgrader's exchange (a hub)
  autograde [A ...]                 grade everyone who submitted (parallel, sandboxed;
                                    --scheduler tcp://HOST:8786 on a farm of dask workers)
  feedback  [A ...]                 an HTML page per graded submission, no hidden tests
  export    [--wide] [--tests]      grades as CSV (default: STATE/grades.csv)
  export    --lti                   or: the scores into the LMS's grade book (LTI 1.3)
  report    [A ...]                 per-assignment and per-test summary, charts
  report    --predictions           what the class believes: misconceptions behind predictions
  lab                               JupyterLab with formgrader: browse, grade by hand

On a JupyterHub (autograder/README.md, "A class on a hub"):

  hub                               a demo hub on loopback: an instructor, three students
  release   [A ...]                 assignments to nbgrader's exchange
  return    [A ...]                 feedback pages to the exchange
  check     NOTEBOOK                the learner's self-check (no gradebook needed); sandboxed
                                    when run as root with bubblewrap, and without a sandbox
                                    it refuses a notebook that is not the caller's own

Everything about the students (gradebook, roster, submissions, graded copies,
feedback, grades, charts) lives in the course-state folder STATE:
autograder/state/ by default (git-ignored), or --state, or $AUTOGRADER_STATE.
The gradebook is STATE/gradebook.db unless --db names another (postgresql://...
for a team; "gradebook migrate --to URL" copies the SQLite one there).
Run "python -m autograder COMMAND --help" for a command's options.
"""


def _config(args):
    overrides = {"CourseDirectory.course_id": args.course} if args.course else {}
    return course_config(args.root, args.state, db=args.db, **overrides)


def cmd_roster(args):
    from .term.roster import import_roster, roster_path

    config = _config(args)
    if bool(args.csv) == bool(args.lti):
        raise CourseError("roster takes a CSV file or --lti (the LMS's member list), one of the two")
    if args.lti:
        from .lti.sync import roster_from_lms

        print("\n".join(roster_from_lms(config).lines()))
        return 0
    count = import_roster(config, args.csv)
    print("imported %d student(s) into the gradebook; collect now uses %s"
          % (count, roster_path(config)))
    return 0


def cmd_generate(args):
    from .term.generate import generate

    config = _config(args)
    results = generate(config, args.assignments or None, force=args.force)
    return 0 if all(results.values()) else 1


def cmd_collect(args):
    from .term.collect import collect

    if args.exchange is not None:
        from .hub.commands import cmd_collect_exchange
        return cmd_collect_exchange(args, _config(args))
    if args.folder is None:
        raise CourseError("collect needs a FOLDER (an inbox), or --exchange")
    report = collect(_config(args), args.folder, args.assignment, roster=args.roster,
                     manifest=args.manifest, pick=args.pick, ask=_ask_on_terminal)
    for line in report.lines():
        print(line)
    return 1 if report.rejected else 0


def _ask_on_terminal(entry, assignment, names):
    """``--pick ask``: the instructor chooses one of several notebooks (None: refuse)."""
    from .term.collect import printable

    if not sys.stdin.isatty():
        return None
    print(printable("%s has %d notebooks for %s:" % (entry, len(names), assignment)))
    for number, name in enumerate(names, start=1):
        print(printable("  %d. %s" % (number, name)))
    answer = input("number to collect (Enter: none): ").strip()
    return int(answer) - 1 if answer.isdigit() else None


def cmd_autograde(args):
    from .pipeline.failsafe import log_path as failure_log
    from .term.collect import printable
    from .grade import autograde_all

    config = _config(args)
    assignments = args.assignments or source_assignments(config)
    students = {a: args.students for a in assignments} if args.students else None
    if args.unsandboxed:
        print("warning: grading without a sandbox: the notebooks run with your rights",
              file=sys.stderr)
    runs = autograde_all(config, assignments, students, workers=args.workers,
                         warm=not args.cold, progress=not args.no_progress,
                         unsandboxed=args.unsandboxed, scheduler=args.scheduler)
    for run in runs.values():
        print("%s: graded %d submission(s)" % (run.assignment, len(run.graded)))
        for student, reason in sorted(run.failed.items()):
            print(printable("  %s: 0 points: %s" % (student, reason)))
        for student in run.graded:  # graded as 0 because grading itself raised
            log = failure_log(config, student, run.assignment)
            if os.path.exists(log):
                print("  %s: grading failed, 0 points; traceback in %s" % (student, log))
    seconds = next(iter(runs.values())).seconds if runs else 0.0
    where = ("on " + args.scheduler if args.scheduler
             else "with %d local worker(s)" % args.workers)
    print("done in %.1f s %s, %s kernels"
          % (seconds, where, "fresh" if args.cold else "warm (forked)"))
    return 0


def cmd_gradebook(args):
    from sqlalchemy.exc import SQLAlchemyError

    from .engine.gradebook import MigrateError, migrate, without_password

    config = _config(args)
    source = db_url(config)
    try:
        copied = migrate(source, args.to, config.CourseDirectory.course_id)
    except MigrateError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    except SQLAlchemyError as error:  # a server that cannot be reached, a database that is missing
        print("error: nothing copied: %s" % str(error).splitlines()[0], file=sys.stderr)
        return 2
    print("copied %d row(s) in %d table(s) into %s"
          % (sum(copied.values()), len(copied), without_password(args.to)))
    print("grade against it with: python -m autograder --db %s autograde ..." % without_password(args.to))
    return 0


def _say_skipped(skipped):
    for assignment in skipped:
        print("%s: skipped, nothing graded" % assignment)


def cmd_feedback(args):
    from .term.feedback import generate_feedback

    results = generate_feedback(_config(args), args.assignments or None, args.student)
    _say_skipped(a for a, ok in results.items() if ok is None)
    for assignment, ok in results.items():
        if ok is not None:
            print("%s: feedback %s" % (assignment, "written" if ok else "FAILED"))
    return 0 if all(ok is not False for ok in results.values()) else 1


def cmd_export(args):
    from .term.export import default_target, export_csv

    config = _config(args)
    chosen = [a.strip() for a in args.assignments.split(",") if a.strip()] if args.assignments else None
    if args.lti:
        from .lti.sync import send_scores

        print("\n".join(send_scores(config, chosen).lines()))
        return 0
    target = args.to or default_target(config)
    written = export_csv(config, target, wide=args.wide, tests=args.tests,
                         misconceptions=args.misconceptions, assignments=chosen)
    _say_skipped(written.skipped)
    print("wrote %d row(s) to %s" % (len(written.rows), target))
    return 0


def cmd_lti_key(args):
    import json

    from .lti.registration import public_jwks

    print(json.dumps(public_jwks(_config(args)), indent=1))
    return 0


def cmd_report(args):
    from .term.report import report

    from .term.collect import printable

    if args.predictions:
        from .term.class_map import predictions_report

        text = predictions_report(_config(args), args.plots)
    else:
        text = report(_config(args), args.assignments or None, args.plots, args.lang)
    print("\n".join(printable(line) for line in text.split("\n")))  # no raw control characters
    return 0


def cmd_lab(args):
    from .term.lab import run_lab

    return run_lab(_config(args), port=args.port, browser=args.browser)


def cmd_check(args):
    from .learner.learner_check import check, check_data

    if args.json:   # self_check()'s own process, where no Jupyter server runs the check
        print(json.dumps(check_data(args.notebook, root=args.root)))
        return 0

    from .kernels.check_sandbox import kernel_sandboxed

    warn = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    sandboxed = kernel_sandboxed(os.path.abspath(args.notebook), args.unsandboxed, args.root, warn)
    result = check(args.notebook, timeout=args.timeout, notebook_timeout=args.notebook_timeout,
                   release=args.release, root=args.root, sandboxed=sandboxed)
    print(result.format())
    return 0 if result.all_passed else 1


class _PlainHelp(argparse.RawDescriptionHelpFormatter):
    """Descriptions printed as written: plain text, our own line breaks."""


def build_parser():
    parser = argparse.ArgumentParser(prog="python -m autograder", description=HELP,
                                     formatter_class=_PlainHelp)
    parser.add_argument("--root", help="course folder (default: this repository)")
    parser.add_argument("--state", help="course-state folder (default: $AUTOGRADER_STATE, "
                                        "else ROOT/autograder/state)")
    parser.add_argument("--db", help="the gradebook's URL (default: sqlite:///STATE/gradebook.db); "
                                     "postgresql://USER@HOST/DB for one a team shares")
    parser.add_argument("--course", help="the course's id in nbgrader's exchange (default: "
                                         "$AUTOGRADER_COURSE_ID, else tensor-copies); one of a hub's "
                                         "--courses")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, summary, run):
        p = sub.add_parser(name, help=summary, description=summary, formatter_class=_PlainHelp)
        p.set_defaults(run=run)
        return p

    p = command("roster", "import the class list into the gradebook (nbgrader's student import)",
                cmd_roster)
    p.add_argument("csv", nargs="?", help="CSV with the columns id,first_name,last_name,email")
    p.add_argument("--lti", action="store_true",
                   help="instead: the active learners of the LMS course (LTI 1.3 Names and Roles, "
                        "STATE/lti.json)")

    p = command("generate", "make exercises/ from solutions/ and record the tests in the gradebook",
                cmd_generate)
    p.add_argument("assignments", nargs="*")
    p.add_argument("--force", action="store_true",
                   help="overwrite an exercise notebook even if it was edited since generate wrote it")

    p = command("collect", "bring in a folder of zips or folders, one per student", cmd_collect)
    p.add_argument("folder", nargs="?")
    p.add_argument("--exchange", nargs="?", const="", default=None, metavar="DIR",
                   help="collect from nbgrader's exchange instead (default DIR: $AUTOGRADER_EXCHANGE, "
                        "else /srv/nbgrader/exchange): each student's newest submission")
    p.add_argument("--assignment", help="the assignment these submissions are for")
    p.add_argument("--roster", help="CSV id,first_name,last_name,email (default: the imported roster)")
    p.add_argument("--manifest", help="CSV file,student,timestamp from the LMS: submission times")
    p.add_argument("--pick", choices=("refuse", "newest", "ask"), default="refuse",
                   help="several notebooks for one assignment in one entry: refuse (default), "
                        "take the newest, or ask")

    p = command("autograde", "grade every submission (default: of every assignment)", cmd_autograde)
    p.add_argument("assignments", nargs="*")
    p.add_argument("--students", nargs="*", help="only these students")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="local worker processes (default: number of cores)")
    p.add_argument("--scheduler", help="grade on a farm: the address of its `dask scheduler` "
                                       "(tcp://HOST:8786), or in-process for a plain loop here")
    p.add_argument("--cold", action="store_true",
                   help="start each kernel from scratch (stock nbgrader) instead of forking warm ones")
    p.add_argument("--unsandboxed", action="store_true",
                   help="run kernels without a sandbox, with your rights (trusted notebooks only)")
    p.add_argument("--no-progress", action="store_true")

    p = command("gradebook", "move the gradebook: migrate --to postgresql://USER@HOST/DB",
                cmd_gradebook)
    p.add_argument("action", choices=("migrate",),
                   help="migrate: copy every row of this gradebook (--db, default the SQLite "
                        "one) into an empty one")
    p.add_argument("--to", required=True, help="the target gradebook's URL")

    p = command("feedback", "HTML feedback for each graded submission (hidden tests removed)",
                cmd_feedback)
    p.add_argument("assignments", nargs="*")
    p.add_argument("--student")

    p = command("export", "grades as CSV", cmd_export)
    p.add_argument("--to", help="the CSV file (default: STATE/grades.csv)")
    p.add_argument("--wide", action="store_true",
                   help="one row per student, a column per assignment (for an LMS gradebook)")
    p.add_argument("--tests", action="store_true", help="a column per test")
    p.add_argument("--misconceptions", action="store_true",
                   help="with --wide: a column of misconception tags per assignment")
    p.add_argument("--assignments", help="comma-separated assignments (default: all graded)")
    p.add_argument("--lti", action="store_true",
                   help="instead of a CSV: send the scores to the LMS's grade book (LTI 1.3 "
                        "Assignment and Grade Services, STATE/lti.json); sends nothing twice")

    p = command("lti-key", "the tool's public key (JWKS) to register the course in an LMS",
                cmd_lti_key)

    p = command("report", "per-assignment and per-test summary, with charts", cmd_report)
    p.add_argument("assignments", nargs="*")
    p.add_argument("--plots", default=None, help="folder for the charts (default: STATE/reports)")
    p.add_argument("--lang", default="en", choices=("en", "zh"),
                   help="zh: each misconception tag followed by the Chinese name learners read")
    p.add_argument("--predictions", action="store_true",
                   help="instead: per chapter and misconception, the share of the class whose first "
                        "answers to the predictions it printed (shared from a course hub), and what "
                        "each predicts of the exercises' scores")

    p = command("lab", "JupyterLab for the instructor, with formgrader on the course", cmd_lab)
    p.add_argument("--port", type=int, default=8889)
    p.add_argument("--browser", action="store_true", help="open a browser")

    from .hub.commands import register
    register(command, lambda function: lambda args: function(args, _config(args)))

    p = command("check", "self-check one notebook (for learners)", cmd_check)
    p.add_argument("notebook")
    p.add_argument("--timeout", type=int, default=60, help="seconds per cell")
    p.add_argument("--notebook-timeout", type=int, default=300,
                   help="seconds for the whole notebook, then its kernel is killed")
    p.add_argument("--release", help="the release notebook to rebuild on (default: found in "
                                     "the course's exercises/)")
    p.add_argument("--unsandboxed", action="store_true",
                   help="run the notebook with your rights even where a sandbox is available, or "
                        "when it looks like someone else's (trusted notebooks only)")
    p.add_argument("--json", action="store_true",
                   help="print the result as data (what self_check() reads), sandboxed where possible")
    return parser


def use_own_environment(environ=os.environ):
    """Put this Python's bin/ first on PATH: nbgrader runs `alembic` (and kernels) from PATH."""
    own = os.path.dirname(sys.executable)
    if environ.get("PATH", "").split(os.pathsep)[0] != own:
        environ["PATH"] = own + os.pathsep + environ.get("PATH", "")


def main(argv=None):
    args = build_parser().parse_args(argv)
    use_own_environment()
    try:
        return args.run(args)
    except (CourseError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
