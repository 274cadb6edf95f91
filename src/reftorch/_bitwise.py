"""Bitwise operators: ``a | b``, ``a & b``, ``a ^ b``, ``~a``, ``a << b`` and ``a >> b``.

An integer's bits are its two's complement, as in C (``-1`` has every bit set); a bool is one
bit (``|`` is "or", ``&`` "and", ``^`` "exactly one", ``~`` "not"). The dtype is the one
``a + b`` would have (``bool_tensor | 4`` is int64). A float has no bits to combine: torch has
no kernel for it, and says so for ``float_tensor | 4`` and ``int_tensor | 2.5`` alike. The shifts
are for integers only (``bool_tensor << 1`` is int64, so it shifts; two bools do not), with C's
rules as torch's kernel writes them: a count below 0 or past the width shifts every bit out.

* Python object, metadata and memory: a new tensor with new memory, as ``_math``'s arithmetic.
* Version counter: the result's own, at 0; the inputs are only read.
* History: none. Only a float tensor can require grad, and none gets this far.
  ``a |= b``, ``a <<= b`` and the other in-place forms are in ``_inplace``.
"""

import operator

from . import _messages
from ._dtype import bool as bool_, no_kernel
from ._math import _binary, _is_operand, _result, as_operator, operand_refused, result_type, values_of


def check_kernel(kernel, dtype):
    """torch's error for a dtype with no bits to combine (the kernel is ``bitwise_or_cpu`` ...)."""
    if dtype.is_floating_point:
        raise no_kernel(kernel, dtype)


def _bitwise(op, name):
    """The method ``name`` (``bitwise_or``) combining the bits of ``self`` and ``other`` with ``op``."""
    def method(self, other):
        if not _is_operand(other):
            raise operand_refused(name, other)
        dtype = result_type(self, other)
        check_kernel(f"{name}_cpu", dtype)
        return _binary(self, other, op, lambda: None, dtype)
    method.__name__ = method.__qualname__ = name
    return method


bitwise_or, bitwise_and, bitwise_xor = (
    _bitwise(op, name) for op, name in ((operator.or_, "bitwise_or"), (operator.and_, "bitwise_and"),
                                        (operator.xor, "bitwise_xor")))
# a | b is b | a: the reflected operators (4 | a) compute the same.
__or__, __and__, __xor__ = (as_operator(f) for f in (bitwise_or, bitwise_and, bitwise_xor))
__ror__, __rand__, __rxor__ = __or__, __and__, __xor__


def bitwise_not(self):
    """``a.bitwise_not()``: every bit flipped (``~5`` is -6, ``~True`` is False)."""
    check_kernel("bitwise_not_cpu", self.dtype)
    flip = operator.not_ if self.dtype is bool_ else operator.invert
    return _result([flip(x) for x in values_of(self, self.dtype)], self._size, self.dtype, self.device,
                   inputs=(self,))


def __invert__(self):
    """``~a``: ``bitwise_not``, where torch words its refusal of a float for the operator."""
    if self.dtype.is_floating_point:
        raise TypeError(_messages.INVERT_FLOAT)
    return bitwise_not(self)


def shift_values(left, dtype):
    """The shift of one pair of numbers of ``dtype``, as torch's ``lshift_cpu`` / ``rshift_cpu``:
    a count below 0 or at least the width gives 0 to the left, and to the right the sign (``-1``
    or 0; an unsigned type has no sign bit to keep). The result is wrapped into ``dtype`` when
    stored, as C's unsigned shift leaves it (``1 << 63`` is the lowest int64)."""
    width = 8 * dtype.itemsize
    if left:
        return lambda a, b: 0 if b < 0 or b >= width else a << b
    most = width - dtype.is_signed
    return lambda a, b: a >> (most if b < 0 or b >= most else b)


def check_shift_kernel(kernel, dtype):
    """torch's error for a dtype the shift kernels do not take: a float, or bool."""
    if dtype.is_floating_point or dtype is bool_:
        raise no_kernel(kernel, dtype)


def shift_names(left):
    """The shift's method name and the name of torch's kernel for it (which its errors give)."""
    return ("bitwise_left_shift", "lshift_cpu") if left else ("bitwise_right_shift", "rshift_cpu")


def _shift(left):
    name, kernel = shift_names(left)

    def method(self, other):
        if not _is_operand(other):
            raise operand_refused(name, other)
        return shifted(self, other)

    def shifted(a, b):
        dtype = result_type(a, b)
        check_shift_kernel(kernel, dtype)
        return _binary(a, b, shift_values(left, dtype), lambda: None, dtype)

    def reflected(self, other):
        """``2 << a``: torch shifts the number by the tensor's counts."""
        if not _is_operand(other):
            return NotImplemented
        return shifted(other, self)

    method.__name__ = method.__qualname__ = name
    return method, reflected


(bitwise_left_shift, __rlshift__), (bitwise_right_shift, __rrshift__) = _shift(True), _shift(False)
__lshift__, __rshift__ = as_operator(bitwise_left_shift), as_operator(bitwise_right_shift)
