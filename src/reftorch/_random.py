"""Random numbers, for initialising models.

reftorch draws from Python's own generator (``random.Random``), so
``manual_seed(0)`` makes runs repeatable but the numbers are not the ones
torch draws. The course never compares random values with torch; it sets
weights explicitly when it does.
"""

import random

from . import _layout_checks, _messages, _strides
from ._arguments import MISSING, _joined, _type_name
from ._factories import _given_size
from ._default_device import factory_device
from ._dtype import get_default_dtype
from ._tensor import Tensor
from ._version_counter import bump

_generator = random.Random(0)


def manual_seed(seed):
    global _generator
    _generator = random.Random(seed)


def _parse(op, args, options):
    """``rand``'s size, dtype, device and requires_grad, the size as ``zeros`` takes it. torch's
    ``rand`` and ``randn`` have a second signature, with a ``generator`` (reftorch has none):
    when a call of other than one argument fits neither, torch lists both signatures instead."""
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in reversed(options.items())]
    options = dict(options)
    size = options.pop("size", MISSING)
    unknown = {name: options.pop(name) for name in list(options) if name not in ("dtype", "device", "requires_grad")}
    if (unknown or (size is MISSING) == (not args)) and len(got) != 1:
        raise TypeError(_messages.INVALID_ARGUMENTS.format(op=op, got=_joined(got, args)) + _messages.RAND_SIGNATURES)
    size = _given_size(op, args, size, unknown)
    return size, options.get("dtype"), options.get("device"), options.get("requires_grad", False)


def _make(op, draw, args, options):
    size, dtype, device, requires_grad = _parse(op, args, options)
    _layout_checks.check_new_storage(size, (dtype or get_default_dtype()).itemsize)
    values = [draw() for _ in range(_strides.numel(size))]
    t = Tensor._from_values(values, size, dtype or get_default_dtype(), factory_device(device))
    t._requires_grad = requires_grad
    return t


def rand(*size, **options):
    """Uniform numbers in [0, 1)."""
    return _make("rand", _generator.random, size, options)


def randn(*size, **options):
    """Normal numbers: mean 0, standard deviation 1."""
    return _make("randn", lambda: _generator.gauss(0.0, 1.0), size, options)


def uniform_(tensor, low, high):
    """Fill ``tensor`` in place with uniform numbers (used by ``nn.Linear``)."""
    tensor._write([_generator.uniform(low, high) for _ in range(tensor.numel())])
    bump(tensor)
    return tensor
