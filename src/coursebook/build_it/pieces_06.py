"""Chapter 06's piece: ``SavedTensor.unpack``, the check a saved tensor makes in backward.

A node saved a tensor with the version it had then.  When backward needs
it, ``unpack`` compares that version with the tensor's counter now: equal,
it hands the tensor over; different, the numbers were overwritten in place,
and it raises torch's RuntimeError; and after a backward freed the saved
tensors, it raises too.  Each case runs ``y = h * h`` (which saves ``h``) on
real torch, does something to ``h``, and sees whether ``backward`` raises.
"""

import torch

import reftorch
import reftorch.autograd.graph

from coursebook.build_it.registry import Case, Piece, Wrong, register

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
