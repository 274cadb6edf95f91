"""The target network stories: make a target, keep it updated through training, train with it.

Played in the judge on torch with the course's recipe and here, in the witness,
on reftorch with the learner's ``make_target``, ``update_target`` and
``my_train`` (``autograder.checks.target_network`` compares the facts). A model
is a :class:`Model` recipe, sent as its fields.
"""

import copy

import reftorch

from . import UnknownStory, call, close
from ..battery import known_model
from ..readers import refusal

TAU = 0.25
LR = 0.01


class Model:
    """A recipe for a model with known weights, built the same in torch and reftorch.

    ``layers``: widths; ``norm``: a BatchNorm1d on the input, first (the inputs' spread is known, so
    its gradients stay well conditioned; a BatchNorm after a Linear makes that Linear's bias gradient
    zero up to rounding, which chaotic training then amplifies)."""

    def __init__(self, name, layers, dtype="float32", on="cpu", bias=True, norm=False, seed=0, rows=2,
                 tau=TAU, lr=LR):
        self.name, self.layers, self.dtype, self.on = name, layers, dtype, on
        self.bias, self.norm, self.seed, self.rows = bias, norm, seed, rows
        self.tau, self.lr = tau, lr

    def but(self, **changes):
        """The same model with other settings (``tau=``, ``lr=``)."""
        settings = dict(layers=self.layers, dtype=self.dtype, on=self.on, bias=self.bias, norm=self.norm,
                        seed=self.seed, rows=self.rows, tau=self.tau, lr=self.lr)
        settings.update(changes)
        return Model(self.name, **settings)

    def fields(self):
        return [self.name, tuple(self.layers), self.dtype, self.on, self.bias, self.norm, self.seed, self.rows,
                self.tau, self.lr]

    @classmethod
    def from_fields(cls, fields):
        name, layers, dtype, on, bias, norm, seed, rows, tau, lr = fields
        if dtype not in ("float32", "float64") or on not in ("cpu", "cuda"):
            raise UnknownStory("no model is %r on %r" % (dtype, on))
        return cls(str(name), tuple(layers), dtype, on, bool(bias), bool(norm), int(seed), int(rows),
                   float(tau), float(lr))

    def label(self):
        return f"model: {self.name}, tau={self.tau}, lr={self.lr}"

    def device(self, T):
        return "cuda" if self.on == "cuda" and T is reftorch else None

    def build(self, T):
        modules = [T.nn.BatchNorm1d(self.layers[0])] if self.norm else []
        modules += [T.nn.Linear(a, b, bias=self.bias) for a, b in zip(self.layers, self.layers[1:])]
        return known_model(T, modules, self.dtype, self.device(T), self.seed)

    def batches(self, T, steps=3):
        out = []
        for s in range(steps):
            # every column varies across the rows: BatchNorm divides by each feature's spread
            rows = [[(-1) ** (r + c) * ((r + 1) * (c + 2) + s) * 0.125 - self.seed * 0.0625
                     for c in range(self.layers[0])] for r in range(self.rows)]
            out.append(T.tensor(rows, dtype=getattr(T, self.dtype), device=self.device(T)))
        return out


class SGD:
    """Plain SGD on the parameter objects it is given: ``p -= lr * p.grad``, in place, under no_grad."""

    def __init__(self, T, params, lr):
        self.T, self.param_groups = T, [{"params": list(params), "lr": lr}]

    def zero_grad(self):
        for p in self.param_groups[0]["params"]:
            p.grad = None

    def step(self):
        with self.T.no_grad():
            for p in self.param_groups[0]["params"]:
                if p.grad is not None:
                    p.sub_(p.grad * self.param_groups[0]["lr"])


def step(T, model, optimizer, x):
    optimizer.zero_grad()
    model(x).pow(2).sum().backward()
    optimizer.step()


def make_target(model):
    """torch's recipe for a target: a deep copy, frozen."""
    target = copy.deepcopy(model)
    for p in target.parameters():
        p.requires_grad_(False)
    return target


def _tensor_facts(T, R, recipe, t, online, prefix):
    lie = refusal(R, t, parameters=True)
    if lie is not None:
        return {prefix + "type": lie}
    node = R.grad_fn(t)
    return {
        prefix + "type": R.kind(t),
        prefix + "is the online model's tensor": t is online,
        prefix + "shares memory with the online model's": online is not None and R.memory(t) == R.memory(online),
        prefix + "dtype": R.dtype(t),
        prefix + "device": str(R.device(t)) if T is reftorch else ("cuda:0" if recipe.on == "cuda" else "cpu"),
        prefix + "values": R.values(t),
        prefix + "is_leaf": R.is_leaf(t),
        prefix + "grad_fn": None if node is None else R.node_name(node),
        prefix + "requires_grad": R.requires_grad(t),
    }


