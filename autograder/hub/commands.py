"""The hub's commands of ``python -m autograder``: ``hub``, ``release``, ``collect --exchange``, ``return``."""

import os
import signal
import sys
import time

DEMO_INSTRUCTOR = "tc-instructor"
DEMO_STUDENTS = ["tc-student1", "tc-student2", "tc-student3"]
DEFAULT_BASE = "/srv/tensor-copies-hub"


def hand_over(config):
    from .server import hand_over as give

    give(config)


def _people(args):
    from .users import People

    return People(instructors=[args.instructor], students=list(args.students), grader=args.grader,
                  students_group=args.groups[0], instructors_group=args.groups[1])


LTI_KEYS = ("issuer", "authorize_url", "jwks_endpoint", "client_id")


def lti_settings(path):
    """The LMS's side of an LTI 1.3 launch, read from the JSON file ``path`` (keys :data:`LTI_KEYS`,
    and ``username_key`` if the custom parameter is not ``username``)."""
    import json

    from ..course import CourseError

    try:
        with open(path, encoding="utf-8") as f:
            given = json.load(f)
    except (OSError, ValueError) as error:
        raise CourseError("--lti %s: %s" % (path, error)) from None
    missing = [k for k in LTI_KEYS if not given.get(k)] if isinstance(given, dict) else list(LTI_KEYS)
    if missing:
        raise CourseError("--lti %s lacks %s" % (path, ", ".join(missing)))
    return {k: given[k] for k in LTI_KEYS + ("username_key",) if k in given}


def cmd_hub(args, config):
    from . import server, users
    from .exchange import exchange_root

    courses = None
    if args.courses:
        from ..course import CourseError
        from .courses import read_courses

        if args.lti:
            raise CourseError("--courses and --lti: an LTI hub has one course (the LMS's); run one hub per course")
        courses = read_courses(args.courses)
        people_list = [course.people() for course in courses]
    else:
        people_list = [_people(args)]
    hub_dir = os.path.join(args.dir, "hub")
    if args.remove_users:
        if server.stop_running(hub_dir):
            print("stopped the hub running in %s" % args.dir)
        left, removed = [], []
        for people in people_list:
            left += users.remove(people)
            removed += people.everyone() + [people.grader]
        print("removed %s" % ", ".join(dict.fromkeys(removed)))
        for line in left:
            print("not removed: %s" % line, file=sys.stderr)
        return 1 if left else 0
    exchange = exchange_root(args.exchange)
    proxy, python = server.check_host()
    if courses:
        ports = server.Ports({"port": args.port}, names=server.course_ports(courses))
    else:
        ports = server.Ports({"port": args.port})
    try:
        if courses:
            passwords = server.prepare_courses(config, courses, args.dir, exchange,
                                               new_passwords=args.new_passwords)
            settings = server.courses_settings(config, courses, args.dir, exchange, ports, proxy=proxy,
                                               python=python)
        else:
            passwords = server.prepare(config, people_list[0], args.dir, exchange,
                                       new_passwords=args.new_passwords)
            settings = server.hub_settings(config, people_list[0], args.dir, exchange, ports, proxy=proxy,
                                           python=python)
        if args.lti:
            settings.update(authenticator="lti13", lti13=lti_settings(args.lti))
    except BaseException:
        ports.release()
        raise
    # `kill` stops the hub as Ctrl+C does; and Ctrl+C does even when this command was started
    # with SIGINT ignored (`... &` in a script): the hub and its servers then stop on SIGINT too
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    process = running = None
    try:
        process, running = server.start(settings, ports=ports)
        server.write_command_pid(hub_dir)
        print("The course's hub runs (pid %d); log: %s" % (process.pid,
                                                           os.path.join(hub_dir, "jupyterhub.log")))
        for name in passwords:
            role = "instructor" if any(name in p.instructors for p in people_list) else "student"
            print("%-10s %-14s password %-18s %s" % (role, name, passwords[name] or "(unchanged)",
                                                     server.login_url(settings, name)))
        if None in passwords.values():
            print("(unchanged): an account this command did not make keeps its own password; "
                  "--new-passwords gives it one")
        print("passwords are kept in %s (root only)" % server.passwords_file(args.dir))
        for course in courses or []:
            print("course %s: formgrader (%s only): http://%s:%d/services/%s/" % (
                course.id, ", ".join(course.instructors) or "nobody", settings["ip"], settings["port"],
                course.service))
            print("course %s: its commands: python -m autograder --root %s --course %s COMMAND" % (
                course.id, course.root, course.id))
        if not courses:
            print("formgrader (instructors only): http://%s:%d/services/formgrader/"
                  % (settings["ip"], settings["port"]))
        print("Ctrl+C (or `kill %d`) stops the hub; `python -m autograder hub --dir %s%s --remove-users` stops it "
              "and removes the users." % (os.getpid(), args.dir,
                                          " --courses " + args.courses if courses else ""), flush=True)
        while process.poll() is None:
            time.sleep(1)
            running.start_ended()
            server.reap_orphans(process, running)
    except KeyboardInterrupt:
        pass
    finally:
        if process is not None:
            server.stop(process, hub_dir=hub_dir, services=running)
        try:
            os.unlink(os.path.join(hub_dir, server.COMMAND_PID))
        except OSError:
            pass
    return 0


