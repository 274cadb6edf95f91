"""Chapter 13's piece: the recipe ``copy.copy`` follows, ``__reduce_ex__``.

A warm-up for the python_copy exercise (which builds both copies):
``copy.copy(t)`` asks ``t.__reduce_ex__(protocol)`` for a recipe, a function
and its arguments (and the attributes to restore), and runs it.  The check
runs the learner's recipe the way ``copy`` does, and compares the tensor it
makes with what real torch's ``copy.copy`` gives for the same tensor.
"""

import copy

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch
import reftorch._python_copy

from coursebook.build_it.registry import Case, Piece, Wrong, register


def _follow(recipe):
    """What ``copy.copy`` does with a recipe: call it, then restore the attributes."""
    rebuild, args, state = (tuple(recipe) + (None,))[:3]
    made = rebuild(*args)
    if state:
        made.__dict__.update(state)
    return made


def _compare(made, t):
    return {
        "a new object": made is not t,
        "on t's memory": made.data_ptr() == t.data_ptr(),
        "size, stride, offset": (tuple(made.shape), made.stride(), made.storage_offset()),
        "requires_grad": made.requires_grad,
        "is_leaf": made.is_leaf,
        "grad": None if made.grad is None else made.grad.tolist(),
        "version": made._version,
        "attributes are t's own objects": [getattr(made, k, None) is v for k, v in vars(t).items()],
    }


def _leaf_with_grad_and_note(mod):
    x = mod.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    x.tags = ["input"]
    return x


def _case(label, make, misconception):
    def on_torch():
        t = make(torch)
        return _compare(copy.copy(t), t)

    return Case(label, lambda: (make(reftorch), 2), misconception, expected=on_torch,
                observe=lambda recipe, args: _compare(_follow(recipe), args[0]))


def _copies_storage(self, protocol):
    rebuild, args, state = reftorch._python_copy.__reduce_ex__(self, protocol)
    return rebuild, (copy.deepcopy(args[0]),) + args[1:], state


def _drops_requires_grad(self, protocol):
    rebuild, args, state = reftorch._python_copy.__reduce_ex__(self, protocol)
    return rebuild, args[:5] + (False,) + args[6:], state


def _deep_attributes(self, protocol):
    rebuild, args, state = reftorch._python_copy.__reduce_ex__(self, protocol)
    return rebuild, args, copy.deepcopy(state)


register(Piece(
    name="reduce_ex",
    chapter="13",
    reference=reftorch._python_copy.__reduce_ex__,
    summary="the recipe copy.copy(t) follows: same storage, same layout, new object",
    cases=[
        _case("(a plain tensor)", lambda mod: mod.tensor([1.0, 2.0, 3.0]),
              "nothing in the recipe is copied: copy.copy gives a new object on the same memory, "
              "with a counter of its own (the rebuild counts as one write)"),
        _case("(a leaf with .grad and an attribute)", _leaf_with_grad_and_note,
              "requires_grad is carried over, .grad is not, and the attributes are the same "
              "objects (shallow), not copies"),
        _case("(a stepped view of a 2x4 matrix)", lambda mod: mod.arange(8.0).reshape(2, 4)[:, 1::2],
              "the recipe keeps the view's offset and strides on the same storage"),
        _case("(a non-leaf)", lambda mod: mod.tensor([1.0, 2.0], requires_grad=True) * 2,
              "the recipe has no history in it: the copy of a non-leaf is a leaf that requires grad"),
    ],
    wrong=[Wrong(_copies_storage, "nothing in the recipe is copied"),
           Wrong(_drops_requires_grad, "requires_grad is carried over"),
           Wrong(_deep_attributes, "the same objects (shallow)")],
))
