"""What an inbox entry holds, read without trusting it.

An entry is a zip, a folder, or a single notebook.  Only notebooks are read
(into memory; they are small), each with two times: the one recorded inside
the entry (a zip member's date, a file's time), which only ever chooses among
one student's own notebooks, and the inbox's own file time (the zip file's,
or the notebook file's in a folder), which is the submission time.

Refused, never followed or extracted: symbolic links (as entries, inside
folders, or as zip members), hard links and special files (a FIFO would hang
the reader), zip members whose path leaves the archive.  Checked before
anything is read: a zip's member count and total uncompressed size (a zip
bomb is refused whole, with the sizes in the reason), a folder's file count,
each notebook file's size (``Limits.max_file_bytes``: larger is not even
parsed) and cell count (:class:`Limits`).

The notebook size limit (``Limits.max_notebook_bytes``) applies to the
notebook as it will be graded: without its outputs, attachments and images
embedded in markdown (``autograder.pipeline.graded_size``), which grading
never reads.  A notebook saved with a big printout, or with a pasted
screenshot, is collected; when the file itself is over that limit, what is
stored is the notebook as graded (its code and text whole), with a note.

A notebook is parsed as JupyterLab's server would take it (UTF-8, with or
without a byte-order mark, any line ends); one nested deeper than
``Limits.max_depth`` (a real notebook is about ten levels deep; 100000 nested
lists make ``json.loads`` raise ``RecursionError``) is refused on its own,
reported, and the rest of the entry and of the class is collected.  The
byte-order mark is dropped from what is stored, so every later reader
(nbformat, nbgrader) takes the notebook too.
"""

import dataclasses
import datetime
import json
import os
import re
import stat
import zipfile

from ..pipeline.graded_size import MAX_FILE_BYTES, MAX_GRADED_BYTES, as_graded, graded_bytes, mib

SKIPPED_PARTS = {"__MACOSX", ".ipynb_checkpoints"}


@dataclasses.dataclass
class Limits:
    max_members: int = 1000                      # files in one zip or folder entry
    max_unzipped_bytes: int = 100 * 2 ** 20      # a zip's total uncompressed size
    max_notebook_bytes: int = MAX_GRADED_BYTES   # one notebook as graded (no outputs, no embedded images)
    max_file_bytes: int = MAX_FILE_BYTES         # one notebook file, to be parsed at all
    max_cells: int = 1000                        # cells in one notebook
    max_depth: int = 64                          # JSON nesting of one notebook
    max_folder_depth: int = 32                   # folders nested in a submission folder (the exchange's)
    max_path_bytes: int = 1024                   # one path inside a submission folder, UTF-8
    max_folder_bytes: int = 100 * 2 ** 20        # a submission folder's files together, on disk and to read


class Refused(Exception):
    """An entry (or a file in it) that is not collected; the message says why."""


@dataclasses.dataclass
class Found:
    """One notebook found in an entry, read into memory (it is small: see Limits)."""

    inner: str          # its path inside the entry, as the student named it
    data: bytes
    recorded: float     # modification time recorded inside the entry (for --pick newest only)
    inbox_time: float   # the inbox's own file time (the submission time)
    nb: dict = None     # the parsed notebook, or None when it is not JSON
    note: str = ""      # what the collector did to it (outputs dropped from a big file), for the student


def _skipped(inner):
    parts = inner.replace("\\", "/").split("/")
    return any(p in SKIPPED_PARTS or p.startswith(".") for p in parts if p)


BOM = b"\xef\xbb\xbf"


