"""A control group per grading kernel: memory, CPU and process limits for the kernel as a whole.

``setrlimit`` limits each process of a kernel on its own, and not every kind
of memory: pages of a ``memfd`` or of ``/tmp`` (shared memory) escape
``RLIMIT_AS``, and nothing in it shares the CPU fairly.  A control group
counts every page its processes touch (shared memory, ``memfd`` and tmpfs
included), every process and thread, and their CPU time.

The grader (root) makes one group per kernel, before the kernel starts:

======================  ==================================  ================================
limit                   cgroup v2 file                      cgroup v1 file
======================  ==================================  ================================
memory (all of it)      ``memory.max``, ``memory.swap.max``  ``memory.limit_in_bytes``,
                                                            ``memory.memsw.limit_in_bytes``
equal CPU share         ``cpu.weight`` = 100                ``cpu.shares`` = 1024
(optional, see below)   ``cpu.weight`` = 25                 ``cpu.shares`` = 256
CPU quota               ``cpu.max``                         ``cpu.cfs_quota_us``/``_period_us``
processes and threads   ``pids.max``                        ``pids.max``
======================  ==================================  ================================

cgroup v2 is used when its hierarchy offers the three controllers (a modern
distribution: ``/sys/fs/cgroup`` is cgroup2), else cgroup v1, one hierarchy per
controller (``/sys/fs/cgroup/memory``, ``/cpu``, ``/pids``).  Under v1 the
groups are made inside the grader's own group of each hierarchy, so any limit
on the grader also bounds its kernels; under v2 at the root, since a v2 group
that holds processes (the grader's) cannot hand controllers to children.
Each kernel's group sits directly there (``autograder-k-<grader pid>-<n>``),
not under a common parent: the CPU scheduler weighs a group against its
siblings, so a common parent would make all kernels together weigh as much as
one process of the machine.

With ``CgroupLimits.demote_after_cpu_seconds`` set (5 s by default), a grading
kernel that has used more than that much CPU since it became ready is
demoted to a quarter of the weight by a watcher thread of the grader, so a CPU
burner next to honest kernels yields to them (it keeps its quota and its
deadline).  Not to nothing: the rest of the machine must not starve it.  When
the test cells begin (:meth:`KernelCgroup.stop_counting`) it gets its full
weight back: on a loaded machine a demoted kernel's tests would otherwise time
out, and a student whose own cells computed a lot would lose the grade.

The kernel's launcher joins the group (:func:`join`) before it enters the
sandbox and forks the kernel, so every process of the kernel is born inside.
:meth:`KernelCgroup.remove` kills what is left in the group and removes it.
"""

import dataclasses
import errno
import os
import signal
import threading
import time

CONTROLLERS = ("memory", "cpu", "pids")
PREFIX = "autograder-k-"
CPU_PERIOD_US = 100_000

UNAVAILABLE = (
    "per-kernel limits need a writable cgroup hierarchy with the memory, cpu and pids "
    "controllers, and {why}. Grade as root on a machine (or a container started with "
    "its cgroups writable, e.g. docker --cgroupns=host or a systemd service with Delegate=yes) "
    "where /sys/fs/cgroup is cgroup v2, or has cgroup v1's memory, cpu and pids hierarchies "
    "mounted. Or pass --GradingKernelManager.cgroups=False to grade without them: one "
    "student's notebook can then take the machine's memory and CPU from everyone else."
)


class CgroupsUnavailable(OSError):
    """No cgroup hierarchy here lets the grader limit a kernel as a whole."""


@dataclasses.dataclass
class CgroupLimits:
    memory_bytes: int = 2 << 30   # every page of the kernel: heap, memfd, shmem, its /tmp
    cpus: float = 1.0             # CPU quota, in CPUs
    pids: int = 256               # processes and threads of the kernel together
    # after this much CPU time (seconds) from its first cell, the kernel's weight drops to a quarter,
    # so a CPU burner yields to honest kernels (0: never).  A graded exercise's cells use well under
    # a second; the weight only counts while the CPU is contested, so a demoted kernel still has an
    # idle core to itself.  tests/bench/bench_attackers.py on a quiet machine: honest kernels next to
    # the attackers x1.10-x1.26 slower without demotion, x1.00-x1.05 with it at 5 s
    demote_after_cpu_seconds: float = 5.0


