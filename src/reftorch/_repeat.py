"""``t.repeat(2, 3)``: ``t`` tiled, each dimension's copies one after the other.

``repeats`` has one count per dimension of the result, at least as many as ``t`` has; extra
leading counts add new dimensions (``t`` is viewed with leading 1s first). A count of 0 gives
an empty result.

* Python object, metadata and memory: always a new tensor with new, contiguous memory, even for
  ``repeat(1)``: every element is copied, unlike ``expand``, which copies none.
* Version counter: the result's own, at 0; at 1 for an inference ``t`` outside the mode, whose
  plain kernel torch runs: it fills the result with ``copy_`` (unless a count is 0).
* History: ``RepeatBackward0`` sums the gradient of each copy back onto ``t``'s elements.
"""

from . import _messages, _strides
from ._arguments import MISSING, _check_given, _int_list_arg, check_keywords
from ._copy_ import values_of
from ._math import _result
from ._meta import is_meta
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from .autograd.graph import Node, any_requires_grad


def _tiled_positions(size, repeats):
    """For each element of the result (row-major), the position of its source in ``size``."""
    positions = [0]
    for n, count in zip(size, repeats):
        positions = [p * n + i for p in positions for _ in range(count) for i in range(n)]
    return positions


class RepeatBackward0(Node):
    def __init__(self, a, repeats):
        super().__init__(a)
        self.size, self.repeats = a._size, repeats

    def apply(self, grad):
        size = (1,) * (len(self.repeats) - len(self.size)) + self.size
        totals = [0] * _strides.numel(size)
        for source, g in zip(_tiled_positions(size, self.repeats), grad._read()):
            totals[source] += g
        return (Tensor._from_values(totals, self.size, grad.dtype, grad.device),)


def repeat(self, *repeats, **keywords):
    if "repeats" in keywords and not repeats:  # repeat(repeats=(2, 3))
        repeats = (keywords.pop("repeats"),)
    # torch's parser looks for the missing argument before unknown keywords
    _check_given("repeat", repeats=repeats or MISSING)
    check_keywords("repeat", keywords)
    repeats = tuple(_int_list_arg("repeat", "repeats", repeats))
    if len(repeats) < self.dim():
        raise RuntimeError(_messages.REPEAT_DIMS)
    size = (1,) * (len(repeats) - self.dim()) + self._size
    shape = tuple(n * count for n, count in zip(size, repeats))
    negative = [n for n in shape if n < 0]
    if negative:
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: {list(shape)}")
    values = values_of(self, self.dtype)
    tiled = [values[p] for p in _tiled_positions(size, repeats)]
    node = RepeatBackward0(self, repeats) if any_requires_grad(self) else None
    out = _result(tiled, shape, self.dtype, self.device, node)
    if 0 not in repeats and not is_meta(self):  # an inference ``self``: torch's kernel fills ``out`` with copy_
        plain_kernel_writes(out, (self,))
    return out
