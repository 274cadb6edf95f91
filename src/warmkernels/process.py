"""The owner's side: the pipe to a zygote, and a kernel it forked followed through a pidfd."""

import json
import os
import select
import signal
import subprocess
import threading


def close_and_wait(process, timeout):
    """Close the stdin of ``process`` (a ``subprocess.Popen``) if it still runs, and wait up to
    ``timeout`` seconds for it to end; kill it if it has not."""
    if process.poll() is not None:
        return
    process.stdin.close()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _read_reply(stream):
    line = stream.readline()
    if not line:
        raise RuntimeError("the kernel zygote exited (its traceback is on stderr)")
    try:
        return json.loads(line.decode("utf-8", "replace"))
    except ValueError:
        raise RuntimeError("the kernel zygote answered %r" % line[:200]) from None


class Zygote:
    """The owner's end of the pipe to a zygote (:mod:`warmkernels.zygote`), started with ``command``.

    The zygote imports in the background; :meth:`launch` waits for it the first time.  It is
    a session of its own, so a Ctrl-C meant for its owner does not reach it.
    """

    def __init__(self, command, env=None):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        close_fds=True, env=env, start_new_session=True)
        self._ready = None
        self._lock = threading.Lock()

    def wait_ready(self):
        """``{"ready": pid}`` once the zygote has imported."""
        if self._ready is None:
            self._ready = _read_reply(self.process.stdout)
        return self._ready

    def launch(self, request):
        """Ask for a kernel (``{"argv", "env", "cwd", ...}``); returns its pid."""
        with self._lock:
            self.wait_ready()
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            reply = _read_reply(self.process.stdout)
        if "error" in reply:
            raise RuntimeError("the kernel zygote could not start a kernel: %s" % reply["error"])
        return int(reply["pid"])

    def alive(self):
        return self.process.poll() is None

    def close(self, timeout=30):
        """Close its stdin: it kills the kernels still running, then exits."""
        close_and_wait(self.process, timeout)
        self.process.stdout.close()


class ForkedKernel:
    """The part of ``subprocess.Popen`` jupyter_client uses, for a kernel that is not our child.

    The kernel is the zygote's child (or a launcher's), so it is followed through a
    pidfd: no signal can reach a process that later reuses its pid.  Its exit status
    stays with its parent: ``poll`` and ``wait`` report :attr:`ended_code` once it has ended.
    """

    stdin = stdout = stderr = None
    ended_code = 0

    def __init__(self, pid):
        self.pid = pid
        self.returncode = None
        try:
            self._pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            self._pidfd = None
            self.returncode = self.ended_code

    def _ended(self, timeout):
        if self.returncode is None and select.select([self._pidfd], [], [], timeout)[0]:
            self.returncode = self.ended_code
            os.close(self._pidfd)
            self._pidfd = None
        return self.returncode is not None

    def poll(self):
        self._ended(0)
        return self.returncode

    def wait(self, timeout=None):
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired("kernel %d" % self.pid, timeout)
        return self.returncode

    def send_signal(self, signum):
        if signum == signal.SIGKILL:
            return self.kill()
        if self.poll() is None:
            signal.pidfd_send_signal(self._pidfd, signum)

    def kill(self):
        """End the kernel and its process group (every process it started that stayed in it)."""
        if self.poll() is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)  # the kernel leads a process group of its own
            except OSError:
                pass
            try:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass  # ended with its group
        self.wait()

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def close(self):
        """Kill the kernel if it still runs (its pidfd is closed once it has ended)."""
        self.kill()
