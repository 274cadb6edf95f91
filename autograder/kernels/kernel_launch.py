"""How a grading kernel starts: join its sandbox, drop every privilege, become an IPython kernel.

The steps are the same whether the kernel is forked from the warm zygote
(``autograder.kernels.kernel_zygote``) or started cold, as ``python -P -m
autograder.kernels.kernel_launch`` with the request on stdin (it prints the kernel's
pid).  A request is a JSON object::

    {"argv": ["-f", "<kernel dir>/kernel.json", ...],   ipykernel's arguments
     "env": {...},                                      the kernel's whole environment
     "cwd": "<folder of the notebook>" (unsandboxed) or "<its name>" (sandboxed),
     "sandbox": null, or {"pid": <first process of the sandbox>, "uid": <kernel's uid on the host>,
                          "kernel_dir": "...", "limits": {...},
                          "cgroup": [<folders of the kernel's control group>]}}

The *launcher* (root, on the host, one thread) makes the kernel's user namespace
(see :func:`identity_namespace`), sets ``no_new_privs``, empties
its capability bounding set, joins the kernel's control group (made by the
grader, ``autograder.kernels.cgroups``: every process of the kernel is born in it), enters the namespaces of the sandbox that
``autograder.kernels.sandbox`` built (``setns``, then ``chroot`` to its root, as
``nsenter --root`` does), joins the kernel's user namespace, loads the seccomp filter of
``autograder.kernels.syscall_filter`` (no new namespaces, no ptrace, mount, bpf, ...)
and forks.  The child is the kernel, a process of
the sandbox's pid namespace; the launcher only waits for it.  The kernel:

1. closes every file descriptor it inherited (stdin, stdout, stderr become /dev/null);
2. copies the notebook into its private folder ``/tmp/<assignment>``, owned by its uid;
3. sets its limits (address space, processes, file size, CPU time, open files, no core);
4. initialises the IPython kernel while still root: the sockets are bound in the
   root-only kernel folder, and the kernel's setup (``autograder.witness.setup`` or
   ``autograder.kernels.kernel_setup``) runs;
5. switches to uid and gid ``KERNEL_UID`` (no groups, no capabilities left): on the host, the
   kernel's own uid, which no other process has; inside, the same number for every kernel;
6. starts answering.  No line of the notebook has run before step 6.

Every sandboxed kernel, the grader's and the learner's self-check's alike, sees itself
as uid and gid ``KERNEL_UID`` with no groups, and reads the same ``/proc/self/uid_map``
and ``gid_map``: the kernel cannot tell who started it from who it is.

Without a sandbox (``--unsandboxed``) only steps 1, 4 and 6 happen, in the
notebook's folder, with the grader's rights.
"""

import ctypes
import json
import os
import random
import resource
import shutil
import signal
import sys

from . import cgroups, syscall_filter

PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWUSER = 0x10000000
# The uid and gid every sandboxed kernel has inside its user namespace (on the host: one of its own).
KERNEL_UID = 1000
# Joined in this order; mnt last, since it changes what /proc/<pid> means.
NAMESPACES = ["ipc", "uts", "net", "cgroup", "pid", "mnt"]
HOME = "/tmp/home"

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, "%s: %s" % (what, os.strerror(errno)))


def prctl(option, value):
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), "prctl(%d)" % option)


def lose_privileges_for_good():
    """No exec may raise privileges again, and no capability can be regained."""
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for cap in range(last + 1):
        prctl(PR_CAPBSET_DROP, cap)


def _write_maps(pid, text):
    """Write ``text`` as the uid and gid map of ``pid``'s user namespace (one write each)."""
    for name in ("uid_map", "gid_map"):
        fd = os.open("/proc/%d/%s" % (pid, name), os.O_WRONLY)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)


def _read_line(fd):
    line = b""
    while not line.endswith(b"\n"):
        chunk = os.read(fd, 1)
        if not chunk:
            break
        line += chunk
    return line.strip()


