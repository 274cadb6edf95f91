"""The check cell: run the learner's piece on its battery and say what holds.

``check(my_contiguous_strides)`` runs every case of the piece, compares the
answer with the expected one (from real torch, or from reftorch's reference
where torch has no public equivalent) and shows one line per case.  A failing
case shows the input, both answers and the misconception that explains it.

It never raises.  A stub that still says ``raise NotImplementedError`` is
reported as "not written yet" (so a chapter executed with its stubs empty runs
cleanly), and an exception from the learner's code is shown with the input
that triggered it and the line of their cell it came from, not as a
traceback.  When every case passes, the piece is marked done in the
learner's progress file (:mod:`coursebook.build_it.progress`).
"""

from __future__ import annotations

import contextlib
import html
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from coursebook.build_it import progress
from coursebook.language import _
from coursebook.build_it.registry import Case, Piece, piece as find_piece
from crosscheck.recorded import torch_answer

__all__ = ["Report", "CaseResult", "check", "run_battery", "normalize"]

PASSED, FAILED, NOT_WRITTEN = "passed", "failed", "not written yet"
_OURS = (str(Path(__file__).resolve().parent), "/reftorch/", "/torch/", "/contextlib.py")


def normalize(value):
    """What is compared: tuples for sequences and sizes, Python numbers for numpy ones."""
    np = sys.modules.get("numpy")  # a value can be numpy's only once numpy is imported
    if np is not None and isinstance(value, np.ndarray):
        return normalize(value.tolist())
    if np is not None and isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return tuple(normalize(v) for v in value)
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    return value


def _same(a, b) -> bool:
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:
        return False


@dataclass
class Outcome:
    """A value, or the exception raised (class name, message, where in the learner's code)."""

    value: object = None
    raised: str | None = None
    message: str = ""
    where: str = ""

    def matches(self, other: "Outcome") -> bool:
        if self.raised or other.raised:
            return self.raised == other.raised
        return _same(self.value, other.value)

    def describe(self) -> str:
        if self.raised:
            return _("raises {name}").format(name=self.raised)
        if isinstance(self.value, dict):  # an observation with named parts: "returns: self; holds: [...]"
            return _("; ").join(_("{part}: {value}").format(part=_(key), value=_(part) if isinstance(part, str)
                                                             else repr(part)) for key, part in self.value.items())
        return repr(self.value)


def _learner_line(exc) -> str:
    """The deepest frame of the learner's own code (a notebook cell), as text."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not any(part in f.filename for part in _OURS)]
    if not frames:
        return ""
    frame = frames[-1]
    line = f": {frame.line.strip()}" if frame.line else ""
    return _("line {number} of your code").format(number=frame.lineno) + line


def _outcome(fn, case: Case, is_learner: bool) -> Outcome:
    args = case.fresh_args()
    within = case.within() if case.within else contextlib.nullcontext()
    try:
        with within:
            result = fn(*args, **case.keywords)
        value = case.observe(result, args) if case.observe else result
        return Outcome(value=normalize(value))
    except NotImplementedError:
        raise
    except Exception as exc:  # what the piece raised is part of its answer
        return Outcome(raised=type(exc).__name__, message=str(exc).splitlines()[0] if str(exc) else "",
                       where=_learner_line(exc) if is_learner else "")


def _expected(piece: Piece, case: Case) -> tuple[Outcome, str]:
    if case.expected is None:
        return _outcome(piece.reference, case, is_learner=False), _("reftorch's reference")
    # in the browser (the Lite site) torch is not there: its answer recorded when the site was built
    return torch_answer(("build-it", piece.name, case.label), lambda: _torch_outcome(case)), "torch"


def _torch_outcome(case: Case) -> Outcome:
    try:
        return Outcome(value=normalize(case.expected()))
    except Exception as exc:
        return Outcome(raised=type(exc).__name__, message=str(exc).splitlines()[0])


@dataclass
class CaseResult:
    case: Case
    ok: bool
    got: Outcome
    expected: Outcome
    source: str  # "torch" or "reftorch's reference"

    @property
    def misconception(self) -> str:
        """What the learner probably believed, in English: the case's explanation of the mistake
        actually made, else the case's misconception."""
        explained = self.case.explain(self.expected, self.got) if self.case.explain else None
        return explained or self.case.misconception

    def lines(self, name: str) -> list[str]:
        head = f"{name}{self.case.label}"
        if self.ok:
            return [f"  ok    {head} -> {self.expected.describe()}"]
        lines = [f"  FAIL  {head}"]
        lines.append("          " + _("expected {value} ({source})").format(value=self.expected.describe(),
                                                                           source=self.source))
        if self.got.raised and not self.expected.raised:
            # the exception's own message stays as Python or torch wrote it
            lines.append("          " + _("your code raised {name}:").format(name=self.got.raised)
                         + f" {self.got.message}")
            if self.got.where:
                lines.append(f"          ({self.got.where})")
        else:
            lines.append("          " + _("got      {value}").format(value=self.got.describe()))
        lines.append(f"          -> {_(self.misconception)}")
        return lines


class Report:
    """The result of one check: displayed as text (and HTML in JupyterLab)."""

    def __init__(self, piece: Piece, results: list[CaseResult], status: str, note: str = ""):
        self.piece = piece
        self.results = results
        self.status = status
        self.note = note

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def misconceptions(self) -> list[str]:
        """The messages of the failing cases."""
        return [_(r.misconception) for r in self.results if not r.ok]

    def text(self) -> str:
        name = self.piece.name
        if self.status == NOT_WRITTEN:
            return _("build it: {name} is not written yet (it still raises NotImplementedError).\n"
                     "Write it in the cell above, run that cell, then run this one again.").format(name=name)
        lines = [_("build it: {name}, {count} cases").format(name=name, count=len(self.results))]
        for result in self.results:
            lines += result.lines(name)
        failing = sum(not r.ok for r in self.results)
        if self.passed:
            lines.append(_("All {count} cases pass: {name} is done.").format(count=len(self.results), name=name))
        else:
            lines.append(_("{failing} of {count} cases fail.").format(failing=failing, count=len(self.results)))
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        colour = {PASSED: "#1a7f37", FAILED: "#b3261e", NOT_WRITTEN: "#6e6e6e"}[self.status]
        return (f"<pre style='border-left: 4px solid {colour}; padding-left: 8px'>"
                f"{html.escape(self.text())}</pre>")


def run_battery(fn, piece: Piece) -> Report:
    """Run ``fn`` on every case of ``piece``; record nothing."""
    results = []
    for case in piece.cases:
        expected, source = _expected(piece, case)
        try:
            got = _outcome(fn, case, is_learner=True)
        except NotImplementedError:
            return Report(piece, [], NOT_WRITTEN)
        results.append(CaseResult(case, expected.matches(got), got, expected, source))
    status = PASSED if all(r.ok for r in results) else FAILED
    return Report(piece, results, status)


def check(name_or_fn, fn=None) -> Report:
    """Check a build-it piece: ``check(my_contiguous_strides)`` or ``check("contiguous_strides", fn)``.

    Shows one line per case; never raises.  A full pass is saved in the
    progress file, so the index shows the piece as done; a failing check of a
    piece marked done (a later rewrite broke it) takes the mark away.
    """
    if fn is None:
        fn = name_or_fn
    piece = find_piece(name_or_fn)
    report = run_battery(fn, piece)
    if report.passed:
        report.note = progress.record_piece(piece.name, piece.chapter)
    elif report.status == FAILED:
        report.note = progress.forget_piece(piece.name)
    return report
