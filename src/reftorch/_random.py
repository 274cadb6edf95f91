"""Random numbers, for initialising models.

reftorch draws from numpy's generator, so ``manual_seed(0)`` makes runs
repeatable but the numbers are not the ones torch draws. The course never
compares random values with torch; it sets weights explicitly when it does.
"""

import numpy as np

from ._default_device import factory_device
from ._dtype import get_default_dtype
from ._tensor import Tensor
from ._version_counter import bump

_generator = np.random.default_rng(0)


def manual_seed(seed):
    global _generator
    _generator = np.random.default_rng(seed)


def _make(values, dtype, device, requires_grad):
    t = Tensor._from_values(values, dtype or get_default_dtype(), factory_device(device))
    t._requires_grad = requires_grad
    return t


def rand(*size, dtype=None, device=None, requires_grad=False):
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    return _make(_generator.random(size), dtype, device, requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False):
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    return _make(_generator.standard_normal(size), dtype, device, requires_grad)


def uniform_(tensor, low, high):
    """Fill ``tensor`` in place with uniform numbers (used by ``nn.Linear``)."""
    tensor._elements()[...] = _generator.uniform(low, high, tensor._size)
    bump(tensor)
    return tensor