def json_depth(value):
    """How deeply lists and objects nest in parsed JSON (a number or string is 0), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        todo.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def _too_deep(inner, limits):
    return Refused("%s nests its JSON deeper than %d levels (a notebook is about ten); not a "
                   "notebook JupyterLab opens, not collected" % (inner, limits.max_depth))


def _too_big_to_read(inner, size, limits):
    return Refused("%s is %d bytes, over the limit of %d for a notebook file (%s); not read"
                   % (inner, size, limits.max_file_bytes, mib(limits.max_file_bytes)))


def _read_notebook(inner, data, recorded, inbox_time, limits):
    if len(data) > limits.max_file_bytes:
        raise _too_big_to_read(inner, len(data), limits)
    if data.startswith(BOM):  # JupyterLab's server reads such a file; nbformat.read would not
        data = data[len(BOM):]
    try:
        nb = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise _too_deep(inner, limits) from None
    except (UnicodeDecodeError, ValueError) as error:
        raise Refused("%s is not valid JSON (%s); not a notebook JupyterLab opens, not collected"
                      % (inner, str(error).splitlines()[0][:200])) from None
    if isinstance(nb, (dict, list)) and json_depth(nb) > limits.max_depth:
        raise _too_deep(inner, limits)
    if not isinstance(nb, dict):
        raise Refused("%s is JSON but not a notebook (a %s, not an object); not collected"
                      % (inner, type(nb).__name__))
    if nb is not None and isinstance(nb.get("cells"), list) and len(nb["cells"]) > limits.max_cells:
        raise Refused("%s has %d cells, over the limit of %d"
                      % (inner, len(nb["cells"]), limits.max_cells))
    if len(data) <= limits.max_notebook_bytes:
        return Found(inner, data, recorded, inbox_time, nb)
    graded = graded_bytes(nb)
    if graded > limits.max_notebook_bytes:
        raise Refused("%s is %d bytes without its outputs and embedded images, over the limit of %d"
                      % (inner, graded, limits.max_notebook_bytes))
    nb = as_graded(nb)
    note = ("%s was %s with its outputs and embedded images; they were left out (grading runs the code "
            "again and never reads them), its code and text are kept whole" % (inner, mib(len(data))))
    return Found(inner, (json.dumps(nb, indent=1) + "\n").encode("ascii"), recorded, inbox_time, nb, note)


def _read_zip(path, limits, refused, extras):
    """The notebooks of a zip; Refused for the whole zip when it is unsafe or too big."""
    inbox_time = os.lstat(path).st_mtime
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise Refused("not a usable zip file (%s)" % error) from None
    found = []
    with archive:
        members = archive.infolist()
        if len(members) > limits.max_members:
            raise Refused("the zip has %d files, over the limit of %d"
                          % (len(members), limits.max_members))
        total = sum(m.file_size for m in members)
        if total > limits.max_unzipped_bytes:
            raise Refused("the zip would unpack to %d bytes, over the limit of %d (a zip bomb?); "
                          "nothing was extracted" % (total, limits.max_unzipped_bytes))
        for member in members:
            name = member.filename
            parts = name.replace("\\", "/").split("/")
            if name.startswith(("/", "\\")) or ".." in parts or re.match(r"^[A-Za-z]:", name):
                raise Refused("unsafe path in zip: %r" % name)
            if member.is_dir() or _skipped(name):
                continue
            mode = member.external_attr >> 16
            if stat.S_ISLNK(mode):
                refused.append((name, "a symbolic link; refused, not followed"))
                continue
            if not name.endswith(".ipynb"):
                extras.append(name)
                continue
            if member.file_size > limits.max_file_bytes:
                refused.append((name, str(_too_big_to_read(name, member.file_size, limits))))
                continue
            try:
                with archive.open(member) as f:
                    data = f.read(limits.max_file_bytes + 1)
            except (zipfile.BadZipFile, RuntimeError, OSError, EOFError) as error:
                refused.append((name, "could not be read from the zip (%s)" % error))
                continue
            recorded = datetime.datetime(*member.date_time).timestamp()
            try:
                found.append(_read_notebook(name, data, recorded, inbox_time, limits))
            except Refused as why:
                refused.append((name, str(why)))
    return found


def _open_regular(path, limit):
    """The bytes of a regular, singly linked file at ``path``, never following a link."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused("not a regular file")
        if info.st_nlink > 1:
            raise Refused("a hard link to another file; refused")
        if info.st_size > limit:
            raise Refused("%d bytes, over the limit of %d" % (info.st_size, limit))
        with os.fdopen(fd, "rb") as f:
            fd = None
            return f.read(limit + 1), info.st_mtime
    finally:
        if fd is not None:
            os.close(fd)


def _read_folder(top, limits, refused, extras):
    found, seen = [], 0
    for here, dirs, files in os.walk(top, followlinks=False):
        for d in list(dirs):
            inner = os.path.relpath(os.path.join(here, d), top)
            if os.path.islink(os.path.join(here, d)):
                refused.append((inner, "a symbolic link; refused, not followed"))
                dirs.remove(d)
            elif _skipped(inner):
                dirs.remove(d)
        dirs.sort()
        for name in sorted(files):
            inner = os.path.relpath(os.path.join(here, name), top)
            if _skipped(inner):
                continue
            seen += 1
            if seen > limits.max_members:
                raise Refused("the folder has more than %d files" % limits.max_members)
            full = os.path.join(here, name)
            if os.path.islink(full):
                refused.append((inner, "a symbolic link; refused, not followed"))
                continue
            if not name.endswith(".ipynb"):
                extras.append(inner)
                continue
            try:
                data, mtime = _open_regular(full, limits.max_file_bytes)
                found.append(_read_notebook(inner, data, mtime, mtime, limits))
            except Refused as why:
                refused.append((inner, str(why)))
            except OSError as error:
                refused.append((inner, "could not be read (%s)" % error.strerror))
    return found


def read_entry(path, kind, limits, refused, extras):
    if kind == "zip":
        return _read_zip(path, limits, refused, extras)
    if kind == "folder":
        return _read_folder(path, limits, refused, extras)
    data, mtime = _open_regular(path, limits.max_file_bytes)
    return [_read_notebook(os.path.basename(path), data, mtime, mtime, limits)]


def entry_kind(path, entry, wanted):
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise Refused("a symbolic link; refused, not followed")
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if not stat.S_ISREG(info.st_mode):
        raise Refused("not a regular file or folder")
    if entry.lower().endswith(".zip"):
        return "zip"
    if entry.endswith(".ipynb") and wanted:
        return "notebook"
    hint = "" if wanted else " (a single notebook needs --assignment)"
    raise Refused("neither a folder nor a .zip" + hint)
