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

import re
from dataclasses import dataclass, field
from html import escape

from coursebook.language import N_, _

from ._model import Snapshot

_SAVED_NOTE = {
    "kept": N_("it keeps the tensors it saved for backward"),
    "modified": N_("a tensor it saved was modified in place since, so backward through it raises"),
    "freed": N_("its saved tensors were freed by a backward pass, so a second backward through it raises"),
}


def _code(text):
    """``text`` marked as code (a backtick inside it would end the mark early)."""
    return "`" + str(text).replace("`", "\u02cb") + "`"


def _join(items):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=_(", ").join(items[:-1]), last=items[-1])


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
        return _("no slots")
    if slots == list(range(slots[0], slots[-1] + 1)) and len(slots) > 2:
        return _("slots {first}-{last}").format(first=slots[0], last=slots[-1])
    if len(slots) == 1:
        return _("slot {n}").format(n=slots[0])
    return _("slots {list}").format(list=_(", ").join(map(str, slots)))


def _grad_expr(snap, owner):
    """``a.grad`` as code, or "the `.grad` of T1" for a tensor without a name."""
    names = snap.tensors[owner].names
    return _code(f"{names[0]}.grad") if names else _("the {grad} of {owner}").format(grad=_code(".grad"), owner=owner)


def _who(snap, label):
    """``T1 (`a`, `b`)``; ``T6 (`a.grad`)``; ``T3 (no name)``."""
    t = snap.tensors[label]
    called = [_code(n) for n in t.names] + [_grad_expr(snap, o) for o in t.grad_of]
    return f"{label} ({', '.join(called)})" if called else _("{label} (no name)").format(label=label)


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
            lines += ["", _("Full state:")]
        lines += self.state
        return "\n".join(lines).replace("`", "")

    def changes_html(self):
        parts = []
        if self.heading:
            head, colon, statement = self.heading.partition(": ")
            if not colon:   # the Chinese heading's full-width colon
                head, colon, statement = self.heading.partition("\uff1a")
            parts.append(f'<p class="md-step">{escape(head)}{colon}<code class="md-stmt">{escape(statement)}</code></p>')
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
    return _("This step")


def _with_subject(template, subject, **fields):
    """``template`` with ``subject`` filled in. A Chinese template spaces ``{subject}`` off from the
    words after it, as Chinese text spaces code off; a subject in words (这一步, "this step") is
    not code, and no space comes between two Chinese words."""
    if not subject.startswith("`"):
        template = re.sub("\\{subject\\} (?=[\u4e00-\u9fff])", "{subject}", template)
    return template.format(subject=subject, **fields)


