"""The sandbox one grading kernel lives in, built by bubblewrap (``bwrap``).

Every kernel that runs a student's notebook gets a sandbox of its own.
:meth:`Sandbox.start` runs (run as root, so no user namespace is needed)::

    bwrap --unshare-pid --unshare-ipc --unshare-net --unshare-uts --unshare-cgroup-try
          --die-with-parent --new-session --clearenv --cap-drop ALL
          --ro-bind /usr /usr  --ro-bind /etc /etc  --symlink usr/lib /lib ...  the system
          --ro-bind <python> ...  --ro-bind <venv> ...                           the environment
          --ro-bind <src>/reftorch ...  --ro-bind <autograder>/checks ...        the check library
          --proc /proc  --dev /dev
          --perms 1777 --size <tmp_bytes> --tmpfs /tmp      the only place it may write
          --bind <kernel dir> /kernel                       root only: connection file, sockets
          -- sh -c 'echo ready; exec sleep infinity'

Inside, the kernel sees the system, the Python environment and the check
library read only (bwrap mounts them ``nosuid``), a private size-limited
``/tmp``, its own processes only, and no network at all.  It does not see the
course folder, the gradebook, ``solutions/``, other students' files, other
kernels or their connection files.  The sandbox starts empty (``sleep`` is
its only process); the kernel joins it afterwards, see
``autograder.kernels.kernel_launch``, which also drops to an unprivileged uid and
sets the limits of :class:`Limits`.

:meth:`Sandbox.close` kills the sandbox's first process: the Linux kernel then
kills every process left in its pid namespace (a double-forked daemon
included), and ``close`` returns once they are all gone.

Each sandbox also has a control group of its own (``autograder.kernels.cgroups``),
made before the kernel starts: memory of every kind (``memfd`` and ``/tmp``
included), an equal CPU share with a quota, and a number of processes, for
the kernel as a whole.  The sandbox's first process is put in it, the
kernel's launcher joins it before forking the kernel, and ``close`` removes it.
"""

import dataclasses
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from . import cgroups, kernel_launch, syscall_filter
from ..course import CourseError
from ..judge.connection import WITNESS_DIR_INSIDE, witness_folder

# The system folders a Python process needs, read only.  Symlinks (Debian's
# merged /usr: /lib -> usr/lib) are recreated as symlinks.
SYSTEM_PATHS = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]

# Course packages a grading kernel imports; their folders are bound read only.
KERNEL_PACKAGES = ["reftorch", "crosscheck", "coursebook", "memdiagram"]

# From the autograder package, only what runs inside a kernel (never the whole
# folder: the course's gradebook and submissions may live there).
AUTOGRADER_FILES = ["__init__.py", "kernels/__init__.py", "kernels/kernel_setup.py", "judge",
                    "checks", "witness"]
# A witness kernel (a judged assignment, autograder/README.md): the student's code and what answers
# the judge, nothing else of ours, no torch and no debugger (their folders are empty tmpfs inside:
# ipykernel then starts without debugpy, which is most of its own import time).
WITNESS_FILES = ["__init__.py", "witness"]
HIDDEN_FROM_WITNESS = ["torch", "functorch", "torchgen", "debugpy"]

REFUSAL = (
    "grading needs a sandbox for every kernel, and {why}. Install bubblewrap "
    "(Debian/Ubuntu: `apt-get install bubblewrap`) and grade as root (for example in "
    "a container or VM). Or pass --unsandboxed to grade without it: every student's "
    "code then runs with your user's rights and can read and change the gradebook, "
    "other students' files and grades, and kill the grader. Only do that for "
    "notebooks you trust."
)


class SandboxUnavailable(CourseError):
    """Sandboxed grading was asked for but cannot be done on this machine."""


