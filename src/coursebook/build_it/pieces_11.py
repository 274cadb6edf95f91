"""Chapter 11's piece: reading and writing the same memory, ``check_no_partial_overlap``.

A warm-up for the copy_into exercise (which builds the whole op): when
``dst`` and ``src`` live in one storage, ``dst.copy_(src)`` could overwrite
numbers it has not read yet.  torch refuses when the two overlap in part,
and lets the write through when they are exactly the same elements or do
not overlap at all; it compares only dense tensors, and lets other layouts
through unchecked.  The answer comes from real torch: ``dst.copy_(src)``
on the same pair either goes through (None) or raises.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._inplace

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _pair(mod, which):
    a = mod.arange(8.0)
    return {
        "a, a": (a, a),
        "a[:4], a[:4]": (a[:4], a[:4]),
        "a[:4], a[4:]": (a[:4], a[4:]),
        "a[1:5], a[:4]": (a[1:5], a[:4]),
        "a[:4], a[2:6]": (a[:4], a[2:6]),
        "a[::2], a[1::2]": (a[::2], a[1::2]),
        "a[:4], a[::2]": (a[:4], a[::2]),
        "a[:4], torch.zeros(4)": (a[:4], mod.zeros(4)),
        "s, s.t() (s = a[:4].view(2, 2))": (a[:4].view(2, 2), a[:4].view(2, 2).t()),
    }[which]


def _torch_copy(which):
    dst, src = _pair(torch, which)
    dst.copy_(src)


def _case(which, misconception):
    return Case(f"(dst, src = {which})", lambda: _pair(reftorch, which), misconception,
                expected=lambda: _torch_copy(which))


def _refuse(*args):
    raise RuntimeError(reftorch._messages.INPLACE_OVERLAP)


def _same_storage_refuses(self, other):
    if other.untyped_storage().data_ptr() == self.untyped_storage().data_ptr():
        _refuse()


def _any_overlap_even_identical(self, other):
    if other is self:
        _refuse()
    reftorch._inplace.check_no_partial_overlap(self, other)


def _only_itself_is_whole(self, other):
    if other is self:
        return
    if other.untyped_storage().data_ptr() != self.untyped_storage().data_ptr():
        return
    if not all(reftorch._strides.is_non_overlapping_and_dense(t.shape, t.stride()) for t in (self, other)):
        return
    if self.data_ptr() < other.data_ptr() + other.numel() * other.element_size() and \
            other.data_ptr() < self.data_ptr() + self.numel() * self.element_size():
        _refuse()


def _ranges_only(self, other):
    if other.untyped_storage().data_ptr() != self.untyped_storage().data_ptr():
        return
    a = (self.data_ptr(), self.data_ptr() + (self.numel() * self.stride()[0]) * self.element_size())
    b = (other.data_ptr(), other.data_ptr() + (other.numel() * other.stride()[0]) * other.element_size())
    if a[0] < b[1] and b[0] < a[1] and a != b:
        _refuse()


def _same_bytes_allowed(self, other):
    if other.untyped_storage().data_ptr() != self.untyped_storage().data_ptr():
        return
    a = (self.data_ptr(), self.data_ptr() + self.numel() * self.element_size())
    b = (other.data_ptr(), other.data_ptr() + other.numel() * other.element_size())
    if a[0] < b[1] and b[0] < a[1] and a != b:
        _refuse()


_PART = ("dst and src overlap in part: copying would overwrite numbers before they are read, "
         "so torch refuses (RuntimeError)")

register(Piece(
    name="check_no_partial_overlap",
    chapter="11",
    reference=reftorch._inplace.check_no_partial_overlap,
    summary="refuse a copy_ whose source and destination overlap in part",
    cases=[
        _case("a, a", "a tensor copied into itself reads and writes exactly the same elements: allowed"),
        _case("a[:4], a[:4]", "two view objects of exactly the same elements, with the same strides, overlap "
                              "in whole, not in part: allowed, as for a tensor and itself"),
        _case("a[:4], a[4:]", "one storage is not enough to refuse: two halves that do not overlap are fine"),
        _case("a[1:5], a[:4]", _PART),
        _case("a[:4], a[2:6]", _PART),
        _case("a[::2], a[1::2]", "interleaved slices share no element; torch only compares the memory "
                                 "ranges of dense tensors, and lets other layouts through"),
        _case("a[:4], a[::2]", "torch compares only when both are dense: a stepped source is let through "
                               "unchecked, even into a dense destination"),
        _case("a[:4], torch.zeros(4)", "tensors in different storages can never overlap"),
        _case("s, s.t() (s = a[:4].view(2, 2))", "the same bytes read in another order (a square matrix and "
                                                 "its transpose) overlap in part: torch refuses"),
    ],
    wrong=[Wrong(_same_storage_refuses, "one storage is not enough"),
           Wrong(_any_overlap_even_identical, "exactly the same elements"),
           Wrong(_only_itself_is_whole, "overlap in whole, not in part"),
           Wrong(_ranges_only, "interleaved slices"),
           Wrong(_same_bytes_allowed, "the same bytes read in another order")],
))