def _mounts():
    """``[(mount point, fstype, super options)]`` from /proc/self/mountinfo."""
    found = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields, rest = left.split(), right.split()
            if len(fields) >= 5 and len(rest) >= 3:
                found.append((fields[4].replace("\\040", " "), rest[0], rest[2].split(",")))
    return found


def _own_groups():
    """This process's group in each hierarchy: {controller or "" (v2): path}."""
    groups = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) == 3:
                for controller in (parts[1].split(",") if parts[1] else [""]):
                    groups[controller] = parts[2]
    return groups


def _write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def _read(path):
    with open(path) as f:
        return f.read().strip()


def _writable(folder):
    return os.path.isdir(folder) and os.access(folder, os.W_OK)


class _V2:
    version = 2
    FULL, DEMOTED = 100, 25  # cpu.weight: an equal share, a quarter of it

    def __init__(self, mount):
        self.mount = mount

    @classmethod
    def find(cls):
        """The cgroup2 mount whose root offers memory, cpu and pids, or the reason there is none."""
        reasons = []
        for point, fstype, _ in _mounts():
            if fstype != "cgroup2":
                continue
            try:
                offered = _read(os.path.join(point, "cgroup.controllers")).split()
            except OSError as error:
                reasons.append("%s: %s" % (point, error.strerror))
                continue
            missing = [c for c in CONTROLLERS if c not in offered]
            if missing:
                reasons.append("cgroup v2 at %s has no %s controller" % (point, ", ".join(missing)))
            elif not _writable(point):
                reasons.append("cgroup v2 at %s is not writable" % point)
            else:
                return cls(point), None
        return None, "; ".join(reasons) or "no cgroup v2 hierarchy is mounted"

    def prepare(self):
        enabled = _read(os.path.join(self.mount, "cgroup.subtree_control")).split()
        wanted = " ".join("+" + c for c in CONTROLLERS if c not in enabled)
        if wanted:
            _write(os.path.join(self.mount, "cgroup.subtree_control"), wanted)

    def folders(self):
        return [self.mount]

    def make(self, name, limits):
        folder = os.path.join(self.mount, name)
        os.mkdir(folder)
        _write(os.path.join(folder, "memory.max"), limits.memory_bytes)
        if os.path.exists(os.path.join(folder, "memory.swap.max")):
            _write(os.path.join(folder, "memory.swap.max"), 0)
        _write(os.path.join(folder, "cpu.weight"), self.FULL)
        _write(os.path.join(folder, "cpu.max"), "%d %d" % (int(limits.cpus * CPU_PERIOD_US), CPU_PERIOD_US))
        _write(os.path.join(folder, "pids.max"), limits.pids)
        return [folder]

    def cpu_seconds(self, folders):
        for line in _read(os.path.join(folders[0], "cpu.stat")).splitlines():
            if line.startswith("usage_usec "):
                return int(line.split()[1]) / 1e6
        return 0.0

    def demote(self, folders):
        _write(os.path.join(folders[0], "cpu.weight"), self.DEMOTED)

    def restore(self, folders):
        _write(os.path.join(folders[0], "cpu.weight"), self.FULL)


