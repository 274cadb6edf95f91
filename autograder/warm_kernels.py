"""Warm kernels: a jupyter_client KernelManager whose kernels are forked from a zygote.

``ForkedKernelManager`` is a drop-in ``kernel_manager_class`` for nbclient
(and so for nbgrader's Execute preprocessor).  Everything is stock
jupyter_client except the launch: instead of ``Popen([python, -m,
ipykernel_launcher, -f, conn.json])``, which imports torch again, the
``ForkProvisioner`` asks the zygote (``autograder.kernel_zygote``) to fork a
child that becomes the kernel.  Each notebook still gets its own fresh
process, ports, connection file and session: only the imports are shared, as
read-only copies of the zygote's memory.

Interrupts, kills and the "is it alive?" poll go straight to the child's pid,
which the zygote reaps as soon as it exits.  One zygote serves one grading
process; it is started on first use (or ahead of time with
:func:`start_zygote`) and ends when that process does.
"""

import asyncio
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from traitlets import DottedObjectName, Type

from .kernel_setup import KERNEL_ARGUMENTS

POOL_SIZE = 1  # kernels each zygote keeps started and waiting


class Zygote:
    """The grader's end of the pipe to one zygote process."""

    def __init__(self, pool=POOL_SIZE, pool_args=KERNEL_ARGUMENTS):
        self._lock = threading.Lock()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autograder.kernel_zygote", "--pool", str(pool), "--"] + pool_args,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            start_new_session=True)
        self._ready = None

    def wait_ready(self):
        if self._ready is None:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the kernel zygote failed to start")
            self._ready = json.loads(line)
        return self._ready

    def fork(self, argv, cwd, env):
        """A kernel for ``argv`` (ipykernel arguments): ``{"pid": ..., ["connection_file": ...]}``."""
        with self._lock:
            self.wait_ready()
            self.process.stdin.write(json.dumps({"argv": argv, "cwd": cwd, "env": env}) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the kernel zygote exited")
        return json.loads(line)

    def alive(self):
        return self.process.poll() is None

    def close(self):
        if self.alive():
            self.process.stdin.close()
            self.process.wait(timeout=10)


_zygote = None


def start_zygote(pool=POOL_SIZE):
    """The zygote of this process, started now if it is not running."""
    global _zygote
    if _zygote is None or not _zygote.alive():
        _zygote = Zygote(pool)
    return _zygote


def _read_connection_file(path, timeout=30):
    """A pooled kernel writes its connection file while it starts: wait for it."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with open(path) as f:
                info = json.load(f)
            info["key"] = info["key"].encode()
            return info
        except (FileNotFoundError, json.JSONDecodeError, KeyError):
            if time.monotonic() > deadline:
                raise RuntimeError("pooled kernel never wrote %s" % path)
            time.sleep(0.005)


class ForkedProcess:
    """The part of ``subprocess.Popen`` that LocalProvisioner uses, for a forked kernel.

    The kernel is the zygote's child, not ours, so ``wait`` cannot collect an
    exit status: the zygote reaps it, and a pid that no longer exists means
    it has exited (reported as status -9).
    """

    stdin = stdout = stderr = None

    def __init__(self, pid):
        self.pid = pid
        self.returncode = None

    def poll(self):
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = -signal.SIGKILL
        return self.returncode

    def wait(self, timeout=None):
        while self.poll() is None:
            threading.Event().wait(0.02)
        return self.returncode

    def send_signal(self, signum):
        if self.poll() is None:
            os.kill(self.pid, signum)

    def kill(self):
        self.send_signal(signal.SIGKILL)

    def terminate(self):
        self.send_signal(signal.SIGTERM)


class ForkProvisioner(LocalProvisioner):
    """Launches the kernel by asking the zygote to fork, not by running a command."""

    async def launch_kernel(self, cmd, **kwargs):
        argv = cmd[cmd.index("-f"):] if "-f" in cmd else cmd[3:]
        env = dict(kwargs.get("env") or os.environ)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        zygote = start_zygote()
        reply = await asyncio.get_running_loop().run_in_executor(None, zygote.fork, argv, cwd, env)
        pid = reply["pid"]
        if "connection_file" in reply:  # a pooled kernel listens on ports of its own
            self.connection_info = _read_connection_file(reply["connection_file"])
        self.process = ForkedProcess(pid)
        self.pid = pid
        self.pgid = pid  # the child called setsid(): its own process group
        self.cwd = cwd
        return self.connection_info

    async def wait(self):
        while await self.poll() is None:
            await asyncio.sleep(0.02)
        self.process = None
        return -signal.SIGKILL


class QuickReadyClient(AsyncKernelClient):
    """jupyter_client's AsyncKernelClient, minus an idle wait when a kernel starts.

    The stock ``wait_for_ready`` drains the IOPub channel until it has been
    silent for 0.2 s, which is most of a forked kernel's start-up.  Here it
    waits for the kernel_info reply and the first IOPub message (proof the
    channel is connected), then drains only what is already there.  nbclient
    ignores stray IOPub messages anyway (it matches each one to its request).
    """

    async def _async_wait_for_ready(self, timeout=None):
        deadline = time.monotonic() + (timeout if timeout is not None else 60)
        while True:
            self.kernel_info()
            try:
                msg = await self.shell_channel.get_msg(timeout=0.5)
            except queue.Empty:
                msg = None
            if msg is not None and msg["msg_type"] == "kernel_info_reply":
                try:
                    await self.iopub_channel.get_msg(timeout=0.5)
                except queue.Empty:
                    continue  # IOPub not connected yet: ask again
                self._handle_kernel_info_reply(msg)
                break
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError("Kernel didn't respond in %d seconds" % timeout)
        while True:
            try:
                await self.iopub_channel.get_msg(timeout=0.01)
            except queue.Empty:
                break

    wait_for_ready = _async_wait_for_ready


class ForkedKernelManager(AsyncKernelManager):
    """An AsyncKernelManager whose kernels come from the zygote (see module docstring)."""

    client_class = DottedObjectName("autograder.warm_kernels.QuickReadyClient")
    client_factory = Type(QuickReadyClient, klass=AsyncKernelClient)

    async def _async_wait(self, pollinterval=0.01):
        await super()._async_wait(pollinterval=pollinterval)  # stock polls every 0.1 s

    async def _async_pre_start_kernel(self, **kw):
        if self.provisioner is None:
            self.provisioner = ForkProvisioner(kernel_id=self.kernel_id or "forked",
                                               kernel_spec=self.kernel_spec, parent=self)
        return await super()._async_pre_start_kernel(**kw)
