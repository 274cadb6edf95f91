"""Checks for the learner's target network: a copy of a model kept correct through training.

The learner writes, on reftorch's ``copy.deepcopy``, ``no_grad``, ``lerp_``,
``copy_`` and ``reftorch.optim.SGD``:

* ``make_target(model)``: a frozen copy, made once: ``copy.deepcopy(model)``
  (parameters *and* buffers such as BatchNorm's running statistics, in new
  memory), every parameter of the copy with ``requires_grad=False``;
* ``update_target(target, model, tau)``: in place and under ``no_grad``, each
  target parameter moves ``tau`` of the way to the online one (``lerp_``), each
  buffer is copied (``copy_``); the target's parameters keep their objects and
  their memory;
* ``my_train(model, batches, lr, tau)``: the target made once, an SGD optimizer
  bound to the *online* parameters, and for each batch: zero the gradients,
  ``model(x).pow(2).sum().backward()``, a step, then the update. It returns the
  target.

torch's side runs the same recipe on a twin model. The models are trained by
plain SGD (``_SGD``: ``p -= lr * p.grad`` in place; torch's own optimizer
imports torch._dynamo on its first step, two seconds in every fresh grading
kernel); the learner's ``my_train`` may use ``reftorch.optim.SGD``, which
computes the same numbers, so numbers are compared up to float rounding.

The models: ``nn.Linear(3, 2)``, a float64 ``Linear -> BatchNorm1d -> Linear``
(buffers), in the hidden tests one on the (simulated) GPU, one without bias,
and models drawn for each student.
"""

import copy
import warnings

import reftorch
import torch

from ..witness import variants as _variants
from ..witness.battery import known_model
from ._facts import LearnerRaised, call, close
from ._observe import M, choose, failure, is_stub, not_written, where
from ._readers import NotATensor, reader

TOPIC = "target_network"
TAU = 0.25
LR = 0.01
# Each model is trained with its own tau and learning rate: an answer that hard-codes one fails.
TAUS = (0.25, 0.5, 0.1, 0.75)
LRS = (0.01, 0.05, 0.02, 0.03)


def _tag(name, text):
    return M(f"{TOPIC}/{name}", text)


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


VISIBLE = (
    Model("nn.Linear(3, 2)", (3, 2), tau=TAUS[0], lr=LRS[0]),
    Model("a float64 Sequential(BatchNorm1d(3), Linear(3, 4), Linear(4, 2))", (3, 4, 2), "float64", norm=True,
          tau=TAUS[1], lr=LRS[1]),
)
HIDDEN = VISIBLE + (
    Model("nn.Linear(3, 2) on the GPU (cuda:0)", (3, 2), on="cuda", tau=TAUS[2], lr=LRS[2]),
    Model("float64 BatchNorm1d(2), Linear(2, 3), Linear(3, 3) and Linear(3, 1), without bias", (2, 3, 3, 1),
          "float64", bias=False,
          norm=True, rows=3, tau=TAUS[3], lr=LRS[3]),
)


def _drawn_models(salt):
    r = _variants.generator(salt)
    out = []
    for i in range(2):
        layers = tuple(r.randint(1, 4) for _ in range(r.randint(2, 4)))
        dtype, on, bias, norm = (r.choice(("float32", "float64")), r.choice(("cpu", "cpu", "cuda")),
                                 r.random() < 0.7, r.random() < 0.5)
        dtype = "float64" if norm else dtype   # float32 BatchNorm over 2-3 rows rounds differently in reftorch
        name = (f"drawn model #{i + 1}: Linear layers {' -> '.join(map(str, layers))}"
                f"{', BatchNorm1d on the input' if norm else ''}, {dtype}, "
                f"{'with' if bias else 'without'} bias, on {on}")
        out.append(Model(name, layers, dtype, on, bias, norm, seed=r.randint(0, 8), rows=r.randint(2, 3),
                         tau=r.choice(TAUS), lr=r.choice(LRS)))
    return tuple(out)


def _models(battery, salt):
    return choose(battery, VISIBLE, HIDDEN, _drawn_models(f"{TOPIC}/{salt}"))


# --- torch's recipe (and the plain SGD both sides train with) -------------------------------

class _SGD:
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


def _step(T, model, optimizer, x):
    optimizer.zero_grad()
    model(x).pow(2).sum().backward()
    optimizer.step()