class _V1:
    version = 1
    FULL, DEMOTED = 1024, 256  # cpu.shares: an equal share, a quarter of it

    def __init__(self, roots):
        self.roots = roots  # controller -> the grader's own group folder in that hierarchy

    @classmethod
    def find(cls):
        own = _own_groups()
        roots, reasons = {}, []
        for controller in CONTROLLERS:
            for point, fstype, options in _mounts():
                if fstype == "cgroup" and controller in options:
                    folder = os.path.join(point, own.get(controller, "/").lstrip("/"))
                    if not os.path.isdir(folder):  # another cgroup namespace: its root
                        folder = point
                    if _writable(folder):
                        roots[controller] = folder
                    else:
                        reasons.append("cgroup v1 %s at %s is not writable" % (controller, folder))
                    break
            else:
                reasons.append("no cgroup v1 %s hierarchy is mounted" % controller)
        if len(roots) == len(CONTROLLERS):
            return cls(roots), None
        return None, "; ".join(reasons)

    def _folder(self, controller, name):
        return os.path.join(self.roots[controller], name)

    def prepare(self):
        pass

    def folders(self):
        return sorted(set(self.roots.values()))

    def make(self, name, limits):
        folders = []
        try:
            for controller in CONTROLLERS:
                folder = self._folder(controller, name)
                os.mkdir(folder)
                folders.append(folder)
                if controller == "memory":
                    _write(os.path.join(folder, "memory.limit_in_bytes"), limits.memory_bytes)
                    swap = os.path.join(folder, "memory.memsw.limit_in_bytes")
                    if os.path.exists(swap):  # memory + swap: no escape into swap
                        _write(swap, limits.memory_bytes)
                elif controller == "cpu":
                    _write(os.path.join(folder, "cpu.shares"), self.FULL)
                    _write(os.path.join(folder, "cpu.cfs_period_us"), CPU_PERIOD_US)
                    _write(os.path.join(folder, "cpu.cfs_quota_us"), int(limits.cpus * CPU_PERIOD_US))
                else:
                    _write(os.path.join(folder, "pids.max"), limits.pids)
        except OSError:
            for folder in folders:
                _remove(folder, 1)
            raise
        return folders

    def _cpu_folder(self, folders):
        return next(f for f in folders if f.startswith(self.roots["cpu"].rstrip("/") + "/"))

    def cpu_seconds(self, folders):
        """CPU time of the group: cpuacct's count where cpu and cpuacct share a hierarchy, else the
        scheduler's periods in which the group was runnable (an upper bound)."""
        folder = self._cpu_folder(folders)
        usage = os.path.join(folder, "cpuacct.usage")
        if os.path.exists(usage):
            return int(_read(usage)) / 1e9
        for line in _read(os.path.join(folder, "cpu.stat")).splitlines():
            if line.startswith("nr_periods "):
                return int(line.split()[1]) * CPU_PERIOD_US / 1e6
        return 0.0

    def demote(self, folders):
        _write(os.path.join(self._cpu_folder(folders), "cpu.shares"), self.DEMOTED)

    def restore(self, folders):
        _write(os.path.join(self._cpu_folder(folders), "cpu.shares"), self.FULL)


_hierarchy = None
_why = None


def hierarchy():
    """The usable hierarchy (v2 first, then v1), prepared once; :class:`CgroupsUnavailable` if none."""
    global _hierarchy, _why
    if _hierarchy is None and _why is None:
        if os.geteuid() != 0:
            _why = "the grader is not running as root"
        else:
            found, why2 = _V2.find()
            if found is None:
                found, why1 = _V1.find()
                _why = None if found else "%s; %s" % (why2, why1)
            if found is not None:
                try:
                    found.prepare()
                    _sweep(found)
                    _hierarchy = found
                except OSError as error:
                    _why = "cgroup v%d cannot be set up: %s" % (found.version, error)
    if _hierarchy is None:
        raise CgroupsUnavailable(UNAVAILABLE.format(why=_why))
    return _hierarchy


def why_unavailable():
    """``None`` when kernels can get a cgroup here, else the whole explanation."""
    try:
        hierarchy()
    except CgroupsUnavailable as error:
        return str(error)
    return None


def join(folders, pid=0):
    """Move ``pid`` (0: the calling process) into the groups ``folders``."""
    for folder in folders:
        _write(os.path.join(folder, "cgroup.procs"), pid)


def _pids(folder):
    try:
        return [int(p) for p in _read(os.path.join(folder, "cgroup.procs")).split()]
    except (OSError, ValueError):
        return []


