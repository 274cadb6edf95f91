"""The self-check service: a small per-user process that keeps the grader's warm kernels ready.

``self_check()`` used to start ``python -m autograder check`` for every call:
a new Python that imports nbclient and the grader's checks, then a fresh
kernel that imports torch. Most of the 7-11 s went there. This process pays
those imports once, for the length of the learner's session:

* it imports what :func:`autograder.learner.learner_check.check` needs, and starts the
  grader's **zygote** (``autograder.kernels.kernel_zygote``): a process that imported
  torch once and forks each kernel from itself. Every check still gets a new
  kernel, in a new sandbox of its own (bubblewrap, its own uid, limits), the
  way the grader's warm workers start theirs: nothing is weakened, no
  learner's code ever runs twice in one kernel, and no kernel is reused;
* it answers on a unix socket in a folder only this user may enter
  (``$XDG_RUNTIME_DIR``, else the temporary folder): one JSON line in
  (``{"path": ..., "root": ...}``), one JSON line out, the check's result as
  data (``CheckResult``: each test's points and message), never text to parse;
* one check at a time; it exits after ``IDLE`` seconds without a request, and
  as soon as the Jupyter server whose kernel started it ends (``JPY_PARENT_PID``,
  which jupyter_client gives every kernel): a hub that stops a learner's
  server leaves no self-check service behind.

``self_check()`` asks it (:func:`check_saved`), starting it when it is not
running; where it cannot run, the check runs in a process of its own
(``python -m autograder.learner.check_service --once PATH``), which prints the same
JSON. ``make lab`` starts it with the lab (``--start``), so the first check
finds it warm.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

from .results import CheckResult, TestResult

__all__ = ["socket_path", "check_saved", "start", "stop", "serve", "result_from_data", "main"]

IDLE = 3600              # seconds without a check before the service exits
SOCKET_ENV = "AUTOGRADER_CHECK_SOCKET"
START_TIMEOUT = 120      # seconds to wait for a service being started
CHECK_TIMEOUT = 600      # seconds to wait for one check's answer


def socket_path() -> str:
    """This user's socket, in a folder of theirs that no one else may enter
    (``$AUTOGRADER_CHECK_SOCKET`` names another: the tests and the benchmark use their own)."""
    if os.environ.get(SOCKET_ENV):
        return os.environ[SOCKET_ENV]
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    # one service per user and per copy of the course: another checkout runs other code
    here = hashlib.sha256(os.path.dirname(os.path.abspath(__file__)).encode()).hexdigest()[:8]
    folder = os.path.join(base, "autograder-self-check-%d-%s" % (os.getuid(), here))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    info = os.lstat(folder)
    if info.st_uid != os.getuid() or info.st_mode & 0o077 or not os.path.isdir(folder):
        raise PermissionError("%s is not a private folder of this user" % folder)
    return os.path.join(folder, "service.sock")


def result_to_data(result) -> dict:
    return dataclasses.asdict(result)


def result_from_data(data: dict):
    return CheckResult(data["path"], [TestResult(**t) for t in data["tests"]], list(data["problems"]),
                       list(data.get("notes", [])), data.get("language", "en"))


# -- the service ------------------------------------------------------------------------------

def _check(request: dict) -> dict:
    from .learner_check import check

    try:
        result = check(request["path"], root=request.get("root"), warm=True)
    except Exception as error:  # a refusal (someone else's notebook, no sandbox) is an answer too
        result = CheckResult(request.get("path", "?"), [], ["%s: %s" % (type(error).__name__, error)])
    return result_to_data(result)


class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        self.server.last_request = time.monotonic()
        try:
            request = json.loads(self.rfile.readline())
            if request.get("ping"):
                answer = {"pong": os.getpid(), "code": self.server.code}
            elif request.get("stop"):
                answer = {"stopping": os.getpid()}
                threading.Thread(target=self.server.shutdown, daemon=True).start()
            else:
                with self.server.one_at_a_time:
                    answer = _check(request)
        except Exception as error:  # never let one bad request end the service
            answer = {"error": "%s: %s" % (type(error).__name__, error)}
        self.server.last_request = time.monotonic()
        self.wfile.write(json.dumps(answer).encode() + b"\n")


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def code_version() -> str:
    """Which grader code this process runs (its files' names, sizes and times): a service started
    before the course was updated is replaced, not asked."""
    folder = os.path.dirname(os.path.abspath(__file__))
    seen = []
    for top, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".py"):
                info = os.stat(os.path.join(top, name))
                seen.append("%s:%d:%d" % (os.path.relpath(os.path.join(top, name), folder), info.st_size,
                                          info.st_mtime_ns))
    return hashlib.sha256("|".join(sorted(seen)).encode()).hexdigest()[:16]


def warm_up():
    """Import what a check needs and start the zygote (it imports torch); wait until it is ready."""
    from . import learner_check  # noqa: F401  (nbclient, the rebuild, the judge)
    from ..pipeline import static_rules  # noqa: F401
    from ..kernels.grading_kernels import start_zygote
    from ..kernels.sandbox import why_unavailable

    if why_unavailable() is None:
        start_zygote(sandboxed=True).wait_ready()


def _stop_with(owner: int, server) -> None:
    """Shut ``server`` down when the process ``owner`` ends (a pidfd: a pid used again later by
    another process is not mistaken for it); at once when it has ended already."""
    try:
        fd = os.pidfd_open(owner)
    except OSError:  # gone already
        server.shutdown()
        return

    def wait():
        import select

        select.select([fd], [], [])
        os.close(fd)
        server.shutdown()

    threading.Thread(target=wait, daemon=True).start()


def serve(path: str | None = None, idle: float = IDLE, owner: int | None = None) -> int:
    path = path or socket_path()
    if os.path.exists(path):
        if _ping(path):
            return 0  # one is running already
        os.unlink(path)
    warm_up()
    server = _Server(path, _Handler)
    os.chmod(path, 0o600)
    server.one_at_a_time = threading.Lock()
    server.code = code_version()
    server.last_request = time.monotonic()

    def stop_when_idle():
        while time.monotonic() - server.last_request < idle:
            time.sleep(min(30.0, idle / 4))
        server.shutdown()

    threading.Thread(target=stop_when_idle, daemon=True).start()
    if owner:
        _stop_with(owner, server)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
        try:
            if os.path.exists(path):
                os.unlink(path)
        except OSError:
            pass
    return 0


# -- the caller's side --------------------------------------------------------------------------

def _ask(path: str, request: dict, timeout: float) -> dict:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        s.sendall(json.dumps(request).encode() + b"\n")
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
    return json.loads(reply)


def _ping(path: str) -> bool:
    """Is a service of this code answering at ``path``? One of older code is told to stop."""
    try:
        answer = _ask(path, {"ping": True}, 5)
    except (OSError, ValueError):
        return False
    if answer.get("code") != code_version():
        stop(path)
        return False
    return "pong" in answer


def stop(path: str | None = None) -> bool:
    """Ask the service at ``path`` to exit; True when one was running."""
    path = path or socket_path()
    try:
        _ask(path, {"stop": True}, 5)
    except (OSError, ValueError):
        return False
    deadline = time.monotonic() + 10
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    return True


def start(path: str | None = None) -> subprocess.Popen | None:
    """Start the service in the background unless it runs already; returns the process started."""
    path = path or socket_path()
    if _ping(path):
        return None
    env = dict(os.environ)
    env.pop("NBGRADER_EXECUTION", None)
    owner = os.environ.get("JPY_PARENT_PID", "")  # in a kernel: the Jupyter server that started it
    return subprocess.Popen([sys.executable, "-m", "autograder.learner.check_service", "--serve", "--socket", path]
                            + (["--owner", owner] if owner.isdigit() else []),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, env=env, close_fds=True)


def check_saved(notebook: str, root: str | None = None):
    """The self-check of the saved notebook, as a ``CheckResult``: by the service (started if need
    be), else in a process of its own."""
    notebook = os.path.abspath(notebook)
    request = {"path": notebook, "root": root}
    try:
        path = socket_path()
        if not _ping(path):
            start(path)
            deadline = time.monotonic() + START_TIMEOUT
            while not _ping(path):
                if time.monotonic() > deadline:
                    raise TimeoutError("the self-check service did not start")
                time.sleep(0.2)
        answer = _ask(path, request, CHECK_TIMEOUT)
        if "error" not in answer:
            return result_from_data(answer)
    except (OSError, ValueError, TimeoutError):
        pass
    completed = subprocess.run([sys.executable, "-m", "autograder.learner.check_service", "--once", notebook]
                               + (["--root", root] if root else []), capture_output=True, text=True)
    return result_from_data(json.loads(completed.stdout.strip().splitlines()[-1]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.learner.check_service", description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--serve", action="store_true", help="run the service (until idle)")
    what.add_argument("--start", action="store_true", help="start the service in the background")
    what.add_argument("--stop", action="store_true", help="stop the service")
    what.add_argument("--once", metavar="NOTEBOOK", help="check one notebook here; print the result as JSON")
    parser.add_argument("--socket", help="the socket (default: this user's)")
    parser.add_argument("--root", help="the course's root folder")
    parser.add_argument("--idle", type=float, default=IDLE, help="seconds without a check before exiting")
    parser.add_argument("--owner", type=int, help="exit when the process of this pid ends")
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args.socket, args.idle, args.owner)
    if args.start:
        start(args.socket)
        return 0
    if args.stop:
        stop(args.socket)
        return 0
    from .learner_check import check

    print(json.dumps(result_to_data(check(args.once, root=args.root))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
