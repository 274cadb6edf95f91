"""The diagram in words, generated from the same model as the picture.

Each step is told in two parts. *What changed* is a few sentences of prose
about this step only: "`v = a[1:3]` made a new tensor object T2 (`v`), a view
of T1 (`a`) that looks into S1 from slot 1; it shares the version counter C1
of T1 (`a`)." *The full state* lists every tensor, storage, shared counter
and graph node, and is one click away in the widget.

Sentences are written with code between backticks. ``Narration.text()``
gives plain text (backticks dropped) for the SVG's ``<desc>``, the
``text/plain`` output and screen readers; ``changes_html()`` and
``state_html()`` give HTML with ``<code>`` elements for the widget.
"""

from dataclasses import dataclass, field
from html import escape

from ._model import Snapshot

_SAVED_NOTE = {
    "kept": "it keeps the tensors it saved for backward",
    "modified": "a tensor it saved was modified in place since, so backward through it raises",
    "freed": "its saved tensors were freed by a backward pass, so a second backward through it raises",
}


def _code(text):
    """``text`` marked as code (a backtick inside it would end the mark early)."""
    return "`" + str(text).replace("`", "\u02cb") + "`"


def _join(items):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _size(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _number(v):
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _values(values, limit=8):
    shown = [_number(v) for v in values[:limit]]
    return "[" + ", ".join(shown) + (", …" if len(values) > limit else "") + "]"


def _slots(slots):
    slots = list(slots)
    if not slots:
        return "no slots"
    if slots == list(range(slots[0], slots[-1] + 1)) and len(slots) > 2:
        return f"slots {slots[0]}-{slots[-1]}"
    return "slot " + str(slots[0]) if len(slots) == 1 else "slots " + ", ".join(map(str, slots))


def _grad_expr(snap, owner):
    """``a.grad`` as code, or "the `.grad` of T1" for a tensor without a name."""
    names = snap.tensors[owner].names
    return _code(f"{names[0]}.grad") if names else f"the {_code('.grad')} of {owner}"


def _who(snap, label):
    """``T1 (`a`, `b`)``; ``T6 (`a.grad`)``; ``T3 (no name)``."""
    t = snap.tensors[label]
    called = [_code(n) for n in t.names] + [_grad_expr(snap, o) for o in t.grad_of]
    return f"{label} ({', '.join(called)})" if called else f"{label} (no name)"


def _whos(snap, labels):
    return _join(_who(snap, label) for label in labels)


def _node(snap, label):
    return f"{snap.nodes[label].name} ({label})"


@dataclass
class Narration:
    """One step told in words: a heading, what changed, and the full state."""

    heading: str = ""
    changes: list = field(default_factory=list)
    state: list = field(default_factory=list)

    def text(self):
        """Plain text: the heading, one line per change, then the full state."""
        lines = [self.heading] if self.heading else []
        lines += self.changes
        if self.changes and self.state:
            lines += ["", "Full state:"]
        lines += self.state
        return "\n".join(lines).replace("`", "")

    def changes_html(self):
        parts = []
        if self.heading:
            head, _, statement = self.heading.partition(": ")
            parts.append(f'<p class="md-step">{escape(head)}: <code class="md-stmt">{escape(statement)}</code></p>')
        if self.changes:
            parts.append('<ul class="md-changes">' + "".join(f"<li>{_html(s)}</li>" for s in self.changes) + "</ul>")
        return "".join(parts)

    def state_html(self):
        return '<ul class="md-state-list">' + "".join(f"<li>{_html(s)}</li>" for s in self.state) + "</ul>"


def _html(sentence):
    """Backtick-marked text as HTML: odd pieces are code."""
    pieces = sentence.split("`")
    return "".join(f"<code>{escape(p)}</code>" if i % 2 else escape(p) for i, p in enumerate(pieces))


# --- what changed ------------------------------------------------------------

def _subject(statement):
    """How the first change sentence names the statement."""
    if statement and "\n" not in statement and len(statement) <= 48:
        return _code(statement)
    return "This step"


def _new_tensor(snap, label, changes):
    t = snap.tensors[label]
    s = t.storage
    text = f"a new tensor object {_who(snap, label)}"
    own_memory = s in changes.new_storages
    if own_memory:
        text += f" with new memory {s} ({snap.storages[s].nbytes} bytes)"
    elif t.base is not None:
        text += f", a view of {_who(snap, t.base)} that looks into {s} from slot {t.offset}"
    else:
        others = [o for o in snap.storages[s].tensors if o != label]
        text += (f" that looks into the same memory {s} as {_whos(snap, others)} "
                 f"(not a view: its {_code('_base')} is None)")
    if t.counter is None:
        text += "; it has no version counter"
    elif t.counter in changes.new_counters:
        text += (" and" if own_memory else "; it has") + f" a version counter of its own, {t.counter}"
    else:
        holders = [o for o in snap.counters[t.counter].tensors if o != label]
        text += f"; it shares the version counter {t.counter} of {_whos(snap, holders)}"
    if t.grad_fn:
        text += f"; its {_code('grad_fn')} is {t.grad_fn}" + (f" ({t.grad_fn_label})" if t.grad_fn_label else "")
    elif t.requires_grad:
        text += "; it is a leaf that requires grad"
    return text


def _field(t, name):
    if name == "grad_fn":
        return "None" if t.grad_fn is None else t.grad_fn + (f" ({t.grad_fn_label})" if t.grad_fn_label else "")
    if name == "shape":
        return _size(t.shape)
    return str(getattr(t, name))


def describe_changes(snap, changes, before=None):
    """Sentences saying what this step changed, and nothing else."""
    before = before if before is not None else Snapshot()
    subject = _subject(snap.statement)
    out, said = [], []

    def lead(verb):
        if said:
            return f"It also {verb}"
        said.append(verb)
        return f"{subject} {verb}"

    if snap.output:
        out.append("It prints: " + _code(snap.output.strip()))
    if snap.error:
        out.append("It raises " + snap.error.replace("`", "'"))

    for label in changes.new_tensors:
        if not snap.tensors[label].grad_of:   # gradients are told with the .grad they fill
            out.append(f"{lead('made')} {_new_tensor(snap, label, changes)}.")

    told_storages = set()
    for owner, (old, new) in changes.grads.items():
        expr = _grad_expr(snap, owner)
        if new is None:
            out.append(f"{expr} is None again (it held {old}).")
            continue
        g = snap.tensors[new]
        told_storages.add(g.storage)
        holding = f", holding {_values(g.values)}"
        if new in changes.new_tensors:
            memory = (f"with new memory {g.storage}" if g.storage in changes.new_storages
                      else f"looking into {g.storage}")
            what = f"a new tensor {new} {memory}{holding}"
        else:
            what = f"{_who(snap, new)}{holding}"
        if old is None:
            out.append(f"{lead('filled')} {expr}: {what}.")
        else:
            out.append(f"{expr} now holds {what}, instead of {old}.")
    for owner, t in snap.tensors.items():
        if t.grad is None or owner in changes.grads:
            continue
        g = snap.tensors[t.grad]
        if g.storage in changes.changed_values and g.storage not in told_storages:
            told_storages.add(g.storage)
            out.append(f"{lead('added')} a new gradient into {_grad_expr(snap, owner)} ({t.grad}) in place: "
                       f"it now holds {_values(g.values)}.")

    for name in changes.new_names:
        target = snap.names[name]
        if target in changes.new_tensors:
            continue  # said with the tensor
        others = [n for n in snap.tensors[target].names if n != name]
        already = f", the tensor {_join(_code(n) for n in others)} already names" if others else ""
        out.append(f"{_code(name)} is a new name for {target}{already}: no new object, no new memory.")
    for name in changes.rebound_names:
        out.append(f"{_code(name)} now names {_who(snap, snap.names[name])} instead of {before.names[name]}.")
    for name in changes.removed_names:
        out.append(f"The name {_code(name)} is gone.")

    for label, (old, new) in changes.bumped_counters.items():
        out.append(f"Version counter {label} of {_whos(snap, snap.counters[label].tensors)} "
                   f"went from {old} to {new}.")
    for label, slots in changes.changed_values.items():
        if label in told_storages:
            continue
        old, new = before.storages[label].values, snap.storages[label].values
        pairs = [f"{_number(old[i])} → {_number(new[i])}" for i in slots[:4]] + (["…"] if len(slots) > 4 else [])
        viewers = snap.storages[label].tensors
        see = {1: "sees", 2: "both see"}.get(len(viewers), "all see")
        out.append(f"{_slots(slots).capitalize()} of {label} changed ({', '.join(pairs)}): "
                   f"{_whos(snap, viewers)} {see} the new values.")
    for label, fields in changes.changed_tensors.items():
        old, new = before.tensors[label], snap.tensors[label]
        parts = [f"{_code(f)} {_field(old, f)} → {_field(new, f)}" for f in fields]
        out.append(f"{_who(snap, label)} changed: {_join(parts)}.")

    if changes.new_nodes:
        nodes = [_node(snap, n) for n in changes.new_nodes]
        count = "a node" if len(nodes) == 1 else f"{len(nodes)} nodes"
        out.append(f"The graph gained {count}: {_join(nodes)}.")
        keeping = [_node(snap, n) for n in changes.new_nodes if snap.nodes[n].saved == "kept"]
        if keeping:
            out.append(f"{_join(keeping)} {'keeps' if len(keeping) == 1 else 'keep'} tensors saved for backward.")
    freed = [n for n, (_, state) in changes.saved.items() if state == "freed"]
    if freed:
        them = "it" if len(freed) == 1 else "them"
        out.append(f"{lead('freed')} the tensors that {_join(_node(snap, n) for n in freed)} saved for backward: "
                   f"a second backward through {them} would raise "
                   f"(a backward with {_code('retain_graph=True')} keeps them).")
    for label, (_, state) in changes.saved.items():
        if state == "modified":
            out.append(f"{_node(snap, label)} had saved a tensor that this step modified in place: "
                       "backward through it will now raise.")
    if changes.removed_nodes:
        out.append(f"No drawn tensor leads to {_join(_node(before, n) for n in changes.removed_nodes)} any more.")
    for label in changes.removed_tensors:
        out.append(f"{_who(before, label)} is no longer drawn: nothing drawn refers to it.")
    if not any(s for s in out if not s.startswith(("It prints", "It raises"))):
        out.append("Nothing drawn changed.")
    return out


# --- the full state ------------------------------------------------------------

def describe_state(snap):
    """Sentences describing every tensor, storage, shared counter and graph node."""
    out = []
    for label, t in snap.tensors.items():
        grad_fn = "None" if t.grad_fn is None else t.grad_fn + (f" ({t.grad_fn_label})" if t.grad_fn_label else "")
        version = ("no version counter" if t.counter is None
                   else f"version {t.version} on counter {t.counter}")
        where = f"it looks at {_slots(t.slots)} of {t.storage}"
        if t.base:
            where += f", as a view of {t.base}"
        out.append(
            f"Tensor {_who(snap, label)}: shape {_size(t.shape)}, stride {tuple(t.stride)}, offset {t.offset}, "
            f"{t.dtype.replace('torch.', '')} on {t.device}; {_code('requires_grad=' + str(t.requires_grad))}, "
            f"{'a leaf' if t.is_leaf else 'not a leaf'}, {_code('grad_fn')} {grad_fn}, "
            f"{_code('.grad')} {t.grad or 'None'}; {version}; {where}."
        )
    for label, s in snap.storages.items():
        holding = "" if s.values is None else f", holding {_values(s.values)}"
        look = "looks" if len(s.tensors) == 1 else "look"
        out.append(f"Storage {label}: {s.nbytes} bytes on {s.device}{holding}; "
                   f"{_join(s.tensors)} {look} into it.")
    for label, c in snap.counters.items():
        if len(c.tensors) > 1:
            out.append(f"Version counter {label} (at {c.version}) is shared by {_join(c.tensors)}.")
    for label, n in snap.nodes.items():
        if n.variable is not None:
            text = f"Graph: {n.name} ({label}) adds gradients into the leaf {_who(snap, n.variable)}"
        else:
            counts = {m: n.next.count(m) for m in n.next}
            nxt = _join(_node(snap, m) + (f" ({k} edges)" if k > 1 else "") for m, k in counts.items()) or "nothing"
            text = f"Graph: {n.name} ({label}) passes gradients to {nxt}"
        out.append(text + (f"; {_SAVED_NOTE[n.saved]}." if n.saved else "."))
    if not snap.nodes:
        out.append("Graph: empty (no tensor here has a grad_fn).")
    return out


def narration(snap, changes=None, step=None, total=None, before=None):
    """The ``Narration`` of one step (or, without ``changes``, of a static picture)."""
    heading = f"Step {step} of {total}: {snap.statement}" if step is not None else ""
    told = describe_changes(snap, changes, before) if changes is not None else []
    return Narration(heading, told, describe_state(snap))


def narrate(snap, changes=None, step=None, total=None, before=None):
    """The plain text of ``narration(...)``."""
    return narration(snap, changes, step, total, before).text()
