"""What each box of the diagram says, line by line.

``_layout`` sizes every box from these lines (``_geometry.text_width``) and
``_svg`` writes them, so every box is wide enough for its own text and no
label is ever cut short.
"""

FONT = 13        # the diagram's font size: the boxes' text, at least 12 px on screen once fitted (MIN_TEXT in static/widget.js)
SMALL = 10       # second lines: storage devices, notes under a node's name
BADGE = 11       # change marks ("new", "v+1")
LINE = 16        # baseline to baseline, at FONT

from coursebook.language import N_, _  # noqa: E402  (the diagram's words in the learner's language)

SAVED_WORDS = {"kept": N_("keeps saved tensors"), "modified": N_("saved tensor modified"),
               "freed": N_("saved tensors freed")}

_MAX_NAMES = 3


def called(snap, label):
    """The names a tensor is reached by: its variables, then ``a.grad`` for each tensor whose gradient it is."""
    t = snap.tensors[label]
    names = list(t.names)
    for owner in t.grad_of:
        owner_names = snap.tensors[owner].names
        names.append(f"{owner_names[0] if owner_names else owner}.grad")
    return names


def tensor_head(snap, label):
    t = snap.tensors[label]
    names = called(snap, label)
    shown = ", ".join(names[:_MAX_NAMES]) + (f" +{len(names) - _MAX_NAMES}" if len(names) > _MAX_NAMES else "")
    head = f"{label}  ({shown or _('no name')})"
    return head + ("  " + _("view of {base}").format(base=t.base) if t.base else "")


GRAD_LINE = 5    # index in tensor_lines of the ".grad" line (the head is line 0)


def tensor_lines(t):
    """The lines under a tensor box's head (the last one shares its row with the counter tag)."""
    return [
        f"shape [{', '.join(map(str, t.shape))}]  stride {tuple(t.stride)}  offset {t.offset}",
        f"storage {t.storage}  {t.dtype.replace('torch.', '')}  {t.device}",
        f"requires_grad {t.requires_grad}  is_leaf {'refused' if t.is_leaf is None else t.is_leaf}",
        f"grad_fn {t.grad_fn}" + (f" ({t.grad_fn_label})" if t.grad_fn_label else ""),
        f".grad {t.grad or 'None'}",
        "_version " + ("-" if t.version is None else str(t.version)),
    ]


def cell_text(v):
    """A storage slot's value, short enough for a cell: 3 significant digits, T/F for booleans."""
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def counter_tag(c):
    return f"{c.label}={'-' if c.version is None else c.version}"


def storage_title(s):
    """Two lines: the label and size (bold), then where it lives and how it is read (small)."""
    return (f"{s.label}  " + _("{nbytes} bytes").format(nbytes=s.nbytes),
            _("{device}, read as {dtype}").format(device=s.device, dtype=s.dtype.replace("torch.", "")))


def short(snap, label):
    """``T3 (y)``: a label and its first name."""
    names = called(snap, label)
    return f"{label} ({names[0]})" if names else label


def node_lines(snap, label):
    """A graph node's name, whose ``grad_fn`` it is, and what it keeps for backward."""
    n = snap.nodes[label]
    lines = [(n.name, FONT)]
    if n.outputs:
        lines.append((_("grad_fn of {tensors}").format(tensors=", ".join(short(snap, t) for t in n.outputs)), SMALL))
    if n.saved:
        lines.append((_(SAVED_WORDS[n.saved]), SMALL))
    return lines


def leaf_text(snap, label):
    return _("leaf {tensor}").format(tensor=short(snap, label))
