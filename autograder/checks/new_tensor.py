"""Checks for the learner's ``new_tensor`` and ``torch.tensor(t)``.

``owner.new_tensor(data)`` with a tensor ``data``: a new leaf in new memory
holding ``data``'s numbers, laid out as ``data.detach().clone()`` would be,
with ``owner``'s dtype and device unless ``dtype=``/``device=`` say otherwise,
``requires_grad`` only from the argument, and a UserWarning recommending
``detach().clone()``. ``owner`` itself is left alone: it only lends its
defaults. ``torch.tensor(t)`` is the same with ``t``'s own dtype and device
as the defaults.
"""

from ..judge.marked_calls import DTYPE_OF_SOURCE, SOURCE, argument, call
from ..judge.learner import Reftorch
from ..witness import battery as _battery, variants as _variants
from ..witness.owned import OWNERS, Moved, Owner, WithOwner
from ._observe import M, battery as resolve_battery, choose, expect_same


def _tensor_dtype(theirs, yours, context):
    if yours in ("torch.float32", "torch.float64"):
        return M("tensor/default-dtype", "your torch.tensor(t) picks the wrong dtype: the dtype comes from the "
                 "data t, never from the default float dtype; dtype= overrides it")
    return M("tensor/wrong-dtype", "your torch.tensor(t) picks the wrong dtype: it keeps t's dtype unless "
             "dtype= is given")


MISCONCEPTIONS = {
    "warnings": M("new_tensor/no-warning", "your version does not give torch's UserWarning (or gives one "
                  "torch does not): copying a tensor this way warns that t.detach().clone() says the same "
                  "thing more clearly"),
    "same_object": M("new_tensor/returns-data", "your version returns the data tensor itself instead of a "
                     "copy"),
    "returns_an_argument": M("new_tensor/copies-into-self", "your new_tensor returns self: new_tensor does "
                             "not copy into the tensor you call it on, it builds a new one (self only lends "
                             "its dtype and device)"),
    "shares_memory": M("new_tensor/shares-memory", "your version shares memory with the data: new_tensor "
                       "and torch.tensor always copy"),
    "values": M("new_tensor/wrong-values", "your version holds other numbers than the data (after the cast "
                "to the result's dtype)"),
    "size": M("new_tensor/wrong-size", "your version changes the size"),
    "dtype": M("new_tensor/dtype-from-data", "your new_tensor picks the wrong dtype: new_tensor takes it "
               "from self (the tensor whose method you call), not from the data, and dtype= overrides it"),
    "device": M("new_tensor/device-from-data", "your new_tensor picks the wrong device: like the dtype, it "
                "comes from self (the tensor whose method you call) unless device= is given"),
    "stride": M("new_tensor/wrong-strides", "your version lays the copy out differently from torch: like "
                "detach().clone(), a dense layout is kept and any other one is packed densely"),
    "storage_offset": M("new_tensor/keeps-offset", "your version does not start at offset 0 of its own "
                        "storage"),
    "requires_grad": M("new_tensor/requires-grad-from-data", "your version gets requires_grad wrong: the "
                       "result is a new leaf that requires grad only when requires_grad=True is passed, "
                       "whatever the data or self"),
    "is_leaf": M("new_tensor/keeps-history", "your version is not a leaf: the copy carries no history"),
    "grad_fn": M("new_tensor/keeps-history", "your version records history: the copy carries none"),
    "grad": M("new_tensor/copies-grad", "your version carries a .grad: the copy starts without one"),
    "attributes": M("new_tensor/copies-attributes", "your version carries the data's Python attributes: "
                    "it copies numbers only"),
    "version": M("new_tensor/version-not-zero", "your version does not start a new version counter at 0"),
    "shares_version_counter": M("new_tensor/shares-version-counter", "your version shares the data's "
                                "version counter"),
    "source_version": M("new_tensor/writes-data", "your version bumped the data's version: copying from a "
                        "tensor does not write into it"),
    "input_versions": M("new_tensor/writes-self", "your new_tensor bumped self's version: it does not "
                        "write into self"),
}