def cmd_release(args, config):
    from ..course import source_assignments
    from .exchange import exchange_root, release

    for line in release(config, args.assignments or source_assignments(config), exchange_root(args.exchange)):
        print(line)
    hand_over(config)
    return 0


def cmd_collect_exchange(args, config):
    from .exchange import collect_exchange, exchange_root

    assignments = [args.assignment] if args.assignment else None
    report = collect_exchange(config, exchange_root(args.exchange), assignments)
    for line in report.lines():
        print(line)
    hand_over(config)
    return 1 if report.rejected else 0


def cmd_return(args, config):
    from .exchange import exchange_root, return_feedback

    lines, missing = return_feedback(config, exchange_root(args.exchange), args.assignments or None)
    for line in lines + missing:
        print(line)
    print("returned %d feedback page(s)" % len(lines))
    hand_over(config)
    return 0


def register(command, run):
    """Add the hub's commands to the parser; ``command(name, summary, function)`` adds one and
    ``run(function)`` wraps a ``function(args, config)``."""
    p = command("hub", "a demo JupyterHub for a class on loopback: an instructor, three students",
                run(cmd_hub))
    p.add_argument("--dir", default=DEFAULT_BASE,
                   help="the hub's folder: database, chapters (default: %s)" % DEFAULT_BASE)
    p.add_argument("--exchange", help="nbgrader's exchange (default: $AUTOGRADER_EXCHANGE, else "
                                      "/srv/nbgrader/exchange)")
    p.add_argument("--port", type=int, help="the hub's port on 127.0.0.1 (default: a free one)")
    p.add_argument("--instructor", default=DEMO_INSTRUCTOR)
    p.add_argument("--students", nargs="+", default=DEMO_STUDENTS)
    p.add_argument("--grader", default="grader", help="the account formgrader runs as (default: grader)")
    p.add_argument("--groups", nargs=2, default=["course-students", "course-instructors"],
                   metavar=("STUDENTS", "INSTRUCTORS"), help="the Unix groups of the students and the "
                   "instructors (default: course-students course-instructors)")
    p.add_argument("--new-passwords", action="store_true",
                   help="give every person a new password (printed, and kept in the hub's folder)")
    p.add_argument("--remove-users", action="store_true",
                   help="stop the hub running in --dir, remove the demo's Unix users and their homes")
    p.add_argument("--courses", metavar="JSON",
                   help="several courses on this hub, each with its own root, instructors, students, "
                        "grader account, formgrader and groups (nbgrader's model): a JSON file "
                        '{"courses": [{"id", "root", "instructors", "students"}, ...]} '
                        "(autograder/README.md, \"Several courses on one hub\"); --instructor, "
                        "--students, --grader and --groups are then not used")
    p.add_argument("--lti", metavar="JSON",
                   help="people arrive from an LMS by an LTI 1.3 launch instead of logging in with "
                        "a password: a JSON file with the LMS's issuer, authorize_url, jwks_endpoint "
                        "and client_id (autograder/README.md, \"A real deployment\")")

    p = command("release", "release assignments to nbgrader's exchange (students fetch them)",
                run(cmd_release))
    p.add_argument("assignments", nargs="*")
    p.add_argument("--exchange", help="nbgrader's exchange (default: $AUTOGRADER_EXCHANGE, else "
                                      "/srv/nbgrader/exchange)")

    p = command("return", "return feedback pages to the exchange (students fetch them)",
                run(cmd_return))
    p.add_argument("assignments", nargs="*")
    p.add_argument("--exchange", help="nbgrader's exchange (default: $AUTOGRADER_EXCHANGE, else "
                                      "/srv/nbgrader/exchange)")