def _target_facts(T, R, recipe, target, model, online_objects, memory=None, objects=None, initial=None):
    """Is it a copy at all; then the online model (what the optimizer trains); then the target."""
    facts = {"the target is the online model itself": target is model,
             "the target is a module of the model's class": type(target).__name__ == type(model).__name__
             and isinstance(target, T.nn.Module)}
    if facts["the target is a module of the model's class"]:
        mine = [id(p) for p in model.parameters()]
        facts["the target holds the online model's parameter objects"] = any(
            id(p) in mine for p in target.parameters())
    facts.update(_online_facts(T, R, model, online_objects, initial))
    if not facts["the target is a module of the model's class"]:
        return facts
    online = dict(model.named_parameters())
    theirs = dict(target.named_parameters())
    facts["the target's parameter names"] = sorted(theirs)
    for name, p in theirs.items():
        facts.update(_tensor_facts(T, R, recipe, p, online.get(name), f"target parameter {name!r}: "))
        if memory is not None:
            facts[f"target parameter {name!r}: is the object it was before"] = p is objects.get(name)
            facts[f"target parameter {name!r}: keeps its memory"] = R.memory(p) == memory.get(name)
    buffers = dict(model.named_buffers())
    for name, b in target.named_buffers():
        facts.update({k: v for k, v in _tensor_facts(T, R, recipe, b, buffers.get(name),
                                                     f"target buffer {name!r}: ").items()
                      if not k.endswith(("requires_grad", "is_leaf", "grad_fn"))})
        if memory is not None:
            facts[f"target buffer {name!r}: is the object it was before"] = b is objects.get(("buffer", name))
            facts[f"target buffer {name!r}: keeps its memory"] = R.memory(b) == memory.get(("buffer", name))
    facts["the target's buffer names"] = sorted(n for n, _ in target.named_buffers())
    return facts


def _online_facts(T, R, model, objects, initial=None):
    facts = {}
    for name, p in model.named_parameters():
        facts[f"online parameter {name!r}: is the object it was before"] = p is objects.get(name)
        if initial is not None:
            # backward() leaves a gradient; zero_grad after it (before the step) leaves none
            facts[f"online parameter {name!r}: has a .grad after training"] = R.grad(p) is not None
            # up to rounding: the bias of a Linear before BatchNorm gets a zero gradient (or nearly: reftorch)
            facts[f"online parameter {name!r}: changed by training"] = not close(R.values(p), initial.get(name))
        facts[f"online parameter {name!r}: values"] = R.values(p)
        facts[f"online parameter {name!r}: requires_grad"] = R.requires_grad(p)
        facts[f"online parameter {name!r}: is_leaf"] = R.is_leaf(p)
    return facts


def _remembered(T, R, target):
    """Where each target parameter and buffer lives, and which object it is, before the updates."""
    try:
        named = dict(target.named_parameters())
        named.update({("buffer", n): b for n, b in target.named_buffers()})
        return {n: R.memory(p) for n, p in named.items()}, named
    except Exception:  # not a module: the facts say so
        return {}, {}


def _versions(T, R, target):
    """``{"target parameter 'w'" or "target buffer 'b'": version}`` (empty for a target that is no module)."""
    try:
        tensors = [(f"target parameter {n!r}", p) for n, p in target.named_parameters()]
        tensors += [(f"target buffer {n!r}", b) for n, b in target.named_buffers()]
        return {name: R.version(t) for name, t in tensors}
    except Exception:  # not a module: the facts say so
        return {}


# --- the scenarios -------------------------------------------------------------------------------

def make_story(T, R, functions, arguments):
    """``make_target(model)`` after a first step: the target, then another step of the online model."""
    recipe = Model.from_fields(arguments)
    model = recipe.build(T)
    optimizer = SGD(T, model.parameters(), recipe.lr)
    batches = recipe.batches(T)
    step(T, model, optimizer, batches[0])   # running statistics and .grad that are not the defaults
    objects = dict(model.named_parameters())
    target = call("make_target", functions["function"], model)
    facts = _target_facts(T, R, recipe, target, model, objects)
    if facts.get("the target is a module of the model's class") and target is not model:
        before = {n: R.values(p) for n, p in target.named_parameters()}
        try:
            step(T, model, optimizer, batches[1])
            after = {n: R.values(p) for n, p in target.named_parameters()}
            facts["training the online model leaves the target alone"] = before == after
        except RuntimeError as error:  # the online model cannot be trained any more: an earlier fact says why
            facts["training the online model leaves the target alone"] = f"training raised {error}"
    return facts


def update_story(T, R, functions, arguments):
    """Three steps, each followed by ``update_target(target, model, tau)`` on a target made by torch's recipe."""
    recipe = Model.from_fields(arguments)
    model = recipe.build(T)
    target = make_target(model)
    optimizer = SGD(T, model.parameters(), recipe.lr)
    memory, objects = _remembered(T, R, target)
    versions = _versions(T, R, target)
    online = dict(model.named_parameters())
    batches = recipe.batches(T)
    for x in batches:
        step(T, model, optimizer, x)
        call("update_target", functions["function"], target, model, recipe.tau)
    facts = _target_facts(T, R, recipe, target, model, online, memory, objects)
    if facts.get("the target is a module of the model's class"):
        # an in-place write is one autograd can see: each update moves every target tensor's version
        # (at least once: lerp_ once, an honest mul_ then add_ twice)
        for name, version in _versions(T, R, target).items():
            facts[f"{name}: version moved by every update"] = version - versions.get(name, 0) >= len(batches)
    return facts


def train_story(T, R, functions, arguments):
    """``my_train(model, batches, lr, tau)``: the target it returns, and the online model."""
    recipe = Model.from_fields(arguments)
    model = recipe.build(T)
    online = dict(model.named_parameters())
    initial = {name: R.values(p) for name, p in online.items()}
    target = call("my_train", functions["function"], model, recipe.batches(T), recipe.lr, recipe.tau)
    return _target_facts(T, R, recipe, target, model, online, initial=initial)


STORIES = {"make": make_story, "update": update_story, "train": train_story}
