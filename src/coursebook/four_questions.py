"""The four questions, answered by torch itself for every way of copying a tensor.

For an operation that turns a tensor ``a`` into ``b`` the course asks:

1. Is ``b`` a new Python object?
2. Does ``b`` have new metadata (its own size, stride, offset, dtype, device,
   ``requires_grad``)?
3. Does ``b`` have new memory (a storage that is not ``a``'s)?
4. Is the history kept (does a gradient flow from ``b`` back to ``a``)?

and, linking them, 5. does ``b`` share ``a``'s version counter?

Nothing here is a hand-written table. Each question is one function that runs
the operation on fresh, throwaway tensors and decides the answer with an
experiment or a comparison through the public API, so it works the same with
``module=torch`` and ``module=reftorch`` (``tests/course/test_four_questions.py``
checks that both give the same matrix).

Answers are ``"yes"``, ``"no"``, or ``"no, dst's"`` for ``dst.copy_(a)``:
there ``b`` is the tensor ``dst`` that existed before, with its own metadata
and memory, so nothing is new, yet nothing is ``a``'s either.
"""

from __future__ import annotations

import copy
import textwrap
import warnings
from dataclasses import dataclass
from typing import Callable

from coursebook.language import N_, _, language

__all__ = [
    "CopyOp", "OPS", "QUESTIONS", "YES", "NO", "DST",
    "new_python_object", "new_metadata", "new_memory", "history_kept", "shares_version_counter",
    "answer_all", "as_markdown", "draw",
]

YES, NO, DST = N_("yes"), N_("no"), N_("no, dst's")


@dataclass(frozen=True)
class CopyOp:
    """One way of getting ``b`` from ``a``.

    ``make(torch, a, dst)`` returns ``b``. Its first argument is the module
    under test (``torch`` or ``reftorch``), named ``torch`` so that each
    lambda reads like ``code``. ``dst`` is a tensor of zeros, shaped like
    ``a``, made before the operation runs; only ``copy_`` uses it.
    """

    code: str
    make: Callable


OPS = (
    CopyOp("b = a", lambda torch, a, dst: a),
    CopyOp("b = a.view(4)", lambda torch, a, dst: a.view(4)),
    CopyOp("b = a[1:]", lambda torch, a, dst: a[1:]),
    CopyOp("b = a[[0, 1]]", lambda torch, a, dst: a[[0, 1]]),
    CopyOp("b = a.clone()", lambda torch, a, dst: a.clone()),
    CopyOp("b = a.detach()", lambda torch, a, dst: a.detach()),
    CopyOp("b = a.clone().detach()", lambda torch, a, dst: a.clone().detach()),
    CopyOp("b = a.detach().clone()", lambda torch, a, dst: a.detach().clone()),
    CopyOp("b = a.new_tensor(a)", lambda torch, a, dst: a.new_tensor(a)),
    CopyOp("b = torch.tensor(a)", lambda torch, a, dst: torch.tensor(a)),
    CopyOp("b = dst.copy_(a)", lambda torch, a, dst: dst.copy_(a)),
    CopyOp("b = a.data", lambda torch, a, dst: a.data),
    CopyOp("b = copy.copy(a)", lambda torch, a, dst: copy.copy(a)),
    CopyOp("b = copy.deepcopy(a)", lambda torch, a, dst: copy.deepcopy(a)),
)


def _run(module, op, requires_grad=True):
    """Fresh ``a`` (2x2 float leaf) and ``dst`` (zeros), then ``b = op(a)``.

    ``new_tensor(a)`` and ``torch.tensor(a)`` warn that ``a.detach().clone()``
    says the same thing more clearly (chapter 10 explains it); that one warning
    is silenced here so that the matrix can be computed quietly.
    """
    a = module.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=requires_grad)
    dst = module.zeros(2, 2)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="To copy construct from a tensor")
        b = op.make(module, a, dst)
    return a, dst, b


def new_python_object(module, op):
    """Is ``b`` a new Python object?

    Decided with ``is``: ``b is a`` means no; ``b is dst`` means no, it is the
    destination that already existed; anything else is an object the
    operation created.
    """
    a, dst, b = _run(module, op)
    if b is a:
        return NO
    if b is dst:
        return DST
    return YES


def new_metadata(module, op):
    """Does ``b`` have its own metadata, separate from ``a``'s?

    Experiment: change one metadata field of ``b`` and look at ``a``. The
    field is ``requires_grad``: ``b.requires_grad_(True)``. If ``a`` now
    requires grad too, the two names read one metadata record. ``a`` starts
    *without* ``requires_grad`` here, so that every ``b`` is a leaf whose flag
    may be changed (a tensor still in ``a``'s graph may not).
    """
    a, dst, b = _run(module, op, requires_grad=False)
    b.requires_grad_(True)
    if a.requires_grad:
        return NO
    if b is dst:
        return DST
    return YES


def _storage_address(t):
    return t.untyped_storage().data_ptr()


