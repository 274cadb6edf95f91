"""Real servers for the farm test and bench: a Postgres 15 server and a dask farm, on loopback.

- :class:`Postgres`: Debian's ``postgresql`` binaries (``/usr/lib/postgresql/*/bin``):
  ``initdb`` and ``pg_ctl`` in a fresh folder, run as an unprivileged user
  (``autograder-pg``, made with ``useradd`` when missing: the tests run as
  root, and Postgres refuses to run as root); stopped by its pid.
- :class:`Farm`: a ``dask scheduler`` and ``dask worker`` processes, each
  started as its own process group (``start_new_session``), as on separate
  hosts, so one can be killed whole with ``os.killpg``.
"""

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from autograder.hub.server import free_ports

PG_USER = "autograder-pg"
BIN = os.path.dirname(sys.executable)


def free_port():
    """A free loopback port below the range the kernel hands out to outgoing connections: one of
    those took the port a server was given between our check and its bind (Postgres then refused
    to start, "Address already in use")."""
    return free_ports(1)[0]


def postgres_bin():
    """The folder of Debian's Postgres binaries, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return os.path.dirname(found[-1]) if found else None


def _wait_for(what, ready, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if ready():
            return
        time.sleep(0.2)
    raise RuntimeError("%s did not come up in %d s" % (what, timeout))


class Postgres:
    """A throw-away Postgres server on 127.0.0.1, user ``grader`` (trusted on loopback)."""

    def __init__(self):
        self.bin = postgres_bin()
        try:
            pwd.getpwnam(PG_USER)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                            PG_USER], check=True)
        self.user = pwd.getpwnam(PG_USER)
        self.folder = tempfile.mkdtemp(prefix="autograder-pg-")  # not under root's 0700 pytest folder
        os.chown(self.folder, self.user.pw_uid, self.user.pw_gid)
        self.data = os.path.join(self.folder, "data")
        self.port = free_port()
        self.pid = None

    def _as_user(self, command, **kwargs):
        return subprocess.run(command, user=self.user.pw_uid, group=self.user.pw_gid, cwd=self.folder,
                              check=True, capture_output=True, text=True, **kwargs)

    def start(self):
        self._as_user([os.path.join(self.bin, "initdb"), "-D", self.data, "-U", "grader",
                       "--auth=trust", "--no-sync", "-E", "UTF8"])
        self._as_user([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-w", "-t", "60",
                       "-l", os.path.join(self.folder, "server.log"), "start", "-o",
                       "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off" % (self.port, self.folder)])
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            self.pid = int(f.readline())
        return self

    def create_database(self, name):
        """A new, empty database: its URL."""
        self._as_user([os.path.join(self.bin, "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                       "-U", "grader", name])
        return "postgresql://grader@127.0.0.1:%d/%s" % (self.port, name)

    def stop(self):
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGINT)  # Postgres's "fast" shutdown
                _wait_for("the Postgres shutdown", lambda: not _alive(self.pid), 60)
            except ProcessLookupError:
                pass
            self.pid = None
        shutil.rmtree(self.folder, ignore_errors=True)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open("/proc/%d/stat" % pid) as f:  # a zombie is gone too
        return f.read().split(")")[-1].split()[0] != "Z"


class Farm:
    """A ``dask scheduler`` and ``workers`` ``dask worker`` processes on loopback."""

    def __init__(self, workers=2, logs=None):
        self.port = free_port()
        self.logs = logs or tempfile.mkdtemp(prefix="autograder-farm-logs-")
        self.env = dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""))
        self.scheduler = self._start("scheduler", [os.path.join(BIN, "dask"), "scheduler", "--host",
                                                   "127.0.0.1", "--port", str(self.port),
                                                   "--no-dashboard"])
        _wait_for("the dask scheduler", self._listening, 60)
        # --no-nanny: the worker is the process itself, so its pid names its workspace
        self.workers = [self._start("worker-%d" % n, [
            os.path.join(BIN, "dask"), "worker", self.address, "--nthreads", "1", "--no-nanny",
            "--no-dashboard", "--name", "worker-%d" % n]) for n in range(workers)]

    def _start(self, name, command):
        log = open(os.path.join(self.logs, name + ".log"), "w")
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                start_new_session=True, cwd=self.logs)

    def _listening(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    @property
    def address(self):
        return "tcp://127.0.0.1:%d" % self.port

    def wait_for_workers(self, count, timeout=120):
        from distributed import Client

        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(count, timeout=timeout)

    def log(self, name):
        with open(os.path.join(self.logs, name + ".log")) as f:
            return f.read()

    def kill(self, process):
        """Kill a whole process group, as a machine that goes away."""
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()

    def stop(self):
        for process in self.workers + [self.scheduler]:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.kill(process)
                except ProcessLookupError:
                    pass