@dataclasses.dataclass
class Limits:
    """What one grading kernel may use (each process; processes count per kernel)."""

    memory_bytes: int = 3 << 30      # address space of each process (RLIMIT_AS)
    processes: int = 128             # processes and threads of the kernel's uid (RLIMIT_NPROC)
    file_bytes: int = 64 << 20       # largest file it may write (RLIMIT_FSIZE)
    cpu_seconds: int = 600           # CPU time of each process (RLIMIT_CPU)
    tmp_bytes: int = 256 << 20       # size of its private /tmp (a tmpfs, counted in RAM)
    open_files: int = 1024           # RLIMIT_NOFILE
    # the kernel as a whole (its control group; see autograder.kernels.cgroups)
    in_cgroup: bool = True           # False: no control group (only the limits above)
    kernel_memory_bytes: int = cgroups.CgroupLimits.memory_bytes  # every page: heap, memfd, /tmp
    cpus: float = cgroups.CgroupLimits.cpus                      # CPU quota, in CPUs
    pids: int = cgroups.CgroupLimits.pids                        # processes and threads together

    def cgroup_limits(self):
        return cgroups.CgroupLimits(memory_bytes=self.kernel_memory_bytes, cpus=self.cpus,
                                    pids=self.pids)


def bwrap_path():
    return shutil.which("bwrap")


_probed = {}  # bwrap path -> why a trial sandbox failed ("" when it worked)
PROBE_UID = 99_999  # the host uid of the trial user namespace (below every kernel's)


def why_unavailable():
    """``None`` when kernels can be sandboxed here, else the reason in a few words.

    The first call builds and removes one empty sandbox, so a machine where
    bwrap is installed but may not create namespaces (an unprivileged
    container) is found out before any student is graded.
    """
    bwrap = bwrap_path()
    if not bwrap:
        return "bubblewrap (`bwrap`) is not installed"
    if os.geteuid() != 0:
        return "the grader is not running as root (the sandbox switches each kernel to a uid of its own)"
    if bwrap not in _probed:
        folder = tempfile.mkdtemp(prefix="autograder-probe-")
        try:
            Sandbox(folder).close()
            _probed[bwrap] = ""
        except (OSError, RuntimeError) as error:
            _probed[bwrap] = "bubblewrap cannot build a sandbox here (%s)" % error
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if not _probed[bwrap]:
            try:  # each kernel is forked in a user namespace of its own (kernel_launch.identity_namespace)
                os.close(kernel_launch.identity_namespace(PROBE_UID))
            except OSError as error:
                _probed[bwrap] = ("this machine does not let the grader make user namespaces (%s; "
                                  "see sysctl user.max_user_namespaces)" % error)
    return _probed[bwrap] or None


def require_sandbox(with_cgroups=True):
    """Raise :class:`SandboxUnavailable` with the full explanation if kernels cannot be sandboxed
    (``with_cgroups``: each in a control group of its own)."""
    why = why_unavailable()
    if why:
        raise SandboxUnavailable(REFUSAL.format(why=why))
    why = syscall_filter.why_unavailable()
    if why:
        raise SandboxUnavailable(why)
    if with_cgroups:
        why = cgroups.why_unavailable()
        if why:
            raise SandboxUnavailable(why)


def _package_dir(name):
    spec = importlib.util.find_spec(name)  # finds the folder without importing the package
    if spec is None or not spec.origin:
        return None
    return os.path.dirname(os.path.abspath(spec.origin))


def _paths_as_python_sees_them(witness=False):
    """The environment's paths as this process names them (symlinks not resolved)."""
    paths = [os.path.abspath(p) for p in {sys.base_prefix, sys.base_exec_prefix,
                                          sys.prefix, sys.exec_prefix}]
    for name in KERNEL_PACKAGES:
        folder = _package_dir(name)
        if folder:
            paths.append(folder)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # autograder/
    paths += [os.path.join(package, name) for name in (WITNESS_FILES if witness else AUTOGRADER_FILES)]
    return [p for p in paths if os.path.exists(p)]


