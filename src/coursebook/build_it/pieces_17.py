"""Chapter 17's piece: a correct EMA update, ``update_ema``.

After each training step, move every weight of the average a fraction
``weight`` of the way towards the model's, and take the model's buffers
over, all without autograd recording it.  torch's own version of this
(``torch.optim.swa_utils``) wraps a whole model; the course's is the bare
update, so its reference lives here.  Each case tells the same story on
torch (with this recipe) and on reftorch (with the learner's update): a
model with a buffer, an average made once with ``copy.deepcopy``, a
training step, the update; then it looks at one thing.
"""

import copy

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch

from coursebook.build_it.registry import Case, Piece, Wrong, register


def update_ema(ema, model, weight):
    """Move ``ema``'s parameters ``weight`` of the way to ``model``'s; copy its buffers.

    The writes go into ``ema``'s own memory, in place, under ``no_grad``: the
    average is not trained and its update is not part of any graph.
    """
    with reftorch.no_grad():
        for averaged, current in zip(ema.parameters(), model.parameters()):
            averaged.lerp_(current, weight)
        for averaged, current in zip(ema.buffers(), model.buffers()):
            averaged.copy_(current)


def _update_on_torch(ema, model, weight):
    with torch.no_grad():
        for averaged, current in zip(ema.parameters(), model.parameters()):
            averaged.lerp_(current, weight)
        for averaged, current in zip(ema.buffers(), model.buffers()):
            averaged.copy_(current)


def _trained(mod, weight):
    """A model with a buffer, its average (deepcopy, frozen), and one training step of the model."""
    model = mod.nn.Sequential(mod.nn.BatchNorm1d(2), mod.nn.Linear(2, 1))
    model.load_state_dict({"1.weight": mod.tensor([[1.0, -1.0]]), "1.bias": mod.tensor([0.5])}, strict=False)
    ema = copy.deepcopy(model).requires_grad_(False)
    model(mod.tensor([[1.0, 2.0], [3.0, -1.0]])).sum().backward()
    with mod.no_grad():
        for p in model.parameters():
            p.sub_(0.5 * p.grad)
    return ema, model, weight


def _rounded(values):
    return [round(v, 5) for v in values]


def _weights(ema, model, mod):
    return _rounded(ema[1].weight.detach().reshape(-1).tolist() + ema[1].bias.detach().tolist())


def _outside_the_graph(ema, model, mod):
    return [(p.requires_grad, p.is_leaf, p.grad_fn is None) for p in ema.parameters()]


def _own_memory(ema, model, mod):
    before = ema[1].weight.detach().clone()
    with mod.no_grad():
        model[1].weight.add_(10.0)
    return [ema[1].weight.data_ptr() == model[1].weight.data_ptr(),
            ema[1].weight.detach().tolist() == before.tolist()]


def _own_buffers(ema, model, mod):
    before = ema[0].running_mean.clone()
    with mod.no_grad():
        model[0].running_mean.add_(10.0)
    return [ema[0].running_mean.data_ptr() == model[0].running_mean.data_ptr(),
            ema[0].running_mean.tolist() == before.tolist()]


def _buffers(ema, model, mod):
    return [_rounded(b.reshape(-1).tolist()) for b in ema.buffers()]


def _case(label, weight, look, misconception):
    def on_torch():
        ema, model, w = _trained(torch, weight)
        _update_on_torch(ema, model, w)
        return look(ema, model, torch)

    return Case(label, lambda: _trained(reftorch, weight), misconception, expected=on_torch,
                observe=lambda result, args: look(args[0], args[1], reftorch))


def _recorded(ema, model, weight):
    for averaged, current in zip(ema.parameters(), model.parameters()):
        averaged.lerp_(current, weight)
    with reftorch.no_grad():
        for averaged, current in zip(ema.buffers(), model.buffers()):
            averaged.copy_(current)


def _aliased(ema, model, weight):
    for averaged, current in zip(ema.parameters(), model.parameters()):
        averaged.data = current.data
    with reftorch.no_grad():
        for averaged, current in zip(ema.buffers(), model.buffers()):
            averaged.copy_(current)


def _parameters_only(ema, model, weight):
    with reftorch.no_grad():
        for averaged, current in zip(ema.parameters(), model.parameters()):
            averaged.lerp_(current, weight)


def _weight_as_decay(ema, model, weight):
    update_ema(ema, model, 1 - weight)


register(Piece(
    name="update_ema",
    chapter="17",
    reference=update_ema,
    summary="the EMA step: lerp_ the weights, copy_ the buffers, under no_grad",
    cases=[
        _case("(weight=0.1): the averaged weights", 0.1, _weights,
              "the average moves weight of the way from its own value towards the model's: "
              "e + weight * (p - e), so a small weight means a slow average"),
        _case("(weight=0.5): the averaged weights", 0.5, _weights,
              "the average moves weight of the way from its own value towards the model's"),
        _case("(weight=0.1): the average's parameters", 0.1, _outside_the_graph,
              "the update must not be recorded: under no_grad the average's parameters stay leaves "
              "with no grad_fn (outside it, lerp_ links them to the model's graph)"),
        _case("(weight=0.1): then the model trains on", 0.1, _own_memory,
              "the average needs its own memory: write into its parameters in place; pointing them "
              "at the model's memory makes the average follow every step"),
        _case("(weight=0.1): the average's buffers", 0.1, _buffers,
              "buffers are part of the model too: take the model's running statistics over "
              "(copy_ them), or the average normalises with stale ones"),
        _case("(weight=0.1): then the model's running statistics move on", 0.1, _own_buffers,
              "the average's buffers need their own memory too: copy_ the model's numbers into them; "
              "pointing them at the model's buffers makes them follow every later step"),
    ],
    wrong=[Wrong(_recorded, "must not be recorded"),
           Wrong(_aliased, "its own memory"),
           Wrong(_parameters_only, "buffers are part of the model"),
           Wrong(_weight_as_decay, "moves weight of the way")],
))
