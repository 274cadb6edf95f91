"""Chapter 06's pieces: ``bump``, the count of an in-place write, and ``SavedTensor.unpack``.

``bump(tensor)`` is what every in-place op does after it wrote: one more on
the counter ``tensor`` shares with its views (and its ``detach()``), none on
a clone's.  The cases stop at what chapter 06 taught: the reference also
handles a tensor made in ``inference_mode`` (no counter), chapter 07's
subject, which the learner is not asked for here.  Each case makes
the same tensors on real torch, calls ``add_(1)`` on one of them, and
compares every ``_version``.

``SavedTensor.unpack`` is the check a saved tensor makes in backward.

A node saved a tensor with the version it had then.  When backward needs
it, ``unpack`` compares that version with the tensor's counter now: equal,
it hands the tensor over; different, the numbers were overwritten in place,
and it raises torch's RuntimeError; and after a backward freed the saved
tensors, it raises too.  Each case runs ``y = h * h`` (which saves ``h``) on
real torch, does something to ``h``, and sees whether ``backward`` raises.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._version_counter
import reftorch.autograd.graph

from coursebook.build_it.registry import Case, Piece, Wrong, register

# --- bump ----------------------------------------------------------------------------


def _family(module):
    """A tensor and its relatives: a view, a detach (its memory and counter, but not a view) and a clone."""
    a = module.zeros(4)
    return {"a": a, "a[1:]": a[1:], "a.detach()": a.detach(), "a.clone()": a.clone()}


def _versions(family):
    return tuple(f"{name}: {t._version}" for name, t in family.items())


def _bump_case(label, written, misconception, before=0):
    """``written``: which relative the in-place op writes; ``before``: earlier writes into ``a``."""
    def on_torch():
        family = _family(torch)
        for _ in range(before):
            family["a"].add_(1)
        family[written].add_(1)
        return _versions(family)

    made = {}

    def args():
        made.clear()
        made.update(_family(reftorch))
        for _ in range(before):
            made["a"].add_(1)
        return (made[written],)
    return Case(label, args, misconception, expected=on_torch, observe=lambda result, args: _versions(made))


def _own_counter(tensor):
    tensor._version_counter = reftorch._version_counter.VersionCounter(tensor._version + 1)


def _set_to_one(tensor):
    tensor._version_counter.version = 1


_SHARED = ("a view shares its base's counter object (so does detach()): bump that shared counter, "
           "do not give the tensor a counter of its own; a clone keeps its own, untouched")

register(Piece(
    name="bump",
    chapter="06",
    reference=reftorch._version_counter.bump,
    summary="count one in-place write on the counter a tensor shares with its views",
    cases=[
        _bump_case("(a)", "a", "an in-place write adds one to the counter of the tensor it writes"),
        _bump_case("(a, after 2 earlier writes into a)", "a",
                   "add one to the counter, do not set it to 1: every write counts", before=2),
        _bump_case("(a[1:])", "a[1:]", _SHARED),
        _bump_case("(a): what its view and its detach read", "a",
                   _SHARED + " (the view and the detach see a write into a)"),
        _bump_case("(a.detach())", "a.detach()", _SHARED),
    ],
    wrong=[Wrong(_own_counter, "bump that shared counter", breaks="stdout"),
           Wrong(_set_to_one, "do not set it to 1")],
))

# --- SavedTensor.unpack ------------------------------------------------------------

_HANDED_OVER = "the saved tensor"


def _observe(result, args):
    saved = args[0]
    return _HANDED_OVER if result is not None and result is saved._tensor else repr(result)


def _on_torch(before_save, after_save, backward_twice=False):
    def run():
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x * 2
        before_save(h)
        y = h * h
        after_save(h)
        y.sum().backward(retain_graph=False)
        if backward_twice:
            y.sum().backward()
        return _HANDED_OVER
    return run


def _case(label, before_save, after_save, misconception, release=False):
    def args():
        x = reftorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = x * 2
        before_save(h)
        y = h * h
        saved = y.grad_fn._saved[0]
        after_save(h)
        if release:
            saved.release()
        return (saved,)
    return Case(label, args, misconception, expected=_on_torch(before_save, after_save, release),
                observe=_observe)


def _nothing(h):
    pass


def _add_one(h):
    h.add_(1)


def _write_first(h):
    h[0] = 0.0


def _clone_and_write(h):
    h.clone().add_(1)


def _ignores_versions(self):
    if self._released:
        raise RuntimeError("released")
    return self._tensor


def _compares_with_zero(self):
    if self._released:
        raise RuntimeError("released")
    if self._tensor._version != 0:
        raise RuntimeError("modified")
    return self._tensor


def _forgets_release(self):
    t = self._tensor
    if t._version != self._version:
        raise RuntimeError("modified")
    return t


register(Piece(
    name="unpack",
    stub="my_unpack",
    chapter="06",
    reference=reftorch.autograd.graph.SavedTensor.unpack,
    summary="a saved tensor refuses to be used after an in-place write",
    cases=[
        _case("(h saved, untouched)", _nothing, _nothing,
              "nothing wrote into h since it was saved: hand it over"),
        _case("(h saved, then h.add_(1))", _nothing, _add_one,
              "h was written in place after it was saved: its version moved on, so backward "
              "must raise RuntimeError rather than compute with the new numbers"),
        _case("(h saved, then h[0] = 0.)", _nothing, _write_first,
              "an index write is an in-place write too, and it bumps the same counter: raise"),
        _case("(h.add_(1), then h saved)", _add_one, _nothing,
              "compare with the version h had when it was saved, not with 0: a write *before* "
              "saving is harmless"),
        _case("(h saved, then a clone of h written)", _nothing, _clone_and_write,
              "a clone has its own memory and its own counter: writing it does not touch h"),
        _case("(h saved, backward already ran)", _nothing, _nothing,
              "after a backward without retain_graph the node freed what it saved: unpacking again "
              "must raise RuntimeError", release=True),
    ],
    wrong=[Wrong(_ignores_versions, "its version moved on", breaks="stdout"),
           Wrong(_compares_with_zero, "not with 0"),
           Wrong(_forgets_release, "freed what it saved")],
))
