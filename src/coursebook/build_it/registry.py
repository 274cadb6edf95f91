"""The build-it pieces: what a learner writes, and the battery that checks it.

A *piece* is one small function of reftorch that a chapter asks the learner
to write, under the name reftorch gives it (``contiguous_strides``).  It
holds the reference, the reftorch function object itself (so the reference
answer is the package's own code, shown once), and a battery of cases.

A *case* is one input with the answer it must give.  The answer comes from
real torch wherever torch can be asked (the strides of ``torch.empty(shape)``,
what a tensor's ``_version`` reads after a write); where torch has no public
equivalent, it comes from reftorch's reference, which the differential suite
keeps equal to torch.  Each case names the misconception that gets it wrong,
so a failing case tells the learner what they believed, not just that a
number differs.

Each chapter's pieces live in their own module, ``pieces_NN.py``, which calls
:func:`register`.  :func:`pieces` imports every such module, so a new
chapter's pieces need no edit here.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable

from reftorch import overrides

from coursebook.language import N_

__all__ = ["Case", "Piece", "Wrong", "register", "piece", "pieces", "tuples_only", "told_tuples"]


@dataclass
class Case:
    """One input of a battery.

    ``label``: how the input is shown, e.g. ``"(2, 0, 3)"``.
    ``args``: the arguments, or a function returning fresh ones for each run
    (use one whenever the arguments are tensors the piece may change).
    ``expected``: a function computing the right answer on real torch; None
    means "what reftorch's reference gives" (for pieces torch does not expose).
    It may raise: the piece must then raise the same exception class.
    ``misconception``: shown when the case fails; say what the learner
    probably believed and what is true.
    ``observe``: turns what the piece returned into what is compared,
    ``observe(result, args)``; by default the result itself.
    ``within``: a function returning a context manager the piece runs in
    (``reftorch.no_grad``); the expected answer sets up its own.
    ``keywords``: keyword arguments passed along with ``args`` (``keep_vars=True``).
    ``explain``: when a case can go wrong in more than one way, a function of
    the expected and the learner's outcome (:class:`check.Outcome`) giving the
    message for the mistake actually made (marked ``N_``); ``misconception``
    is shown when it gives None.
    """

    label: str
    args: Any
    misconception: str
    expected: Callable[[], Any] | None = None
    observe: Callable[[Any, tuple], Any] | None = None
    within: Callable[[], Any] | None = None
    explain: Callable[[Any, Any], str | None] | None = None
    keywords: dict = field(default_factory=dict)

    def fresh_args(self) -> tuple:
        args = self.args() if callable(self.args) else self.args
        return tuple(args)


def _holds_a_list(value) -> bool:
    return isinstance(value, list) or (isinstance(value, tuple) and any(_holds_a_list(v) for v in value))


def tuples_only(result, args):
    """``observe`` for a piece that answers with tuples (sizes, strides): an answer holding a list
    is shown as such, and fails (the comparison itself reads a list and a tuple alike)."""
    return f"{result!r}, with lists" if _holds_a_list(result) else result


_NOT_TUPLES = N_("sizes and strides are tuples, as torch gives them: a list is never equal to a tuple "
                 "((3, 1) != [3, 1]), so reftorch would go wrong wherever it compares them")


def told_tuples(expected, got):
    """``explain`` next to :func:`tuples_only`: an answer with lists is told so, whatever the case."""
    return _NOT_TUPLES if isinstance(got.value, str) and not got.raised else None


@dataclass
class Wrong:
    """A wrong answer a learner might write, and the misconception it must trigger.

    Used by the tests: ``check(fn)`` must fail, and one of the failing cases
    must carry ``misconception`` (a substring of that case's message).
    ``breaks``: when set, switching this answer in with ``use_mine`` must make
    the chapter's key cells disagree with torch, and the differences must
    mention this text (the claim that turns red, e.g. ``"m.stride"``).
    """

    fn: Callable
    misconception: str
    breaks: str | None = None


@dataclass
class Piece:
    """One build-it piece: a reftorch function, its chapter and its battery."""

    name: str
    chapter: str
    reference: Callable
    cases: list[Case]
    wrong: list[Wrong] = field(default_factory=list)
    summary: str = ""  # one line for the index: what the piece does
    stub: str = ""  # the learner's function name, when not my_<name> (``my_iadd`` for ``__iadd__``)

    def __post_init__(self):
        # the package's own function, not the marked one every reftorch caller holds (which runs
        # the learner's while it is switched in): checks and reveals read the reference itself
        self.reference = overrides.original(self.reference)

    @property
    def stub_name(self) -> str:
        return self.stub or f"my_{self.name}"

    @property
    def qualified_name(self) -> str:
        fn = self.reference
        return f"{fn.__module__}.{fn.__qualname__}"


_REGISTRY: dict[str, Piece] = {}


def register(piece: Piece) -> Piece:
    """Add ``piece``; a second piece under the same name is a mistake."""
    if piece.name in _REGISTRY and _REGISTRY[piece.name] is not piece:
        raise ValueError(f"two build-it pieces are named {piece.name!r}")
    if not piece.cases:
        raise ValueError(f"build-it piece {piece.name!r} has no cases")
    _REGISTRY[piece.name] = piece
    return piece


_WITHOUT_NUMPY: list[str] = []  # chapters whose pieces need numpy, where numpy is not installed (Pyodide)


def _load_all():
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("pieces_"):
            try:
                importlib.import_module(f"{__package__}.{info.name}")
            except ModuleNotFoundError as missing:
                if missing.name != "numpy":
                    raise
                if info.name[-2:] not in _WITHOUT_NUMPY:
                    _WITHOUT_NUMPY.append(info.name[-2:])


def pieces(chapter: str | None = None) -> list[Piece]:
    """Every registered piece (of one chapter, if given), by chapter then registration order."""
    _load_all()
    found = [p for p in _REGISTRY.values() if chapter is None or p.chapter == chapter]
    return sorted(found, key=lambda p: p.chapter)


def piece(name_or_fn) -> Piece:
    """The piece named ``name``, or the one a function ``my_<name>`` is written for."""
    _load_all()
    name = name_or_fn
    if callable(name_or_fn):
        name = getattr(name_or_fn, "__name__", "")
        by_stub = {p.stub_name: p.name for p in _REGISTRY.values()}
        name = by_stub.get(name, name[3:] if name.startswith("my_") else name)
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        if _WITHOUT_NUMPY:
            known += (f". The pieces of chapter(s) {', '.join(_WITHOUT_NUMPY)} need numpy, which this Python "
                      "does not have (in the browser): run those chapters in JupyterLab (make lab) or on Binder")
        raise LookupError(
            f"no build-it piece is called {name!r}. Name your function my_<piece> "
            f"or pass the piece's name: check('contiguous_strides', fn). Pieces: {known}"
        )
    return _REGISTRY[name]
