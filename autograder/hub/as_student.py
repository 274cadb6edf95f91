"""A submission folder in the exchange, read with its owner's rights, never walked by root.

:func:`read_submission` forks a child that drops to the folder owner's uid
and primary gid, with no supplementary groups, before it opens anything in the
folder.  Whatever the child reads, the student could read anyway: a link the
student swaps in, at any component and at any moment, leads at most to the
student's own files.  The child is not exec'd: having changed its uid, the
kernel marks it not dumpable, so the student's own processes cannot trace it
or read its memory.  They can only signal it (stop it, kill it), and that
loses only their own submission.

The child opens each folder with ``O_DIRECTORY | O_NOFOLLOW`` relative to
the one above it (``dir_fd``), and each file with ``O_NOFOLLOW |
O_NONBLOCK``.  It stats through that same fd, so it follows no link at any
component and never forms a path longer than one name.  It walks the whole
folder once and checks its size first:

* entries (files and folders) at most ``Limits.max_members``;
* folders nested at most ``Limits.max_folder_depth``;
* a path at most ``Limits.max_path_bytes``;
* all files together at most ``Limits.max_folder_bytes``, both real
  (``st_blocks * 512``, what the disk holds) and apparent (``st_size``, what
  a reader would get: a sparse file is large here).

Only then does it read the notebooks, re-opening each one through the same
chain of fds.  A notebook over ``Limits.max_notebook_bytes``, a link or a
special file is named and not read, as the inbox's intake does it.  Other
files are named, not read: only notebooks are graded.  The child sends the
result to root down a pipe as plain data: a JSON header, then the
notebooks' bytes.  Root reads at most what the limits allow, for at most
``READ_SECONDS``, and checks the header's shape before using it.

Anything else (a limit passed, a folder swapped during the walk, a child
that died or took too long) refuses that one submission with a reason for
the report.  No exception leaves :func:`read_submission`.
"""

import ctypes
import dataclasses
import json
import os
import pwd
import select
import signal
import stat
import struct
import time

READ_SECONDS = 60
HEADER_BYTES = 8 * 2 ** 20
NBGRADER_FILES = {"timestamp.txt", "submission_secret.txt"}
SECRET_BYTES = 1024
SKIPPED = {"__MACOSX", ".ipynb_checkpoints"}  # as the inbox's intake: never graded, never read
PR_SET_DUMPABLE = 4
DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclasses.dataclass
class Submission:
    """What the child read: ``files`` are ``(inner, data or None, mtime)``; ``data`` is None for
    a file that is not a notebook (named, not read).  ``problem`` says why nothing is collected."""

    changed: float = 0.0
    files: list = dataclasses.field(default_factory=list)
    refused: list = dataclasses.field(default_factory=list)   # (inner, reason)
    secret: str = None
    problem: str = None


class Refused(Exception):
    """The whole submission is not collected; the message says why."""


# -- the child: runs as the student ------------------------------------------------------------