def _remove(folder, timeout):
    """Kill what is left in ``folder`` and remove it (a dying process holds it a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        for pid in _pids(folder):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.rmdir(folder)
            return True
        except FileNotFoundError:
            return True
        except OSError as error:
            if error.errno != errno.EBUSY or time.monotonic() > deadline:
                return False
        time.sleep(0.01)


def _sweep(found):
    """Remove the empty groups of graders that are gone (one that was killed could not)."""
    for parent in found.folders():
        for name in os.listdir(parent):
            if not name.startswith(PREFIX):
                continue
            try:
                os.kill(int(name[len(PREFIX):].split("-")[0]), 0)
            except ProcessLookupError:
                try:
                    os.rmdir(os.path.join(parent, name))
                except OSError:
                    pass  # still holds a process: left alone
            except (ValueError, OSError):
                pass


_count = 0


class KernelCgroup:
    """The group (one folder per v1 hierarchy, one under v2) of one kernel."""

    def __init__(self, limits=None):
        global _count
        _count += 1
        self.limits = limits or CgroupLimits()
        self.hierarchy = hierarchy()
        self.name = "%s%d-%d" % (PREFIX, os.getpid(), _count)
        self.folders = self.hierarchy.make(self.name, self.limits)
        self.demoted = False
        self.counted_from = None

    def start_counting(self):
        """From now on (the kernel is ready: its imports are done), a kernel that uses more than
        ``demote_after_cpu_seconds`` of CPU is demoted.  The grader calls it; a self-check, the only
        kernel of its machine, has no one to yield to and never does."""
        if self.limits.demote_after_cpu_seconds and self.counted_from is None:
            self.counted_from = self.cpu_seconds()
            _watch(self)

    def stop_counting(self):
        """The checks begin: the kernel gets its full weight back and keeps it.  A demoted
        kernel's own load (a CPU burner's spinners, or an honest answer that computes a lot)
        then costs only its own time, never the time the grader gives its tests.  A group
        removed with its kernel (a cell that would not stop) has no weight to get back."""
        with _watched_lock:
            _watched.discard(self)
            if self.demoted:
                try:
                    self.hierarchy.restore(self.folders)
                except FileNotFoundError:
                    pass
                self.demoted = False

    def cpu_seconds(self):
        """CPU time the kernel used so far (see the hierarchy's ``cpu_seconds``)."""
        return self.hierarchy.cpu_seconds(self.folders)

    def demote(self):
        """A quarter of the CPU weight: the kernel yields to the kernels that were not demoted."""
        self.hierarchy.demote(self.folders)
        self.demoted = True

    def join(self, pid=0):
        join(self.folders, pid)

    def memory_peak(self):
        """Most bytes the group held at once (``None`` where the kernel does not say)."""
        for folder in self.folders:
            for name in ("memory.peak", "memory.max_usage_in_bytes"):
                try:
                    return int(_read(os.path.join(folder, name)))
                except (OSError, ValueError):
                    continue
        return None

    def remove(self, timeout=5):
        """Kill every process still in the group and remove it; ``False`` if it would not go."""
        with _watched_lock:
            _watched.discard(self)
        return all([_remove(folder, timeout) for folder in self.folders])


# -- demotion of a kernel that keeps the CPU busy -----------------------------------------------

WATCH_SECONDS = 0.5
_watched = set()
_watched_lock = threading.Lock()
_watcher = None


def _watch(group):
    global _watcher
    with _watched_lock:
        _watched.add(group)
        if _watcher is None or not _watcher.is_alive():
            _watcher = threading.Thread(target=_demote_busy_kernels, name="cgroup-cpu-watch", daemon=True)
            _watcher.start()


def _demote_busy_kernels():
    """Every :data:`WATCH_SECONDS`: a kernel past its ``demote_after_cpu_seconds`` drops to the lowest
    weight.  Equal weights share the CPU equally between a CPU burner and an honest kernel; after
    that, the honest kernels come first."""
    while True:
        time.sleep(WATCH_SECONDS)
        with _watched_lock:
            groups = list(_watched)
        for group in groups:
            try:
                with _watched_lock:   # not after stop_counting() took the group off the list
                    if (group in _watched and not group.demoted and group.cpu_seconds() - group.counted_from
                            > group.limits.demote_after_cpu_seconds):
                        group.demote()
            except (OSError, ValueError, StopIteration):
                pass   # the group is going away