def _fork_into_new_user_namespace(body, close=()):
    """Fork a child that enters a new user namespace, then runs ``body()`` and exits."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            for fd in close:
                os.close(fd)
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            _check(_libc.unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
            body()
            code = 0
        finally:
            os._exit(code)
    return pid


def _map_once_inside(pid, its_ends, told, maps, failure):
    """Close ``its_ends`` (the helper ``pid``'s ends of the pipes), wait until it tells ``told`` that
    it is in its new user namespace, then write that namespace's ``maps``."""
    for fd in its_ends:
        os.close(fd)
    if _read_line(told) != b"in":
        raise OSError(failure)
    _write_maps(pid, maps)


def identity_namespace(outer_uid):
    """A file descriptor of a user namespace in which ``KERNEL_UID`` is ``outer_uid`` on the host.

    Two namespaces, one inside the other, each made by a short-lived helper:

    * the outer one maps root to root and ``KERNEL_UID`` (uid and gid) to ``outer_uid``;
    * the inner one, returned, maps root to root and ``KERNEL_UID`` to ``KERNEL_UID``.

    A process reads its own ``/proc/self/uid_map`` relative to the parent namespace,
    so the kernel, in the inner one, reads ``0 0 1`` and ``KERNEL_UID KERNEL_UID 1``
    whatever its host uid is.  Root is mapped so that the launcher can still hand
    the kernel its folder and switch to ``KERNEL_UID``, which drops every capability.
    """
    up_read, up_write = os.pipe()        # helper -> launcher
    down_read, down_write = os.pipe()    # launcher -> helper
    maps = "0 0 1\n%d %d 1\n"

    def outer():  # the first helper, in the outer namespace once the launcher has mapped it
        os.write(up_write, b"in\n")
        if os.read(down_read, 1) != b"1":
            raise OSError("the launcher did not map the user namespace")
        hold_read, hold_write = os.pipe()
        ready_read, ready_write = os.pipe()

        def inner():  # the second helper: in the inner namespace until the launcher has opened it
            os.write(ready_write, b"in\n")
            os.read(hold_read, 1)

        pid = _fork_into_new_user_namespace(inner, close=[up_write, down_read, hold_write, ready_read])
        try:
            _map_once_inside(pid, [hold_read, ready_write], ready_read, maps % (KERNEL_UID, KERNEL_UID),
                             "the inner user namespace was not made")
            os.write(up_write, b"%d\n" % pid)
            os.read(down_read, 1)  # until the launcher has opened it (it closes its end)
        finally:
            os.close(hold_write)
            os.waitpid(pid, 0)

    helper = _fork_into_new_user_namespace(outer, close=[up_read, down_write])
    try:
        _map_once_inside(helper, [up_write, down_read], up_read, maps % (KERNEL_UID, outer_uid),
                         "a user namespace for the kernel could not be made")
        os.write(down_write, b"1")
        inner = _read_line(up_read)
        if not inner.isdigit():
            raise OSError("the kernel's inner user namespace could not be made")
        return os.open("/proc/%d/ns/user" % int(inner), os.O_RDONLY)
    finally:
        os.close(down_write)
        os.close(up_read)
        os.waitpid(helper, 0)


def join_user_namespace(fd):
    """Move this (single-threaded) process into the user namespace ``fd``, as its root; keep
    its empty capability bounding set empty (joining fills it again)."""
    try:
        _check(_libc.setns(fd, CLONE_NEWUSER), "setns(user)")
    finally:
        os.close(fd)
    lose_privileges_for_good()


def enter_sandbox(pid):
    """Join the namespaces and the root folder of the sandbox whose first process is ``pid``."""
    fds = []
    try:
        for name in NAMESPACES:
            path = "/proc/%d/ns/%s" % (pid, name)
            if os.path.exists(path):
                fds.append((name, os.open(path, os.O_RDONLY)))
        root = os.open("/proc/%d/root" % pid, os.O_RDONLY | os.O_DIRECTORY)
        fds.append(("root", root))
        for name, fd in fds[:-1]:
            _check(_libc.setns(fd, 0), "setns(%s)" % name)
        os.fchdir(root)
        os.chroot(".")
        os.chdir("/")
    finally:
        for _, fd in fds:
            os.close(fd)


def _close_inherited_files():
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def _private_folder(request):
    """``/tmp/<assignment>`` holding a copy of the notebook, and ``HOME``; both the kernel's."""
    sandbox = request["sandbox"]
    name = os.path.basename(request["cwd"].rstrip("/")) or "notebook"
    folder = base = os.path.join("/tmp", name if name not in ("home", "") else "notebook")
    n = 1
    while os.path.lexists(folder):  # a folder the sandbox made for a bound path (a course in /tmp/<name>)
        n += 1
        folder = "%s-%d" % (base, n)
    os.makedirs(folder, mode=0o700)
    os.makedirs(HOME, mode=0o700)
    inbox = os.path.join(sandbox["kernel_dir"], "notebooks")
    for entry in os.listdir(inbox) if os.path.isdir(inbox) else []:
        source = os.path.join(inbox, entry)
        if entry.endswith(".ipynb") and os.path.isfile(source) and not os.path.islink(source):
            shutil.copyfile(source, os.path.join(folder, entry))
    return folder


def _give_to(uid, *folders):
    for folder in folders:
        for parent, dirs, files in os.walk(folder):
            os.chown(parent, uid, uid)
            for name in dirs + files:
                os.lchown(os.path.join(parent, name), uid, uid)


def _set_limits(limits):
    """Lower the kernel's limits (never above a hard limit it already has: only lowering is allowed
    in its user namespace)."""

    def lowered(name, soft, hard):
        _, ceiling = resource.getrlimit(getattr(resource, name))
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        resource.setrlimit(getattr(resource, name), (soft, hard))

    for name, value in [("RLIMIT_AS", limits["memory_bytes"]), ("RLIMIT_NPROC", limits["processes"]),
                        ("RLIMIT_FSIZE", limits["file_bytes"]), ("RLIMIT_NOFILE", limits["open_files"]),
                        ("RLIMIT_CORE", 0)]:
        lowered(name, value, value)
    cpu = limits["cpu_seconds"]
    lowered("RLIMIT_CPU", cpu, cpu + 5)  # SIGXCPU, then SIGKILL


def _become(uid):
    """Uid and gid ``uid`` of the kernel's user namespace, no supplementary group; root's
    capabilities (in that namespace) are gone."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (uid, uid, uid) or os.getgroups():
        raise OSError("could not switch to uid %d" % uid)


def _fresh_random_state():
    """A forked kernel starts with the zygote's random state; reseed as a new interpreter would."""
    random.seed()
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()


def _kernel_app(argv):
    from ipykernel.kernelapp import IPKernelApp

    sys.argv = ["ipykernel_launcher"] + argv
    app = IPKernelApp.instance()
    app.initialize(argv)
    return app


def run_kernel(request):
    """Steps 1 to 6 of the module docstring, in the freshly forked kernel process."""
    _close_inherited_files()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    sandbox = request.get("sandbox")
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ.setdefault("COLUMNS", "80")  # argparse asks for the terminal size 50 times otherwise
    if sandbox:
        folder = _private_folder(request)
        os.environ["HOME"] = HOME
        _set_limits(sandbox["limits"])
    else:
        folder = request["cwd"]
    os.chdir(folder)
    _fresh_random_state()
    app = _kernel_app(request["argv"])
    if sandbox:
        _give_to(KERNEL_UID, folder, HOME)
        _become(KERNEL_UID)
    app.start()


def launch(request, report_pid):
    """In the launcher: enter the sandbox, fork the kernel, report its pid, wait for it.

    Never returns: the process ends with the kernel.
    """
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the zygote's reaper must not take our kernel
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the launcher ends with whoever started it
        if request.get("sandbox"):
            users = identity_namespace(request["sandbox"]["uid"])
            lose_privileges_for_good()
            cgroups.join(request["sandbox"].get("cgroup") or [])
            rules = syscall_filter.Filter()  # libseccomp is read from the host
            enter_sandbox(request["sandbox"]["pid"])
            join_user_namespace(users)  # the kernel is forked in it
            rules.load()  # no new namespace, no ptrace, mount, bpf, ... from here on
            rules.close()
        pid = os.fork()
        if pid == 0:
            kernel_code = 1
            try:
                run_kernel(request)
                kernel_code = 0
            finally:
                os._exit(kernel_code)
        report_pid(pid)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
    finally:
        os._exit(code if code >= 0 else 128 - code)


def main():
    """Cold start: the request on stdin, the kernel's pid on stdout."""
    request = json.loads(sys.stdin.buffer.read().decode("utf-8", "replace"))

    def report(pid):
        sys.stdout.write("%d\n" % pid)
        sys.stdout.flush()

    launch(request, report)


if __name__ == "__main__":
    main()