def new_memory(module, op):
    """Does ``b`` have new memory?

    Compared with ``untyped_storage().data_ptr()``, the address of the block
    of bytes a tensor looks into (all three tensors are alive, so no address
    can have been reused). Same as ``a``'s: no. Same as ``dst``'s: no, it is
    ``dst``'s own. Otherwise the operation allocated a new storage.
    """
    a, dst, b = _run(module, op)
    if _storage_address(b) == _storage_address(a):
        return NO
    if _storage_address(b) == _storage_address(dst):
        return DST
    return YES


def history_kept(module, op):
    """Is the history kept: does a gradient flow from ``b`` back to ``a``?

    ``a`` is a leaf that requires grad. Ask autograd for the gradient of
    ``b.sum()`` with respect to ``a`` (``torch.autograd.grad`` with
    ``allow_unused=True``, so no ``.grad`` is written). If ``b`` does not
    require grad, or the gradient comes back None, ``b`` is not connected to
    ``a``.
    """
    a, dst, b = _run(module, op)
    if not b.requires_grad:
        return NO
    (grad,) = module.autograd.grad(b.sum(), a, allow_unused=True)
    return NO if grad is None else YES


def shares_version_counter(module, op):
    """Does ``b`` share ``a``'s version counter?

    Experiment: bump ``a``'s counter with an in-place op that changes no
    number (``a.add_(0)``, under ``no_grad`` because ``a`` is a leaf that
    requires grad) and see whether ``b._version`` moves too.
    """
    a, dst, b = _run(module, op)
    before = b._version
    with module.no_grad():
        a.add_(0)
    return YES if b._version != before else NO


QUESTIONS = {
    N_("new Python object?"): new_python_object,
    N_("new metadata?"): new_metadata,
    N_("new memory?"): new_memory,
    N_("history kept?"): history_kept,
    N_("shares a's version counter?"): shares_version_counter,
}


def answer_all(module, ops=OPS):
    """``{op.code: {question: answer}}`` for every operation, in order.

    ``module`` is ``torch`` or ``reftorch``: the library whose answers you want.
    """
    return {op.code: {q: decide(module, op) for q, decide in QUESTIONS.items()} for op in ops}


def as_markdown(matrix):
    """The matrix as a markdown table (the text version of the figure), in the learner's language."""
    questions = list(next(iter(matrix.values())))
    lines = [f"| {_('operation')} | " + " | ".join(_(q) for q in questions) + " |",
             "|---" * (len(questions) + 1) + "|"]
    for code, answers in matrix.items():
        lines.append(f"| `{code}` | " + " | ".join(_(answers[q]) for q in questions) + " |")
    return "\n".join(lines)


# Colour-blind-safe colours (Okabe-Ito); every cell also carries its answer as text.
_COLOURS = {YES: "#56B4E9", NO: "#F0E442", DST: "#CCCCCC"}


# fonts with Chinese glyphs, one of which a learner's system usually has
_CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
              "WenQuanYi Micro Hei", "Microsoft YaHei", "SimHei", "PingFang SC", "Hiragino Sans GB",
              "Heiti SC", "AR PL UMing CN")


def _chinese_font():
    """The name of a font matplotlib has with Chinese glyphs, or None."""
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    return next((name for name in _CJK_FONTS if name in installed), None)


def draw(matrix, title=N_("The four questions, answered by torch")):
    """A matplotlib figure of the matrix: one row per operation, answers written in the cells.

    Its words are in the learner's language when matplotlib has a font that can draw them
    (Chinese needs one of ``_CJK_FONTS``); else in English, never as empty boxes. The table
    of :func:`as_markdown` says the same in the learner's language in any case."""
    try:
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch, Rectangle
    except ImportError:  # Pyodide in the browser (make lite) has no matplotlib
        print(_("No picture here: this Python has no matplotlib (as in the browser). The table above says the same."))
        return None

    font = _chinese_font() if language() == "zh" else None
    say = _ if language() == "en" or font else (lambda text: text)
    family = {"fontfamily": font} if font else {}
    codes = list(matrix)
    questions = list(matrix[codes[0]])
    fig, ax = plt.subplots(figsize=(10, 0.42 * len(codes) + 1.6))
    for row, code in enumerate(codes):
        for col, question in enumerate(questions):
            answer = matrix[code][question]
            ax.add_patch(Rectangle((col, row), 1, 1, facecolor=_COLOURS[answer], edgecolor="white"))
            ax.text(col + 0.5, row + 0.5, say(answer), ha="center", va="center", fontsize=10, **family)
    ax.set_xlim(0, len(questions))
    ax.set_ylim(len(codes), 0)
    ax.set_xticks([c + 0.5 for c in range(len(questions))], [textwrap.fill(say(q), 16) for q in questions],
                  **family)
    ax.xaxis.tick_top()
    ax.set_yticks([r + 0.5 for r in range(len(codes))], codes, family="monospace")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.legend(handles=[Patch(facecolor=c, label=say(a)) for a, c in _COLOURS.items()],
              loc="upper center", bbox_to_anchor=(0.5, 0), ncol=3, frameon=False,
              prop={"family": font} if font else None)
    ax.set_title(say(title), pad=12, **family)
    fig.tight_layout()
    return fig