def read_only_paths(witness=False):
    """Host paths bound read only into every sandbox, each at its own real path."""
    return sorted(set(os.path.realpath(p) for p in _paths_as_python_sees_them(witness)))


def hidden_paths():
    """The folders a witness kernel sees empty: torch's and debugpy's."""
    found = (_package_dir(name) for name in HIDDEN_FROM_WITNESS)
    return sorted(os.path.realpath(p) for p in found if p)


def symlinked_paths():
    """``{link: real folder}`` for each symlink on the way to the environment's paths.

    A virtualenv reached through a symlink (``/tmp/venv -> /work/.venv``, run as
    ``/tmp/venv/bin/python``) has ``sys.prefix`` and every ``sys.path`` entry under the
    link, and a kernel forked from the zygote imports from those names; the sandbox binds
    the real folders (:func:`read_only_paths`), so it also makes each link, pointing
    to its real folder: the environment is then found by both names, as on the host.
    Only the first link on each path is made (what lies past it is then the real folder's).
    """
    found = {}
    for path in _paths_as_python_sees_them() + [os.path.abspath(p) for p in sys.path if p]:
        parts = path.split("/")
        for end in range(2, len(parts) + 1):
            prefix = "/".join(parts[:end])
            if os.path.islink(prefix):
                found[prefix] = os.path.realpath(prefix)
                break
    return found


def _inside(path, folders):
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


# Where the kernel's folder (connection file, sockets, notebooks inbox) is seen inside every
# sandbox, whatever its path on the host: a grading run's and a self-check's look the same.
KERNEL_DIR_INSIDE = "/kernel"


def _folders_above(path, made):
    """``bwrap`` arguments making each folder above ``path`` that is not in ``made`` yet (then
    added to it), outermost first, readable by all: left to bwrap they would be 0700 and the
    kernel could not pass."""
    ancestors = []
    parent = os.path.dirname(path)
    while parent != "/":
        ancestors.insert(0, parent)
        parent = os.path.dirname(parent)
    args = []
    for folder in ancestors:
        if folder not in made:
            args += ["--perms", "0755", "--dir", folder]
            made.add(folder)
    return args


def stubbed_reftorch(folder, made):
    """``bwrap`` arguments showing the copy of reftorch in ``folder`` (``autograder.witness.stubs``) at
    its own path, where the kernel imports it, and in place of reftorch's folder: inside, no file
    holds the pieces the assignment asks for, not even a compiled one."""
    folder = os.path.realpath(folder)
    args = _folders_above(folder, made) + ["--ro-bind", folder, folder]
    installed = _package_dir("reftorch")
    if installed:
        args += ["--ro-bind", os.path.join(folder, "reftorch"), os.path.realpath(installed)]
    return args


def bwrap_arguments(kernel_dir, limits, info_fd=None, witness=False, reftorch_stubs=""):
    """The whole ``bwrap`` command line for a sandbox around ``kernel_dir`` (``witness``: for a
    judged assignment, without torch and with only the witness's part of the grader;
    ``reftorch_stubs``: the folder of its reftorch copy, :func:`stubbed_reftorch`)."""
    args = [bwrap_path()] + (["--info-fd", str(info_fd)] if info_fd is not None else []) + [
        "--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
        "--hostname", "grader", "--die-with-parent", "--new-session",
        "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--cap-drop", "ALL"]
    read_only = []
    for path in SYSTEM_PATHS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
            read_only.append(path)
    args += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    made = {"/tmp"}
    for path in read_only_paths(witness):
        if _inside(path, read_only):
            continue  # already visible through a folder bound above
        args += _folders_above(path, made) + ["--ro-bind", path, path]
        read_only.append(path)
    if witness:
        for path in hidden_paths():
            args += ["--perms", "0555", "--tmpfs", path]
    if witness and reftorch_stubs:
        args += stubbed_reftorch(reftorch_stubs, made)
    for link, real in sorted(symlinked_paths().items()):
        if _inside(link, read_only) or not _inside(real, read_only):
            continue  # the host's own link is visible already, or it leads to nothing bound
        args += _folders_above(link, made) + ["--symlink", real, link]
    args += ["--perms", "0700", "--dir", KERNEL_DIR_INSIDE, "--bind", kernel_dir, KERNEL_DIR_INSIDE]
    if witness:   # the judge's socket, reachable after the kernel drops to its own uid
        args += ["--perms", "0755", "--dir", WITNESS_DIR_INSIDE,
                 "--ro-bind", witness_folder(kernel_dir), WITNESS_DIR_INSIDE]
    return args + ["--", "/bin/sh", "-c", "echo ready; exec sleep infinity"]


