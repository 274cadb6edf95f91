"""Chapter 09's piece: assigning ``x.data = new``, ``set_data``.

Reading ``x.data`` is the alias without the safety net; *assigning* it is
what ``model.double()`` relies on: ``x`` stays the same Python object (so
every list and optimizer that holds it still does) and from then on looks
at ``new``'s memory, with ``new``'s size, stride, offset and dtype.  The
check runs the learner's setter on a reftorch tensor and ``x.data = new`` on
a torch twin, and compares what ``x`` looks like afterwards.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._detach

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _x_now(x, new):
    return {
        "shape": tuple(x.shape),
        "stride, offset": (x.stride(), x.storage_offset()),
        "dtype": str(x.dtype),
        "on new's memory": x.data_ptr() == new.data_ptr(),
        "version": x._version,
        "requires_grad, is_leaf": (x.requires_grad, x.is_leaf),
        "is_inference": x.is_inference(),
    }


def _case(label, make, misconception):
    def on_torch():
        x, new = make(torch)
        x.data = new
        return _x_now(x, new)

    return Case(label, lambda: make(reftorch), misconception, expected=on_torch,
                observe=lambda result, args: _x_now(*args))


def _points_at_storage_only(self, new):
    self._storage = new._storage


def _copies_the_numbers(self, new):
    with reftorch.no_grad():
        self.copy_(new)


def _refuses_integers_always(self, new):
    if not new.dtype.is_floating_point:
        raise RuntimeError(reftorch._core_messages.SET_DATA_NOT_FLOAT)
    reftorch._detach._set_data(self, new)


def _made_in_inference_mode(mod):
    with mod.inference_mode():
        return mod.zeros(3)


def _counts_as_a_write(self, new):
    reftorch._detach._set_data(self, new)
    self._version_counter.bump()


register(Piece(
    name="set_data",
    chapter="09",
    reference=reftorch._detach._set_data,
    summary="x.data = new: keep the object, take new's memory and metadata",
    cases=[
        _case("(a float32 leaf that requires grad, new = torch.zeros(3, dtype=float64))",
              lambda mod: (mod.ones(2, requires_grad=True), mod.zeros(3, dtype=mod.float64)),
              "x keeps being the same object but takes new's memory with new's shape and dtype: "
              "nothing of x's old metadata survives"),
        _case("(a leaf, new = every other element of a 6-element tensor, from the second)",
              lambda mod: (mod.ones(3, requires_grad=True), mod.arange(6.0)[1::2]),
              "x takes new's stride and offset too: it reads new's elements exactly where new does"),
        _case("(a plain tensor, new of the same shape)",
              lambda mod: (mod.ones(3), mod.arange(3.0)),
              "assigning .data writes no number: x now shares new's memory and its version does "
              "not move (a copy would do neither)"),
        _case("(a leaf that requires grad, new = torch.tensor([1, 2]))",
              lambda mod: (mod.ones(2, requires_grad=True), mod.tensor([1, 2])),
              "a tensor that requires grad must stay floating point or complex (only those carry gradients): "
              "torch refuses integer data with RuntimeError"),
        _case("(a plain tensor, new = torch.tensor([1, 2]))",
              lambda mod: (mod.ones(2), mod.tensor([1, 2])),
              "only a tensor that requires grad must stay floating point: one that does not takes "
              "integer data like any other, dtype included"),
        _case("(a plain tensor, new made in inference_mode)", lambda mod: (mod.ones(2), _made_in_inference_mode(mod)),
              "x takes all of new's metadata, the inference flag too: given a tensor made in inference "
              "mode, x becomes an inference tensor"),
    ],
    wrong=[Wrong(_points_at_storage_only, "new's shape and dtype"),
           Wrong(_copies_the_numbers, "writes no number"),
           Wrong(_counts_as_a_write, "version does not move"),
           Wrong(_refuses_integers_always, "only a tensor that requires grad must stay floating point")],
))
