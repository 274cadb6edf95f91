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
plain SGD (``SGD`` of ``autograder.witness.stories.target_network``, where the stories
live: ``p -= lr * p.grad`` in place; torch's own optimizer
imports torch._dynamo on its first step, two seconds in every fresh grading
kernel); the learner's ``my_train`` may use ``reftorch.optim.SGD``, which
computes the same numbers, so numbers are compared up to float rounding.

The models: ``nn.Linear(3, 2)``, a float64 ``Linear -> BatchNorm1d -> Linear``
(buffers), in the hidden tests one on the (simulated) GPU, one without bias,
and models drawn for each student.
"""

import tomllib
import warnings
from pathlib import Path

import reftorch
import torch

from ..witness import variants as _variants
from ..witness.stories.target_network import LR, SGD, STORIES, TAU, Model, make_target, step  # noqa: F401
from ._facts import close, play_both
from ..judge.language import N_, _
from ._observe import M, choose, failure, is_stub, not_written, where, yours_raised
from ._readers import TorchReader

TOPIC = "target_network"
# Each model is trained with its own tau and learning rate: an answer that hard-codes one fails.
TAUS = (0.25, 0.5, 0.1, 0.75)
LRS = (0.01, 0.05, 0.02, 0.03)
# what each fact that differs means, one [[message]] a belief (the file says how it is written)
MESSAGES = tomllib.loads(Path(__file__).with_suffix(".toml").read_bytes().decode())["message"]


def _tag(name, text):
    return M(f"{TOPIC}/{name}", text)


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

torch_make_target = make_target


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
    optimizer = SGD(T, model.parameters(), lr)
    for x in batches:
        step(T, model, optimizer, x)
        torch_update_target(target, model, tau)
    return target


# --- what the usual wrong training loops give (torch's side, for the messages) --------------------

def _loop(zero_grad="before", update="after"):
    """torch's recipe with one habit changed: ``zero_grad`` "before" (right), "never" or "after" the
    backward; ``update`` "after" the step (right), "before" it, or "once" after the whole loop."""
    def train(model, batches, lr, tau):
        target = torch_make_target(model)
        optimizer = SGD(torch, model.parameters(), lr)
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


def _torch_facts(scenario, recipe, torch_side):
    return STORIES[scenario](torch, TorchReader, {"function": torch_side}, recipe.fields())


def _explain(recipe, scenario, torch_side, mine, kind):
    """A misconception that gives exactly the learner's facts: a hard-coded tau or learning rate, or a
    training loop with one habit wrong (None when none does)."""
    if kind not in ("update", "train"):
        return None
    settings = [("tau", v) for v in TAUS] + ([("lr", v) for v in LRS] if kind == "train" else [])
    for name, value in settings:
        if value in (getattr(recipe, name), 1 - recipe.tau if name == "tau" else None):
            continue   # (1 - tau: the weights of the EMA swapped, the formula's mistake)
        if _same(_torch_facts(scenario, recipe.but(**{name: value}), torch_side), mine):
            return _tag(f"ignores-{name}", f"your {'update_target' if kind == 'update' else 'my_train'} gives the "
                        f"numbers of {name}={value}, not of the {name}={getattr(recipe, name)} it was called with: "
                        f"use the argument {name}, never a number of your own")
    if kind == "train":
        for name, train, text in LOOPS:
            if _same(_torch_facts(scenario, recipe, train), mine):
                return _tag(name, text)
    return None


# --- comparing ---------------------------------------------------------------------------------

def _raised(raised, label):
    if is_stub(raised.error):
        return failure(not_written(TOPIC, raised.step), [label])
    return failure(_tag("raises", f"your {raised.step} raised an error where torch's recipe does not"),
                   [label, yours_raised(type(raised.error).__name__, f"{raised.error}{where(raised.error)}")])


def _play(models, scenario, torch_side, yours, messages, scenario_kind):
    """Each model in torch and in reftorch; ``scenario_kind`` ("make", "update", "train") for the messages."""
    for recipe in models:
        label = _(N_("model: {0}")).format(f"{recipe.name}, tau={recipe.tau}, lr={recipe.lr}")  # recipe.label()
        theirs, mine = play_both(f"{TOPIC}.{scenario}", recipe.fields(), {"function": torch_side},
                                 {"function": yours}, TOPIC, label, failing=lambda raised: _raised(raised, label))
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
            raise failure(what, [label, _(N_("{0}: torch gives {1}, yours gives {2}")).format(fact, repr(value),
                                                                                               repr(got))])


def _requires_grad(kind):
    """A target parameter's requires_grad differs from torch's: the belief depends on which side
    requires grad, and after which step."""
    def told(theirs, yours):
        if not yours:
            return _tag("freezes-wrong", "a target parameter's requires_grad differs from torch's recipe")
        if kind == "update":
            return _tag("forgets-no-grad", "a target parameter requires grad after your update: an in-place "
                        "lerp_ or copy_ from a parameter that requires grad is recorded by autograd unless it "
                        "runs under no_grad")
        return _tag("not-frozen", "a target parameter requires grad: a target is never trained, so freeze its "
                    "parameters (p.requires_grad_(False)) after the copy")
    return told


def _messages(kind):
    """``{fact: Misconception}`` in a ``kind`` scenario ("make", "update", "train"): the messages of
    target_network.toml said in it, keyed as ``_play`` looks them up (``("target", "dtype")``, or the
    whole fact), and the one chosen by the learner's requires_grad."""
    messages = {}
    for entry in MESSAGES:
        if kind in entry.get("when", (kind,)):
            said = _tag(entry["tag"], entry["text"].format(tau=TAU))
            for fact in entry["facts"]:
                where, _sep, what = fact.rpartition(": ")
                messages[(where, what) if where else what] = said
    messages[("target", "requires_grad")] = _requires_grad(kind)
    return messages


def check_make_target(make_target, battery="basic"):
    """A frozen deep copy: parameters and buffers in new memory, untouched by training the online model."""
    _play(_models(battery, "make"), "make", torch_make_target, make_target, _messages("make"),
          "make")


def check_update_target(update_target, battery="basic"):
    """Each step: the target's parameters move tau towards the online ones in place under no_grad, the
    buffers are copied, the online model is left alone."""
    _play(_models(battery, "update"), "update", torch_update_target, update_target,
          _messages("update"), "update")


def check_train(my_train, battery="basic"):
    """The target made once, the optimizer bound to the online parameters, an update after every step."""
    _play(_models(battery, "train"), "train", torch_train, my_train, _messages("train"), "train")
