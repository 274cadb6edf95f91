"""The demo hub, started and stopped again and again: every start lets people log in, every stop
leaves nothing behind.

``python -m autograder hub`` is started 50 times in a row (``AUTOGRADER_HUB_STARTS`` chooses
another number) on a fresh copy of the course, each time from a process id the test moved on
by a random number of throw-away processes, so the hub command runs from pids spread over the
range.  Each time a student logs in through the proxy (the hub's own login form, PAM), and
the command is stopped with SIGTERM.  After each stop nothing the command started runs any
more (the hub, its proxy, formgrader, a student's server with its self-check handler, its
kernel), no process runs as one of the class's users, and no port the hub or its
servers listened on is still listened on.  The first start and every 25th also start the
student's server; the first also warms that server's self-check up from a kernel in it.

The people here have names of their own (``hs-...``, their own groups and grader account), so
the README's walk-through (``test_hub_term.py``) and this test never remove each other's users.
"""

import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

import psutil
import pytest

from hub_course import kill_processes_of, needs_proxy, one_course_hub
from driver import Person

STARTS = int(os.environ.get("AUTOGRADER_HUB_STARTS", "50"))
INSTRUCTOR, STUDENT, GRADER = "hs-instructor", "hs-student1", "hs-grader"
GROUPS = ["hs-students", "hs-instructors"]
PEOPLE = ["--instructor", INSTRUCTOR, "--students", STUDENT, "--grader", GRADER, "--groups"] + GROUPS


@pytest.fixture(scope="module")
def course(needs_sandbox):
    needs_proxy()
    base = tempfile.mkdtemp(prefix="hub-starts-")
    os.chmod(base, 0o755)
    root, env, hub = one_course_hub(base, PEOPLE)
    remove = hub + ["--remove-users"]
    subprocess.run(remove, cwd=root, env=env, capture_output=True)  # left by a crashed run
    try:
        yield {"root": root, "env": env, "hub": hub}
    finally:
        kill_processes_of([INSTRUCTOR, STUDENT, GRADER])
        subprocess.run(remove, cwd=root, env=env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def start_hub(course, spacers):
    """The hub command, started by a shell that first runs ``spacers`` throw-away processes (so the
    command gets a pid that many further on); returns the process and what it printed."""
    command = " ".join("'%s'" % part for part in course["hub"])
    script = 'for i in $(seq %d); do : & done; wait; exec %s' % (spacers, command)  # each `: &` forks
    process = subprocess.Popen(["bash", "-c", script], cwd=course["root"], env=course["env"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    lines = []
    for line in process.stdout:
        lines.append(line)
        if line.startswith("Ctrl+C"):
            return process, "".join(lines)
    process.wait()
    said = "".join(lines)
    log = re.search(r"its log: (\S+)", said)
    if log and os.path.exists(log.group(1)):
        with open(log.group(1), errors="replace") as f:
            said += "\n--- the hub's log, last lines:\n" + f.read()[-6000:]
    raise AssertionError("the hub command ended (status %s):\n%s" % (process.returncode, said))


def listening_ports(processes):
    ports = set()
    for p in processes:
        try:
            ports |= {c.laddr.port for c in p.net_connections(kind="tcp") if c.status == psutil.CONN_LISTEN}
        except psutil.Error:
            pass
    return ports


def still_listening(ports):
    return sorted({c.laddr.port for c in psutil.net_connections(kind="tcp")
                   if c.status == psutil.CONN_LISTEN and c.laddr.port in ports})


def processes_of(names):
    uids = {pwd.getpwnam(n).pw_uid for n in names}
    found = []
    for p in psutil.process_iter(["uids", "cmdline"]):
        if p.info["uids"] and p.info["uids"].real in uids:
            found.append((p.pid, " ".join(p.info["cmdline"] or [])[:120]))
    return found


FORKED_PORT_FINDERS = """
import os, socket, sys
from autograder.hub.server import PORT_NAMES, Ports

failed = []
for _ in range(int(sys.argv[1])):
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            ports = Ports()
            numbers = list(ports.numbers.values())
            ports.release()
            if len(set(numbers)) == len(numbers) == len(PORT_NAMES):
                with socket.socket() as again:
                    again.bind(("127.0.0.1", numbers[0]))
                status = 0
        finally:
            os._exit(status)
    if os.waitpid(pid, 0)[1] != 0:
        failed.append(pid)
print("failed", failed)
"""


def test_the_hubs_ports_are_found_by_binding_from_any_pid():
    done = subprocess.run([sys.executable, "-c", FORKED_PORT_FINDERS, "500"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "failed []", "not as many distinct free ports as the hub needs, from these pids: " + done.stdout


def test_fifty_starts_each_log_in_and_each_sigterm_leaves_no_process_and_no_port(course):
    rng = random.Random(os.getpid())
    pids, passwords = [], set()
    for start in range(STARTS):
        process, said = start_hub(course, rng.randrange(0, 300))
        pids.append(process.pid)
        found = re.search(r"student\s+%s\s+password (\S+)\s+(http://\S+)" % STUDENT, said)
        assert found, said
        password, url = found.groups()
        passwords.add(password)
        hub_url = url.split("/hub/")[0]
        student = Person(hub_url, STUDENT, password).login()
        if start % 25 == 0:
            student.start_server().wait_ready()
        if start == 0:
            printed = student.run_in_notebook(
                "course/00_index.ipynb",
                "from autograder.learner.self_check import HANDLER, ask_server, own_server\n"
                "print('self-check', ask_server(own_server(), HANDLER + '/warm-up', {}))")
            assert "self-check {'zygote'" in printed, printed
        tree = psutil.Process(process.pid).children(recursive=True)
        ports = listening_ports(tree) | {int(hub_url.rsplit(":", 1)[1])}
        process.send_signal(signal.SIGTERM)
        process.wait(120)
        assert process.returncode == 0, (start, process.stdout.read())
        assert [p for p in tree if p.is_running()] == [], (start, [p.name() for p in tree if p.is_running()])
        assert processes_of([INSTRUCTOR, STUDENT, GRADER]) == [], start
        assert still_listening(ports) == [], start
    assert len(set(pids)) == STARTS
    assert len(passwords) == 1, "a restart changed the student's password"


def test_remove_users_stops_the_running_hub_and_leaves_no_process_of_its_users(course):
    process, said = start_hub(course, 0)
    tree = psutil.Process(process.pid).children(recursive=True)
    assert processes_of([GRADER]), "formgrader is not running as %s" % GRADER
    done = subprocess.run(course["hub"] + ["--remove-users"], cwd=course["root"], env=course["env"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "stopped the hub running in" in done.stdout
    process.wait(120)
    assert [p for p in tree if p.is_running()] == []
    for name in (INSTRUCTOR, STUDENT, GRADER):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        raise AssertionError("%s was not removed" % name)
