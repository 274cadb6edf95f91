"""Checks for the learner's model snapshot: ``snapshot(model)`` and ``restore(model, snap)``.

The reference is torch itself running the course's recipe on a twin model:
``{name: t.detach().clone() for name, t in model.state_dict().items()}`` to
save, ``model.load_state_dict(snap)`` to restore. Both models are trained
between the steps by plain SGD (``SGD`` of ``autograder.witness.stories.model_snapshot``,
where the story lives: ``p -= lr * p.grad`` in place, on the
parameter objects it was given, which is what ``torch.optim.SGD`` does with
these settings; torch's own optimizer imports torch._dynamo on its first step,
two seconds in every fresh grading kernel), and the checks compare what can be
observed:

* the snapshot: one plain tensor per state_dict entry (exactly a Tensor, a
  leaf without grad and without ``.grad``), same dtype, device, shape and
  layout, not the parameter object, not sharing its memory, still holding the
  old numbers after training;
* the restore: the saved numbers back in the *same* parameter objects, in the
  *same* memory (so an optimizer built earlier keeps working), written in place
  where autograd can see it (each parameter's version goes up by one), the
  parameters' ``.grad`` left alone, and the snapshot not tied to the
  parameters afterwards.

The models: ``nn.Linear(3, 2)``, a float64 model with two layers, a model on
the (simulated) GPU, and in the hidden tests models drawn for each student
(layers, widths, bias, dtype, device, learning rate, weights).
"""

from ..witness import variants as _variants
from ..witness.stories.model_snapshot import Model
from ._facts import play_both
from ..judge.language import N_, _
from ._observe import M, choose, failure, is_stub, not_written, where, yours_raised

VISIBLE = (
    Model("nn.Linear(3, 2)", (3, 2)),
    Model("a float64 model with two Linear layers", (3, 4, 2), dtype="float64"),
)
HIDDEN = VISIBLE + (
    Model("nn.Linear(3, 2) on the GPU (cuda:0)", (3, 2), on="cuda"),
    Model("three Linear layers without bias", (3, 4, 3, 2), bias=False),
)


def _drawn_models(salt):
    r = _variants.generator(salt)
    models = []
    for i in range(3):
        layers = tuple(r.randint(1, 4) for _ in range(r.randint(2, 4)))
        dtype, on, bias = r.choice(("float32", "float64")), r.choice(("cpu", "cpu", "cuda")), r.random() < 0.7
        lr = r.choice((0.05, 0.1, 0.25))
        inputs = [[r.randint(-8, 8) / 4 for _ in range(layers[0])] for _ in range(r.randint(1, 3))]
        name = (f"drawn model #{i + 1}: Linear layers {' -> '.join(map(str, layers))}, {dtype}, "
                f"{'with' if bias else 'without'} bias, on {on}, SGD lr={lr}")
        models.append(Model(name, layers, dtype, on, bias, lr, inputs, seed=r.randint(0, 8)))
    return tuple(models)


def _torch_snapshot(model):
    return {name: t.detach().clone() for name, t in model.state_dict().items()}


def _torch_restore(model, snap):
    model.load_state_dict(snap)


def _raised(raised, recipe):
    op = "snapshot" if raised.step == "snapshot" else "restore"
    if is_stub(raised.error):
        return failure(not_written(op, op), [_(N_("model: {0}")).format(recipe.name)])
    return failure(M(f"{op}/raises", f"your {op} raised an error where torch's recipe does not"),
                   [_(N_("model: {0}")).format(recipe.name),
                    yours_raised(type(raised.error).__name__, f"{raised.error}{where(raised.error)}")])


def _compare(facts, messages, battery, snapshot, restore=None, salt=""):
    models = choose(battery, VISIBLE, HIDDEN, _drawn_models("snapshot/" + salt))
    for recipe in models:
        torch_side, yours = {"snapshot": _torch_snapshot}, {"snapshot": snapshot}
        if restore is not None:
            torch_side["restore"], yours["restore"] = _torch_restore, restore
        theirs, yours = play_both("model_snapshot.snapshot", recipe.fields(), torch_side, yours,
                                  "snapshot", _(N_("model: {0}")).format(recipe.name), failing=lambda r: _raised(r, recipe))
        for key, value in theirs.items():
            got = yours.get(key)
            if isinstance(value, dict):
                if "entries" not in facts or (key not in yours and isinstance(yours.get("keys"), list)):
                    continue   # a missing entry is the keys' fact (survives), not a fact of the entry
                got = got if isinstance(got, dict) else {}
                for fact in facts:
                    if fact in value and value[fact] != got.get(fact):
                        raise failure(messages[fact], [
                            _(N_("model: {0}, entry {1}")).format(recipe.name, repr(key)),
                            _(N_("{0}: torch's recipe gives {1}, yours gives {2}")).format(
                                fact, repr(value[fact]), repr(got.get(fact)))])
            elif key in facts and got != value:
                raise failure(messages[key], [_(N_("model: {0}")).format(recipe.name),
                                              _(N_("{0}: torch's recipe gives {1}, yours gives {2}")).format(
                                                  key, repr(value), repr(got))])


