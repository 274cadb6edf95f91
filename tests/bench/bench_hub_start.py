"""Benchmark: one start of the demo hub (tests/hub/test_hub_start_stop.py's fifty): CPU per process, wall time.

    python tests/bench/bench_hub_start.py [ROUNDS]

Needs root (it creates Unix users of its own, ``hc-...``, and removes them after) and
configurable-http-proxy.  On a fresh copy of the repository, ROUNDS times (default 3):
``python -m autograder hub`` is started, a student logs in through the proxy (PAM), and the
command is stopped with SIGTERM, as the test does.  Timed:

  ready   from the command's start to its login lines
  login   the student's login, through the proxy
  stop    from SIGTERM until nothing the command started runs

The command runs in a cgroup of its own (cgroup v1 ``cpuacct``), whose counter gives the CPU
time of every process the start ran, all told; a thread samples the command's process tree
every 50 ms for each process's share (JupyterHub, its proxy, formgrader, the predictions
service, node run by formgrader, the command itself), so the shares miss what a process did in
its last 50 ms.  The stock tool beside it: ``jupyterhub`` itself with its defaults and the same
proxy, PAM and database folder (no services, no settings file), started, logged into and
stopped the same way; the difference is what this course's hub adds.

The load average is printed with the figures: on a shared machine they vary; CPU times vary
less than wall times.
"""

import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import psutil

from hub_people import people  # first: it puts tests/hub and tests/ on the path

from hub_course import LOCAL_PROXY_BIN, kill_processes_of, one_course_hub
from driver import Person

(INSTRUCTOR, STUDENT, GRADER), PEOPLE = people("hc")
CPUACCT = "/sys/fs/cgroup/cpuacct"
PARTS = ("command", "jupyterhub", "proxy", "formgrader", "predictions", "node (lab, lsp)", "other")


def part_of(cmdline):
    line = " ".join(cmdline)
    if "configurable-http-proxy" in line:
        return "proxy"
    if "-m jupyterhub -f" in line or " jupyterhub -f " in line:  # stock, or ours (frozen_imports)
        return "jupyterhub"
    if "/formgrader" in line and ("jupyterhub.singleuser" in line or "formgrader_service" in line):
        return "formgrader"
    if "predictions_service" in line:
        return "predictions"
    if "autograder hub" in line or "-m autograder" in line:
        return "command"
    if cmdline and os.path.basename(cmdline[0]) in ("node", "yarn", "npm") or "yarn" in line or "npm" in line:
        return "node (lab, lsp)"
    return "other"


