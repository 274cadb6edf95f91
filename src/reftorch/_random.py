"""Random numbers, for initialising models.

reftorch draws from Python's own generator (``random.Random``), so
``manual_seed(0)`` makes runs repeatable but the numbers are not the ones
torch draws. The course never compares random values with torch; it sets
weights explicitly when it does.
"""

import random

from . import _layout_checks, _strides
from ._arguments import _int_list_arg
from ._default_device import factory_device
from ._dtype import get_default_dtype
from ._tensor import Tensor
from ._version_counter import bump

_generator = random.Random(0)


def manual_seed(seed):
    global _generator
    _generator = random.Random(seed)


def _make(op, draw, size, dtype, device, requires_grad):
    size = _int_list_arg(op, "size", size)  # torch's TypeError for what is not a size
    _layout_checks.check_new_storage(size, (dtype or get_default_dtype()).itemsize)
    values = [draw() for _ in range(_strides.numel(size))]
    t = Tensor._from_values(values, size, dtype or get_default_dtype(), factory_device(device))
    t._requires_grad = requires_grad
    return t


def rand(*size, dtype=None, device=None, requires_grad=False):
    """Uniform numbers in [0, 1)."""
    return _make("rand", _generator.random, size, dtype, device, requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False):
    """Normal numbers: mean 0, standard deviation 1."""
    return _make("randn", lambda: _generator.gauss(0.0, 1.0), size, dtype, device, requires_grad)


def uniform_(tensor, low, high):
    """Fill ``tensor`` in place with uniform numbers (used by ``nn.Linear``)."""
    tensor._write([_generator.uniform(low, high) for _ in range(tensor.numel())])
    bump(tensor)
    return tensor
