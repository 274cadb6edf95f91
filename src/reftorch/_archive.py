"""The container of a saved file: a zip archive whose records start at multiples of 64 bytes.

``torch.save`` writes several *records*: the pickle (``data.pkl``), one raw
record per storage (``data/0``, ``data/1`` ...) and a few small ones
(``byteorder``, ``version`` ...). They go into one zip archive, stored without
compression, all inside one folder: the file's name without its extension
(``model`` for ``model.pt``), or ``archive`` for a file object. Each record's
bytes start at a multiple of 64 bytes from the start of the file, so a loader
could map a storage straight from disk with its elements aligned.

Writing: reftorch lays the bytes out exactly as torch's writer (miniz, in C++)
does, so the same object saved by torch and by reftorch gives files of the same
length. Each record is

    local header | name | padding "FB" + "ZZZ..." to the 64-byte mark | bytes | CRC and size

and the archive ends with a central directory (the list of records and where
they start) and the zip64 end records miniz always writes. Python's
``zipfile`` writes a valid archive too, but a different one (no CRC-and-size
block after the bytes of a seekable file, the padding repeated in the central
directory, no zip64 end records), so it is used only for reading, where any
valid zip will do.
"""

import os
import struct
import sys
import zipfile
import zlib

from . import _messages

ALIGNMENT = 64
_LOCAL_HEADER = struct.Struct("<IHHHHHIIIHH")  # 30 bytes, then the name and the padding
_DESCRIPTOR = struct.Struct("<IIII")  # after the bytes: signature, CRC-32, size, size
_CENTRAL_ENTRY = struct.Struct("<IHHHHHHIIIHHHHHII")  # 46 bytes, then the name
_ZIP64_END = struct.Struct("<IQHHIIQQQQ")
_ZIP64_LOCATOR = struct.Struct("<IIQI")
_END = struct.Struct("<IHHHHIIH")
_STREAMED = 0x0008  # flag: the CRC and size follow the bytes
_UTF8 = 0x0800  # flag: the name is UTF-8
_LIMIT = 0xFFFFFFFF


def archive_name(path):
    """The folder inside the zip: the file's name without directory and extension.

    ``"runs/model.pt"`` gives ``"model"``. torch's writer opens a path that is
    not ASCII through Python, as a file object, so that one gets ``"archive"``.
    """
    if not path.isascii():
        return "archive"
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def write_archive(file, folder, records):
    """Write ``records`` (a list of ``(name, bytes)``) as torch's zip archive into ``file``.

    Like torch's writer, finish with ``version`` (format 3), ``byteorder`` if
    the caller wrote none, and ``.data/serialization_id``.
    """
    names = [name for name, _ in records]
    records = list(records) + [("version", b"3\n")]
    if "byteorder" not in names:
        records.append(("byteorder", sys.byteorder.encode()))
    records.append((".data/serialization_id", _serialization_id(records)))
    position, directory = 0, []
    for name, data in records:
        chunk, entry = _record(f"{folder}/{name}".encode(), bytes(data), position)
        file.write(chunk)
        directory.append(entry)
        position += len(chunk)
    if position >= _LIMIT:
        raise RuntimeError("reftorch.save writes files smaller than 4 GiB only")
    central = b"".join(directory)
    count, end_of_central = len(directory), position + len(central)
    file.write(central)
    # zip64 end record: 44 more bytes; made by "Unix, zip 3.0" (0x031E), needs zip 4.5 (45).
    file.write(_ZIP64_END.pack(0x06064B50, 44, 0x031E, 45, 0, 0, count, count, len(central), position))
    file.write(_ZIP64_LOCATOR.pack(0x07064B50, 0, end_of_central, 1))
    file.write(_END.pack(0x06054B50, 0, 0, count, count, len(central), position, 0))


def _record(name, data, position):
    """One record's bytes in the file, and its entry for the central directory."""
    padding = -(position + _LOCAL_HEADER.size + len(name) + 4) % ALIGNMENT
    extra = b"FB" + struct.pack("<H", padding) + b"Z" * padding
    crc = zlib.crc32(data)
    # miniz adds the CRC-and-size block only after a record that has bytes.
    flags = _UTF8 | _STREAMED if data else _UTF8
    header = _LOCAL_HEADER.pack(0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(name), len(extra))
    descriptor = _DESCRIPTOR.pack(0x08074B50, crc, len(data), len(data)) if data else b""
    entry = _CENTRAL_ENTRY.pack(
        0x02014B50, 0, 0, flags, 0, 0, 0, crc, len(data), len(data), len(name), 0, 0, 0, 0, 0, position
    )
    return header + name + extra + data + descriptor, entry + name


def _serialization_id(records):
    """40 decimal digits that identify the content.

    torch combines a hash of the record names with the records' CRC-32s; its
    hash is C++'s, so reftorch's digits differ from torch's, but not their count.
    """
    names = zlib.crc32("".join(name for name, _ in records).encode())
    crcs = 0
    for _, data in records:
        crcs = (crcs * 31 + zlib.crc32(bytes(data))) % 10**20
    return f"{names:020d}{crcs:020d}".encode()


def is_zip(file):
    """Does the file, from its current position, start like a zip archive?"""
    start = file.tell()
    magic = file.read(4)
    file.seek(start)
    return magic == b"PK\x03\x04"


def read_records(file):
    """Every record of the archive in ``file``, as ``{name inside the folder: bytes}``."""
    start = file.tell()
    size = file.seek(0, os.SEEK_END) - start
    file.seek(start)
    try:
        archive = zipfile.ZipFile(file)
    except zipfile.BadZipFile as error:
        # miniz's words: too short to be a zip, or no central directory at the end.
        why = "not a ZIP archive" if size < _END.size else "failed finding central directory"
        if str(error) != "File is not a zip file":
            why = str(error)
        raise RuntimeError(_messages.ZIP_READ_FAILED.format(what="reading zip archive", why=why)) from None
    with archive:
        entries = archive.infolist()
        if not entries:
            raise RuntimeError("archive does not contain any files")
        folder, slash, _ = entries[0].filename.partition("/")
        if not slash:
            raise RuntimeError(f"file in archive is not in a subdirectory: {entries[0].filename}")
        return {
            entry.filename[len(folder) + 1:]: archive.read(entry)
            for entry in entries
            if entry.filename.startswith(folder + "/")
        }


def check_parent_directory(path):
    """torch refuses a path whose directory does not exist, with its own message."""
    parent = path.replace("\\", "/").rpartition("/")[0]
    if parent and not os.path.isdir(parent):
        raise RuntimeError(f"Parent directory {parent} does not exist.")
