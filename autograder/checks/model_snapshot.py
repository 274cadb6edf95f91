"""Checks for the learner's model snapshot: ``snapshot(model)`` and ``restore(model, snap)``.

The reference is torch itself running the course's recipe on a twin model:
``{name: t.detach().clone() for name, t in model.state_dict().items()}`` to
save, ``model.load_state_dict(snap)`` to restore. Both models are trained
with SGD between the steps, and the checks compare what can be observed:
does the snapshot still hold the old numbers, does it alias the parameters,
is it plain data (leaves without grad), and does restoring copy the numbers
back into the very same parameter objects (so an optimizer built earlier keeps
working) without tying the snapshot to them.
"""

import warnings

INPUT = [[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]]


def _linear(T):
    return T.nn.Linear(3, 2)


def _two_layers(T):
    class TwoLayers(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.first = T.nn.Linear(3, 4)
            self.second = T.nn.Linear(4, 2)

        def forward(self, x):
            return self.second(self.first(x))

    return TwoLayers()


MODELS = {"nn.Linear(3, 2)": _linear, "a module with two Linear layers": _two_layers}


def _build(T, make):
    model = make(T)
    with T.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(T.arange(p.numel(), dtype=p.dtype).reshape(p.shape) * 0.1 - 0.2 * i)
    return model


def _train(T, model, optimizer, steps=2):
    x = T.tensor(INPUT)
    for _ in range(steps):
        optimizer.zero_grad()
        y = model(x)
        (y * y).sum().backward()
        optimizer.step()


def _numbers(model):
    return {name: p.tolist() for name, p in model.named_parameters()}


def _scenario(T, make, snapshot, restore):
    """Save, train, (restore, train again); return everything observed along the way."""
    model = _build(T, make)
    params = dict(model.named_parameters())
    before = _numbers(model)
    optimizer = T.optim.SGD(model.parameters(), lr=0.1)
    snap = snapshot(model)
    seen = {"keys": sorted(snap)}
    for name, t in snap.items():
        seen[name] = {
            "is the parameter object itself": t is params.get(name),
            "shares memory with the parameter": name in params
            and t.untyped_storage().data_ptr() == params[name].untyped_storage().data_ptr(),
            "requires_grad": t.requires_grad, "is_leaf": t.is_leaf,
            "dtype": str(t.dtype), "size": tuple(t.shape), "stride": tuple(t.stride()),
        }
    _train(T, model, optimizer)
    seen["snapshot equals the weights from before training"] = {k: v.tolist() for k, v in snap.items()} == before
    if restore is not None:
        restore(model, snap)
        seen["after restore the weights are the saved ones"] = _numbers(model) == before
        seen["after restore the parameter objects are the same ones"] = all(
            p is params[name] for name, p in model.named_parameters())
        seen["after restore the parameters are leaves that require grad"] = all(
            p.is_leaf and p.requires_grad for p in model.parameters())
        _train(T, model, optimizer)
        seen["after restore, training (with the old optimizer) changes the weights"] = _numbers(model) != before
        seen["after restore and more training, the snapshot still holds the saved weights"] = (
            {k: v.tolist() for k, v in snap.items()} == before)
    return seen


def _torch_snapshot(model):
    return {name: t.detach().clone() for name, t in model.state_dict().items()}


def _torch_restore(model, snap):
    model.load_state_dict(snap)


def _compare(facts, misconception, battery, snapshot, restore=None):
    import reftorch
    import torch

    models = list(MODELS.items())[:1] if battery == "basic" else list(MODELS.items())
    for label, make in models:
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            theirs = _scenario(torch, make, _torch_snapshot, _torch_restore if restore else None)
            yours = _scenario(reftorch, make, snapshot, restore)
        for key, value in theirs.items():
            if key in facts or (isinstance(value, dict) and "entries" in facts):
                got = yours.get(key)
                if isinstance(value, dict):
                    got = got or {}
                    for fact in facts:
                        if fact in value and value[fact] != got.get(fact):
                            raise AssertionError(
                                f"{misconception(fact)}\n    model: {label}, entry {key!r}\n"
                                f"    {fact}: torch's recipe gives {value[fact]!r}, yours gives {got.get(fact)!r}")
                elif got != value:
                    raise AssertionError(
                        f"{misconception(key)}\n    model: {label}\n"
                        f"    {key}: torch's recipe gives {value!r}, yours gives {got!r}")


_SURVIVES = {
    "keys": "your snapshot does not have one entry per parameter name, as state_dict() has",
    "is the parameter object itself": "your snapshot holds the parameters themselves: a name for the "
        "same object is not a copy, and the optimizer changes it in place",
    "shares memory with the parameter": "your snapshot shares memory with the parameters: state_dict() "
        "(and detach()) give aliases, not copies, so training changes the 'saved' numbers too",
    "snapshot equals the weights from before training": "your snapshot does not survive training: "
        "the optimizer writes into the parameters' storage in place, and your snapshot looks into it",
}
_PLAIN = {
    "requires_grad": "your snapshot's tensors require grad: a snapshot is plain data; cloning the "
        "parameters without detaching keeps them in the graph",
    "is_leaf": "your snapshot's tensors are not leaves: they carry history (a clone of a parameter "
        "has a CloneBackward0 grad_fn); detach before cloning",
    "dtype": "your snapshot changes the dtype", "size": "your snapshot changes the shapes",
    "stride": "your snapshot lays the numbers out differently from torch's recipe",
}
_RESTORE = {
    "after restore the weights are the saved ones": "your restore does not bring the saved numbers back",
    "after restore the parameter objects are the same ones": "your restore replaces the parameter "
        "objects: an optimizer built earlier still holds the old ones; copy the numbers into the "
        "existing parameters in place (under no_grad), as load_state_dict does",
    "after restore the parameters are leaves that require grad": "after your restore the parameters "
        "are no longer leaves that require grad",
    "after restore, training (with the old optimizer) changes the weights": "after your restore the "
        "optimizer no longer trains the model: the model's parameters are not the ones it holds",
    "after restore and more training, the snapshot still holds the saved weights": "your restore ties "
        "the snapshot to the parameters (an alias, e.g. through .data or by assigning the tensors): "
        "training after the restore changes the snapshot; copy the numbers instead",
}


def check_snapshot_survives_training(snapshot, battery="basic"):
    """The saved numbers do not move when the model trains."""
    _compare(tuple(_SURVIVES) + ("entries",), _SURVIVES.get, battery, snapshot)


def check_snapshot_is_plain_data(snapshot, battery="basic"):
    """Leaves without grad, same dtypes, shapes and layout as torch's recipe."""
    _compare(tuple(_PLAIN) + ("entries",), _PLAIN.get, battery, snapshot)


def check_restore(snapshot, restore, battery="basic"):
    """Restoring copies the numbers back into the same parameter objects, and keeps the snapshot apart."""
    _compare(tuple(_RESTORE), _RESTORE.get, battery, snapshot, restore)
