"""Benchmark: how long the demo hub takes to stop, and what it leaves running.

    python tests/bench/bench_hub_stop.py [ROUNDS]

Needs root (it creates Unix users of its own, ``hb-...``, and removes them after) and
configurable-http-proxy.  On a fresh copy of the repository, ROUNDS times (default 3):
``python -m autograder hub`` is started, a student logs in, starts their server and opens a
notebook, whose kernel warms its server's self-check up; then the hub is stopped, in turn:

  ours    SIGTERM to ``python -m autograder hub``, timed until nothing it started runs
          (hub, proxy, formgrader, the student's server, its kernel)
  stock   SIGTERM to the ``jupyterhub`` process alone, JupyterHub's own cleanup (formgrader,
          then the servers, each SIGINT and its timeouts, then the proxy), timed until
          jupyterhub exits; what it left running is counted (the command then ends it)

The load average is printed with the figures: on a shared machine they vary.
"""

import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import psutil

from hub_people import people  # first: it puts tests/hub and tests/ on the path

from hub_course import kill_processes_of, one_course_hub
from driver import Person

(INSTRUCTOR, STUDENT, GRADER), PEOPLE = people("hb")


def start(root, env, hub):
    process = subprocess.Popen(hub, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    said = []
    for line in process.stdout:
        said.append(line)
        if line.startswith("Ctrl+C"):
            break
    else:
        raise SystemExit("the hub command ended:\n" + "".join(said))
    password, url = re.search(r"student\s+%s\s+password (\S+)\s+(http://\S+)" % STUDENT, "".join(said)).groups()
    student = Person(url.split("/hub/")[0], STUDENT, password).login().start_server().wait_ready()
    student.run_in_notebook("course/00_index.ipynb",
                            "from autograder.learner.self_check import HANDLER, ask_server, own_server\n"
                            "ask_server(own_server(), HANDLER + '/warm-up', {})")
    return process


def stop_ours(process):
    tree = [psutil.Process(process.pid)] + psutil.Process(process.pid).children(recursive=True)
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    psutil.wait_procs(tree, timeout=300)
    took = time.monotonic() - started
    process.wait()
    return took, [p.name() for p in tree if p.is_running()]


def stop_stock(process):
    command = psutil.Process(process.pid)
    hub = next(p for p in command.children() if "jupyterhub" in " ".join(p.cmdline()))
    others = hub.children(recursive=True)
    started = time.monotonic()
    hub.terminate()
    hub.wait(300)
    took = time.monotonic() - started
    left = [p.name() for p in others if p.is_running()]
    process.send_signal(signal.SIGTERM)
    process.wait()
    return took, left


def main():
    if os.geteuid() != 0:
        print("bench_hub_stop: skipped, needs root (it creates Unix users)")
        return 0
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    base = tempfile.mkdtemp(prefix="bench-hub-stop-")
    os.chmod(base, 0o755)
    root, env, hub = one_course_hub(base, PEOPLE)
    print("load average at the start: %.1f" % os.getloadavg()[0])
    figures = {"ours": [], "stock": []}
    try:
        for _ in range(rounds):
            for way, stop in (("ours", stop_ours), ("stock", stop_stock)):
                took, left = stop(start(root, env, hub))
                figures[way].append(took)
                print("%-5s stop: %5.1f s, left running: %s" % (way, took, ", ".join(left) or "nothing"),
                      flush=True)
        for way, seconds in figures.items():
            print("%-5s median %.1f s (lowest %.1f, highest %.1f) over %d stops"
                  % (way, statistics.median(seconds), min(seconds), max(seconds), len(seconds)))
        print("load average at the end: %.1f" % os.getloadavg()[0])
    finally:
        kill_processes_of([INSTRUCTOR, STUDENT, GRADER])
        subprocess.run(hub + ["--remove-users"], cwd=root, env=env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
