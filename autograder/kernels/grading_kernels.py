"""The kernels that run students' notebooks: each in a sandbox of its own, warm or cold.

``GradingKernelManager`` is the ``kernel_manager_class`` of the grading
preprocessor (``autograder.kernels.execute.GuardedExecute``), so it serves both
``python -m autograder autograde`` and plain ``nbgrader autograde``.  It is
jupyter_client's ``AsyncKernelManager`` with three choices made:

* the **ipc transport**: the kernel's five channels are unix sockets in a
  folder of its own that only root may enter (the sandbox has no network);
* a **provisioner**, :class:`SandboxProvisioner`: the warm kernels' one provisioner
  (``warmkernels.provisioner.WarmProvisioner``) with the sandbox added, registered with
  jupyter_client through its ``jupyter_client.kernel_provisioners`` entry point
  (``pyproject.toml``) and named by the kernel spec's ``metadata.kernel_provisioner``
  (:class:`GradingKernelSpecManager`).  It builds the kernel's
  sandbox (``autograder.kernels.sandbox``) and starts a launcher in it
  (``autograder.kernels.kernel_launch``): forked from this process's zygote when
  ``warm`` is on (torch already imported, ``autograder.kernels.kernel_zygote``), else
  a fresh ``python -P``.  Interrupts go to the kernel's pid; killing the
  kernel kills its whole sandbox, every process the notebook started included;
* a client (:class:`QuickReadyClient`) that does not wait for 0.2 s of IOPub
  silence when a kernel starts.

Options (nbgrader configuration, e.g. ``--GradingKernelManager.unsandboxed=True``):
``warm`` (the autograder's workers turn it on), ``unsandboxed`` (run kernels
with the grader's rights; refused otherwise when bubblewrap is missing),
``cgroups`` (each sandboxed kernel in a control group of its own, limiting the
kernel as a whole: ``kernel_memory_limit``, ``cpu_quota``, ``pids_limit``;
refused when no cgroup hierarchy is writable, unless turned off) and the
per-process limits of ``autograder.kernels.sandbox.Limits``.

The kernel's environment is rebuilt from a short list of names
(:func:`kernel_environment`): nothing else of the grader's environment (tokens,
passwords) reaches a kernel or the zygote it is forked from.
"""

import asyncio
import atexit
import dataclasses
import itertools
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from traitlets import Bool, DottedObjectName, Float, Integer, Type, Unicode, default
from warmkernels.process import ForkedKernel, Zygote
from warmkernels.provisioner import WarmKernelSpecManager, WarmProvisioner, require_provisioner

from .sandbox import KERNEL_DIR_INSIDE, Limits, Sandbox, require_sandbox

# Names copied from the grader's environment into a kernel's; everything else is dropped.
# (The student's variant seed is not one: the executor hands it to the kernel as data.)
KEPT_ENVIRONMENT = ["PATH", "PYTHONPATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "NBGRADER_EXECUTION",
                    "MPLBACKEND", "JPY_PARENT_PID", "JPY_SESSION_NAME", "HOME"]
# Each kernel runs as a uid no other process uses: UID_BASE + 16 * (grading process pid) + n.
UID_BASE = 100_000
_uids = itertools.count()


def kernel_environment(env, sandboxed=True):
    """The environment of a kernel (or of the zygote): the kept names, and safe-path Python."""
    kept = {name: env[name] for name in KEPT_ENVIRONMENT if name in env}
    kept.update(PYTHONSAFEPATH="1",           # no notebook folder on sys.path (python -P)
                PYTHONDONTWRITEBYTECODE="1",
                PYDEVD_DISABLE_FILE_VALIDATION="1",
                PYDEVD_USE_FRAME_EVAL="NO")          # what importing ipykernel sets: warm or cold alike
    if sandboxed:
        kept.update(HOME="/tmp/home", TMPDIR="/tmp", MPLCONFIGDIR="/tmp/home/.matplotlib")
    return kept


def next_uid():
    return UID_BASE + 16 * os.getpid() + next(_uids) % 16


_kernel_folders = None


def use_kernel_folders(folder):
    """Keep this process's kernel folders in ``folder`` (a grading worker: inside its run's folder)."""
    global _kernel_folders
    os.makedirs(folder, mode=0o700, exist_ok=True)
    _kernel_folders = folder


def _kernel_folders_root():
    """Where this process's kernel folders go: by default ``/tmp/autograder-kernels-*``,
    removed when the process exits."""
    global _kernel_folders
    if _kernel_folders is None or not os.path.isdir(_kernel_folders):
        _kernel_folders = tempfile.mkdtemp(prefix="autograder-kernels-")
        atexit.register(shutil.rmtree, _kernel_folders, True)
    return _kernel_folders