def torch_make_target(model):
    target = copy.deepcopy(model)
    for p in target.parameters():
        p.requires_grad_(False)
    return target


def torch_update_target(target, model, tau):
    T = torch if isinstance(model, torch.nn.Module) else reftorch
    with T.no_grad():
        for t, p in zip(target.parameters(), model.parameters()):
            t.lerp_(p, tau)
        for t, b in zip(target.buffers(), model.buffers()):
            t.copy_(b)


def torch_train(model, batches, lr, tau):
    T = torch if isinstance(model, torch.nn.Module) else reftorch
    target = torch_make_target(model)
    optimizer = _SGD(T, model.parameters(), lr)
    for x in batches:
        _step(T, model, optimizer, x)
        torch_update_target(target, model, tau)
    return target


# --- what is observed -------------------------------------------------------------------------

def _tensor_facts(T, recipe, t, online, prefix):
    R = reader(T)
    try:
        R.require(t, parameters=True)
    except NotATensor as lie:
        return {prefix + "type": str(lie)}
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


def _target_facts(T, recipe, target, model, online_objects, memory=None, objects=None, initial=None):
    """Is it a copy at all; then the online model (what the optimizer trains); then the target."""
    facts = {"the target is the online model itself": target is model,
             "the target is a module of the model's class": type(target).__name__ == type(model).__name__
             and isinstance(target, T.nn.Module)}
    if facts["the target is a module of the model's class"]:
        mine = [id(p) for p in model.parameters()]
        facts["the target holds the online model's parameter objects"] = any(
            id(p) in mine for p in target.parameters())
    facts.update(_online_facts(T, model, online_objects, initial))
    if not facts["the target is a module of the model's class"]:
        return facts
    online = dict(model.named_parameters())
    theirs = dict(target.named_parameters())
    facts["the target's parameter names"] = sorted(theirs)
    for name, p in theirs.items():
        facts.update(_tensor_facts(T, recipe, p, online.get(name), f"target parameter {name!r}: "))
        if memory is not None:
            facts[f"target parameter {name!r}: is the object it was before"] = p is objects.get(name)
            facts[f"target parameter {name!r}: keeps its memory"] = reader(T).memory(p) == memory.get(name)
    buffers = dict(model.named_buffers())
    for name, b in target.named_buffers():
        facts.update({k: v for k, v in _tensor_facts(T, recipe, b, buffers.get(name),
                                                     f"target buffer {name!r}: ").items()
                      if not k.endswith(("requires_grad", "is_leaf", "grad_fn"))})
        if memory is not None:
            facts[f"target buffer {name!r}: is the object it was before"] = b is objects.get(("buffer", name))
            facts[f"target buffer {name!r}: keeps its memory"] = reader(T).memory(b) == memory.get(("buffer", name))
    facts["the target's buffer names"] = sorted(n for n, _ in target.named_buffers())
    return facts


def _online_facts(T, model, objects, initial=None):
    R = reader(T)
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


def _remembered(T, target):
    """Where each target parameter and buffer lives, and which object it is, before the updates."""
    R = reader(T)
    try:
        named = dict(target.named_parameters())
        named.update({("buffer", n): b for n, b in target.named_buffers()})
        return {n: R.memory(p) for n, p in named.items()}, named
    except Exception:  # not a module: the facts say so
        return {}, {}


def _versions(T, target):
    """``{"target parameter 'w'" or "target buffer 'b'": version}`` (empty for a target that is no module)."""
    R = reader(T)
    try:
        tensors = [(f"target parameter {n!r}", p) for n, p in target.named_parameters()]
        tensors += [(f"target buffer {n!r}", b) for n, b in target.named_buffers()]
        return {name: R.version(t) for name, t in tensors}
    except Exception:  # not a module: the facts say so
        return {}


# --- the scenarios -------------------------------------------------------------------------------

def _make_scenario(T, recipe, make_target):
    model = recipe.build(T)
    optimizer = _SGD(T, model.parameters(), recipe.lr)
    batches = recipe.batches(T)
    _step(T, model, optimizer, batches[0])   # running statistics and .grad that are not the defaults
    objects = dict(model.named_parameters())
    target = call("make_target", make_target, model)
    facts = _target_facts(T, recipe, target, model, objects)
    if facts.get("the target is a module of the model's class") and target is not model:
        before = {n: reader(T).values(p) for n, p in target.named_parameters()}
        try:
            _step(T, model, optimizer, batches[1])
            after = {n: reader(T).values(p) for n, p in target.named_parameters()}
            facts["training the online model leaves the target alone"] = before == after
        except RuntimeError as error:  # the online model cannot be trained any more: an earlier fact says why
            facts["training the online model leaves the target alone"] = f"training raised {error}"
    return facts