_SHELL = "/bin/sh"
# sh -c _JOIN_THEN_EXEC sh N folder1 .. folderN bwrap ...: the shell moves itself into
# the N groups (writing 0 moves the writer), then becomes bwrap
_JOIN_THEN_EXEC = ('n=$1; shift; while [ "$n" -gt 0 ]; do echo 0 > "$1/cgroup.procs" || exit 125; '
                   'shift; n=$((n - 1)); done; exec "$@"')


def _read_info(fd):
    """bwrap's --info-fd JSON (it holds the child's pid); read until it parses."""
    data = b""
    while True:
        chunk = os.read(fd, 4096)
        data += chunk
        try:
            return json.loads(data.decode("utf-8", "replace"))
        except ValueError:
            if not chunk:
                return {}


class Sandbox:
    """One running sandbox (empty until a kernel joins it)."""

    def __init__(self, kernel_dir, limits=None, witness=False, reftorch_stubs=""):
        self.kernel_dir = kernel_dir
        self.limits = limits or Limits()
        self.cgroup = None
        if self.limits.in_cgroup:
            # bwrap starts inside the kernel's group, so its cgroup namespace is rooted
            # there: the kernel sees "/" in /proc/self/cgroup, never the grader's groups
            self.cgroup = cgroups.KernelCgroup(self.limits.cgroup_limits())
        info_read, info_write = os.pipe()
        try:
            command = bwrap_arguments(kernel_dir, self.limits, info_fd=info_write, witness=witness,
                                      reftorch_stubs=reftorch_stubs)
            if self.cgroup is not None:
                command = [_SHELL, "-c", _JOIN_THEN_EXEC, "sh", str(len(self.cgroup.folders))
                           ] + self.cgroup.folders + command
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=[info_write], close_fds=True)
        except BaseException:
            os.close(info_read)
            if self.cgroup is not None:
                self.cgroup.remove()
            raise
        finally:
            os.close(info_write)
        try:
            info = _read_info(info_read)
        finally:
            os.close(info_read)
        ready = self.process.stdout.readline()
        self.process.stdout.close()
        if ready != b"ready\n":
            error = self.process.stderr.read(2000).decode("utf-8", "replace").strip()
            self.process.kill()
            self.process.wait()
            if self.cgroup is not None:
                self.cgroup.remove()
            raise RuntimeError("the sandbox did not start: %s" % (error or "no message"))
        self.process.stderr.close()
        try:
            self.pid = int(info["child-pid"])
        except (ValueError, KeyError, TypeError):
            self.process.kill()
            self.process.wait()
            if self.cgroup is not None:
                self.cgroup.remove()
            raise RuntimeError("bwrap gave no sandbox pid: %r" % info)

    def cgroup_folders(self):
        """The folders of the kernel's control group (its launcher joins them), or []."""
        return list(self.cgroup.folders) if self.cgroup is not None else []

    def alive(self):
        return self.process.poll() is None

    def close(self, timeout=10):
        """Kill everything in the sandbox; return once it is all gone."""
        if self.process.poll() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)  # its pid namespace dies with it
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.cgroup is not None:
            self.cgroup.remove()  # and whatever is left in it (the kernel's launcher)
