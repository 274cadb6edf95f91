"""Checks for the learner's ``new_tensor`` and ``torch.tensor(t)``.

``owner.new_tensor(data)`` with a tensor ``data``: a new leaf in new memory
holding ``data``'s numbers, laid out as ``data.detach().clone()`` would be,
with ``owner``'s dtype and device unless ``dtype=``/``device=`` say otherwise,
``requires_grad`` only from the argument, and a UserWarning recommending
``detach().clone()``. ``torch.tensor(t)`` is the same with ``t``'s own dtype
and device as the defaults.
"""

from . import _battery
from ._observe import battery as resolve_battery, expect_same

MISCONCEPTIONS = {
    "warnings": "your version does not give torch's UserWarning (or gives one torch does not): copying a "
                "tensor this way warns that t.detach().clone() says the same thing more clearly",
    "same_object": "your version returns the data tensor itself instead of a copy",
    "shares_memory": "your version shares memory with the data: new_tensor and torch.tensor always copy",
    "values": "your version holds other numbers than the data (after the cast to the result's dtype)",
    "size": "your version changes the size",
    "dtype": "your version picks the wrong dtype: new_tensor takes it from self (the tensor whose method "
             "you call), torch.tensor from the data; never the default float dtype; dtype= overrides both",
    "device": "your version picks the wrong device: it follows the same rule as the dtype",
    "stride": "your version lays the copy out differently from torch: like detach().clone(), a dense "
              "layout is kept and any other one is packed densely",
    "storage_offset": "your version does not start at offset 0 of its own storage",
    "requires_grad": "your version gets requires_grad wrong: the result is a new leaf that requires grad "
                     "only when requires_grad=True is passed, whatever the data or self",
    "is_leaf": "your version is not a leaf: the copy carries no history",
    "grad_fn": "your version records history: the copy carries none",
    "version": "your version does not start a new version counter at 0",
    "shares_version_counter": "your version shares the data's version counter",
}


class WithOwner:
    """A battery case as the data, plus the tensor whose ``new_tensor`` is called."""

    def __init__(self, case, owner_name, owner_recipe):
        self.case, self.owner_name, self.owner_recipe = case, owner_name, owner_recipe
        self.grad_mode = case.grad_mode

    def build(self, module):
        tensor, leaves, _ = self.case.build(module)
        return tensor, leaves, (self.owner_recipe(module),)

    def label(self):
        return f"data = {self.case.label()}; self = {self.owner_name}"


OWNERS = (
    ("a float64 tensor", lambda T: T.zeros(2, dtype=T.float64)),
    ("an int64 tensor", lambda T: T.zeros(2, dtype=T.int64)),
    ("a float32 leaf that requires grad", lambda T: T.zeros(2, requires_grad=True)),
)

COPY_FIELDS = ("same_object", "shares_memory", "size", "stride", "storage_offset")
GRAPH_FIELDS = ("requires_grad", "is_leaf", "grad_fn", "version", "shares_version_counter")


def _owned(battery, owners=OWNERS):
    return [WithOwner(case, name, recipe) for case in resolve_battery(battery) for name, recipe in owners]


def check_new_tensor_copy(my_new_tensor, battery="basic"):
    """A copy in new memory, laid out like detach().clone(), with torch's warning."""
    owners = OWNERS[:1] if battery == "basic" else OWNERS
    expect_same("new_tensor", _owned(battery, owners), lambda data, owner: owner.new_tensor(data),
                lambda data, owner: my_new_tensor(owner, data), ("warnings",) + COPY_FIELDS, MISCONCEPTIONS)


def check_new_tensor_dtype(my_new_tensor, battery="basic"):
    """dtype and device come from self, unless given."""
    expect_same("new_tensor", _owned(battery), lambda data, owner: owner.new_tensor(data),
                lambda data, owner: my_new_tensor(owner, data), ("dtype", "device", "values"), MISCONCEPTIONS)
    if battery != "basic":
        import reftorch
        import torch

        expect_same("new_tensor(data, dtype=torch.int64)", _owned(battery),
                    lambda data, owner: owner.new_tensor(data, dtype=torch.int64),
                    lambda data, owner: my_new_tensor(owner, data, dtype=reftorch.int64),
                    ("dtype", "values"), MISCONCEPTIONS)


def check_new_tensor_graph(my_new_tensor, battery="basic"):
    """A new leaf: requires_grad only from the argument; a new version counter."""
    cases = _owned(battery)
    expect_same("new_tensor", cases, lambda data, owner: owner.new_tensor(data),
                lambda data, owner: my_new_tensor(owner, data), GRAPH_FIELDS, MISCONCEPTIONS)
    floating = [c for c in cases if c.case not in (_battery.INT64, _battery.BOOL)]
    expect_same("new_tensor(data, requires_grad=True)", floating,
                lambda data, owner: owner.new_tensor(data, requires_grad=True, dtype=data.dtype),
                lambda data, owner: my_new_tensor(owner, data, requires_grad=True, dtype=data.dtype),
                ("requires_grad", "is_leaf", "grad_fn"), MISCONCEPTIONS)


def check_tensor_from_tensor(my_tensor, battery="basic"):
    """torch.tensor(t): a warned copy with t's dtype and device, off the graph."""
    import torch

    expect_same("torch.tensor", battery, lambda t: torch.tensor(t), lambda t: my_tensor(t),
                ("warnings", "dtype", "device") + COPY_FIELDS + ("values",) + GRAPH_FIELDS, MISCONCEPTIONS)