def _update_scenario(T, recipe, update_target):
    model = recipe.build(T)
    target = torch_make_target(model)
    optimizer = _SGD(T, model.parameters(), recipe.lr)
    memory, objects = _remembered(T, target)
    versions = _versions(T, target)
    online = dict(model.named_parameters())
    batches = recipe.batches(T)
    for x in batches:
        _step(T, model, optimizer, x)
        call("update_target", update_target, target, model, recipe.tau)
    facts = _target_facts(T, recipe, target, model, online, memory, objects)
    if facts.get("the target is a module of the model's class"):
        # an in-place write is one autograd can see: each update moves every target tensor's version
        # (at least once: lerp_ once, an honest mul_ then add_ twice)
        for name, version in _versions(T, target).items():
            facts[f"{name}: version moved by every update"] = version - versions.get(name, 0) >= len(batches)
    return facts


def _train_scenario(T, recipe, train):
    model = recipe.build(T)
    online = dict(model.named_parameters())
    initial = {name: reader(T).values(p) for name, p in online.items()}
    target = call("my_train", train, model, recipe.batches(T), recipe.lr, recipe.tau)
    return _target_facts(T, recipe, target, model, online, initial=initial)


# --- what the usual wrong training loops give (torch's side, for the messages) --------------------

def _loop(zero_grad="before", update="after"):
    """torch's recipe with one habit changed: ``zero_grad`` "before" (right), "never" or "after" the
    backward; ``update`` "after" the step (right), "before" it, or "once" after the whole loop."""
    def train(model, batches, lr, tau):
        target = torch_make_target(model)
        optimizer = _SGD(torch, model.parameters(), lr)
        for x in batches:
            if zero_grad == "before":
                optimizer.zero_grad()
            model(x).pow(2).sum().backward()
            if zero_grad == "after":
                optimizer.zero_grad()
            if update == "before":
                torch_update_target(target, model, tau)
            optimizer.step()
            if update == "after":
                torch_update_target(target, model, tau)
        if update == "once":
            torch_update_target(target, model, tau)
        return target
    return train


LOOPS = (
    ("no-zero-grad", _loop(zero_grad="never"), "your loop never zeroes the gradients: backward() adds into "
     ".grad, so each step follows the sum of all the gradients so far (call optimizer.zero_grad() before "
     "each backward)"),
    ("zero-grad-after-backward", _loop(zero_grad="after"), "your loop zeroes the gradients between backward() "
     "and step(): the step then finds no gradient and the online model never trains (zero_grad belongs "
     "before the backward)"),
    ("update-before-step", _loop(update="before"), "your loop updates the target before the optimizer step: "
     "the target then follows the online weights one step late (update after each step)"),
    ("updates-once", _loop(update="once"), "your loop updates the target once, after training: a target "
     "network follows the online one by a soft update after every optimizer step"),
)


def _same(theirs, mine):
    return all((close(v, mine.get(f)) if f.endswith("values") else v == mine.get(f)) for f, v in theirs.items())


def _explain(recipe, scenario, torch_side, mine, kind):
    """A misconception that gives exactly the learner's facts: a hard-coded tau or learning rate, or a
    training loop with one habit wrong (None when none does)."""
    if kind not in ("update", "train"):
        return None
    settings = [("tau", v) for v in TAUS] + ([("lr", v) for v in LRS] if kind == "train" else [])
    for name, value in settings:
        if value in (getattr(recipe, name), 1 - recipe.tau if name == "tau" else None):
            continue   # (1 - tau: the weights of the EMA swapped, the formula's mistake)
        if _same(scenario(torch, recipe.but(**{name: value}), torch_side), mine):
            return _tag(f"ignores-{name}", f"your {'update_target' if kind == 'update' else 'my_train'} gives the "
                        f"numbers of {name}={value}, not of the {name}={getattr(recipe, name)} it was called with: "
                        f"use the argument {name}, never a number of your own")
    if kind == "train":
        for name, train, text in LOOPS:
            if _same(scenario(torch, recipe, train), mine):
                return _tag(name, text)
    return None