# -- the warm zygote --------------------------------------------------------------------

def new_zygote(sandboxed=True, witness=False, reftorch_stubs=""):
    """A new zygote (``autograder.kernels.kernel_zygote``): it imports in the background."""
    env = kernel_environment(os.environ, sandboxed)
    if sandboxed:  # a home of its own on the host, not the kernels' /tmp/home
        home = os.path.join(_kernel_folders_root(), "zygote-home")
        os.makedirs(home, mode=0o700, exist_ok=True)
        env.update(HOME=home, MPLCONFIGDIR=home)
    return Zygote([sys.executable, "-P", "-m", "autograder.kernels.kernel_zygote"]
                  + (["--witness"] + ([reftorch_stubs] if reftorch_stubs else []) if witness else []), env=env)


_zygotes = {}   # (witness (bool), reftorch_stubs) -> this process's zygote of that kind


def start_zygote(sandboxed=True, witness=False, reftorch_stubs=""):
    """The zygote of this process, started now if it is not running (it imports in the background).
    ``witness``: the one for judged assignments, which never imports torch; ``reftorch_stubs``: the
    folder of the reftorch copy it imports (``autograder.witness.stubs``), one zygote per assignment."""
    key = (witness, reftorch_stubs if witness else "")
    zygote = _zygotes.get(key)
    if zygote is None or not zygote.alive():
        zygote = _zygotes[key] = new_zygote(sandboxed, witness, key[1])
    return zygote


def stop_zygote():
    """Close this process's zygotes if they run (the next warm kernel starts a new one)."""
    while _zygotes:
        _zygotes.popitem()[1].close(timeout=10)