TENSOR = {field: m if callable(m) else M(m.tag.replace("new_tensor/", "tensor/"),
                                          m.text.replace("new_tensor and torch.tensor", "torch.tensor"))
          for field, m in MISCONCEPTIONS.items()}
TENSOR.update(dtype=_tensor_dtype, device=M(
    "tensor/wrong-device", "your torch.tensor(t) picks the wrong device: the copy goes to t's device unless "
    "device= is given"))


# What an argument the learner's function ignores looks like: the result keeps the default.
ARGUMENTS = dict(MISCONCEPTIONS, **{
    "dtype": M("new_tensor/ignores-dtype-argument", "your new_tensor ignores dtype=: the dtype asked for "
               "overrides self's (and the data's); only without dtype= does the result take self's"),
    "device": M("new_tensor/ignores-device-argument", "your new_tensor ignores device=: the device asked for "
                "overrides self's (and the data's); only without device= does the result go to self's"),
})


def _raised_with_dtype(theirs, yours, context):
    """new_tensor(data, requires_grad=True, dtype=data.dtype) with an integer self: only a result that
    ignored dtype= (and took self's integer dtype) cannot require grad."""
    if "floating point" in str((yours or ("", ""))[1]):
        return ARGUMENTS["dtype"]
    return M("new_tensor/raises", "your new_tensor(data, requires_grad=True) raised where torch's does not")


TENSOR_ARGUMENTS = dict(TENSOR, **{
    "dtype": M("tensor/ignores-dtype-argument", "your torch.tensor(t, dtype=...) ignores dtype=: the dtype "
               "asked for overrides t's"),
    "device": M("tensor/ignores-device-argument", "your torch.tensor(t, device=...) ignores device=: the copy "
                "goes to the device asked for, t's device is only the default"),
    "requires_grad": M("tensor/ignores-requires-grad-argument", "your torch.tensor(t, requires_grad=True) "
                       "ignores requires_grad=: the copy is a new leaf that requires grad exactly when "
                       "requires_grad=True is passed"),
})
TENSOR_ARGUMENTS["is_leaf"] = TENSOR_ARGUMENTS["grad_fn"] = TENSOR_ARGUMENTS["requires_grad"]


COPY_FIELDS = ("same_object", "returns_an_argument", "shares_memory", "size", "stride", "storage_offset",
               "grad", "attributes")
GRAPH_FIELDS = ("requires_grad", "is_leaf", "grad_fn", "version", "shares_version_counter", "source_version",
                "input_versions")


def _drawn_owners(salt):
    r = _variants.generator(salt + "/owners")
    owners = []
    for i in range(_variants.CASES_PER_CHECK):
        spec = _variants.TensorSpec(r, leaf_only=True, allow_empty=False)
        on = "cuda" if r.random() < 0.3 else "cpu"
        owners.append(Owner(f"drawn self #{i + 1} ({spec.label()})", on=on, spec=spec))
    return owners


def _owned(battery, salt, owners=OWNERS):
    return choose(battery, (),
                  [WithOwner(case, owner) for case in _battery.FULL for owner in owners],
                  [WithOwner(case, owner) for case, owner in zip(resolve_battery("drawn", salt),
                                                                 _drawn_owners(salt))])


def _elsewhere(case, where):
    """``device=`` that moves the result: the GPU for an input on the CPU, the CPU for one on the GPU."""
    return Moved(case, "cpu" if case.devices()[where] != "cpu" else "cuda")


def _floating(cases):
    return [c for c in cases if not any(k in c.label() for k in ("int64", "bool"))]


OWNER = argument(0)   # the case's extra argument: the tensor whose new_tensor is called


def _check(op, cases, torch_op, your_op, fields, misconceptions=MISCONCEPTIONS):
    expect_same(op, cases, torch_op, your_op, fields, misconceptions, topic="new_tensor", device_of="owner")


