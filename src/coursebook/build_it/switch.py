"""Run reftorch on the learner's own pieces: ``use_mine`` and ``use_reference``.

``use_mine(contiguous_strides=my_contiguous_strides)`` asks reftorch to run
the learner's function in the place of its own, through the one lookup
point reftorch has for that (``reftorch.overrides``): each function a
learner may write is marked where reftorch defines it, and every call of it
looks up the learner's version first. From then on the chapter, and its
final ``cross_check_key_cells()`` against torch, run on the learner's piece.

Only that table changes: the package's files, modules, classes and method
tables stay as they are. ``use_reference()`` puts the package's own
functions back (all of them, or the pieces named), and ``with use_mine(...):``
does so at the end of the block. A piece whose reference lives in the course
(not in reftorch) has no place in the package: it is recorded, in 0 places.

A stub that is not written yet (it raises ``NotImplementedError`` on its
first case) is not switched in: the chapter keeps running on reftorch's own.

A piece that fails some of its own cases is switched in (a wrong piece that
turns the chapter's cross-check red teaches something too), but loudly: a
``UserWarning`` and the switch's text name the failing cases, and while it is
in use every cross-check says it vouches for nothing (:func:`failing`).
"""

from __future__ import annotations

import contextlib
import warnings

from reftorch import overrides

from coursebook.build_it.check import FAILED, NOT_WRITTEN, Report, run_battery
from coursebook.build_it.registry import piece as find_piece
from coursebook.language import _

__all__ = ["use_mine", "use_reference", "active", "failing", "replaced", "Switch"]

_ACTIVE: dict[str, object] = {}  # piece name -> the learner's function in use
_FAILING: dict[str, Report] = {}  # piece name -> the failing check of the learner's function in use


def _places(fn) -> int:
    """1 when reftorch runs ``fn`` (it is marked overridable), 0 for a piece of the course's own."""
    return int(overrides.is_overridable(fn))


class Switch:
    """What ``use_mine`` did; as a context manager it switches back on exit."""

    def __init__(self, switched: dict[str, int], skipped: list[str], failing: dict[str, Report] | None = None):
        self.switched = switched  # piece name -> number of places
        self.skipped = skipped
        self.failing = failing or {}  # piece name -> its failing check, for the pieces switched in anyway

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        use_reference(*self.switched)
        return False

    def __repr__(self):
        lines = []
        for name, places in self.switched.items():
            lines.append(_("reftorch now runs your {name} ({places} place(s) in the package use it).").format(
                name=name, places=places))
            if name in self.failing:
                lines.append(_("WARNING:") + " " + failing_text(name, self.failing[name]))
        for name in self.skipped:
            lines.append(_("your {name} is not written yet: reftorch keeps its own.").format(name=name))
        if self.switched:
            lines.append(_("use_reference() switches back. The package files are unchanged."))
        return "\n".join(lines)


def failing_text(name: str, report: Report) -> str:
    """What is wrong with a failing piece in use, naming its failing cases."""
    cases = [f"{name}{r.case.label}" for r in report.results if not r.ok]
    return _("your {name} fails {failing} of its {count} cases ({cases}). reftorch runs it anyway, so no "
             "cross-check vouches for it until check({stub}) passes or use_reference({quoted}) switches "
             "back.").format(name=name, failing=len(cases), count=len(report.results), cases=", ".join(cases),
                             stub=report.piece.stub_name, quoted=repr(name))


def use_mine(**functions) -> Switch:
    """Switch the learner's pieces in: ``use_mine(contiguous_strides=my_contiguous_strides)``.

    A piece failing some of its cases is switched in with a warning naming them.
    """
    switched, skipped, failed = {}, [], {}
    for name, fn in functions.items():
        piece = find_piece(name)
        if not callable(fn):
            raise TypeError(f"use_mine({name}=...) needs a function, got {type(fn).__name__}")
        report = run_battery(fn, piece)
        if report.status == NOT_WRITTEN:
            skipped.append(name)
            continue
        switched[name] = _places(piece.reference)
        if switched[name]:
            overrides.override(piece.reference, fn)
        _ACTIVE[name] = fn
        _FAILING.pop(name, None)
        if report.status == FAILED:
            failed[name] = _FAILING[name] = report
            warnings.warn(failing_text(name, report), UserWarning, stacklevel=2)
    return Switch(switched, skipped, failed)


def use_reference(*names) -> str:
    """Switch back to reftorch's own pieces (all of them, or those named)."""
    for name in names or list(_ACTIVE):
        if name in _ACTIVE:
            _ACTIVE.pop(name)
            overrides.restore(find_piece(name).reference)
            _FAILING.pop(name, None)
    return _("reftorch runs its own pieces again.")


def active() -> dict[str, object]:
    """The learner's functions now in use, by piece name."""
    return dict(_ACTIVE)


def failing() -> dict[str, str]:
    """The learner's pieces in use that fail their own check: {piece name: what fails}."""
    return {name: failing_text(name, report) for name, report in _FAILING.items()}


@contextlib.contextmanager
def replaced(old, new):
    """Within the block, every call of reftorch's ``old`` runs ``new`` (the misconception models
    of :mod:`coursebook.predict.models` are built this way); afterwards ``old`` again."""
    before = overrides.overridden().get(overrides.qualified_name(old))
    overrides.override(old, new)
    try:
        yield
    finally:
        if before:
            overrides.override(old, before)
        else:
            overrides.restore(old)
