"""Run reftorch on the learner's own pieces: ``use_mine`` and ``use_reference``.

``use_mine(contiguous_strides=my_contiguous_strides)`` puts the learner's
function wherever reftorch holds the reference one: every module attribute
(``_strides.contiguous_strides``, and the names other modules imported with
``from ._strides import contiguous_strides``), every class attribute
(``SavedTensor.unpack``), every entry of a module-level table (``t += u``
runs the ``__iadd__`` of reftorch's strided method table,
``_tensor_methods._METHODS``), the function inside a class attribute that
wraps it (``functools.wraps``), and the getter, setter or deleter a property
holds itself (``x.data = new`` runs the setter held by the property
``_detach.data``, which that table holds).  A property cannot be changed:
one holding the reference function is replaced, on its class, module or
table, by a new property holding the learner's; one holding a wrapper of it
has the wrapper pointed at the learner's function, as above.  From then on
the chapter, and its final
``cross_check_key_cells()`` against torch, run on the learner's piece.

Only memory changes: the files of the package are never written.
``use_reference()`` puts the package's own functions back (all of them, or
the pieces named), and ``with use_mine(...):`` does so at the end of the block.

A swap is a search for the object, not a list of places kept from the
first call.  So a reftorch module imported after ``use_mine`` (it reads the
learner's function from the module it imports from) is covered, and switching
back searches again.  ``crosscheck.harness.import_reftorch`` imports reftorch
once and never reloads it; should reftorch be reloaded anyway, call
``use_mine`` again: the new modules hold new reference objects.

A stub that is not written yet (it raises ``NotImplementedError`` on its
first case) is not switched in: the chapter keeps running on reftorch's own.

A piece that fails some of its own cases is switched in (a wrong piece that
turns the chapter's cross-check red teaches something too), but loudly: a
``UserWarning`` and the switch's text name the failing cases, and while it is
in use every cross-check says it vouches for nothing (:func:`failing`).
"""

from __future__ import annotations

import contextlib
import sys
import warnings

from coursebook.build_it.check import FAILED, NOT_WRITTEN, Report, run_battery
from coursebook.build_it.registry import piece as find_piece
from coursebook.language import _

__all__ = ["use_mine", "use_reference", "active", "failing", "replaced", "Switch"]

_ACTIVE: dict[str, object] = {}  # piece name -> the learner's function in use
_FAILING: dict[str, Report] = {}  # piece name -> the failing check of the learner's function in use


def _reftorch_modules():
    return [m for name, m in list(sys.modules.items())
            if m is not None and (name == "reftorch" or name.startswith("reftorch."))]


def _rewrap(member, old, new) -> int:
    """A wrapper made with ``functools.wraps`` around ``old`` keeps ``old`` in its closure:
    point that cell at ``new``."""
    if getattr(member, "__wrapped__", None) is not old or not getattr(member, "__closure__", None):
        return 0
    cells = [cell for cell in member.__closure__ if cell.cell_contents is old]
    for cell in cells:
        cell.cell_contents = new
    member.__wrapped__ = new
    return len(cells)


def _reproperty(prop, old, new):
    """``prop`` with ``new`` where it holds ``old`` as its getter, setter or deleter, and how
    many places that is.  A property cannot be changed, so that is a new property of the same
    kind (same doc); an accessor that wraps ``old`` is rewrapped in place."""
    accessors, count = {}, 0
    for role in ("fget", "fset", "fdel"):
        accessor = getattr(prop, role)
        if accessor is old:
            accessors[role], count = new, count + 1
        else:
            accessors[role] = accessor
            count += _rewrap(accessor, old, new)
    if any(accessors[role] is not getattr(prop, role) for role in accessors):
        prop = type(prop)(accessors["fget"], accessors["fset"], accessors["fdel"], prop.__doc__)
    return prop, count


def _swapped(value, old, new):
    """``value`` with ``new`` in the place of ``old`` (itself, or inside a property), and how
    many places that is."""
    if value is old:
        return new, 1
    if isinstance(value, property):
        return _reproperty(value, old, new)
    return value, 0


def _replace(old, new) -> int:
    """Make every reftorch module, class, property and module-level table that holds ``old``
    hold ``new``."""
    count = 0
    for module in _reftorch_modules():
        for name, value in list(vars(module).items()):
            if isinstance(value, type) and value.__module__.startswith("reftorch"):
                for attr, member in list(vars(value).items()):
                    replaced, places = _swapped(member, old, new)
                    if replaced is not member:
                        setattr(value, attr, replaced)
                    count += places or _rewrap(member, old, new)
            elif isinstance(value, dict):
                for key, member in list(value.items()):
                    replaced, places = _swapped(member, old, new)
                    if replaced is not member:
                        value[key] = replaced
                    count += places
            else:
                replaced, places = _swapped(value, old, new)
                if replaced is not value:
                    setattr(module, name, replaced)
                count += places
    return count


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
        current = _ACTIVE.get(name, piece.reference)
        switched[name] = _replace(current, fn)
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
            _replace(_ACTIVE.pop(name), find_piece(name).reference)
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
    """Within the block, reftorch runs ``new`` wherever it holds ``old`` (the misconception models
    of :mod:`coursebook.predict.models` are built this way); afterwards ``old`` again."""
    _replace(old, new)
    try:
        yield
    finally:
        _replace(new, old)