def _become(uid, gid):
    """Drop to ``uid`` and ``gid`` with no other group, for good (real, effective and saved ids)."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid or os.getgid() != gid or os.getgroups() not in ([], [gid]):
        raise Refused("could not take the student's rights to read it")
    # the kernel already did this on the change of uid; saying it keeps it true if that ever changes
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _skipped(name):
    return name in SKIPPED or name.startswith(".")


class _Walk:
    def __init__(self, limits):
        self.limits = limits
        self.entries = self.real = self.apparent = 0
        self.changed = 0.0
        self.files = []     # (parts, notebook?, mtime)
        self.refused = []   # (inner, reason)

    def folder(self, fd, parts):
        limits = self.limits
        names = []
        with os.scandir(fd) as listing:  # lazily: a folder of a million names stops at the limit
            for entry in listing:
                names.append(entry.name)
                if self.entries + len(names) > limits.max_members:
                    raise Refused("it holds more than %d files and folders" % limits.max_members)
        for name in sorted(names):
            inner_parts = parts + (name,)
            inner = "/".join(inner_parts)
            self.entries += 1
            if self.entries > limits.max_members:
                raise Refused("it holds more than %d files and folders" % limits.max_members)
            if len(os.fsencode(inner)) > limits.max_path_bytes:
                raise Refused("a path in it is longer than %d bytes (%r...)"
                              % (limits.max_path_bytes, inner[:60]))
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            self.changed = max(self.changed, info.st_ctime)
            if _skipped(name) or (not parts and name in NBGRADER_FILES):
                continue
            if stat.S_ISLNK(info.st_mode):
                self.refused.append((inner, "a symbolic link; refused, not followed"))
            elif stat.S_ISDIR(info.st_mode):
                if len(inner_parts) > limits.max_folder_depth:
                    raise Refused("its folders nest deeper than %d levels" % limits.max_folder_depth)
                sub = os.open(name, DIRECTORY, dir_fd=fd)
                try:
                    self.folder(sub, inner_parts)
                finally:
                    os.close(sub)
            elif stat.S_ISREG(info.st_mode):
                self.real += info.st_blocks * 512
                self.apparent += info.st_size
                if max(self.real, self.apparent) > limits.max_folder_bytes:
                    raise Refused("its files hold more than %d MiB (%d MiB on disk, %d MiB to read)"
                                  % (limits.max_folder_bytes // 2 ** 20, self.real // 2 ** 20,
                                     self.apparent // 2 ** 20))
                notebook = name.endswith(".ipynb")
                if notebook and info.st_size > limits.max_file_bytes:
                    self.refused.append((inner, "too large to grade (%.1f MiB; at most %d MiB)"
                                         % (info.st_size / 2 ** 20, limits.max_file_bytes // 2 ** 20)))
                else:
                    self.files.append((inner_parts, notebook, info.st_mtime))
            else:
                self.refused.append((inner, "a special file (a FIFO, socket or device); refused, not read"))


def _read_at(top, parts, limit):
    """The bytes of the regular file ``parts`` under the folder fd ``top``, opened link by link
    with no link followed; at most ``limit`` bytes, or Refused."""
    fds = []
    try:
        here = top
        for name in parts[:-1]:
            here = os.open(name, DIRECTORY, dir_fd=here)
            fds.append(here)
        fd = os.open(parts[-1], FILE, dir_fd=here)
        fds.append(fd)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused("%s changed into something that is not a file while it was collected"
                          % "/".join(parts))
        if info.st_nlink > 1:
            raise Refused("%s is a hard link to another file" % "/".join(parts))
        data = bytearray()
        while len(data) <= limit:
            chunk = os.read(fd, min(2 ** 20, limit + 1 - len(data)))
            if not chunk:
                break
            data += chunk
        if len(data) > limit:
            raise Refused("%s grew past %d bytes while it was collected" % ("/".join(parts), limit))
        return bytes(data)
    finally:
        for fd in reversed(fds):
            os.close(fd)


def _child(inbound_fd, name, uid, gid, limits, contents, out):
    """Read the submission ``name`` in the folder ``inbound_fd`` as ``uid``; write it to ``out``."""
    header, payload = {"changed": 0.0, "files": [], "refused": [], "secret": None, "problem": None}, []
    try:
        _become(uid, gid)
        top = os.open(name, DIRECTORY, dir_fd=inbound_fd)
        os.close(inbound_fd)
        info = os.fstat(top)
        if info.st_uid != uid:
            raise Refused("the folder changed owner while it was collected")
        walk = _Walk(limits)
        walk.changed = info.st_ctime
        walk.folder(top, ())
        header["changed"], header["refused"] = walk.changed, walk.refused
        if contents:
            total = 0
            for parts, notebook, mtime in walk.files:
                data = None
                if notebook:
                    try:
                        data = _read_at(top, parts, limits.max_file_bytes)
                    except Refused as why:
                        header["refused"].append(("/".join(parts), str(why)))
                        continue
                    total += len(data)
                    if total > limits.max_folder_bytes:
                        raise Refused("its notebooks grew past %d MiB while it was collected"
                                      % (limits.max_folder_bytes // 2 ** 20))
                    payload.append(data)
                header["files"].append(("/".join(parts), None if data is None else len(data), mtime))
            try:
                secret = _read_at(top, ("submission_secret.txt",), SECRET_BYTES)
                header["secret"] = secret.decode("ascii", errors="replace")
            except (OSError, Refused):
                pass  # an older nbgrader, or a student who removed it: no feedback through the exchange
    except Refused as why:
        header["problem"], payload = str(why), []
    except OSError as error:
        header["problem"], payload = ("it changed while it was collected, or could not be read (%s)"
                                      % (error.strerror or error)), []
    data = json.dumps(header).encode("utf-8")
    with os.fdopen(out, "wb") as pipe:
        pipe.write(struct.pack(">Q", len(data)) + data)
        for chunk in payload:
            pipe.write(chunk)


# -- root: forks the child and takes plain data from it ------------------------------------------

def _receive(fd, cap):
    """Up to ``cap`` bytes from the pipe ``fd`` within READ_SECONDS; Refused otherwise."""
    received, size = [], 0
    deadline = time.monotonic() + READ_SECONDS
    while True:
        left = deadline - time.monotonic()
        ready = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
        if not ready:
            raise Refused("it could not be read within %d s" % READ_SECONDS)
        chunk = os.read(fd, 2 ** 20)
        if not chunk:
            return b"".join(received)
        size += len(chunk)
        if size > cap:
            raise Refused("reading it gave more than the limits allow")
        received.append(chunk)


def _parse(data, limits):
    """A Submission from the child's bytes, checked to be of the expected shape."""
    if len(data) < 8:
        raise Refused("the reader ended without an answer")
    length = struct.unpack(">Q", data[:8])[0]
    if length > HEADER_BYTES or 8 + length > len(data):
        raise Refused("the reader's answer was cut short")
    header = json.loads(data[8:8 + length].decode("utf-8"))
    body = data[8 + length:]
    got = Submission(changed=float(header["changed"]), problem=header["problem"], secret=header["secret"])
    if got.problem is not None:
        if not isinstance(got.problem, str):
            raise Refused("the reader's answer was not understood")
        return got
    if got.secret is not None and not isinstance(got.secret, str):
        raise Refused("the reader's answer was not understood")
    for inner, reason in header["refused"]:
        got.refused.append((_inner(inner, limits), str(reason)))
    offset = 0
    for inner, size, mtime in header["files"]:
        data = None
        if size is not None:
            if not isinstance(size, int) or size < 0 or size > limits.max_file_bytes:
                raise Refused("the reader's answer was not understood")
            data, offset = body[offset:offset + size], offset + size
        got.files.append((_inner(inner, limits), data, float(mtime)))
    if offset != len(body) or len(got.files) > limits.max_members:
        raise Refused("the reader's answer was not understood")
    return got


