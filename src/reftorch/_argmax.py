"""``argmax`` and ``argmin``: where the largest (smallest) element is, not what it is.

``x.argmax()`` answers with a position: a new int64 tensor (one number, or one
per row with ``dim=``), in new memory, sharing nothing with ``x``. A position
cannot change by a small amount, so no gradient flows through it: even when
``x`` requires grad, the result does not, has no ``grad_fn`` and is a leaf.
Ties go to the first position; a NaN counts as larger (and smaller) than
everything, so the first NaN wins.
"""

import numpy as np

from . import _messages, _strides
from ._dtype import bool as bool_, int64
from ._tensor import Tensor
from ._version_counter import plain_kernel_writes


def _positions(self, dim, keepdim, op, pick):
    if dim is not None and not isinstance(dim, int):
        raise TypeError(f"{op}(): argument 'dim' must be int, not {type(dim).__name__}")
    if self.dtype is bool_:
        raise RuntimeError(_messages.ARGMAX_BOOL.format(op=op))
    values = self._elements()
    if dim is None:
        if self.numel() == 0:
            raise IndexError(_messages.ARGMAX_EMPTY.format(op=op))
        found = np.asarray(pick(values.reshape(-1)))
        if keepdim:
            found = found.reshape((1,) * self.dim())
    else:
        axis = _strides.normalize_dim(dim, self.dim())
        if self.dim() == 0:
            found = np.asarray(0)
        elif self._size[axis] == 0:
            raise IndexError(_messages.ARGMAX_EMPTY_DIM.format(op=op, dim=axis))
        else:
            found = pick(values, axis=axis)
            if keepdim:
                found = np.expand_dims(found, axis)
    return plain_kernel_writes(Tensor._from_values(found, int64, self.device), (self,))


def _first_nan_or(pick):
    """numpy's argmax/argmin, except that a NaN wins (the first one), as in torch."""
    def picked(values, axis=None):
        nan = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
        return np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), pick(values, axis=axis))
    return picked


def argmax(self, dim=None, keepdim=False):
    return _positions(self, dim, keepdim, "argmax", _first_nan_or(np.argmax))


def argmin(self, dim=None, keepdim=False):
    return _positions(self, dim, keepdim, "argmin", _first_nan_or(np.argmin))
