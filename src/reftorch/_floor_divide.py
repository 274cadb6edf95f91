"""Floor division: ``a // b``, ``2 // a``, ``a.floor_divide(b)``.

The quotient rounded down (toward minus infinity, as Python's ``//``: ``-7 // 2`` is -4), for
integers and floats alike, with the dtype ``a + b`` would have (``int_tensor // 2.5`` is float).

* Python object, metadata and memory: a new tensor with new memory, as ``_math``'s arithmetic.
* Version counter: the result's own, at 0; the inputs are only read.
* History: torch has no derivative for it. When an input requires grad the result still gets
  a node, ``NotImplemented``, with an edge to each input that requires grad; backward through
  it raises. ``a //= b`` is ``_inplace.floor_divide_``.
"""

from . import _metadata_inplace
from ._dtype import bool as bool_, no_kernel
from ._math import _binary, _is_operand, as_operator, operand_refused, result_type, true_divide
from ._tensor import Tensor


def floor_of_quotient(x, y):
    """``x // y`` for two numbers, as torch's kernel computes it (the steps of Python's ``//``);
    a float divided by zero is inf or nan, an integer one torch's error."""
    if y == 0 and isinstance(x, float):
        return true_divide(x, y)
    if y == 0:
        raise RuntimeError("ZeroDivisionError")
    return x // y


def check_kernel(dtype):
    """torch has no floor division of bools (``True // True``): its kernel refuses the dtype."""
    if dtype is bool_:
        raise no_kernel("div_floor_cpu", bool_)


def _divide(dividend, divisor):
    """``dividend // divisor``, either of them a number (``2 // a``): into a new tensor."""
    dtype = result_type(dividend, divisor)
    check_kernel(dtype)
    inputs = [x for x in (dividend, divisor) if isinstance(x, Tensor) and x.requires_grad]
    return _binary(dividend, divisor, floor_of_quotient, lambda: _metadata_inplace.NotImplemented(
        *inputs, message="derivative for aten::floor_divide is not implemented"), dtype)


def floor_divide(self, other):
    if not _is_operand(other):
        raise operand_refused("floor_divide", other)
    return _divide(self, other)


def __rfloordiv__(self, other):
    """``2 // a``: torch runs ``floor_divide(2, a)``, the number as the dividend."""
    if not _is_operand(other):
        return NotImplemented
    return _divide(other, self)


__floordiv__ = as_operator(floor_divide)
