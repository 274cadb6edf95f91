"""The diagram in words, generated from the same model as the picture.

Screen-reader users get this text (the SVG's ``<desc>`` and the widget's
live region), ``text/plain`` outputs show it, and the tests read it. Every
sentence is built from a ``Snapshot`` and, for a step, its ``Changes``.
"""


def _size(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _called(snap, label):
    """``T1 (a, b)``, or ``T3 (no name)`` for a tensor only the diagram can see."""
    names = snap.tensors[label].names
    return f"{label} ({', '.join(names)})" if names else f"{label} (no name)"


def _slots(slots):
    if not slots:
        return "no slots"
    if list(slots) == list(range(slots[0], slots[-1] + 1)) and len(slots) > 2:
        return f"slots {slots[0]}-{slots[-1]}"
    return "slot " + str(slots[0]) if len(slots) == 1 else "slots " + ", ".join(map(str, slots))


def describe_changes(snap, changes):
    """Sentences saying what this step changed."""
    out = []
    for name in changes.new_names:
        out.append(f"New name {name} points to tensor {snap.names[name]}.")
    for name in changes.rebound_names:
        out.append(f"Name {name} now points to tensor {snap.names[name]}.")
    for name in changes.removed_names:
        out.append(f"Name {name} was deleted.")
    for label in changes.new_tensors:
        t = snap.tensors[label]
        out.append(f"New tensor object {_called(snap, label)}.")
    for label in changes.new_storages:
        s = snap.storages[label]
        out.append(f"New storage {label} ({s.nbytes} bytes) for {', '.join(s.tensors)}.")
    for label in changes.new_counters:
        c = snap.counters[label]
        out.append(f"New version counter {label} for {', '.join(c.tensors)}.")
    for label, (before, after) in changes.bumped_counters.items():
        c = snap.counters[label]
        out.append(f"Version counter {label} went from {before} to {after} "
                   f"(seen by {', '.join(c.tensors)}).")
    for label, slots in changes.changed_values.items():
        out.append(f"Values changed in storage {label} at {_slots(slots)}.")
    for label, fields in changes.changed_tensors.items():
        out.append(f"Tensor {label} changed its {', '.join(fields)}.")
    for label in changes.new_nodes:
        out.append(f"New graph node {snap.nodes[label].name} ({label}).")
    if not out:
        out.append("Nothing in the diagram changed.")
    return out


def describe_state(snap):
    """Sentences describing names, tensors, storages, counters and the graph."""
    out = []
    for label, t in snap.tensors.items():
        grad = f"grad_fn {t.grad_fn}" if t.grad_fn else "grad_fn None"
        where = f"looks at {_slots(t.slots)} of storage {t.storage}"
        if t.base:
            where += f", as a view of {t.base}"
        version = "no version counter" if t.counter is None else f"version {t.version} on counter {t.counter}"
        out.append(
            f"Tensor {_called(snap, label)}: size {_size(t.shape)}, stride {tuple(t.stride)}, "
            f"offset {t.offset}, {t.dtype}, {t.device}, requires_grad={t.requires_grad}, "
            f"is_leaf={t.is_leaf}, {grad}, {version}; {where}."
        )
    for label, s in snap.storages.items():
        if len(s.tensors) > 1:
            out.append(f"Storage {label} is shared by {', '.join(s.tensors)}.")
    for label, c in snap.counters.items():
        if len(c.tensors) > 1:
            out.append(f"Version counter {label} is shared by {', '.join(c.tensors)}.")
    for label, n in snap.nodes.items():
        if n.variable is not None:
            out.append(f"Graph: {n.name} ({label}) adds gradients into leaf {_called(snap, n.variable)}.")
        else:
            nxt = ", ".join(f"{snap.nodes[m].name} ({m})" for m in n.next) or "nothing"
            out.append(f"Graph: {n.name} ({label}) leads to {nxt}.")
    if not snap.nodes:
        out.append("Graph: empty (no tensor here has a grad_fn).")
    return out


def narrate(snap, changes=None, step=None, total=None):
    """The full text for one step (or, without ``changes``, for a static picture)."""
    lines = []
    if step is not None:
        lines.append(f"Step {step} of {total}: {snap.statement}")
    if snap.output:
        lines.append("It prints: " + snap.output.strip())
    if snap.error:
        lines.append("It raises " + snap.error)
    if changes is not None:
        lines.extend(describe_changes(snap, changes))
    lines.extend(describe_state(snap))
    return "\n".join(lines)
