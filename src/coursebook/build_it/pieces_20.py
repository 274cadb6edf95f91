"""Chapter 20's piece: ``saved_tensors``, what a custom Function's backward reads back.

``ctx.save_for_backward(*tensors)`` kept each tensor as a ``SavedTensor``
(chapter 06) stamped with its version; ``ctx.saved_tensors`` unpacks each one,
so a tensor written in place since the forward raises torch's error instead
of handing backward numbers it never saw.  A None that was saved comes back
as None, and a forward that saved nothing gives an empty tuple.  Each case
runs the forward on real torch (where the node answers ``saved_tensors`` too)
and on reftorch, and compares which tensors come back, or that it raises.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch.autograd.function

from coursebook.build_it.registry import Case, Piece, Wrong, register
from coursebook.language import N_


def _function(module):
    class Keep(module.autograd.Function):
        @staticmethod
        def forward(ctx, x, saved):
            if saved == "x":
                ctx.save_for_backward(x)
            elif saved == "x and None":
                ctx.save_for_backward(x, None)
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2, None

    return Keep


def _run(module, saved, write_before, write_after):
    x = module.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    if write_before:
        with module.no_grad():
            h.add_(1)
    y = _function(module).apply(h, saved)
    if write_after:
        with module.no_grad():
            h.mul_(10)
    return y.grad_fn, h


def _seen(tensors, h):
    return tuple(None if t is None else ("h" if t is h else "another tensor", t.tolist()) for t in tensors)


def _observed(result, h):
    """What came back: a tuple's entries; None; anything else by its type (torch always gives a tuple)."""
    if result is None:
        return None
    if isinstance(result, tuple):
        return _seen(result, h)
    return f"a {type(result).__name__}"


_NOT_A_TUPLE = N_("ctx.saved_tensors is always a tuple, as torch gives it (an empty one when nothing was "
                  "saved), not a list")


def _explain(expected, got):
    """A learner's answer that is not a tuple is told so, whatever the case."""
    return _NOT_A_TUPLE if isinstance(got.value, str) and not expected.raised else None


def _case(label, misconception, saved="x", write_before=False, write_after=False):
    def on_torch():
        node, h = _run(torch, saved, write_before, write_after)
        return _seen(node.saved_tensors, h)

    made = {}

    def args():
        made["node"], made["h"] = _run(reftorch, saved, write_before, write_after)
        return (made["node"],)

    return Case(label, args, misconception, expected=on_torch, explain=_explain,
                observe=lambda result, args: _observed(result, made["h"]))


def _unchecked(self):
    return tuple(None if s is None else s._tensor for s in self._saved_for_backward or ())


def _none_when_empty(self):
    if not self._saved_for_backward:
        return None
    return tuple(None if s is None else s.unpack() for s in self._saved_for_backward)


def _copies(self):
    return tuple(None if s is None else s.unpack().clone() for s in self._saved_for_backward or ())


register(Piece(
    name="saved_tensors",
    chapter="20",
    reference=reftorch.autograd.function.saved_tensors,
    summary="ctx.saved_tensors: the saved tensors, each checked against its version",
    cases=[
        _case("(h saved, untouched)", "hand back the saved tensor itself: the very object, not a copy"),
        _case("(h saved, then h.mul_(10))",
              "a saved tensor is stamped with its version: written in place since, unpack() must raise "
              "RuntimeError, not hand backward the new numbers", write_after=True),
        _case("(h.add_(1), then h saved)",
              "the stamp is the version at saving time: a write before the forward is harmless",
              write_before=True),
        _case("(h and None saved)", "a None that was saved comes back as None, in its place", saved="x and None"),
        _case("(nothing saved)", "a forward that saved nothing gives an empty tuple, not None", saved="nothing"),
    ],
    wrong=[Wrong(_unchecked, "stamped with its version", breaks="stdout"),
           Wrong(_none_when_empty, "an empty tuple"),
           Wrong(_copies, "not a copy")],
))