def check_new_tensor_copy(my_new_tensor, battery="basic"):
    """A copy in new memory (never self, never the data), laid out like detach().clone(), with torch's warning."""
    _check("new_tensor", _owned(battery, "new_tensor/copy"), lambda data, owner: owner.new_tensor(data),
           call(my_new_tensor, OWNER, SOURCE), ("warnings",) + COPY_FIELDS)


def check_new_tensor_dtype(my_new_tensor, battery="basic"):
    """dtype and device come from self, unless given."""
    import torch

    cases = _owned(battery, "new_tensor/dtype")
    _check("new_tensor", cases, lambda data, owner: owner.new_tensor(data),
           call(my_new_tensor, OWNER, SOURCE), ("dtype", "device", "values"))
    # dtype= and device= override self's, each with more than one value
    for name in ("int64", "float32"):
        _check(f"new_tensor(data, dtype=torch.{name})", cases,
               lambda data, owner, name=name: owner.new_tensor(data, dtype=getattr(torch, name)),
               call(my_new_tensor, OWNER, SOURCE, dtype=Reftorch(name)),
               ("dtype", "values"), ARGUMENTS)
    moved = [_elsewhere(c, "owner") for c in cases]
    for case in moved:
        _check(f"new_tensor(data, device={case.device!r})", [case], lambda data, owner: owner.new_tensor(data),
               call(my_new_tensor, OWNER, SOURCE, device=case.device),
               ("device", "dtype", "values"), ARGUMENTS)


def check_new_tensor_graph(my_new_tensor, battery="basic"):
    """A new leaf: requires_grad only from the argument; a new version counter; self and data untouched."""
    cases = _owned(battery, "new_tensor/graph")
    _check("new_tensor", cases, lambda data, owner: owner.new_tensor(data),
           call(my_new_tensor, OWNER, SOURCE), GRAPH_FIELDS)
    floating = [c for c in cases if c.case not in (_battery.INT64, _battery.BOOL)
                and "int64" not in c.case.name and "bool" not in c.case.name]
    _check("new_tensor(data, requires_grad=True)", floating,
           lambda data, owner: owner.new_tensor(data, requires_grad=True, dtype=data.dtype),
           call(my_new_tensor, OWNER, SOURCE, requires_grad=True, dtype=DTYPE_OF_SOURCE),
           ("requires_grad", "is_leaf", "grad_fn"), dict(MISCONCEPTIONS, raised_unexpectedly=_raised_with_dtype))


def check_tensor_from_tensor(my_tensor, battery="basic"):
    """torch.tensor(t): a warned copy with t's dtype and device, off the graph; dtype=, device= and
    requires_grad= are honoured."""
    import torch

    cases = resolve_battery(battery, "tensor/copy")
    expect_same("torch.tensor", cases, lambda t: torch.tensor(t), call(my_tensor, SOURCE),
                ("warnings", "dtype", "device") + COPY_FIELDS + ("values",) + GRAPH_FIELDS, TENSOR,
                topic="tensor")
    for name in ("float64", "int64"):
        expect_same(f"torch.tensor(t, dtype=torch.{name})", cases,
                    lambda t, name=name: torch.tensor(t, dtype=getattr(torch, name)),
                    call(my_tensor, SOURCE, dtype=Reftorch(name)),
                    ("dtype", "values"), TENSOR_ARGUMENTS, topic="tensor")
    for case in [_elsewhere(c, "source") for c in cases]:
        expect_same(f"torch.tensor(t, device={case.device!r})", [case], lambda t: torch.tensor(t),
                    call(my_tensor, SOURCE, device=case.device), ("device", "dtype", "values"),
                    TENSOR_ARGUMENTS, topic="tensor")
    floating = _floating(cases)
    expect_same("torch.tensor(t, requires_grad=True)", floating, lambda t: torch.tensor(t, requires_grad=True),
                call(my_tensor, SOURCE, requires_grad=True), ("requires_grad", "is_leaf", "grad_fn"),
                TENSOR_ARGUMENTS, topic="tensor")