_SURVIVES = {
    "the snapshot is a dict": M("snapshot/not-a-dict", "your snapshot is not a dict of tensors"),
    "keys": M("snapshot/wrong-keys", "your snapshot does not have one entry per state_dict() name"),
    "type": M("snapshot/not-a-tensor", "your snapshot holds something other than plain tensors: each "
              "entry must be exactly a Tensor (not a Parameter, a subclass or another object)"),
    "is the parameter object itself": M("snapshot/keeps-parameters", "your snapshot holds the parameters "
                                        "themselves: a name for the same object is not a copy, and the "
                                        "optimizer changes it in place"),
    "shares memory with the parameter": M("snapshot/aliases-parameters", "your snapshot shares memory with "
                                          "the parameters: state_dict() (and detach()) give aliases, not "
                                          "copies, so training changes the 'saved' numbers too"),
    "snapshot equals the weights from before training": M(
        "snapshot/changes-with-training", "your snapshot does not survive training: the optimizer writes "
        "into the parameters' storage in place, and your snapshot looks into it"),
}
_PLAIN = {
    "type": _SURVIVES["type"],
    "requires_grad": M("snapshot/keeps-history", "your snapshot's tensors require grad: a snapshot is plain "
                       "data; cloning the parameters without detaching keeps them in the graph"),
    "is_leaf": M("snapshot/keeps-history", "your snapshot's tensors are not leaves: they carry history (a "
                 "clone of a parameter has a CloneBackward0 grad_fn); detach before cloning"),
    "grad": M("snapshot/copies-grad", "your snapshot's tensors carry a .grad: a snapshot holds the weights, "
              "not their gradients (deep-copying the parameters copies .grad too)"),
    "dtype": M("snapshot/changes-dtype", "your snapshot changes the dtype: a float64 model's weights must "
               "be saved as float64 (building new tensors from Python numbers gives the default float32)"),
    "device": M("snapshot/changes-device", "your snapshot moves the weights to another device: the copy "
                "stays where the parameter lives"),
    "size": M("snapshot/changes-shape", "your snapshot changes the shapes"),
    "stride": M("snapshot/changes-layout", "your snapshot lays the numbers out differently from torch's "
                "recipe"),
}
_RESTORE = {
    "a snapshot listed in another order restores each weight by its name": M(
        "restore/by-position", "your restore pairs the saved tensors with the parameters by position: a "
        "snapshot is a dict, and each entry goes back into the parameter of the same name (load_state_dict "
        "matches names), whatever order the entries are listed in"),
    "after restore the weights are the saved ones": M("restore/wrong-values", "your restore does not bring "
                                                      "the saved numbers back"),
    "after restore the parameter objects are the same ones": M(
        "restore/replaces-parameters", "your restore replaces the parameter objects: an optimizer built "
        "earlier still holds the old ones; copy the numbers into the existing parameters in place (under "
        "no_grad), as load_state_dict does"),
    "after restore the parameters keep their memory": M(
        "restore/moves-parameters", "your restore gives the parameters new memory (for example by assigning "
        "p.data = ...): the parameter objects stay, but anything that held their storage (an optimizer's "
        "state, a view, another module sharing the weight) is cut off; copy the numbers into the memory "
        "they have"),
    "restore bumps each parameter's version by one": M(
        "restore/writes-through-alias", "your restore does not write into each parameter once where "
        "autograd can see it: load_state_dict's copy_ under no_grad bumps every parameter's version by one; "
        "writing through p.data (an alias with a counter of its own) leaves the version unchanged, so "
        "autograd cannot notice the overwrite"),
    "after restore the parameters are leaves that require grad": M(
        "restore/breaks-parameters", "after your restore the parameters are no longer leaves that require "
        "grad"),
    "restore leaves the parameters' .grad alone": M(
        "restore/touches-grad", "your restore changes the parameters' .grad: load_state_dict restores the "
        "weights only; gradients are the optimizer's business (zero_grad)"),
    "after restore, training (with the old optimizer) changes the weights": M(
        "restore/detaches-optimizer", "after your restore the optimizer no longer trains the model: the "
        "model's parameters are not the ones it holds"),
    "after restore and more training, the snapshot still holds the saved weights": M(
        "restore/ties-snapshot", "your restore ties the snapshot to the parameters (an alias, e.g. through "
        ".data or by assigning the tensors): training after the restore changes the snapshot; copy the "
        "numbers instead"),
}


def check_snapshot_survives_training(snapshot, battery="basic"):
    """The saved numbers do not move when the model trains."""
    _compare(tuple(_SURVIVES) + ("entries",), _SURVIVES, battery, snapshot, salt="survives")


def check_snapshot_is_plain_data(snapshot, battery="basic"):
    """Plain tensors: leaves without grad or .grad, same dtypes, devices, shapes and layout as torch's recipe."""
    _compare(tuple(_PLAIN) + ("entries",), _PLAIN, battery, snapshot, salt="plain")


def check_restore(snapshot, restore, battery="basic"):
    """Restoring copies the numbers back into the same parameters' memory, visibly to autograd,
    and keeps the snapshot apart."""
    _compare(tuple(_RESTORE), _RESTORE, battery, snapshot, restore, salt="restore")