class Sampler(threading.Thread):
    """Every 50 ms, each process under ``pid``: its own CPU time so far (user + system)."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.root, self.seen, self.done = psutil.Process(pid), {}, threading.Event()

    def run(self):
        while not self.done.is_set():
            try:
                tree = [self.root] + self.root.children(recursive=True)
            except psutil.Error:
                tree = []
            for p in tree:
                try:
                    with p.oneshot():
                        times = p.cpu_times()
                        # named by its latest command line (a process forked by the hub is the
                        # hub's until it runs its own program), not by an ended one's empty one
                        key, cmdline = (p.pid, p.create_time()), p.cmdline()
                        part = part_of(cmdline) if cmdline else self.seen.get(key, ["other"])[0]
                        self.seen[key] = [part, times.user + times.system]
                except psutil.Error:
                    pass
            self.done.wait(0.05)

    def parts(self):
        out = dict.fromkeys(PARTS, 0.0)
        for part, cpu in self.seen.values():
            out[part] += cpu
        return out


class Group:
    """A cpuacct cgroup of our own: every process started in it, and their children, counted."""

    def __init__(self, name):
        self.path = os.path.join(CPUACCT, name)
        os.makedirs(self.path, exist_ok=True)

    def enter(self):  # run in the child before exec
        with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
            f.write("%d\n" % os.getpid())

    def seconds(self):
        with open(os.path.join(self.path, "cpuacct.usage")) as f:
            return int(f.read()) / 1e9

    def remove(self):
        try:
            os.rmdir(self.path)
        except OSError:
            pass


def one_start(argv, cwd, env, login_of):
    """Start ``argv``, log in (``login_of(said)`` gives the hub's URL, the user and the password),
    SIGTERM it; {phase: seconds}, {part: CPU seconds}, total CPU seconds."""
    group, process = Group("bench-hub-start-%d" % os.getpid()), None
    try:
        started = time.monotonic()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, start_new_session=True, preexec_fn=group.enter)
        sampler = Sampler(process.pid)
        sampler.start()
        said = []
        for line in process.stdout:
            said.append(line)
            found = login_of("".join(said))
            if found:
                break
        else:
            raise SystemExit("%s ended:\n%s" % (argv[:4], "".join(said)))
        took = {"ready": time.monotonic() - started}
        url, name, password = found
        started = time.monotonic()
        Person(url, name, password).login()
        took["login"] = time.monotonic() - started
        tree = [process.pid] + [p.pid for p in psutil.Process(process.pid).children(recursive=True)]
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(120)
        while any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
                  for pid in tree):
            time.sleep(0.02)
        took["stop"] = time.monotonic() - started
        sampler.done.set()
        sampler.join()
        threading.Thread(target=process.stdout.read, daemon=True).start()
        return took, sampler.parts(), group.seconds()
    finally:
        if process is not None and process.poll() is None:  # stopped by Ctrl+C meanwhile
            process.send_signal(signal.SIGTERM)
            process.wait(120)
        group.remove()


def ours(course_hub):
    root, env, hub = course_hub

    def login_of(said):
        if "Ctrl+C" not in said:
            return None
        password, url = re.search(r"student\s+%s\s+password (\S+)\s+(http://\S+)" % STUDENT, said).groups()
        return url.split("/hub/")[0], STUDENT, password

    return one_start(hub, root, env, login_of)


STOCK_CONFIG = """
c.JupyterHub.ip = '127.0.0.1'
c.JupyterHub.port = %(port)d
c.JupyterHub.hub_port = %(hub_port)d
c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:%(proxy_api_port)d'
c.JupyterHub.authenticator_class = 'pam'
c.Authenticator.allowed_users = {%(student)r}
"""


def stock(folder, env, password):
    """``jupyterhub`` with its defaults on a config of ports and who may log in."""
    from autograder.hub.server import free_ports

    port, hub_port, api_port = free_ports(3)
    with open(os.path.join(folder, "stock_config.py"), "w") as f:
        f.write(STOCK_CONFIG % dict(port=port, hub_port=hub_port, proxy_api_port=api_port, student=STUDENT))
    url = "http://127.0.0.1:%d" % port

    def login_of(said):
        if "JupyterHub is now running" not in said:
            return None
        return url, STUDENT, password

    argv = [sys.executable, "-m", "jupyterhub", "-f", os.path.join(folder, "stock_config.py")]
    return one_start(argv, folder, env, login_of)


def report(name, rounds):
    took = {k: statistics.mean(r[0][k] for r in rounds) for k in ("ready", "login", "stop")}
    parts = {k: statistics.mean(r[1][k] for r in rounds) for k in PARTS}
    total = statistics.mean(r[2] for r in rounds)
    print("%-6s ready %5.1f s  login %4.2f s  stop %4.1f s  whole %5.1f s  CPU %5.2f s (all processes)"
          % (name, took["ready"], took["login"], took["stop"], sum(took.values()), total))
    print("       CPU per process: " + ", ".join("%s %.2f" % (k, v) for k, v in parts.items() if v >= 0.005))


def main(rounds=3):
    if os.geteuid() != 0:
        print("bench_hub_start: skipped, needs root (it creates Unix users)")
        return 0
    if not os.path.isdir(CPUACCT):
        print("bench_hub_start: skipped, needs cgroup v1's cpuacct at %s" % CPUACCT)
        return 0
    if not os.path.exists(os.path.join(LOCAL_PROXY_BIN, "configurable-http-proxy")) \
            and not shutil.which("configurable-http-proxy"):
        print("bench_hub_start: skipped, needs configurable-http-proxy (npm install --prefix .hub "
              "configurable-http-proxy@5)")
        return 0
    base = tempfile.mkdtemp(prefix="bench-hub-start-")
    os.chmod(base, 0o755)
    root, env, hub = one_course_hub(base, PEOPLE)
    remove = hub + ["--remove-users"]
    stock_dir = os.path.join(base, "stock")
    os.makedirs(stock_dir)
    print("load average at the start: %.1f" % os.getloadavg()[0])
    results = {"ours": [], "stock": []}
    try:
        subprocess.run(remove, cwd=root, env=env, capture_output=True)
        password = None
        for _ in range(rounds):
            results["ours"].append(ours((root, env, hub)))
            if password is None:
                with open(os.path.join(base, "hub", "hub", "passwords.json")) as f:
                    password = __import__("json").load(f)[STUDENT]
            results["stock"].append(stock(stock_dir, env, password))
        print("per start, mean of %d (nice %d):" % (rounds, os.nice(0)))
        report("ours", results["ours"])
        report("stock", results["stock"])
        print("load average at the end: %.1f" % os.getloadavg()[0])
    finally:
        kill_processes_of([INSTRUCTOR, STUDENT, GRADER])
        subprocess.run(remove, cwd=root, env=env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*[int(a) for a in sys.argv[1:2]]))
