"""Benchmark: a class on the hub: hub start to three ready servers, and one student's submit to feedback.

    python tests/bench/bench_hub.py

Needs root (it creates the demo's Unix users, as ``tests/hub/`` does, and
removes them after), bubblewrap (grading is sandboxed) and
configurable-http-proxy (``npm install --prefix .hub configurable-http-proxy@5``).
On a fresh copy of the repository, as autograder/README.md's "A class on a
hub" does it:

  hub start to three ready servers   from ``python -m autograder hub`` (users,
      folders, JupyterHub, its proxy, formgrader) to three students logged in
      through PAM with their servers ready
  submit to feedback                 one student submits ``clone`` from their
      server; the instructor runs ``collect --exchange``, ``autograde clone``
      (sandboxed), ``feedback clone``, ``return clone``; the student fetches the
      feedback page

The load average is printed with the figures: on a shared machine they vary.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "hub"))
sys.path.insert(1, os.path.join(os.path.dirname(HERE), "support"))  # course_copy

from hub_course import Class, fresh_copy, hub_blocks, kill_processes_of  # noqa: E402
from driver import Person  # noqa: E402
from test_hub_term import COURSE, work  # noqa: E402


def main():
    if os.geteuid() != 0:
        print("bench_hub: skipped, needs root (it creates Unix users)")
        return 0
    base = tempfile.mkdtemp(prefix="bench-hub-")
    os.chmod(base, 0o755)
    fresh_copy(os.path.join(base, "course"))
    course = Class(base)
    blocks = hub_blocks()
    remove = [sys.executable, "-m", "autograder", "hub", "--remove-users"]
    print("load average at the start: %.1f" % os.getloadavg()[0])
    try:
        subprocess.run(remove, cwd=course.root, env=course.env, capture_output=True)
        course.run(blocks[2].replace("python -m autograder release clone detach", ""))  # generate
        started = time.monotonic()
        course.start(blocks[1])
        hub_up = time.monotonic() - started
        people = [Person(course.url, name, course.people[name]).login().start_server()
                  for name in course.students()]
        for person in people:
            person.wait_ready()
        ready = time.monotonic() - started
        print("hub start to three ready servers: %.1f s (the hub itself answered after %.1f s)" % (ready, hub_up))
        course.run("python -m autograder release clone")
        student = people[0]
        student.action("fetch", COURSE, "clone")
        work(student, course.root, "clone")
        started = time.monotonic()
        answer = student.action("submit", COURSE, "clone")
        assert answer.get("success"), answer
        course.run("python -m autograder collect --exchange --assignment clone\n"
                   "python -m autograder autograde clone --workers 1 --no-progress\n"
                   "python -m autograder feedback clone\n"
                   "python -m autograder return clone")
        student.action("fetch_feedback", COURSE, "clone")
        pages = student.read("clone/feedback")["content"]
        assert pages, "no feedback fetched"
        print("one student's submit to feedback: %.1f s" % (time.monotonic() - started))
        print("load average at the end: %.1f" % os.getloadavg()[0])
    finally:
        course.stop()
        kill_processes_of(list(course.people) + ["grader"])
        subprocess.run(remove, cwd=course.root, env=course.env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
