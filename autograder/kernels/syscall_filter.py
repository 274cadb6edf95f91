"""The system calls a grading kernel never needs, refused by a seccomp filter.

The filter is built with libseccomp (the library that Docker, systemd and
bubblewrap's own callers use; Debian/Ubuntu package ``libseccomp2``), through
its public C API, and loaded by the kernel's launcher
(``autograder.kernels.kernel_launch``) once it has entered the sandbox and before it
forks the kernel: the filter holds for the kernel and everything it starts,
and can never be lifted (``no_new_privs`` is set).  bwrap's own ``--seccomp``
would only cover the sandbox's first process: the kernel joins the sandbox
later, it is not bwrap's child.

Refused, with ``EPERM``:

* new namespaces: ``unshare`` and ``clone`` with any ``CLONE_NEW*`` flag (a
  new user namespace first of all), ``setns``; ``clone3``, whose flags a
  filter cannot read, answers ``ENOSYS`` so that the C library falls back
  to ``clone``;
* looking into or steering other processes: ``ptrace``, ``process_vm_readv``
  / ``writev``, ``kcmp``, ``pidfd_getfd``;
* the kernel's own machinery: ``bpf``, ``perf_event_open``, ``userfaultfd``,
  ``keyctl``, ``add_key``, ``request_key``, ``kexec_load``,
  ``kexec_file_load``, module loading, ``reboot``, ``swapon``/``swapoff``,
  ``acct``, ``syslog``, ``quotactl``, ``iopl``/``ioperm``, ``open_by_handle_at``;
* mounting: ``mount``, ``umount2``, ``pivot_root``, ``chroot`` and the new
  mount API (``fsopen``, ``fsmount``, ``move_mount``, ``open_tree``, ...).

A kernel that calls one of them gets ``PermissionError``, as an unprivileged
process would on many systems; nothing a notebook of this course does needs one.
"""

import ctypes
import ctypes.util
import errno
import os

REFUSED = [
    "setns", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "syslog", "quotactl", "iopl", "ioperm",
    "open_by_handle_at", "lookup_dcookie", "fanotify_init",
    "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount", "fspick",
    "move_mount", "open_tree", "mount_setattr",
]
NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000, "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000, "CLONE_NEWUSER": 0x10000000, "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000, "CLONE_NEWTIME": 0x00000080,
}
# clone's flags are its first argument on every architecture but s390 (second)
FLAGS_ARGUMENT = {"clone": 0, "unshare": 0}

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_MASKED_EQ = 7
__NR_SCMP_ERROR = -1

MISSING = ("kernels need a seccomp filter and it cannot be built here: {why}. Install "
           "libseccomp (Debian/Ubuntu: `apt-get install libseccomp2`).")


def SCMP_ACT_ERRNO(code):
    return 0x00050000 | (code & 0xFFFF)


class scmp_arg_cmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


class SyscallFilterUnavailable(OSError):
    """libseccomp is missing, or refused the filter."""


_library = None


def _libseccomp():
    global _library
    if _library is None:
        try:
            lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
        except OSError:
            try:
                lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so", use_errno=True)
            except OSError as error:
                raise SyscallFilterUnavailable(MISSING.format(why=error)) from None
        lib.seccomp_init.restype = ctypes.c_void_p
        lib.seccomp_init.argtypes = [ctypes.c_uint32]
        lib.seccomp_release.argtypes = [ctypes.c_void_p]
        lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
        lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                               ctypes.c_uint, ctypes.POINTER(scmp_arg_cmp)]
        lib.seccomp_load.argtypes = [ctypes.c_void_p]
        lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
        _library = lib
    return _library


def _add(lib, ctx, action, name, comparisons=()):
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number == __NR_SCMP_ERROR:
        return  # not a system call of this architecture (iopl on arm64, ...)
    array = (scmp_arg_cmp * max(1, len(comparisons)))(*comparisons)
    result = lib.seccomp_rule_add_array(ctx, action, number, len(comparisons), array)
    if result < 0:
        raise SyscallFilterUnavailable(-result, "seccomp_rule_add(%s): %s" % (name, os.strerror(-result)))


class Filter:
    """The kernels' filter, built in libseccomp (``load`` it, or ``export`` it as BPF)."""

    def __init__(self):
        self.lib = _libseccomp()
        self.ctx = self.lib.seccomp_init(SCMP_ACT_ALLOW)
        if not self.ctx:
            raise SyscallFilterUnavailable("seccomp_init failed")
        refuse = SCMP_ACT_ERRNO(errno.EPERM)
        try:
            for name in REFUSED:
                _add(self.lib, self.ctx, refuse, name)
            for name, argument in FLAGS_ARGUMENT.items():
                for flag in NAMESPACE_FLAGS.values():
                    _add(self.lib, self.ctx, refuse, name,
                         [scmp_arg_cmp(argument, SCMP_CMP_MASKED_EQ, flag, flag)])
            _add(self.lib, self.ctx, SCMP_ACT_ERRNO(errno.ENOSYS), "clone3")
        except BaseException:
            self.close()
            raise

    def load(self):
        """Apply the filter to this thread and every process it starts from now on (for good)."""
        result = self.lib.seccomp_load(self.ctx)
        if result < 0:
            raise SyscallFilterUnavailable(-result, "seccomp_load: %s" % os.strerror(-result))

    def export(self, fd):
        """Write the compiled BPF program to ``fd`` (what ``bwrap --seccomp FD`` reads)."""
        result = self.lib.seccomp_export_bpf(self.ctx, fd)
        if result < 0:
            raise SyscallFilterUnavailable(-result, "seccomp_export_bpf: %s" % os.strerror(-result))

    def close(self):
        if self.ctx:
            self.lib.seccomp_release(self.ctx)
            self.ctx = None


def why_unavailable():
    """``None`` when the filter can be built here, else the whole explanation."""
    try:
        Filter().close()
    except SyscallFilterUnavailable as error:
        return str(error) if "libseccomp" in str(error) else MISSING.format(why=error)
    return None


def restrict_this_process():
    """Build and load the filter: from now on this process and its children never make those calls."""
    rules = Filter()
    try:
        rules.load()
    finally:
        rules.close()