def _new_tensor(snap, label, changes):
    t = snap.tensors[label]
    s = t.storage
    text = _("a new tensor object {who}").format(who=_who(snap, label))
    own_memory = s in changes.new_storages
    told_on_it = [o for o in changes.new_tensors[:changes.new_tensors.index(label)]
                  if snap.tensors[o].storage == s and not snap.tensors[o].grad_of]
    if own_memory and told_on_it:  # a deep copy of two views: one new storage, said once
        text += _(" with the same new memory {storage} as {others}").format(storage=s, others=_whos(snap, told_on_it))
    elif own_memory:
        text += _(" with new memory {storage} ({nbytes} bytes)").format(storage=s, nbytes=snap.storages[s].nbytes)
    elif t.base is not None:
        text += _(", a view of {base} that looks into {storage} from slot {offset}").format(
            base=_who(snap, t.base), storage=s, offset=t.offset)
    else:
        others = [o for o in snap.storages[s].tensors if o != label]
        text += _(" that looks into the same memory {storage} as {others} (not a view: its {base} is None)").format(
            storage=s, others=_whos(snap, others), base=_code("_base"))
    if t.counter is None:
        text += _("; it has no version counter")
    elif t.counter in changes.new_counters:
        text += (_(" and a version counter of its own, {counter}") if own_memory
                 else _("; it has a version counter of its own, {counter}")).format(counter=t.counter)
    else:
        holders = [o for o in snap.counters[t.counter].tensors if o != label]
        text += _("; it shares the version counter {counter} of {holders}").format(
            counter=t.counter, holders=_whos(snap, holders))
    if t.grad_fn:
        text += _("; its {grad_fn} is {value}").format(
            grad_fn=_code("grad_fn"), value=t.grad_fn + (f" ({t.grad_fn_label})" if t.grad_fn_label else ""))
    elif t.requires_grad:
        text += _("; it is a leaf that requires grad")
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

    def lead(first, also, **fields):
        """The first sentence of the step names the statement; later ones say "It also"."""
        if said:
            return also.format(**fields)
        said.append(True)
        return _with_subject(first, subject, **fields)

    if snap.output:
        out.append(_("It prints: {output}").format(output=_code(snap.output.strip())))
    if snap.error:
        out.append(_("It raises {error}").format(error=snap.error.replace("`", "'")))

    for label in changes.new_tensors:
        if not snap.tensors[label].grad_of:   # gradients are told with the .grad they fill
            out.append(lead(_("{subject} made {what}."), _("It also made {what}."),
                            what=_new_tensor(snap, label, changes)))

    told_storages = set()
    for owner, (old, new) in changes.grads.items():
        expr = _grad_expr(snap, owner)
        if new is None:
            out.append(_("{expr} is None again (it held {old}).").format(expr=expr, old=old))
            continue
        g = snap.tensors[new]
        told_storages.add(g.storage)
        holding = _(", holding {values}").format(values=_values(g.values))
        if new in changes.new_tensors:
            memory = (_("with new memory {storage}") if g.storage in changes.new_storages
                      else _("looking into {storage}")).format(storage=g.storage)
            what = _("a new tensor {label} {memory}").format(label=new, memory=memory) + holding
        else:
            what = f"{_who(snap, new)}{holding}"
        if old is None:
            out.append(lead(_("{subject} filled {expr}: {what}."), _("It also filled {expr}: {what}."),
                            expr=expr, what=what))
        else:
            out.append(_("{expr} now holds {what}, instead of {old}.").format(expr=expr, what=what, old=old))
    for owner, t in snap.tensors.items():
        if t.grad is None or owner in changes.grads:
            continue
        g = snap.tensors[t.grad]
        if g.storage in changes.changed_values and g.storage not in told_storages:
            told_storages.add(g.storage)
            out.append(lead(_("{subject} added a new gradient into {expr} ({grad}) in place: it now holds {values}."),
                            _("It also added a new gradient into {expr} ({grad}) in place: it now holds {values}."),
                            expr=_grad_expr(snap, owner), grad=t.grad, values=_values(g.values)))

    for name in changes.new_names:
        target = snap.names[name]
        if target in changes.new_tensors:
            continue  # said with the tensor
        others = [n for n in snap.tensors[target].names if n != name]
        if others:
            out.append(_("{name} is a new name for {target}, the tensor {others} already names: no new object, "
                         "no new memory.").format(name=_code(name), target=target,
                                                 others=_join(_code(n) for n in others)))
        else:
            out.append(_("{name} is a new name for {target}: no new object, no new memory.").format(
                name=_code(name), target=target))
    for name in changes.rebound_names:
        out.append(_("{name} now names {who} instead of {old}.").format(
            name=_code(name), who=_who(snap, snap.names[name]), old=before.names[name]))
    for name in changes.removed_names:
        out.append(_("The name {name} is gone.").format(name=_code(name)))

    for label, (old, new) in changes.bumped_counters.items():
        out.append(_("Version counter {label} of {holders} went from {old} to {new}.").format(
            label=label, holders=_whos(snap, snap.counters[label].tensors), old=old, new=new))
    for label, slots in changes.changed_values.items():
        if label in told_storages:
            continue
        old, new = before.storages[label].values, snap.storages[label].values
        pairs = [f"{_number(old[i])} → {_number(new[i])}" for i in slots[:4]] + (["…"] if len(slots) > 4 else [])
        viewers = snap.storages[label].tensors
        see = {1: _("{who} sees the new values."), 2: _("{who} both see the new values.")}.get(
            len(viewers), _("{who} all see the new values.")).format(who=_whos(snap, viewers))
        where = _slots(slots)
        out.append(_("{slots} of {storage} changed ({pairs}): {see}").format(
            slots=where[:1].upper() + where[1:], storage=label, pairs=_(", ").join(pairs), see=see))
    for label, fields in changes.changed_tensors.items():
        old, new = before.tensors[label], snap.tensors[label]
        parts = [f"{_code(f)} {_field(old, f)} → {_field(new, f)}" for f in fields]
        out.append(_("{who} changed: {parts}.").format(who=_who(snap, label), parts=_join(parts)))

    if changes.new_nodes:
        nodes = [_node(snap, n) for n in changes.new_nodes]
        if len(nodes) == 1:
            out.append(_("The graph gained a node: {nodes}.").format(nodes=_join(nodes)))
        else:
            out.append(_("The graph gained {count} nodes: {nodes}.").format(count=len(nodes), nodes=_join(nodes)))
        keeping = [_node(snap, n) for n in changes.new_nodes if snap.nodes[n].saved == "kept"]
        if keeping:
            out.append((_("{nodes} keeps tensors saved for backward.") if len(keeping) == 1
                        else _("{nodes} keep tensors saved for backward.")).format(nodes=_join(keeping)))
    freed = [n for n, (_state, state) in changes.saved.items() if state == "freed"]
    if freed:
        them = _("it") if len(freed) == 1 else _("them")
        out.append(lead(_("{subject} freed the tensors that {nodes} saved for backward: a second backward through "
                          "{them} would raise (a backward with {retain} keeps them)."),
                        _("It also freed the tensors that {nodes} saved for backward: a second backward through "
                          "{them} would raise (a backward with {retain} keeps them)."),
                        nodes=_join(_node(snap, n) for n in freed), them=them, retain=_code("retain_graph=True")))
    for label, (_state, state) in changes.saved.items():
        if state == "modified":
            out.append(_("{node} had saved a tensor that this step modified in place: "
                         "backward through it will now raise.").format(node=_node(snap, label)))
    if changes.removed_nodes:
        out.append(_("No drawn tensor leads to {nodes} any more.").format(
            nodes=_join(_node(before, n) for n in changes.removed_nodes)))
    for label in changes.removed_tensors:
        out.append(_("{who} is no longer drawn: nothing drawn refers to it.").format(who=_who(before, label)))
    quiet = (_("It prints: {output}").split("{")[0], _("It raises {error}").split("{")[0])
    if not any(s for s in out if not s.startswith(quiet)):
        out.append(_("Nothing drawn changed."))
    return out


