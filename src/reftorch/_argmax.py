"""``argmax`` and ``argmin``: where the largest (smallest) element is, not what it is.

``x.argmax()`` answers with a position: a new int64 tensor (one number, or one
per row with ``dim=``), in new memory, sharing nothing with ``x``. A position
cannot change by a small amount, so no gradient flows through it: even when
``x`` requires grad, the result does not, has no ``grad_fn`` and is a leaf.
Ties go to the first position; a NaN counts as larger (and smaller) than
everything, so the first NaN wins.
"""

import operator

from . import _messages, _strides
from ._dtype import bool as bool_, int64
from ._tensor import Tensor


def _positions(self, dim, keepdim, op, better):
    if dim is not None and not isinstance(dim, int):
        raise TypeError(f"{op}(): argument 'dim' must be int, not {_messages.type_name(dim)}")
    if self.dtype is bool_:
        raise RuntimeError(_messages.ARGMAX_BOOL.format(op=op))
    values = self._read()
    if dim is None:
        if self.numel() == 0:
            raise IndexError(_messages.ARGMAX_EMPTY.format(op=op))
        found, size = [_first_best(values, better)], (1,) * self.dim() if keepdim else ()
    else:
        axis = _strides.normalize_dim(dim, self.dim())
        if self.dim() == 0:
            found, size = [0], ()
        elif self._size[axis] == 0:
            raise IndexError(_messages.ARGMAX_EMPTY_DIM.format(op=op, dim=axis))
        else:
            n, inner = self._size[axis], _strides.numel(self._size[axis + 1:])
            outer = _strides.numel(self._size[:axis])
            found = [_first_best([values[(o * n + i) * inner + r] for i in range(n)], better)
                     for o in range(outer) for r in range(inner)]
            size = self._size[:axis] + ((1,) if keepdim else ()) + self._size[axis + 1:]
    return Tensor._from_values(found, size, int64, self.device)  # version 0, of an inference tensor too


def _first_best(row, better):
    """The position of the first element no other beats, except that a NaN wins (the first one), as in torch."""
    best = 0
    for i, x in enumerate(row):
        if x != x:
            return i
        if better(x, row[best]):
            best = i
    return best


def argmax(self, dim=None, keepdim=False):
    return _positions(self, dim, keepdim, "argmax", operator.gt)


def argmin(self, dim=None, keepdim=False):
    return _positions(self, dim, keepdim, "argmin", operator.lt)
