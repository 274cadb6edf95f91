"""The zygote: one process that imports torch once and forks a fresh kernel per notebook.

Starting a Python kernel costs about 0.65 s and ``import torch`` about 1.45 s
more, paid again for every submission: most of a stock autograde.  The zygote
pays the imports once: it imports torch, reftorch, the check library and
ipykernel, then forks.  A forked child is a new process whose memory starts as
a copy of the zygote's (pages are shared until written): torch is already
imported, but no student code has ever run in it, and nothing one child does
can reach the zygote or another child.

It also keeps a small *pool* of children that have already done the rest of a
kernel's start-up (IPython shell, sockets on their own ports, the
``exec_lines`` of ``autograder.kernel_setup``) and then wait, blocked on a
pipe, without using the CPU.  A request hands one out: the child receives the
notebook's working directory and environment, moves there and starts
answering on its ports; the zygote forks a replacement at once.  Every kernel
still serves exactly one notebook and is then killed.

Protocol, one JSON line each way on stdin/stdout::

    -> {"argv": ["-f", "/tmp/kernel-x.json", ...], "cwd": "...", "env": {...}}
    <- {"pid": 1234, "connection_file": "/tmp/pool-1.json"}   (from the pool), or
    <- {"pid": 1234}                                           (forked for this request)

A pooled kernel is used only when the request's kernel arguments (all but the
connection file) are the pool's, given as ``python -m autograder.kernel_zygote
--pool N -- ARG ...``.  The zygote reaps children as they exit, so a pid that
stops existing means the kernel is gone (``autograder.warm_kernels`` relies on
that).  When its stdin closes it kills the pool and exits.

Nothing here creates threads, sockets or an event loop before forking:
ipykernel creates them in the child.
"""

import json
import os
import random
import shutil
import signal
import sys
import tempfile

# What every grading kernel needs, imported once here.
PRELOAD = ["numpy", "torch", "reftorch", "autograder.checks", "autograder.kernel_setup",
           "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.debugger", "ipykernel.zmqshell",
           "IPython", "IPython.core.completerlib", "matplotlib_inline.backend_inline", "jedi"]


def _reap(signum, frame):
    """SIGCHLD: collect every child that has exited, so its pid disappears."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _set_environment(cwd, env, keep=()):
    """Make ``env`` the environment (plus the names in ``keep``) and ``cwd`` the directory."""
    kept = {name: os.environ[name] for name in keep if name in os.environ}
    os.environ.clear()
    os.environ.update(env)
    os.environ.update(kept)
    os.environ.setdefault("COLUMNS", "80")  # argparse asks for the terminal size 50 times otherwise
    os.chdir(cwd)


def _detach(closing):
    """In a fresh child: own session, stdio to /dev/null, fresh random seeds."""
    os.setsid()
    for fd in closing:
        os.close(fd)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    random.seed()
    try:
        import numpy
        numpy.random.seed()
    except ImportError:
        pass


def _kernel_app(argv):
    from ipykernel.kernelapp import IPKernelApp

    sys.argv = ["ipykernel_launcher"] + argv
    app = IPKernelApp.instance()
    app.initialize(argv)
    return app


def _run_child(body):
    """Run ``body`` in the child; never return into the zygote's loop."""
    code = 0
    try:
        body()
    except BaseException:  # noqa: BLE001
        code = 1
    finally:
        os._exit(code)


class Zygote:
    def __init__(self, replies, pool_size, pool_args):
        self.replies = replies
        self.pool_size = pool_size
        self.pool_args = pool_args
        self.pool = []  # (pid, connection file, write end of its pipe)
        self.folder = tempfile.mkdtemp(prefix="autograder-pool-")
        self.counter = 0

    def fork_fresh(self, request):
        pid = os.fork()
        if pid == 0:
            def body():
                _detach([self.replies.fileno()] + [fd for _, _, fd in self.pool])
                _set_environment(request["cwd"], request["env"])
                app = _kernel_app(request["argv"])
                app.start()
            _run_child(body)
        return {"pid": pid}

    def fork_pooled(self):
        self.counter += 1
        connection_file = os.path.join(self.folder, "pool-%d.json" % self.counter)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            def body():
                _detach([self.replies.fileno(), write_fd] + [fd for _, _, fd in self.pool])
                before = set(os.environ)
                app = _kernel_app(["-f", connection_file] + self.pool_args)
                added = [name for name in os.environ if name not in before]  # e.g. MPLBACKEND
                with os.fdopen(read_fd) as orders:
                    line = orders.readline()
                if not line:
                    return  # the zygote closed the pool
                request = json.loads(line)
                _set_environment(request["cwd"], request["env"], keep=added)
                app.start()
            _run_child(body)
        os.close(read_fd)
        self.pool.append((pid, connection_file, write_fd))

    def handle(self, request):
        wants_pool = request["argv"][:1] == ["-f"] and request["argv"][2:] == self.pool_args
        while wants_pool and self.pool:
            pid, connection_file, write_fd = self.pool.pop(0)
            try:
                os.write(write_fd, (json.dumps(request) + "\n").encode())
            except OSError:  # that child died while waiting: try the next one
                continue
            finally:
                os.close(write_fd)
            self.refill()
            return {"pid": pid, "connection_file": connection_file}
        reply = self.fork_fresh(request)
        return reply

    def refill(self):
        while len(self.pool) < self.pool_size:
            self.fork_pooled()

    def close(self):
        for pid, _, write_fd in self.pool:
            os.close(write_fd)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.pool = []
        shutil.rmtree(self.folder, ignore_errors=True)

    def serve(self, requests):
        signal.signal(signal.SIGCHLD, _reap)
        try:
            self.refill()
            for line in requests:
                reply = self.handle(json.loads(line))
                self.replies.write(json.dumps(reply) + "\n")
                self.replies.flush()
        finally:
            self.close()


def main():
    args = sys.argv[1:]
    pool_size, pool_args = 0, []
    if args[:1] == ["--pool"]:
        pool_size = int(args[1])
        pool_args = args[3:] if args[2:3] == ["--"] else []
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # quiets debugpy's import-time notice
    for name in PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass
    sys.modules["autograder.kernel_setup"].import_trusted_modules()
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # stray prints must not corrupt replies
    replies.write(json.dumps({"ready": os.getpid()}) + "\n")
    replies.flush()
    Zygote(replies, pool_size, pool_args).serve(sys.stdin)


if __name__ == "__main__":
    main()
