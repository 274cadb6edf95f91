"""What changed between two steps.

Labels are stable across the steps of one step-through (see ``_model.Labels``),
so "new" simply means "a label the previous step did not have", and
"removed" a label it had that this step has not. A version counter is
*bumped* when its value went up; a storage's *values changed* when any slot
holds a different number than before (an in-place write, or a ``copy_``); a
tensor's *metadata changed* when the same object now has another size,
stride, offset, dtype, storage, counter, grad_fn or requires_grad (e.g.
``a.data = t``, ``requires_grad_()``, ``detach_()``). Its *gradient changed*
when ``.grad`` now holds another tensor (or None): ``backward()`` filling it,
``a.grad = None``. A graph node's *saved state changed* when what it saved
for backward was freed by a backward pass, or modified in place.
"""

from dataclasses import dataclass, field

_METADATA_FIELDS = ("shape", "stride", "offset", "dtype", "device", "storage", "counter",
                    "requires_grad", "grad_fn")


@dataclass
class Changes:
    new_names: list = field(default_factory=list)
    rebound_names: list = field(default_factory=list)
    removed_names: list = field(default_factory=list)
    new_tensors: list = field(default_factory=list)
    removed_tensors: list = field(default_factory=list)
    new_storages: list = field(default_factory=list)
    new_counters: list = field(default_factory=list)
    bumped_counters: dict = field(default_factory=dict)    # label -> (before, after)
    new_nodes: list = field(default_factory=list)
    removed_nodes: list = field(default_factory=list)
    changed_values: dict = field(default_factory=dict)     # storage label -> changed slots
    changed_tensors: dict = field(default_factory=dict)    # tensor label -> changed fields
    grads: dict = field(default_factory=dict)              # tensor label -> (grad before, grad after)
    saved: dict = field(default_factory=dict)              # node label -> (state before, state after)

    def is_empty(self):
        return not any(vars(self).values())

    def marked(self):
        """Every label that the drawing should mark as changed."""
        marks = set(self.new_tensors) | set(self.new_storages) | set(self.new_counters)
        marks |= set(self.bumped_counters) | set(self.new_nodes) | set(self.changed_values)
        marks |= set(self.changed_tensors) | set(self.grads) | set(self.saved)
        marks |= {"name:" + n for n in self.new_names + self.rebound_names}
        return marks


def diff(before, after):
    """``Changes`` from snapshot ``before`` (or None, for the first step) to ``after``."""
    if before is None:
        from ._model import Snapshot

        before = Snapshot()
    changes = Changes()
    for name, label in after.names.items():
        if name not in before.names:
            changes.new_names.append(name)
        elif before.names[name] != label:
            changes.rebound_names.append(name)
    changes.removed_names = [n for n in before.names if n not in after.names]
    changes.new_tensors = [t for t in after.tensors if t not in before.tensors]
    changes.removed_tensors = [t for t in before.tensors if t not in after.tensors]
    changes.new_storages = [s for s in after.storages if s not in before.storages]
    changes.new_counters = [c for c in after.counters if c not in before.counters]
    changes.new_nodes = [n for n in after.nodes if n not in before.nodes]
    changes.removed_nodes = [n for n in before.nodes if n not in after.nodes]
    for label, counter in after.counters.items():
        old = before.counters.get(label)
        if old is not None and old.version != counter.version:
            changes.bumped_counters[label] = (old.version, counter.version)
    for label, storage in after.storages.items():
        old = before.storages.get(label)
        if old is None or old.values is None or storage.values is None:
            continue
        slots = [i for i, (x, y) in enumerate(zip(old.values, storage.values)) if x != y and not (x != x and y != y)]
        if slots:
            changes.changed_values[label] = slots
    for label, tensor in after.tensors.items():
        old = before.tensors.get(label)
        old_grad = None if old is None else old.grad
        if old_grad != tensor.grad:
            changes.grads[label] = (old_grad, tensor.grad)
        if old is None:
            continue
        fields = [f for f in _METADATA_FIELDS if getattr(old, f) != getattr(tensor, f)]
        if fields:
            changes.changed_tensors[label] = fields
    for label, node in after.nodes.items():
        old = before.nodes.get(label)
        if old is not None and old.saved != node.saved:
            changes.saved[label] = (old.saved, node.saved)
    return changes
