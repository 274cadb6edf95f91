"""Chapter 15's piece: what ``model.state_dict()`` holds, ``state_dict``.

A name for every parameter and persistent buffer, the children's under
their prefix, each entry a ``detach()`` of the module's own tensor: new
tensor objects, no copy.  The check builds the same small model on torch
and on reftorch and compares, entry by entry, what the dictionary holds.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch.nn.state_dict

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _model(mod):
    return mod.nn.Sequential(mod.nn.Linear(2, 2), mod.nn.BatchNorm1d(2))


def _norm_first(mod):
    return mod.nn.Sequential(mod.nn.BatchNorm1d(2), mod.nn.Linear(2, 2))


def _with_a_mask(mod):
    """The first model, its Linear holding a buffer registered with persistent=False."""
    model = _model(mod)
    model[0].register_buffer("mask", mod.ones(2), persistent=False)
    return model


def _owners(model):
    return dict(list(model.named_parameters()) + list(model.named_buffers()))


def _names(result, args):
    return list(result)


def _entries(result, args):
    owners = _owners(args[0])
    return {name: {
        "the module's own object": entry is owners.get(name),
        "on the module's memory": entry.data_ptr() == owners[name].data_ptr() if name in owners else None,
        "requires_grad": entry.requires_grad,
    } for name, entry in result.items()}


def _follows_training(result, args):
    owners = _owners(args[0])
    with (reftorch if isinstance(owners["0.weight"], reftorch.Tensor) else torch).no_grad():
        owners["0.weight"].add_(1.0)
    entry = result.get("0.weight")
    return None if entry is None else {
        "its numbers follow": entry.tolist() == owners["0.weight"].tolist(),
        "its version follows": entry._version == owners["0.weight"]._version,
    }


def _case(label, observe, misconception, model=_model, **keywords):
    return Case(label, lambda: (model(reftorch),), misconception,
                expected=lambda: (lambda m: observe(m.state_dict(**keywords), (m,)))(model(torch)),
                observe=observe, keywords=keywords)


def _parameters_only(self):
    return dict(self.named_parameters())


def _cloned(self):
    return {name: t.detach().clone() for name, t in reftorch.nn.state_dict.state_dict(self).items()}


def _no_prefix(self):
    found = {}
    for module in self.modules():
        for name, t in list(module._parameters.items()) + list(module._buffers.items()):
            found[name] = t.detach()
    return found


register(Piece(
    name="state_dict",
    chapter="15",
    reference=reftorch.nn.state_dict.state_dict,
    summary="name -> detached alias of every parameter and buffer (no copy)",
    cases=[
        _case("(Sequential(Linear(2, 2), BatchNorm1d(2))): the names", _names,
              "every parameter and every persistent buffer (BatchNorm's running statistics too) has "
              "an entry, named with its child's prefix: '0.weight', '1.running_mean'"),
        _case("(the same): what each entry is", _entries,
              "each entry is param.detach(): a new tensor object, off the graph "
              "(requires_grad False), on the module's own memory, not the Parameter itself"),
        _case("(the same): after an in-place step on 0.weight", _follows_training,
              "state_dict copies nothing: its entries follow every in-place write into the model, "
              "and, as detach() aliases (not .data), share its version counter too"),
        _case("(Sequential(BatchNorm1d(2), Linear(2, 2))): the names", _names,
              "the entries go module by module, each module's parameters then its buffers, then its "
              "children: not every parameter of the model first and the buffers after",
              model=_norm_first),
        _case("(the first model, a buffer 'mask' registered on its Linear with persistent=False): the names",
              _names, "a buffer registered with persistent=False moves with the module but is left out "
                      "of state_dict: only persistent buffers have an entry", model=_with_a_mask),
        _case("(the first model, keep_vars=True): what each entry is", _entries,
              "keep_vars=True keeps the variables: each entry is the module's own Parameter or buffer "
              "itself, not a detach()", keep_vars=True),
    ],
    wrong=[Wrong(_parameters_only, "not the Parameter itself"),
           Wrong(_cloned, "copies nothing"),
           Wrong(_no_prefix, "prefix")],
))
