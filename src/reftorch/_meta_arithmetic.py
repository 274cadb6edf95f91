"""``add_``, ``sub_``, ``mul_`` and ``div_`` when a meta tensor takes part: torch's meta kernels.

When any tensor operand of these four is on the meta device, the destination's or the other's,
torch runs their meta kernel: a few checks written in Python (``torch/_meta_registrations.py``),
with their own words, and no arithmetic. So ``cpu_tensor.mul_(meta_tensor)`` is allowed, even
into an expanded cpu tensor, and its numbers stay as they were.

* Python object, metadata and memory: the destination's own, all kept; nothing is written.
* Version counter: bumped by one all the same (autograd's in-place bookkeeping runs before the
  kernel).
* History: the op's node, as for any in-place write (``_inplace_write.write_inplace``).

What the kernels check, in this order:

* ``add_`` and ``sub_``: no float operand into an integer destination, nothing but a bool into a
  bool one. ``alpha`` is not looked at, and a bool may be subtracted.
* ``div_``: the quotient's dtype (float for integers) must fit the destination.
* ``mul_``: no dtype at all (``int_tensor.mul_(2.5)`` passes).
* all four: a tensor operand must broadcast to the destination's shape (``broadcast_shapes``:
  torch's Python version of it, with its own error).
"""

import builtins
import numbers

from . import _messages
from ._dtype import bool as bool_, get_default_dtype
from ._math import result_type
from ._size import Size
from ._tensor import Tensor

OPS = ("add_", "sub_", "mul_", "div_")


def runs_meta_kernel(op, self, other):
    """Does torch run ``op``'s meta kernel: is it one of the four, with a meta tensor operand?"""
    return op in OPS and any(isinstance(t, Tensor) and t.device.type == "meta" for t in (self, other))


def _kind(x):
    """``bool``, ``int`` or ``float``, for a tensor by its dtype, for a number as torch's parser
    passes it on: numpy's ints as ints, numpy's bool as a float (it is no Python bool)."""
    if isinstance(x, Tensor):
        return "bool" if x.dtype is bool_ else "float" if x.dtype.is_floating_point else "int"
    return "bool" if isinstance(x, builtins.bool) else "int" if isinstance(x, numbers.Integral) else "float"


def check(op, self, other):
    """Raise what torch's meta kernel of ``op`` raises for ``self.op(other)``; else nothing."""
    if op in ("add_", "sub_"):
        if _kind(self) == "int" and _kind(other) == "float":
            raise RuntimeError(_messages.META_PROMOTION_INT)
        if _kind(self) == "bool" and _kind(other) != "bool":
            raise RuntimeError(_messages.META_PROMOTION_BOOL)
    if op == "div_":
        dtype = result_type(self, other)
        dtype = dtype if dtype.is_floating_point else get_default_dtype()
        if not self.dtype.is_floating_point:
            raise RuntimeError(_messages.META_DIV_CAST.format(got=dtype, expected=self.dtype))
    if isinstance(other, Tensor):
        shape = broadcast_shapes(self.shape, other.shape)
        if shape != tuple(self.shape):
            raise RuntimeError(_messages.META_OUTPUT_SHAPE.format(shape=self.shape, broadcast=shape))


def broadcast_shapes(*shapes):
    """The shape ``shapes`` broadcast to, as torch's Python ``_broadcast_shapes`` finds it: from
    the last dimension, each size must equal the one found so far, or be 1; its error shows
    the offending shape and the common shape found up to there."""
    common = [1] * max(len(shape) for shape in shapes)
    for index, shape in enumerate(shapes):
        for dim in range(-1, -1 - len(shape), -1):
            if common[dim] == 1:
                common[dim] = shape[dim]
            if shape[dim] != 1 and shape[dim] != common[dim]:
                raise RuntimeError(_messages.META_BROADCAST.format(
                    length=shape[dim], dim=dim, index=index, shape=Size(shape), common=common))
    return tuple(common)
