"""A tensor's numbers as Python objects: ``item()``, ``tolist()``, ``float(t)``, ``len(t)`` ...

Each of these reads the tensor's elements and hands out *new Python objects*
(floats, ints, bools, nested lists): nothing they return shares memory with
the tensor, and nothing about the tensor changes (no version bump, no graph).
``item()`` and ``float(t)`` need exactly one element; ``bool(t)`` too, which
is why ``if t:`` on a longer tensor raises. ``float(t)`` of a tensor that requires
grad, in grad mode, warns (once per process, as torch does) that the number has
left the graph. ``iter(t)`` and ``len(t)`` walk the first dimension: each
``t[i]`` is a view, not a number.
``_tensor_methods`` attaches these functions to ``Tensor``.
"""

from . import _messages, _meta, _strides
from ._warn import warn
from .autograd.grad_mode import is_grad_enabled

_warned_requires_grad = False  # torch's TORCH_WARN_ONCE: once per process


def _nested(values, size):
    """Numbers in row-major order as nested lists of ``size`` (a 0-d tensor's one number alone)."""
    if not size:
        return values[0]
    inner = _strides.numel(size[1:])
    if len(size) == 1:
        return list(values)
    return [_nested(values[i * inner:(i + 1) * inner], size[1:]) for i in range(size[0])]


def tolist(self):
    _meta.check_readable(self)
    return _nested(self._read(), self._size)


def item(self):
    _meta.check_item(self)
    if self.numel() != 1:
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
    return self._read()[0]


def __len__(self):
    if self.dim() == 0:
        raise TypeError("len() of a 0-d tensor")
    return self._size[0]


def __iter__(self):
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter([self[i] for i in range(self._size[0])])


def __bool__(self):
    if self.numel() != 1:
        raise RuntimeError(_messages.BOOL_AMBIGUOUS)
    return bool(self.item())


def __float__(self):
    global _warned_requires_grad
    if not _warned_requires_grad and self.requires_grad and is_grad_enabled():  # before any other check
        _warned_requires_grad = True
        warn(_messages.SCALAR_OF_REQUIRES_GRAD)
    return _python_number(self, float)


def __int__(self):
    return _python_number(self, int)


def _python_number(self, kind):
    """``float(t)`` and ``int(t)``: torch counts the elements itself first (a ValueError, where
    ``item()`` raises a RuntimeError)."""
    if self.numel() != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    return kind(self.item())


def __index__(self):
    if self._dtype.is_floating_point or self.numel() != 1:
        raise TypeError(_messages.NOT_AN_INDEX)
    return int(self.item())


def __format__(self, spec):
    if self.dim() == 0:
        return self.item().__format__(spec)
    return object.__format__(self, spec)
