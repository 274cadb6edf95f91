"""Chapter 14's piece: what ``torch.save`` writes for a view, ``storages_written``.

A saved file holds one entry of raw bytes per storage, the whole storage,
whatever part of it the tensors read, and one entry only for tensors saved
together that share it.  torch has no function that answers this, so the
reference lives here, in the course.  The answer of every case comes from a
real file: ``torch.save`` into memory, then the sizes of its ``data/<key>``
entries.
"""

import io
import zipfile

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch

from coursebook.build_it.registry import Case, Piece, Wrong, register


def storages_written(tensors):
    """The number of bytes of each storage entry ``torch.save(tensors)`` writes, in order.

    One entry per storage, in the order the tensors first meet it, each
    holding the storage's bytes in full: a view takes all of its base's
    storage along, and two tensors on one storage share one entry.  Storages
    are told apart as objects: ``untyped_storage()`` gives the same object for
    every tensor on one storage, in torch as in reftorch.  Their addresses
    cannot: every storage with no bytes has ``data_ptr()`` 0, and torch writes
    one entry for each.  A tensor on the ``meta`` device has no bytes at all:
    torch saves its dtype, size and stride alone, and writes no entry for it.
    And torch refuses to save one memory read as two dtypes (a float32 tensor and
    an int32 one set on its storage): it raises RuntimeError, comparing storages
    by address there, so storages with no bytes never clash.
    """
    written, dtypes = {}, {}
    for t in tensors:
        if t.device.type == "meta":
            continue
        storage = t.untyped_storage()  # the list keeps it alive, so its id is its own
        if storage.data_ptr() != 0 and dtypes.setdefault(storage.data_ptr(), t.dtype) != t.dtype:
            raise RuntimeError(reftorch._messages.SAVE_MIXED_DTYPES)
        written.setdefault(id(storage), storage.nbytes())
    return list(written.values())


def _entries_of_a_real_file(tensors):
    buffer = io.BytesIO()
    torch.save(list(tensors), buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as archive:
        sizes = {int(i.filename.rsplit("/", 1)[1]): i.file_size
                 for i in archive.infolist() if "/data/" in i.filename}
    return [sizes[key] for key in sorted(sizes)]


def _case(label, make, misconception):
    return Case(label, lambda: (make(reftorch),), misconception,
                expected=lambda: _entries_of_a_real_file(make(torch)))


def _only_the_elements(tensors):
    return [t.numel() * t.element_size() for t in tensors]


def _one_entry_per_tensor(tensors):
    return [t.untyped_storage().nbytes() for t in tensors]


def _contiguous_is_compact(tensors):
    written = {}
    for t in tensors:
        storage = t.untyped_storage()
        nbytes = t.numel() * t.element_size() if t.is_contiguous() else storage.nbytes()
        written.setdefault(id(storage), nbytes)
    return list(written.values())


_WHOLE = "a view is saved with its base's whole storage, not just the elements it shows"

register(Piece(
    name="storages_written",
    chapter="14",
    reference=storages_written,
    summary="the storage bytes torch.save writes: whole storages, each once",
    cases=[
        _case("([big[:10]]), big = arange(1000.0)", lambda mod: [mod.arange(1000.0)[:10]],
              _WHOLE + ": 4,000 bytes for ten floats"),
        _case("([big[:10].clone()])", lambda mod: [mod.arange(1000.0)[:10].clone()],
              "a clone has a compact storage of its own: only its 40 bytes are written"),
        _case("([m.t()]), m = arange(6.0).view(2, 3)", lambda mod: [mod.arange(6.0).view(2, 3).t()],
              "a transposed view reads every element of its storage: the storage is written once, in full"),
        _case("([a, a[1:3]])", lambda mod: (lambda a: [a, a[1:3]])(mod.arange(4.0)),
              "tensors saved together that share a storage share one entry: it is written once"),
        _case("([x[::2], x[1::2]])", lambda mod: (lambda x: [x[::2], x[1::2]])(mod.arange(8.0)),
              "two views of one storage share one entry, and each is saved with all of it"),
        _case("([a, a.detach()])", lambda mod: (lambda a: [a, a.detach()])(mod.arange(4.0)),
              "a detach() is not a view (its _base is None), yet it is on its tensor's storage: "
              "one storage, one entry; tell storages apart, not bases"),
        _case("([a, b]), two separate tensors", lambda mod: [mod.arange(5.0), mod.arange(3.0)],
              "separate storages are separate entries, in the order the tensors come (not sorted)"),
        _case("([e, f, e[:]]), e and f two empty tensors",
              lambda mod: (lambda e: [e, mod.zeros(0), e[:]])(mod.zeros(0)),
              "every storage with no bytes has data_ptr() 0: tell storages apart as objects "
              "(untyped_storage() ... is ...), and an empty storage is still an entry of its own"),
        _case("([m, x]), m = torch.empty(1000, device='meta')",
              lambda mod: [mod.empty(1000, device="meta"), mod.arange(3.0)],
              "a meta tensor has no bytes to write: torch saves its dtype, size and stride alone, "
              "and writes no storage entry for it"),
    ],
    wrong=[Wrong(_only_the_elements, "whole storage"),
           Wrong(_one_entry_per_tensor, "share one entry"),
           Wrong(_contiguous_is_compact, "whole storage")],
))
