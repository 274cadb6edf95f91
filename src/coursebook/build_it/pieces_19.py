"""Chapter 19's piece: which entries of a state dict share memory, ``shared_storages``.

Tied weights are one Parameter under two names; ``state_dict()`` gives each
name its own detached tensor object, on the one storage.  Before it writes a
file, safetensors looks for exactly this (and refuses it in ``save_file``);
``torch.save`` keeps the sharing.  torch has no public function for it, so
the reference lives here, in the course.  Each case builds the same dict on
real torch and on reftorch; the expected answer is the reference run on the
torch twin.
"""

import copy

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch

from coursebook.build_it.registry import Case, Piece, Wrong, register


def shared_storages(state_dict):
    """The names whose tensors share a storage, in groups: ``[[name, ...], ...]``.

    A group lists its names in the dict's order, and groups come in the order of
    their first name; a name that shares with nobody is in no group.  Two tensors
    share when they have one storage, ``t.untyped_storage()``: the same object for
    every tensor on it, in torch as in reftorch.  Not the tensor's ``data_ptr()``,
    which moves with a view's offset, nor even the storage's: every storage with
    no bytes, empty or on the meta device, has address 0.
    """
    groups = {}
    for name, tensor in state_dict.items():
        storage = tensor.untyped_storage()  # the dict keeps it alive, so its id is its own
        groups.setdefault(id(storage), []).append(name)
    return [names for names in groups.values() if len(names) > 1]


def _two_layers(module, tied):
    model = module.nn.Sequential(module.nn.Linear(2, 2), module.nn.Linear(2, 2))
    if tied:
        model[1].weight = model[0].weight
    return model


def _views(module):
    base = module.arange(6.0)
    return {"whole": base, "head": base[:2], "tail": base[2:], "other": module.zeros(2)}


_DICTS = {
    "two Linear layers, untied": lambda m: _two_layers(m, False).state_dict(),
    "two Linear layers, weights tied": lambda m: _two_layers(m, True).state_dict(),
    "the tied state_dict, each entry cloned": lambda m: {k: v.clone() for k, v in _two_layers(m, True).state_dict().items()},
    "the tied state_dict, deep-copied": lambda m: copy.deepcopy(_two_layers(m, True).state_dict()),
    "a tensor, two views of it at offsets 0 and 2, and another tensor": _views,
    "nn.Linear(2, 2) built on the meta device": lambda m: m.nn.Linear(2, 2, device="meta").state_dict(),
}


def _case(label, misconception):
    make = _DICTS[label]
    return Case(f"({label})", lambda: (make(reftorch),), misconception,
                expected=lambda: shared_storages(make(torch)))


def _by_object(state_dict):
    groups = {}
    for name, tensor in state_dict.items():
        groups.setdefault(id(tensor), []).append(name)
    return [names for names in groups.values() if len(names) > 1]


def _by_tensor_address(state_dict):
    groups = {}
    for name, tensor in state_dict.items():
        groups.setdefault(tensor.data_ptr(), []).append(name)
    return [names for names in groups.values() if len(names) > 1]


def _with_singletons(state_dict):
    groups = {}
    for name, tensor in state_dict.items():
        groups.setdefault(tensor.untyped_storage().data_ptr(), []).append(name)
    return list(groups.values())


_OBJECTS = ("state_dict() gives each name its own detached tensor object, tied weights too: compare their "
            "memory (the storage), not the objects")
_OFFSETS = ("a view at an offset starts at another address in the same storage: compare "
            "the storages, untyped_storage(), not the tensor's data_ptr()")

register(Piece(
    name="shared_storages",
    chapter="19",
    reference=shared_storages,
    summary="which entries of a state dict share memory (tied weights, views)",
    cases=[
        _case("two Linear layers, untied", "untied layers share nothing: no group (a name alone is in no group)"),
        _case("two Linear layers, weights tied", _OBJECTS),
        _case("the tied state_dict, each entry cloned",
              "clone() gives every entry memory of its own: the tie is gone"),
        _case("the tied state_dict, deep-copied",
              "deepcopy copies each storage once (its memo), so the copies of tied entries still share"),
        _case("a tensor, two views of it at offsets 0 and 2, and another tensor", _OFFSETS),
        _case("nn.Linear(2, 2) built on the meta device",
              "a storage with no memory (on meta, or empty) has data_ptr() 0, yet it is a storage of its own: "
              "tell storages apart as objects (untyped_storage() ... is ...)"),
    ],
    wrong=[Wrong(_by_object, "compare their memory (the storage), not the objects"),
           Wrong(_by_tensor_address, "not the tensor's data_ptr()"),
           Wrong(_with_singletons, "a name alone is in no group")],
))
