"""The model snapshot story: save a model's weights, train, restore, train again.

Played in the judge on torch with the course's recipe and here, in the witness,
on reftorch with the learner's ``snapshot`` and ``restore``
(``autograder.checks.model_snapshot`` compares the facts). A model is a
:class:`Model` recipe, sent as its fields.
"""

from . import LearnerRaised, UnknownStory, call
from ..battery import known_model
from ..readers import refusal


class Model:
    """A recipe for a model with known weights, built the same in torch and reftorch."""

    def __init__(self, name, layers, dtype="float32", on="cpu", bias=True, lr=0.1, inputs=None, seed=0):
        self.name, self.layers, self.dtype, self.on = name, layers, dtype, on
        self.bias, self.lr = bias, lr
        self.inputs = inputs or [[1.0, 2.0, 3.0][:layers[0]] + [0.5] * max(0, layers[0] - 3),
                                 [0.5, -1.0, 2.0][:layers[0]] + [-0.25] * max(0, layers[0] - 3)]
        self.seed = seed

    def fields(self):
        return [self.name, tuple(self.layers), self.dtype, self.on, self.bias, self.lr,
                [list(row) for row in self.inputs], self.seed]

    @classmethod
    def from_fields(cls, fields):
        name, layers, dtype, on, bias, lr, inputs, seed = fields
        if dtype not in ("float32", "float64") or on not in ("cpu", "cuda"):
            raise UnknownStory("no model is %r on %r" % (dtype, on))
        return cls(str(name), tuple(layers), dtype, on, bool(bias), float(lr), inputs, int(seed))

    def device(self, T):
        return "cuda" if self.on == "cuda" and T.__name__ == "reftorch" else None

    def build(self, T):
        linears = [T.nn.Linear(a, b, bias=self.bias) for a, b in zip(self.layers, self.layers[1:])]
        return known_model(T, linears, self.dtype, self.device(T), self.seed)

    def input(self, T):
        return T.tensor(self.inputs, dtype=getattr(T, self.dtype), device=self.device(T))

    def simulated_device(self):
        return "cuda:0" if self.on == "cuda" else "cpu"


class SGD:
    """Plain SGD on the parameter objects it is given: ``p -= lr * p.grad``, in place, under no_grad."""

    def __init__(self, T, params, lr):
        self.T, self.params, self.lr = T, list(params), lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        with self.T.no_grad():
            for p in self.params:
                if p.grad is not None:
                    p.sub_(p.grad * self.lr)


def _train(T, model, optimizer, x, steps=2):
    for _ in range(steps):
        optimizer.zero_grad()
        y = model(x)
        (y * y).sum().backward()
        optimizer.step()


def _name(key):
    """A snapshot's key as plain text (a key that is no string names no entry of state_dict())."""
    return str.__str__(key) if isinstance(key, str) else None


def snapshot_story(T, R, functions, arguments):
    """Save, train, (restore, train again); everything observed along the way."""
    recipe = Model.from_fields(arguments)
    snapshot, restore = functions["snapshot"], functions.get("restore")
    model = recipe.build(T)
    x = recipe.input(T)
    params = dict(model.named_parameters())
    numbers = lambda: {name: R.values(p) for name, p in model.named_parameters()}  # noqa: E731
    before = numbers()
    optimizer = SGD(T, model.parameters(), recipe.lr)
    snap = call("snapshot", snapshot, model)
    is_dict = isinstance(snap, dict)
    seen = {"the snapshot is a dict": True if is_dict else f"a {type(snap).__name__}",
            "keys": sorted(str(k) for k in snap) if is_dict else None}
    saved = {}
    for key, t in (snap.items() if is_dict else ()):
        name = _name(key)
        if name is None:
            continue
        lie = refusal(R, t, parameters=True)
        if lie is not None:
            seen[name] = {"type": lie}
            continue
        saved[name] = t
        param = params.get(name)
        seen[name] = {
            "type": R.kind(t),
            "is the parameter object itself": t is param,
            "shares memory with the parameter": param is not None and R.memory(t) == R.memory(param),
            "requires_grad": R.requires_grad(t), "is_leaf": R.is_leaf(t), "grad": R.grad(t) is not None,
            "dtype": R.dtype(t), "device": R.device(t) if T.__name__ == "reftorch" else recipe.simulated_device(),
            "size": R.size(t), "stride": R.stride(t),
        }
    _train(T, model, optimizer, x)
    seen["snapshot equals the weights from before training"] = (
        {k: R.values(v) for k, v in saved.items()} == before)
    if restore is not None:
        memory = {name: R.memory(p) for name, p in params.items()}
        versions = {name: R.version(p) for name, p in params.items()}
        grads = {name: R.values(R.grad(p)) for name, p in params.items()}
        call("restore", restore, model, snap)
        seen["after restore the weights are the saved ones"] = numbers() == before
        seen["after restore the parameter objects are the same ones"] = all(
            p is params.get(name) for name, p in model.named_parameters())
        seen["after restore the parameters keep their memory"] = all(
            R.memory(p) == memory.get(name) for name, p in model.named_parameters())
        seen["restore bumps each parameter's version by one"] = all(
            R.version(p) - versions.get(name, 0) == 1 for name, p in model.named_parameters())
        seen["after restore the parameters are leaves that require grad"] = all(
            R.is_leaf(p) and R.requires_grad(p) for p in model.parameters())
        seen["restore leaves the parameters' .grad alone"] = all(
            R.grad(p) is not None and R.values(R.grad(p)) == grads.get(name)
            for name, p in model.named_parameters())
        try:
            _train(T, model, optimizer, x)
            trained = numbers() != before
        except Exception as error:  # the restore broke the model: training after it fails
            trained = f"training raised {type(error).__name__}: {error}"
        seen["after restore, training (with the old optimizer) changes the weights"] = trained
        seen["after restore and more training, the snapshot still holds the saved weights"] = (
            {k: R.values(v) for k, v in saved.items()} == before)
        if is_dict:
            # the same snapshot, its entries listed in another order: restore goes by name
            try:
                call("restore", restore, model, dict(reversed(list(snap.items()))))
                by_name = numbers() == before
            except LearnerRaised as raised:
                by_name = f"restore raised {type(raised.error).__name__}"
            seen["a snapshot listed in another order restores each weight by its name"] = by_name
    return seen


STORIES = {"snapshot": snapshot_story}
