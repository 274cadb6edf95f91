"""memdiagram: memory diagrams of tensors, their storage, version counters and graph.

Two calls cover the course::

    from memdiagram import show, step_through

    show(a=a, b=b)            # one static picture of named tensors
    step_through([            # run statements once, then step through them
        "a = torch.ones(3, requires_grad=True)",
        "b = a.clone()",
    ], torch=torch)

Both work with torch and with reftorch tensors (one ``TensorAdapter`` each,
see ``_adapter``). The picture is built in four stages, one module each:
``_model`` takes a snapshot (plain data), ``_diff`` compares two snapshots,
``_layout`` places everything (stable across steps) and ``_svg`` draws it;
``_narration`` says the same thing in words. ``_boxes`` says what each box
holds and ``_geometry`` how much room that takes, and checks that no label
of a finished figure hides under another or leaves its box.
"""

from ._choose_adapter import adapter_for, adapter_for_module
from ._diff import Changes, diff
from ._ids import distinct_ids
from ._layout import compute_layout
from ._model import Labels, Snapshot, take_snapshot
from ._narration import narrate, narration
from ._player import PLAYER_WORDS, player_html
from ._run import named_tensors, record
from ._static import StaticDiagram
from ._svg import render_svg
from coursebook.language import _

__all__ = ["show", "step_through", "snapshot", "player_html", "PLAYER_WORDS", "distinct_ids", "StaticDiagram", "MemoryDiagram"]


def _collect(named):
    """Check ``show``'s keyword arguments and expand modules, dicts and lists into tensors."""
    if not named:
        raise TypeError("show() needs at least one named tensor, e.g. show(a=a, b=b)")
    adapter = None
    for name, value in named.items():
        try:
            adapter = adapter_for(value)
            break
        except TypeError:
            continue
    if adapter is None:
        first = next(iter(named))
        raise TypeError(f"show() draws tensors; {first!r} is a {type(named[first]).__name__}")
    tensors = {}
    for name, value in named.items():
        found = named_tensors({name: value}, adapter)
        if not found:
            if adapter_for_or_none(value) is not None:
                raise TypeError("show() cannot mix torch and reftorch tensors in one diagram")
            raise TypeError(f"show() draws tensors; {name!r} is a {type(value).__name__}")
        tensors.update(found)
    return tensors, adapter


def adapter_for_or_none(value):
    try:
        return adapter_for(value)
    except TypeError:
        return None


def snapshot(**named):
    """The diagram model (a ``Snapshot``) of the named tensors, without drawing it."""
    tensors, adapter = _collect(named)
    return take_snapshot(tensors, adapter)


def show(**named):
    """A static memory diagram of the named tensors (torch or reftorch).

    Returns a ``StaticDiagram``: it displays as SVG with a text narration,
    and has ``.svg``, ``.narration``, ``.save_svg(path)``, ``.save_png(path)``.
    Nothing is modified: no version is bumped, no graph node is made.
    """
    snap = snapshot(**named)
    layout = compute_layout([snap])
    text = narrate(snap)
    svg = render_svg(snap, layout, None, title=_("Memory diagram of {names}").format(names=", ".join(named)), narration=text)
    return StaticDiagram(snap, svg, text)


def build_steps(statements, torch=None, namespace=None):
    """Run the statements once: (snapshots, changes, svgs, narrations), one entry per step.

    ``narrations`` are ``_narration.Narration`` objects: ``.text()`` for plain
    text, ``.changes_html()`` and ``.state_html()`` for the widget."""
    if torch is None:
        import torch as torch_module

        torch = torch_module
    adapter = adapter_for_module(torch)
    snapshots, _labels = record(statements, torch, adapter, namespace)
    layout = compute_layout(snapshots)
    changes, svgs, narrations = [], [], []
    previous = None
    total = len(snapshots)
    for i, snap in enumerate(snapshots, start=1):
        change = diff(previous, snap)
        told = narration(snap, change, step=i, total=total, before=previous)
        svg = render_svg(snap, layout, change, title=_("Memory diagram, step {step} of {total}: {statement}").format(
                             step=i, total=total, statement=snap.statement),
                         narration=told.text())
        changes.append(change)
        svgs.append(svg)
        narrations.append(told)
        previous = snap
    return snapshots, changes, svgs, narrations


def step_through(statements, torch=None, namespace=None, start=None):
    """Run ``statements`` once, then step through them in a widget.

    ``statements``: a list of strings, or one multi-line string. ``torch``:
    the module the statements call ``torch`` (real torch by default; pass
    ``reftorch`` to run on the reference implementation). ``namespace``: extra
    names the statements may use. ``start``: the step shown first (1-based;
    default the first). Each step marks what changed since the previous one.
    """
    from ._widget import MemoryDiagram

    snapshots, changes, svgs, narrations = build_steps(statements, torch, namespace)
    widget = MemoryDiagram(snapshots, changes, svgs, narrations)
    if start is not None:
        widget.step = start - 1
    return widget


def __getattr__(name):
    if name == "MemoryDiagram":  # imports anywidget only when the widget is wanted
        from ._widget import MemoryDiagram

        return MemoryDiagram
    raise AttributeError(f"module 'memdiagram' has no attribute {name!r}")
