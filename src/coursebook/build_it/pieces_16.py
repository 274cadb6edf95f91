"""Chapter 16's piece: what ``load_state_dict(..., assign=True)`` does to one parameter, ``assign``.

The default load copies the checkpoint's numbers into the Parameter the
module has (``copy_`` under ``no_grad``).  ``assign=True`` puts the
checkpoint's own tensor in its place instead: wrapped in a new Parameter (or
taken as it is if it already is one), with the old parameter's
``requires_grad``, on the checkpoint's memory and in its dtype.  Each case
loads the same checkpoint into the same layer on real torch
(``load_state_dict(..., assign=True)``) and calls the learner's function on
reftorch, then compares what the module's ``weight`` is afterwards.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch.nn.state_dict

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _setup(mod, dtype, frozen, as_parameter):
    model = mod.nn.Linear(2, 1)
    model.load_state_dict({"weight": mod.tensor([[1.0, -1.0]]), "bias": mod.tensor([0.0])})
    if frozen:
        model.weight.requires_grad_(False)
    checkpoint = mod.tensor([[3.0, 4.0]], dtype=getattr(mod, dtype))
    if as_parameter:
        checkpoint = mod.nn.Parameter(checkpoint)
    return model, model.weight, checkpoint


def _look(model, old, checkpoint, name="weight"):
    w = getattr(model, name)
    return {
        "type": type(w).__name__,
        "the old Parameter": w is old,
        "the checkpoint's tensor itself": w is checkpoint,
        "on the checkpoint's memory": w.data_ptr() == checkpoint.data_ptr(),
        "numbers": w.detach().tolist(),
        "dtype": str(w.dtype),
        "requires_grad": w.requires_grad,
        "listed by named_parameters()": [n for n, p in model.named_parameters() if p is w],
        "listed by named_buffers()": [n for n, b in model.named_buffers() if b is w],
    }


def _case(label, misconception, dtype="float32", frozen=False, as_parameter=False):
    def on_torch():
        model, old, checkpoint = _setup(torch, dtype, frozen, as_parameter)
        model.load_state_dict({"weight": checkpoint, "bias": torch.tensor([0.0])}, assign=True)
        return _look(model, old, checkpoint)

    def args():
        model, old, checkpoint = _setup(reftorch, dtype, frozen, as_parameter)
        return (model, "weight", old, checkpoint)

    return Case(label, args, misconception, expected=on_torch, within=reftorch.no_grad,
                observe=lambda result, args: _look(args[0], args[2], args[3]))


def _buffer_case(misconception):
    """A BatchNorm1d's running_mean (a buffer, not a Parameter) loaded with assign=True."""
    def setup(mod):
        model = mod.nn.BatchNorm1d(2)
        return model, model.running_mean, mod.tensor([5.0, 6.0])

    def on_torch():
        model, old, checkpoint = setup(torch)
        model.load_state_dict({"running_mean": checkpoint}, strict=False, assign=True)
        return _look(model, old, checkpoint, "running_mean")

    def args():
        model, old, checkpoint = setup(reftorch)
        return (model, "running_mean", old, checkpoint)
    return Case("(a buffer: BatchNorm1d's running_mean)", args, misconception, expected=on_torch,
                within=reftorch.no_grad, observe=lambda result, args: _look(args[0], args[2], args[3], args[1]))


def _copies_in(module, name, param, input_param):
    param.copy_(input_param)


def _plain_tensor(module, name, param, input_param):
    setattr(module, name, input_param)


def _new_parameter_that_requires_grad(module, name, param, input_param):
    if not isinstance(input_param, reftorch.nn.Parameter):
        input_param = reftorch.nn.Parameter(input_param)
    setattr(module, name, input_param)


def _on_a_clone(module, name, param, input_param):
    setattr(module, name, reftorch.nn.Parameter(input_param.clone(), requires_grad=param.requires_grad))


_REPLACES = ("assign=True replaces the Parameter: the module's attribute becomes a new Parameter on the "
             "checkpoint's own tensor (its memory, not a copy), so the old object, and an optimizer "
             "holding it, is left out")

register(Piece(
    name="assign",
    chapter="16",
    reference=reftorch.nn.state_dict._assign,
    summary="load_state_dict(assign=True): the checkpoint's tensor takes the parameter's place",
    cases=[
        _case("(a float32 checkpoint)", _REPLACES),
        _case("(a float64 checkpoint)",
              "assign=True takes the checkpoint's tensor as it is, dtype and device included; only the "
              "default load casts into the model's Parameters", dtype="float64"),
        _case("(a frozen weight)",
              "the new Parameter keeps the old one's requires_grad: a frozen weight stays frozen",
              frozen=True),
        _case("(the checkpoint holds a Parameter)",
              "a Parameter in the checkpoint is taken as it is, not wrapped again: the module's weight "
              "is that very object", as_parameter=True),
        _case("(a frozen weight, the checkpoint holds a Parameter)",
              "a Parameter taken from the checkpoint is given the old parameter's requires_grad too: "
              "a frozen weight stays frozen", frozen=True, as_parameter=True),
        _buffer_case("a buffer is not a Parameter: the checkpoint's tensor takes its place as it is, "
                     "a plain tensor still listed by named_buffers(), not wrapped in a Parameter"),
    ],
    wrong=[Wrong(_copies_in, "assign=True replaces the Parameter"),
           Wrong(_plain_tensor, "assign=True replaces the Parameter"),
           Wrong(_new_parameter_that_requires_grad, "keeps the old one's requires_grad"),
           Wrong(_on_a_clone, "its memory, not a copy")],
))
