"""Benchmark: a class of simulated students on the hub, all at once: the p95 of each step, and each server's memory.

    python tests/bench/bench_hub_class.py [--students 30]

On a fresh copy of the repository, the README's "A class on a hub" demo with
``--students`` Unix users (root only; they are removed after), ``clone``
released. Then every student at once, each in a thread of their own, through
HTTP as a browser would (tests/hub/driver.py):

  login    the hub's login form (PAM), then a token of their own
  spawn    ask for their server, until the hub says it is ready
  fetch    nbgrader's fetch of ``clone`` from their server
  submit   nbgrader's submit of ``clone`` from their server

For each step: the median, the 95th percentile and the slowest, in seconds.
Then the memory of each student's server once all have submitted: the
resident set of every process running as that student (the single-user
server and what it started), summed; the median and the largest, in MB.
There is no stock tool to run beside it here: the figures are this course's
configuration of JupyterHub, as a class meets it. The load average is printed
with them: on a shared machine they vary.
"""

import argparse
import concurrent.futures
import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "hub"))
sys.path.insert(1, os.path.join(os.path.dirname(HERE), "support"))  # course_copy

from hub_course import Class, fresh_copy, hub_blocks, kill_processes_of  # noqa: E402
from driver import Person  # noqa: E402
from test_hub_term import COURSE  # noqa: E402

STEPS = ("login", "spawn", "fetch", "submit")


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def one_student(url, name, password):
    """The four steps of one student; {step: seconds}."""
    took, person = {}, Person(url, name, password)
    started = time.monotonic()
    person.login()
    took["login"] = time.monotonic() - started
    started = time.monotonic()
    person.start_server().wait_ready(timeout=900)
    took["spawn"] = time.monotonic() - started
    for step in ("fetch", "submit"):
        started = time.monotonic()
        answer = person.action(step, COURSE, "clone")
        if not answer.get("success"):
            raise RuntimeError("%s's %s failed: %s" % (name, step, answer))
        took[step] = time.monotonic() - started
    return took


def server_memory(names):
    """{name: MB}: the resident memory of every process running as that user, summed."""
    uids = {pwd.getpwnam(n).pw_uid: n for n in names}
    found = {n: 0 for n in names}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            owner = os.stat("/proc/" + pid).st_uid
            if owner not in uids:
                continue
            with open("/proc/%s/status" % pid) as f:
                rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
            found[uids[owner]] += rss / 1024
        except (OSError, StopIteration, ValueError):
            continue
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("bench_hub_class: skipped, needs root (it creates Unix users)")
        return 0
    names = ["bench%02d" % i for i in range(1, args.students + 1)]
    base = tempfile.mkdtemp(prefix="bench-hub-class-")
    os.chmod(base, 0o755)
    fresh_copy(os.path.join(base, "course"))
    course = Class(base)
    blocks = hub_blocks()
    remove = [sys.executable, "-m", "autograder", "hub", "--remove-users", "--students"] + names
    print("%d students; load average at the start: %.1f" % (len(names), os.getloadavg()[0]))
    try:
        subprocess.run(remove, cwd=course.root, env=course.env, capture_output=True)
        course.run(blocks[2].replace("python -m autograder release clone detach", ""))  # generate
        course.start(blocks[1].strip() + " --students " + " ".join(names) + "\n")
        course.run("python -m autograder release clone")
        with concurrent.futures.ThreadPoolExecutor(len(names)) as pool:
            runs = list(pool.map(lambda n: one_student(course.url, n, course.people[n]), names))
        print("%-7s %8s %8s %8s   (seconds, %d students at once)" % ("step", "median", "p95", "max", len(runs)))
        for step in STEPS:
            values = [run[step] for run in runs]
            print("%-7s %8.2f %8.2f %8.2f" % (step, statistics.median(values), p95(values), max(values)))
        memory = server_memory(names)
        print("memory per student server: median %.0f MB, largest %.0f MB (resident, all of the "
              "student's processes)" % (statistics.median(memory.values()), max(memory.values())))
        print("load average at the end: %.1f" % os.getloadavg()[0])
    finally:
        course.stop()
        kill_processes_of(names + ["grader", "tc-instructor"])
        subprocess.run(remove, cwd=course.root, env=course.env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
