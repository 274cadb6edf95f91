"""What the hub tests and the hub benches share: the README's hub blocks, one course on a hub
(``one_course_hub``), the class of real Unix users (``Class``), and how to clean up after them.

A module of its own, imported by name: ``from conftest import`` would reach whichever
``conftest`` pytest imported last (tests/browser's, when both folders are in one command).
"""


import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from course_copy import fresh_copy  # noqa: F401 (the hub tests and benches import it from here)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, "autograder", "README.md")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
COURSE = "tensor-copies"
# configurable-http-proxy as `npm install --prefix .hub` puts it in this repository (the copy has none)
LOCAL_PROXY_BIN = os.path.join(REPO, ".hub", "node_modules", ".bin")


def hub_blocks():
    """The ``shell`` blocks of the README's "A class on a hub" section, in order."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## A class on a hub", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```shell\n(.*?)^```", section, flags=re.S | re.M)


def hub_environment(base, root):
    """The environment of a course copied to ``root``: its exchange and hub folder in ``base``, this
    checkout's proxy on PATH, the copy's own code imported."""
    env = {k: v for k, v in os.environ.items() if k not in ("AUTOGRADER_STATE", "AUTOGRADER_ROOT")}
    env.update(AUTOGRADER_EXCHANGE=os.path.join(base, "exchange"), HUB=os.path.join(base, "hub"),
               PATH=os.pathsep.join([LOCAL_PROXY_BIN, "/usr/sbin:/usr/bin:/sbin:/bin"]),
               PYTHONPATH=os.path.join(root, "src") + os.pathsep + root)
    return env


def one_course_hub(base, people):
    """(the course's root, the environment, the ``hub`` command) for a course copied into ``base``."""
    root = os.path.join(base, "course")
    fresh_copy(root)
    return root, hub_environment(base, root), [sys.executable, "-m", "autograder", "hub", "--dir",
                                               os.path.join(base, "hub")] + people


class Class:
    """The running class: folders, the hub's process, the people and their passwords."""

    def __init__(self, base):
        self.base = base
        self.root = os.path.join(base, "course")
        self.env = hub_environment(base, self.root)
        self.process = None
        self.people = {}   # name -> password
        self.roles = {}    # name -> "instructor" | "student"
        self.url = None
        self.login_urls = {}  # name -> the URL the hub command printed for them
        self.runs = []

    @classmethod
    def on_a_fresh_copy(cls, prefix):
        """A class whose course is a fresh copy of this checkout in a new folder (readable by all)."""
        base = tempfile.mkdtemp(prefix=prefix)
        os.chmod(base, 0o755)
        fresh_copy(os.path.join(base, "course"))
        return cls(base)

    @property
    def exchange(self):
        return self.env["AUTOGRADER_EXCHANGE"]

    @property
    def state(self):
        return os.path.join(self.root, "autograder", "state")

    def script(self, block):
        return 'set -e\npython() { "%s" "$@"; }\n%s' % (sys.executable, block)

    def run(self, block, **env):
        done = subprocess.run(["bash", "-c", self.script(block)], cwd=self.root, env=dict(self.env, **env),
                              capture_output=True, text=True, timeout=1200)
        self.runs.append((block, done))
        assert done.returncode == 0, "%s\n--- stdout:\n%s\n--- stderr:\n%s" % (
            block, done.stdout[-4000:], done.stderr[-4000:])
        return done.stdout

    def start(self, block):
        """Run the README's hub-starting block in the background; read who may log in."""
        self.process = subprocess.Popen(["bash", "-c", self.script(block)], cwd=self.root, env=self.env,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        start_new_session=True)
        lines = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                said = "".join(lines)
                log = re.search(r"its log: (\S+)", said)
                if log and os.path.exists(log.group(1)):
                    with open(log.group(1)) as f:
                        said += "\n--- the hub's log, last lines:\n" + "".join(
                            l for l in f.readlines() if "ConfigProxy" not in l)[-6000:]
                raise AssertionError("the hub command ended:\n" + said)
            lines.append(line)
            found = re.match(r"(instructor|student)\s+(\S+)\s+password (\S+)\s+(http://\S+)", line)
            if found:
                role, name, password, url = found.groups()
                if password != "(unchanged)" or name not in self.people:
                    self.people[name] = password
                self.roles[name] = role
                self.login_urls[name] = url
                self.url = url.split("/hub/")[0]
            if line.startswith("Ctrl+C"):
                return "".join(lines)
        raise AssertionError("the hub did not start in 300 s:\n" + "".join(lines))

    def stop(self):
        """Stop the hub command by its pid (it stops the hub, which stops servers and proxy)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)  # the group this fixture started: bash and the command
            try:
                self.process.wait(90)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def students(self):
        return sorted(n for n, role in self.roles.items() if role == "student")

    def instructor(self):
        return next(n for n, role in self.roles.items() if role == "instructor")


def kill_processes_of(names):
    """Kill, by pid, every process still running as one of ``names`` (the class's own users)."""
    uids = set()
    for name in names:
        try:
            uids.add(pwd.getpwnam(name).pw_uid)
        except KeyError:
            pass
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat("/proc/" + pid).st_uid in uids:
                os.kill(int(pid), signal.SIGKILL)
        except OSError:
            pass


def needs_proxy():
    """Skip (never in CI) when configurable-http-proxy is not installed."""
    if not (shutil.which("configurable-http-proxy") or os.path.exists(
            os.path.join(REPO, ".hub", "node_modules", ".bin", "configurable-http-proxy"))):
        if os.environ.get("CI") == "true":
            pytest.fail("the hub tests must run in CI, but configurable-http-proxy is not installed")
        pytest.skip("hub test skipped: configurable-http-proxy is not installed "
                    "(npm install --prefix .hub configurable-http-proxy@5)")