# --- the full state ------------------------------------------------------------

def _leaf(t):
    if t.is_leaf is None:  # the adapter's ``refused``: torch raises for is_leaf, prints grad_fn=<Invalid>
        return _("refused by autograd (a view made under no_grad or inference_mode whose memory was written in place since)")
    return _("a leaf") if t.is_leaf else _("not a leaf")


def describe_state(snap):
    """Sentences describing every tensor, storage, shared counter and graph node."""
    out = []
    for label, t in snap.tensors.items():
        grad_fn = "None" if t.grad_fn is None else t.grad_fn + (f" ({t.grad_fn_label})" if t.grad_fn_label else "")
        version = (_("no version counter") if t.counter is None
                   else _("version {version} on counter {counter}").format(version=t.version, counter=t.counter))
        where = _("it looks at {slots} of {storage}").format(slots=_slots(t.slots), storage=t.storage)
        if t.base:
            where += _(", as a view of {base}").format(base=t.base)
        out.append(_("Tensor {who}: shape {shape}, stride {stride}, offset {offset}, {dtype} on {device}; "
                     "{requires_grad}, {leaf}, {grad_fn} {grad_fn_value}, {grad} {grad_value}; {version}; "
                     "{where}.").format(
            who=_who(snap, label), shape=_size(t.shape), stride=tuple(t.stride), offset=t.offset,
            dtype=t.dtype.replace("torch.", ""), device=t.device,
            requires_grad=_code("requires_grad=" + str(t.requires_grad)),
            leaf=_leaf(t), grad_fn=_code("grad_fn"), grad_fn_value=grad_fn,
            grad=_code(".grad"), grad_value=t.grad or "None", version=version, where=where))
    for label, s in snap.storages.items():
        holding = "" if s.values is None else _(", holding {values}").format(values=_values(s.values))
        look = (_("{tensors} looks into it.") if len(s.tensors) == 1
                else _("{tensors} look into it.")).format(tensors=_join(s.tensors))
        out.append(_("Storage {label}: {nbytes} bytes on {device}{holding}; {look}").format(
            label=label, nbytes=s.nbytes, device=s.device, holding=holding, look=look))
    for label, c in snap.counters.items():
        if len(c.tensors) > 1:
            out.append(_("Version counter {label} (at {version}) is shared by {tensors}.").format(
                label=label, version=c.version, tensors=_join(c.tensors)))
    for label, n in snap.nodes.items():
        if n.variable is not None:
            text = _("Graph: {name} ({label}) adds gradients into the leaf {who}").format(
                name=n.name, label=label, who=_who(snap, n.variable))
        else:
            counts = {m: n.next.count(m) for m in n.next}
            nxt = _join(_node(snap, m) + (_(" ({count} edges)").format(count=k) if k > 1 else "")
                        for m, k in counts.items()) or _("nothing")
            text = _("Graph: {name} ({label}) passes gradients to {next}").format(name=n.name, label=label, next=nxt)
        out.append(text + (_("; {note}.").format(note=_(_SAVED_NOTE[n.saved])) if n.saved else _(".")))
    if not snap.nodes:
        out.append(_("Graph: empty (no tensor here has a grad_fn)."))
    return out


def heading(step, total, statement):
    """``Step 2 of 5: b = a[1:]``, the line above one step's picture and narration."""
    return _("Step {step} of {total}: {statement}").format(step=step, total=total, statement=statement)


def narration(snap, changes=None, step=None, total=None, before=None):
    """The ``Narration`` of one step (or, without ``changes``, of a static picture)."""
    head = heading(step, total, snap.statement) if step is not None else ""
    told = describe_changes(snap, changes, before) if changes is not None else []
    return Narration(head, told, describe_state(snap))


def narrate(snap, changes=None, step=None, total=None, before=None):
    """The plain text of ``narration(...)``."""
    return narration(snap, changes, step, total, before).text()