def cold_launch(request):
    """A fresh ``python -P -m autograder.kernels.kernel_launch``: returns (launcher process, kernel pid)."""
    launcher = subprocess.Popen([sys.executable, "-P", "-m", "autograder.kernels.kernel_launch"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, close_fds=True, env=request["env"],
                                start_new_session=True)
    launcher.stdin.write(json.dumps(request).encode())
    launcher.stdin.close()
    line = launcher.stdout.readline()
    launcher.stdout.close()
    try:
        return launcher, int(line)
    except ValueError:
        launcher.kill()
        launcher.wait()
        raise RuntimeError("the kernel launcher failed before starting a kernel") from None


# -- one kernel -------------------------------------------------------------------------

class KernelProcess(ForkedKernel):
    """A warm kernel followed through a pidfd (``warmkernels.process.ForkedKernel``), in a sandbox.

    The kernel is not our child (its launcher is its parent).  Killing it kills its
    sandbox, and with it every process the notebook started.
    """

    ended_code = -signal.SIGKILL

    def __init__(self, pid, sandbox=None, launcher=None):
        super().__init__(pid)
        self.sandbox = sandbox
        self.launcher = launcher

    def kill(self):
        """End the kernel and everything it started."""
        if self.sandbox is None:
            return super().kill()  # unsandboxed: its process group, at least
        self.sandbox.close()
        self.wait()

    def terminate(self):
        self.kill()

    def close(self):
        self.kill()  # also when the kernel is gone: its daemons may not be
        if self.launcher is not None:
            self.launcher.wait()


class SandboxProvisioner(WarmProvisioner):
    """The warm provisioner, each kernel in a new sandbox; through the zygote (warm) or a fresh
    launcher (cold)."""

    async def pre_launch(self, **kwargs):
        kwargs = await super().pre_launch(**kwargs)  # writes the connection file
        kwargs["env"] = kernel_environment(kwargs.get("env") or os.environ,
                                           sandboxed=not self.parent.unsandboxed)
        return kwargs

    def start(self, request):
        km = self.parent
        cwd = request["cwd"]
        request["sandbox"] = None
        # Started from this (the event loop's) thread, not a pool thread: bwrap's
        # --die-with-parent and the launcher's parent-death signal follow the thread
        # that started them.  Both calls return within milliseconds.
        sandbox = None
        if not km.unsandboxed:
            _copy_notebooks(cwd, os.path.join(km.kernel_dir, "notebooks"))
            limits = km.limits()
            sandbox = Sandbox(km.kernel_dir, limits, witness=km.witness, reftorch_stubs=km.reftorch_stubs)
            # the kernel sees its folder at the same path in every sandbox (sandbox.KERNEL_DIR_INSIDE)
            request["argv"] = ["-f", _inside_connection_file(km.connection_file)] + request["argv"][2:]
            request["sandbox"] = {"pid": sandbox.pid, "uid": next_uid(), "kernel_dir": KERNEL_DIR_INSIDE,
                                  "limits": dataclasses.asdict(limits),
                                  "cgroup": sandbox.cgroup_folders()}
            # only the folder's name (the assignment): the zygote's memory, which later
            # kernels are forked from, keeps no student's id or path
            request["cwd"] = os.path.basename(cwd.rstrip("/"))
        try:
            if km.warm:
                launcher, pid = None, km.zygote().launch(request)
            else:
                launcher, pid = cold_launch(request)
        except BaseException:
            if sandbox is not None:
                sandbox.close()
            raise
        return KernelProcess(pid, sandbox, launcher)

    async def launch_kernel(self, cmd, **kwargs):
        connection_info = await super().launch_kernel(cmd, **kwargs)
        self.pgid = None  # signals go to the kernel's pid (its sandbox is a session of its own)
        return connection_info

    async def wait(self):
        while await self.poll() is None:
            await asyncio.sleep(0.01)
        self.process = None
        return -signal.SIGKILL

    async def cleanup(self, restart=False):
        if self.kernel is not None:
            self.kernel.close()
            self.kernel = None
        shutil.rmtree(self.parent.kernel_dir, ignore_errors=True)
        await super().cleanup(restart=restart)


def _inside_connection_file(connection_file):
    """A copy of the connection file as the kernel sees it in its sandbox (sockets under
    :data:`KERNEL_DIR_INSIDE`); returns its path inside."""
    with open(connection_file) as f:
        info = json.load(f)
    folder = os.path.dirname(connection_file)
    if info.get("transport") == "ipc":
        info["ip"] = os.path.join(KERNEL_DIR_INSIDE, os.path.relpath(info["ip"], folder))
    with open(os.path.join(folder, "connection.json"), "w") as f:
        json.dump(info, f)
    return os.path.join(KERNEL_DIR_INSIDE, "connection.json")


def _copy_notebooks(folder, target):
    """The notebooks of ``folder`` (nothing else, no symlink) for the kernel's private folder."""
    os.makedirs(target, mode=0o700)
    for name in os.listdir(folder):
        source = os.path.join(folder, name)
        if name.endswith(".ipynb") and os.path.isfile(source) and not os.path.islink(source):
            shutil.copyfile(source, os.path.join(target, name))


class KernelDiedAtStart(RuntimeError):
    """The kernel ended before it answered its first request: no cell of the notebook had run,
    so the cause is the grader's environment (the sandbox, the zygote), not the student's code."""

    # what the failing notebook's note says (autograder.pipeline.failsafe), instead of a bare class name
    student_note = "the grading kernel died while it started, before any cell ran"


class QuickReadyClient(AsyncKernelClient):
    """jupyter_client's AsyncKernelClient, minus an idle wait when a kernel starts.

    The stock ``wait_for_ready`` drains the IOPub channel until it has been
    silent for 0.2 s, which is most of a forked kernel's start-up.  Here it
    waits for the kernel_info reply and the first IOPub message (proof the
    channel is connected), then drains only what is already there.  nbclient
    ignores stray IOPub messages anyway (it matches each one to its request).
    """

    ready_timeout = Float(60, help="Seconds ``wait_for_ready`` waits when it is given no timeout.")

    async def wait_for_ready(self, timeout=None):
        if timeout is None:
            timeout = self.ready_timeout
        deadline = time.monotonic() + timeout
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
                break
            if not await self.is_alive():
                raise KernelDiedAtStart("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError("Kernel didn't respond in %g seconds" % timeout)
        while True:
            try:
                await self.iopub_channel.get_msg(timeout=0.01)
            except queue.Empty:
                break


# The provisioner's name in jupyter_client's "jupyter_client.kernel_provisioners" entry point
# (pyproject.toml); the kernel spec of a grading kernel names it (GradingKernelSpecManager).
PROVISIONER_NAME = "autograder-sandbox"


class GradingKernelSpecManager(WarmKernelSpecManager):
    """The installed kernel specs, each naming the sandbox provisioner in ``metadata.kernel_provisioner``:
    jupyter_client's own provisioner factory then starts every kernel through it."""

    provisioner_name = PROVISIONER_NAME


class TolerantKernelManager(AsyncKernelManager):
    """jupyter_client's AsyncKernelManager, whose shutdown of a kernel that died or was killed
    (the watchdog, a kernel that ignored an interrupt) logs what went wrong instead of raising:
    the notebook's results are kept, its resources freed.

    Its connection file is in a folder of its own (0700), not jupyter_client's default
    ``/tmp/tmp*.json``: the judge's sockets go beside it (``judge.connection.witness_folder``), and
    in the shared ``/tmp`` of a hub one user's folder would refuse the next user's check."""

    private_folder = None

    async def start_kernel(self, **kw):
        if not self.connection_file:
            self.private_folder = tempfile.mkdtemp(prefix="autograder-kernel-")
            self.connection_file = os.path.join(self.private_folder, "kernel.json")
        await super().start_kernel(**kw)

    async def shutdown_kernel(self, now=False, restart=False):
        try:
            await super().shutdown_kernel(now=now, restart=restart)
        except Exception as error:
            self.log.warning("kernel shutdown: %s", error)
            await self.cleanup_resources(restart=restart)
        if self.private_folder and not restart:
            shutil.rmtree(self.private_folder, ignore_errors=True)

    async def cleanup_resources(self, restart=False):
        try:
            await super().cleanup_resources(restart=restart)
        except Exception as error:
            self.log.warning("kernel cleanup: %s", error)


class GradingKernelManager(TolerantKernelManager):
    """An AsyncKernelManager for grading kernels (see the module docstring)."""

    warm = Bool(False, help="Fork kernels from a zygote that imported torch once.").tag(config=True)
    witness = Bool(False, help="A witness kernel (a judged assignment): no torch, no checks in its "
                               "sandbox or its zygote (autograder.judge).")
    reftorch_stubs = Unicode("", help="A witness kernel's reftorch: the folder of the copy in which the "
                                      "assignment's pieces are stubs (autograder.witness.stubs); '' for "
                                      "reftorch as installed.")
    unsandboxed = Bool(
        False, help="Run kernels without a sandbox, with the grader's rights (not for untrusted "
                    "notebooks).").tag(config=True)
    memory_limit = Integer(Limits.memory_bytes, help="Bytes of address space per process.").tag(config=True)
    process_limit = Integer(Limits.processes, help="Processes and threads per kernel.").tag(config=True)
    file_size_limit = Integer(Limits.file_bytes, help="Largest file a kernel may write.").tag(config=True)
    cpu_limit = Integer(Limits.cpu_seconds, help="CPU seconds per process.").tag(config=True)
    tmp_size = Integer(Limits.tmp_bytes, help="Bytes of the kernel's private /tmp.").tag(config=True)
    cgroups = Bool(True, help="Give each kernel a control group of its own (autograder.kernels.cgroups); "
                              "False grades without one.").tag(config=True)
    kernel_memory_limit = Integer(Limits.kernel_memory_bytes,
                                  help="Bytes of memory of the whole kernel, memfd and /tmp "
                                       "included (its control group).").tag(config=True)
    cpu_quota = Float(Limits.cpus, help="CPUs a kernel may use at most (its control group's "
                                        "quota); every kernel has the same CPU weight.").tag(config=True)
    pids_limit = Integer(Limits.pids, help="Processes and threads of the whole kernel (its "
                                           "control group).").tag(config=True)

    client_class = DottedObjectName("autograder.kernels.grading_kernels.QuickReadyClient")
    client_factory = Type(QuickReadyClient, klass=AsyncKernelClient)

    kernel_dir = None

    @default("kernel_spec_manager")
    def _grading_kernel_specs(self):
        return GradingKernelSpecManager(data_dir=self.data_dir)

    def zygote(self):
        """This process's zygote for this manager's kernels (the warm provisioner asks for it)."""
        return start_zygote(sandboxed=not self.unsandboxed, witness=self.witness,
                            reftorch_stubs=self.reftorch_stubs)

    def limits(self):
        return Limits(memory_bytes=self.memory_limit, processes=self.process_limit,
                      file_bytes=self.file_size_limit, cpu_seconds=self.cpu_limit,
                      tmp_bytes=self.tmp_size, in_cgroup=self.cgroups,
                      kernel_memory_bytes=self.kernel_memory_limit, cpus=self.cpu_quota,
                      pids=self.pids_limit)

    async def start_kernel(self, **kw):
        if not self.unsandboxed:
            require_sandbox(with_cgroups=self.cgroups)
        self.kernel_dir = tempfile.mkdtemp(prefix="k-", dir=_kernel_folders_root())
        self.transport = "ipc"
        self.connection_file = os.path.join(self.kernel_dir, "kernel.json")
        self.ip = os.path.join(self.kernel_dir, "ipc")
        require_provisioner(self)
        await super().start_kernel(**kw)  # jupyter_client makes the spec's provisioner: SandboxProvisioner
