"""Chapter 22's piece: answering the four questions by measuring, ``four_answers``.

Given a tensor ``a`` and the result ``r`` of an operation on it, measure:
a new Python object? new memory? history kept? a shared version counter?
These are the measurements the guide's first table rests on; torch has no
function for them, so the reference lives here, in the course.  It uses
only what torch and reftorch both have, so each case's answer comes from
running it on real torch, on a twin of the case.
"""

import copy

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch

from coursebook.build_it.registry import Case, Piece, Wrong, register


def four_answers(a, r):
    """``(new object?, new memory?, history kept?, shares a's version counter?)`` for ``r`` made from ``a``.

    New memory: ``r`` lives in another storage, told apart as objects
    (``untyped_storage()`` gives one object per storage): a view at an offset
    starts at another address, in the same storage, and every storage with no
    bytes has address 0.  History: ``r`` is ``a``, or it has
    a ``grad_fn``.  The counter: a write through ``r`` (on a detached alias of
    ``r``, which shares ``r``'s counter and needs no ``no_grad``) moves ``a``'s.
    The write is ``zero_()``: it takes every dtype (``add_(1)`` cannot write
    into a bool tensor) and an expanded view, whose elements share memory
    (``add_`` refuses to write one slot several times; a fill writes one value).
    """
    new_object = r is not a
    new_memory = r.untyped_storage() is not a.untyped_storage()
    history = r is a or r.grad_fn is not None
    before = a._version
    r.detach().zero_()
    return new_object, new_memory, history, a._version != before


_OPS = {
    "b = a": lambda a: a,
    "a[1:]": lambda a: a[1:],
    "a[[0, 2]]": lambda a: a[[0, 2]],
    "a.clone()": lambda a: a.clone(),
    "a.detach()": lambda a: a.detach(),
    "a.detach().clone()": lambda a: a.detach().clone(),
    "a.to(torch.float64)": lambda a: a.to(a.new_zeros(()).double().dtype),
    "a.expand(2, 4)": lambda a: a.expand(2, 4),
    "a > 1": lambda a: a > 1,
    "a.data": lambda a: a.data,
    "copy.copy(a)": lambda a: copy.copy(a),
}


def _pair(mod, op):
    a = mod.arange(4.0).requires_grad_()
    return a, _OPS[op](a)


def _empty_clone(mod):
    e = mod.zeros(0).requires_grad_()
    return e, e.clone()


def _case(op, misconception):
    return Case(f"(a, {op})", lambda: _pair(reftorch, op), misconception,
                expected=lambda: four_answers(*_pair(torch, op)))


def _memory_by_address(a, r):
    answers = four_answers(a, r)
    return (answers[0], r.data_ptr() != a.data_ptr()) + answers[2:]


def _history_by_requires_grad(a, r):
    answers = four_answers(a, r)
    return answers[:2] + (r.requires_grad,) + answers[3:]


def _counter_by_equal_versions(a, r):
    same_version = r._version == a._version
    return four_answers(a, r)[:3] + (same_version,)


register(Piece(
    name="four_answers",
    chapter="22",
    reference=four_answers,
    summary="measure new object, new memory, history kept and a shared counter",
    cases=[
        _case("b = a", "b = a copies nothing: the same object, memory, history and counter"),
        _case("a[1:]", "a view at an offset starts at another address (data_ptr) but lives in the same "
                       "storage: compare the storages, untyped_storage(), for new memory"),
        _case("a[[0, 2]]", "advanced indexing copies into new memory, keeps history (IndexBackward0) "
                           "and gets a new counter"),
        _case("a.clone()", "a clone: new memory, history kept, a counter of its own"),
        _case("a.detach()", "a detached tensor has no history but shares a's memory and counter"),
        _case("a.detach().clone()", "an independent snapshot: new memory, no history, its own counter"),
        _case("a.to(torch.float64)", "a conversion copies and keeps history (ToCopyBackward0)"),
        _case("a.expand(2, 4)", "an expanded view is a view: a's memory and counter, with history "
                                "(ExpandBackward0); its rows share memory, so write through it with one "
                                "value (zero_, fill_), which add_ refuses"),
        _case("a > 1", "a comparison makes a new bool tensor with no history; measure on any dtype "
                       "(add_(1) cannot write into a bool tensor, zero_() can)"),
        _case("a.data", "equal versions are not a shared counter: .data reads 0 like a but has a counter "
                        "of its own; write through one and watch the other"),
        Case("(e, e.clone()), e = torch.zeros(0).requires_grad_()", lambda: _empty_clone(reftorch),
             "a clone of an empty tensor has a storage of its own, though every empty storage has "
             "data_ptr() 0: compare the storages as objects (untyped_storage() ... is not ...)",
             expected=lambda: four_answers(*_empty_clone(torch))),
        _case("copy.copy(a)", "requires_grad is not history: copy.copy keeps the flag and drops the graph "
                              "(look at grad_fn); its counter is its own"),
    ],
    wrong=[Wrong(_memory_by_address, "same storage"),
           Wrong(_history_by_requires_grad, "requires_grad is not history"),
           Wrong(_counter_by_equal_versions, "equal versions are not a shared counter")],
))