# --- comparing ---------------------------------------------------------------------------------

def _play(models, scenario, torch_side, yours, messages, scenario_kind):
    """Each model in torch and in reftorch; ``scenario_kind`` ("make", "update", "train") for the messages."""
    for recipe in models:
        label = recipe.label()
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            theirs = scenario(torch, recipe, torch_side)
            try:
                mine = scenario(reftorch, recipe, yours)
            except LearnerRaised as raised:
                if is_stub(raised.error):
                    raise failure(not_written(TOPIC, raised.step), [label]) from None
                raise failure(_tag("raises", f"your {raised.step} raised an error where torch's recipe does not"),
                              [label, f"yours raised {type(raised.error).__name__}: {raised.error}"
                                      f"{where(raised.error)}"]) from None
        for fact, value in theirs.items():
            got = mine.get(fact, "(not observed: an earlier fact already differs)")
            if close(value, got) if fact.endswith("values") else value == got:
                continue
            kind = fact.split(": ")[-1] if ": " in fact else fact
            where_ = ("buffer" if fact.startswith("target buffer") else fact.split(" ")[0]) if ": " in fact else ""
            entry = messages.get((where_, kind)) or messages.get(kind) or messages["*"]
            what = entry(value, got) if callable(entry) else entry
            if fact.endswith(("values", "changed by training")):
                with warnings.catch_warnings(record=True):
                    warnings.simplefilter("always")
                    what = _explain(recipe, scenario, torch_side, mine, scenario_kind) or what
            raise failure(what, [label, f"{fact}: torch gives {value!r}, yours gives {got!r}"])


def _shared(kind):
    return {
        "the target is the online model itself": _tag(
            "alias", "your target is the online model itself: `target = model` is a second name, not a copy, "
            "so the target moves with every optimizer step"),
        "the target is a module of the model's class": _tag("not-a-model", "your target is not a copy of the "
                                                            "model (a module of the same class)"),
        "the target's parameter names": _tag("wrong-parameters", "your target does not have the model's "
                                             "parameters"),
        "the target's buffer names": _tag("forgets-buffers", "your target lacks the model's buffers"),
        ("target", "type"): _tag("not-a-tensor", "a target parameter is not a plain Parameter/Tensor"),
        ("target", "is the online model's tensor"): _tag(
            "shares-parameters", "the target holds the online model's own parameter objects: a shallow copy "
            "(copy.copy) shares them, so training moves the target too; deepcopy copies them"),
        ("target", "shares memory with the online model's"): _tag(
            "shares-memory", "a target tensor shares memory with the online model's: it changes whenever "
            "the online weights (or statistics) change in place; it needs memory of its own"),
        ("target", "dtype"): _tag("changes-dtype", "a target tensor has another dtype than torch's: a float64 "
                                  "model needs a float64 target (a copy through Python numbers or .float() "
                                  "loses it)"),
        ("target", "device"): _tag("changes-device", "a target tensor lives on another device than the model's"),
        ("target", "requires_grad"): lambda theirs, yours: _tag(
            "forgets-no-grad", "a target parameter requires grad after your update: an in-place lerp_ or copy_ "
            "from a parameter that requires grad is recorded by autograd unless it runs under no_grad")
        if kind == "update" and yours else _tag(
            "not-frozen", "a target parameter requires grad: a target is never trained, so freeze its "
            "parameters (p.requires_grad_(False)) after the copy") if yours else _tag(
            "freezes-wrong", "a target parameter's requires_grad differs from torch's recipe"),
        ("target", "is_leaf"): _tag("forgets-no-grad", "a target parameter is no longer a leaf: your update was "
                                    "recorded by autograd (it did not run under no_grad)"),
        ("target", "grad_fn"): _tag("forgets-no-grad", "a target parameter has a grad_fn: your update was "
                                    "recorded by autograd (it did not run under no_grad)"),
        ("target", "is the object it was before"): _tag(
            "replaces-parameters", "your update replaces the target's parameter objects: update them in place "
            "(lerp_, copy_), so that anything holding them keeps seeing the target"),
        ("target", "keeps its memory"): _tag(
            "moves-parameters", "your update gives the target's parameters new memory (p.data = ... or a new "
            "tensor): write into the memory they have, in place"),
        ("online", "is the object it was before"): _tag("replaces-online", "the online model's parameters are "
                                                        "not the objects they were"),
        ("online", "requires_grad"): _tag("freezes-online", "the online model's parameters no longer require "
                                          "grad: freeze the target's parameters, not the model's"),
        ("online", "is_leaf"): _tag("freezes-online", "the online model's parameters are no longer leaves"),
        "training the online model leaves the target alone": _tag(
            "shares-memory", "training the online model changes your target: the target must hold copies"),
        "*": _tag("differs", "your target differs from torch's recipe"),
    }


