"""Chapter 07's piece: ``for_new_view``, how a view remembers the mode it was made in.

Each case makes a view of ``base`` (a tensor computed from a leaf, so
writing it is allowed) in some mode, and asks which creation meta it gets.
torch does not show the meta, but it acts on it: writing the view in place
with grad mode on succeeds (``DEFAULT``) or raises an error that names the
mode (no_grad, inference mode) or the multi-output op.  That is what each
case reads from real torch.
"""

import contextlib

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch.autograd.creation_meta as creation_meta

from coursebook.build_it.registry import Case, Piece, Wrong, register

_NAMES = [("inference mode", creation_meta.INFERENCE_MODE), ("no_grad mode", creation_meta.NO_GRAD_MODE),
          ("returns multiple views", creation_meta.MULTI_OUTPUT_NODE)]
_MODES = {"grad mode": contextlib.nullcontext, "no_grad": lambda m: m.no_grad(),
          "inference_mode": lambda m: m.inference_mode()}


def _mode(module, name):
    return contextlib.nullcontext() if name == "grad mode" else _MODES[name](module)


def _source(module, kind):
    """``base`` itself, or a view of it made as ``kind`` says."""
    base = module.ones(4, requires_grad=True) * 1
    if kind == "base":
        return base
    if kind == "a split piece":
        return base.split(2)[0]
    with _mode(module, kind.removeprefix("a view made under ")):
        return base[:3]


def _on_torch(kind, mode, multi_output):
    def run():
        source = _source(torch, kind)
        with _mode(torch, mode):
            view = source.split(1)[0] if multi_output else source[:2]
        try:
            view.mul_(1)
        except RuntimeError as error:
            return next(meta for words, meta in _NAMES if words in str(error))
        return creation_meta.DEFAULT
    return run


def _case(kind, mode, multi_output, misconception):
    label = f"(source: {kind}, multi_output={multi_output}) under {mode}"
    return Case(label, lambda: (_source(reftorch, kind), multi_output), misconception,
                expected=_on_torch(kind, mode, multi_output),
                within=lambda: _mode(reftorch, mode))


def _mode_blind(source, multi_output=False):
    return creation_meta.MULTI_OUTPUT_NODE if multi_output else creation_meta.DEFAULT


def _no_grad_first(source, multi_output=False):
    if not reftorch.is_grad_enabled():
        return creation_meta.NO_GRAD_MODE
    if reftorch.is_inference_mode_enabled():
        return creation_meta.INFERENCE_MODE
    return creation_meta.MULTI_OUTPUT_NODE if multi_output else creation_meta.DEFAULT


def _forgets_the_source(source, multi_output=False):
    if reftorch.is_inference_mode_enabled():
        return creation_meta.INFERENCE_MODE
    if not reftorch.is_grad_enabled():
        return creation_meta.NO_GRAD_MODE
    return creation_meta.MULTI_OUTPUT_NODE if multi_output else creation_meta.DEFAULT


register(Piece(
    name="for_new_view",
    chapter="07",
    reference=creation_meta.for_new_view,
    summary="a view remembers whether it was made under no_grad or inference_mode",
    cases=[
        _case("base", "grad mode", False, "a view made in grad mode, by a one-output op, is DEFAULT: "
                                           "it may be written in place"),
        _case("base", "no_grad", False, "a view made under no_grad has no node to its base: NO_GRAD_MODE, "
                                        "and writing it later with grad mode on is refused"),
        _case("base", "inference_mode", False, "a view made in inference_mode is INFERENCE_MODE; "
                                               "inference_mode switches grad mode off too, so ask about "
                                               "inference_mode first"),
        _case("base", "grad mode", True, "one output of split/chunk/unbind is MULTI_OUTPUT_NODE: the "
                                         "pieces share one node"),
        _case("a view made under no_grad", "grad mode", False,
              "a view of a view inherits its source's meta when it is made in grad mode: the "
              "missing link to the base is still missing"),
        _case("a view made under inference_mode", "no_grad", False,
              "INFERENCE_MODE sticks: a view of an inference-mode view keeps it, whatever the mode"),
        _case("base", "no_grad", True,
              "a mode that records nothing wins over multi_output: one output of split made under "
              "no_grad is NO_GRAD_MODE, so ask about the mode before multi_output"),
        _case("a split piece", "grad mode", False,
              "a view of a split piece made in grad mode inherits MULTI_OUTPUT_NODE, as it inherits "
              "any source's meta: it still cannot be written in place"),
        _case("a split piece", "no_grad", False,
              "a mode that records nothing wins over the source's meta: a view made under no_grad "
              "is NO_GRAD_MODE even if its source is a split piece"),
    ],
    wrong=[Wrong(_mode_blind, "has no node to its base", breaks="stdout"),
           Wrong(_no_grad_first, "ask about inference_mode first"),
           Wrong(_forgets_the_source, "inherits its source's meta")],
))