def _inner(inner, limits):
    """``inner`` if it is a relative path of plain names within the limits; Refused otherwise."""
    parts = inner.split("/") if isinstance(inner, str) else [""]
    if (any(p in ("", ".", "..") or "\0" in p for p in parts) or len(parts) > limits.max_folder_depth + 1
            or len(inner.encode("utf-8", "surrogateescape")) > limits.max_path_bytes):
        raise Refused("the reader's answer was not understood")
    return inner


def read_submission(inbound_fd, name, uid, limits, contents=True):
    """The submission folder ``name`` in the folder fd ``inbound_fd``, read as ``uid``.

    ``contents=False`` only walks it (its latest change time and whether it passes the limits).
    Never raises for what is in the folder: a problem is ``Submission.problem``.
    """
    try:
        gid = pwd.getpwuid(uid).pw_gid
    except KeyError:
        return Submission(problem="its owner (uid %d) is not a user of this machine" % uid)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller
        try:
            os.close(read_end)
            keep = sorted({inbound_fd, write_end})
            os.closerange(3, keep[0])
            os.closerange(keep[0] + 1, keep[1])
            os.closerange(keep[1] + 1, os.sysconf("SC_OPEN_MAX"))
            _child(inbound_fd, name, uid, gid, limits, contents, write_end)
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        data = _receive(read_end, 8 + HEADER_BYTES + limits.max_folder_bytes)
        got = _parse(data, limits)
    except Refused as why:
        got = Submission(problem=str(why))
    except (ValueError, TypeError, KeyError, RecursionError, struct.error):
        got = Submission(problem="the reader's answer was not understood")
    finally:
        os.close(read_end)
        try:
            os.kill(pid, signal.SIGKILL)  # our own child, by its pid: done, or stuck
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    return got