def _values(kind):
    def target_values(theirs, yours):
        if kind == "make":
            return _tag("wrong-values", "your target does not start with the online model's numbers")
        return _tag("wrong-ema", f"your target's numbers differ from torch's recipe: after each step the target "
                    f"moves tau={TAU} of the way to the online weights (target.lerp_(online, tau), i.e. "
                    f"target + tau * (online - target)); a hard copy, the weights swapped, tau and 1 - tau "
                    "swapped, or an update that never reaches the target give other numbers")
    return target_values


def _messages(kind):
    messages = _shared(kind)
    messages[("target", "values")] = _values(kind)
    messages[("online", "values")] = _tag(
        "changes-online" if kind == "make" else "moves-online",
        "making the target changed the online model's numbers" if kind == "make" else
        "the online model's numbers differ from torch's: your update writes into the online model (lerp_ on "
        "the wrong side, or a copy_ the wrong way); only the target moves towards the online weights")
    messages[("online", "has a .grad after training")] = _tag(
        "zero-grad-after-backward", "your loop leaves the online parameters without a gradient, and the online "
        "model does not train: zeroing the gradients between backward() and step() throws away what the step "
        "needs (zero_grad belongs before the backward)")
    messages[("online", "changed by training")] = _tag(
        "optimizer-on-target", "training does not change the online model: the optimizer must be bound to the "
        "online model's own parameters (not the target's, which are frozen, nor a copy's)")
    messages["the target holds the online model's parameter objects"] = messages[("target", "is the online model's tensor")]
    return messages


def _buffer_message(kind):
    return _tag("stale-buffers", "a target buffer (BatchNorm's running statistics) differs from torch's: "
                + ("deepcopy copies buffers along with the parameters" if kind == "make" else
                   "copy the online model's buffers into the target's at each update (copy_), or they stay "
                   "the values of the first copy"))


def _with_buffers(kind):
    messages = _messages(kind)
    messages[("buffer", "values")] = messages[("buffer", "dtype")] = _buffer_message(kind)
    messages[("buffer", "shares memory with the online model's")] = _tag(
        "shares-buffers", "a target buffer shares memory with the online model's: the running statistics "
        "must be copies")
    messages[("buffer", "is the online model's tensor")] = messages[("buffer", "shares memory with the online model's")]
    messages[("buffer", "type")] = messages[("target", "type")]
    messages[("buffer", "is the object it was before")] = messages[("buffer", "keeps its memory")] = _tag(
        "replaces-buffers", "your update replaces the target's buffers (running statistics) with new tensors: "
        "copy the online model's buffers into the ones the target has (copy_), so their memory stays the "
        "target's own")
    messages[("target", "version moved by every update")] = messages[("buffer", "version moved by every update")] = _tag(
        "hides-updates", "your update writes into the target without moving its version counter: a write "
        "through .data (or another tensor sharing the memory) is invisible to autograd; write in place into the "
        "target's own tensors under no_grad (lerp_, copy_), which counts one version per write")
    messages[("buffer", "device")] = messages[("target", "device")]
    return messages


def check_make_target(make_target, battery="basic"):
    """A frozen deep copy: parameters and buffers in new memory, untouched by training the online model."""
    _play(_models(battery, "make"), _make_scenario, torch_make_target, make_target, _with_buffers("make"),
          "make")


def check_update_target(update_target, battery="basic"):
    """Each step: the target's parameters move tau towards the online ones in place under no_grad, the
    buffers are copied, the online model is left alone."""
    _play(_models(battery, "update"), _update_scenario, torch_update_target, update_target,
          _with_buffers("update"), "update")


def check_train(my_train, battery="basic"):
    """The target made once, the optimizer bound to the online parameters, an update after every step."""
    _play(_models(battery, "train"), _train_scenario, torch_train, my_train, _with_buffers("train"), "train")
