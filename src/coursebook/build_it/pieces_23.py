"""Chapter 23's piece: the rule behind "The size of tensor a must match", ``broadcast_shapes``.

``dst.copy_(src)``, ``a + b`` and friends stretch their operands to one shape
first; when no such shape exists, torch raises the error the page lists
under *copy_ from a tensor of another shape*.  The answer comes from real
torch: ``torch.broadcast_shapes``.
"""

from crosscheck.recorded import torch_here

torch = torch_here()  # None in the browser: the expected answers are then the recorded ones

import reftorch._shapes

from coursebook.build_it.registry import Case, Piece, Wrong, register, told_tuples, tuples_only


def _case(shapes, misconception):
    return Case(", ".join(repr(s) for s in shapes), shapes, misconception,
                expected=lambda: tuple(torch.broadcast_shapes(*shapes)), observe=tuples_only, explain=told_tuples)


def _aligned_left(*shapes):
    ndim = max(len(s) for s in shapes)
    padded = [tuple(s) + (1,) * (ndim - len(s)) for s in shapes]
    return reftorch._shapes.broadcast_shapes(*padded)


def _sizes_must_be_equal(*shapes):
    ndim = max(len(s) for s in shapes)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    for sizes in zip(*padded):
        if len(set(sizes)) > 1:
            raise RuntimeError("The size of tensor a must match the size of tensor b")
    return padded[0]


def _largest_wins(*shapes):
    ndim = max(len(s) for s in shapes)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    return tuple(max(sizes) for sizes in zip(*padded))


_RIGHT = ("shapes are lined up on the right: the last dimensions meet, and a shorter shape "
          "gets 1s in front")

register(Piece(
    name="broadcast_shapes",
    chapter="23",
    reference=reftorch._shapes.broadcast_shapes,
    summary="the shape operands stretch to, or torch's error when there is none",
    cases=[
        _case(((2, 3), (2, 3)), "equal shapes broadcast to themselves"),
        _case(((2, 3), (3,)), _RIGHT + ": (3,) is read as (1, 3)"),
        _case(((4, 1), (3,)), "a size of 1 stretches to the other size, on either side: (4, 1) and (3,) give (4, 3)"),
        _case(((2, 1, 3), (5, 1)), _RIGHT + ", and each 1 stretches: (2, 5, 3)"),
        _case(((3,), (2,)), "two sizes that differ and are not 1 cannot stretch: RuntimeError "
                            "(the size of tensor a must match the size of tensor b)"),
        _case(((2, 3), (2,)), _RIGHT + ": (2,) meets the 3, not the 2, so this raises RuntimeError"),
        _case(((0,), (1,)), "a size of 1 stretches to 0 too: an empty result"),
        _case(((), (2, 2)), "a 0-d shape has no dimensions: it stretches to anything"),
        _case(((0,), (3,)), "only a size of 1 stretches: 0 and 3 differ and neither is 1, so this raises "
                            "RuntimeError"),
        _case(((2, 1, 1), (3, 1), (4,)), "any number of shapes broadcast together, each size of 1 stretching "
                                        "to the others: (2, 3, 4)"),
    ],
    wrong=[Wrong(_aligned_left, "lined up on the right"),
           Wrong(_sizes_must_be_equal, "stretches to the other size"),
           Wrong(_largest_wins, "cannot stretch")],
))
