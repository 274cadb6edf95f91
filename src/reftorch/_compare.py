"""Comparing whole tensors: ``equal``, ``isclose`` and ``allclose``.

After a copy, the first question is "are the numbers still the same?".

* ``torch.equal(a, b)``: one Python bool. True when the shapes are equal and
  every element is equal, after both are promoted to a common dtype (so an
  int tensor can equal a float one). NaN equals nothing, not even itself.
* ``torch.isclose(a, b, rtol, atol)``: a bool tensor, element by element:
  ``|a - b| <= atol + |rtol * b|``. Both must have the same dtype; NaN is
  close to NaN only with ``equal_nan=True``. The arithmetic is done in the
  tensors' own dtype (float32 rounds), exactly as torch does it.
* ``torch.allclose(...)``: ``isclose(...).all()``, as a Python bool.

None of them looks at storage, strides, version counters or the graph: two
tensors on different memory can be equal, and a tensor that requires grad
is compared like any other (the result never requires grad).
"""

import builtins
import math
import numbers

from . import _messages, _shapes
from ._dtype import bool as bool_, compute_dtype, get_default_dtype, promote_types
from ._elements import cast
from ._math import _result, values_of
from ._tensor import Tensor


def _tensor_arg(op, name, position, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be Tensor, not {_messages.type_name(value)}")


def _tolerance_args(op, first_position, rtol, atol, equal_nan, positional):
    """torch's TypeErrors for rtol, atol and equal_nan (positions only when passed by position)."""
    for index, (name, value) in enumerate((("rtol", rtol), ("atol", atol))):
        if isinstance(value, Tensor) and value.numel() == 1:
            continue
        if not isinstance(value, numbers.Real):
            where = f" (position {first_position + index})" if index < positional else ""
            raise TypeError(f"{op}(): argument '{name}'{where} must be float, not {_messages.type_name(value)}")
    if not isinstance(equal_nan, builtins.bool):
        where = f" (position {first_position + 2})" if positional > 2 else ""
        raise TypeError(f"{op}(): argument 'equal_nan'{where} must be bool, not {_messages.type_name(equal_nan)}")


# --- equal -------------------------------------------------------------------

def _equal(a, b):
    if "meta" in (a.device.type, b.device.type):  # no numbers to compare: torch has no kernel
        raise NotImplementedError(_messages.META_EQUAL)
    if a.device != b.device:
        raise RuntimeError(_messages.EQUAL_DEVICES.format(a.device, b.device))
    if a.shape != b.shape:
        return False
    same_elements = a._storage is b._storage and a._geometry() == b._geometry() and a.dtype is b.dtype
    if same_elements and not a.dtype.is_floating_point:
        return True  # torch's shortcut: the very same integers
    dtype = promote_types(a.dtype, b.dtype)
    return all(x == y for x, y in zip(values_of(a, dtype), values_of(b, dtype)))  # nan == nan is False


def equal(input, other):
    """``torch.equal``: same shape and the same numbers (after type promotion)."""
    _tensor_arg("equal", "input", 1, input)
    _tensor_arg("equal", "other", 2, other)
    return _equal(input, other)


def equal_method(self, other):
    """``a.equal(b)``."""
    _tensor_arg("equal", "other", 1, other)
    return _equal(self, other)


# --- isclose and allclose ------------------------------------------------------

def _isclose(a, b, rtol, atol, equal_nan):
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{a.dtype._short_name} did not match {b.dtype._short_name}")
    rtol, atol = float(rtol), float(atol)
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    shape = _shapes.broadcast_shapes(a._size, b._size)
    x, y = values_of(a, a.dtype, shape), values_of(b, b.dtype, shape)
    # torch builds the result with ``a == b`` and then ORs into it in place,
    # once per rule that applies: each OR bumps the result's version.
    writes = 0
    close = [p == q for p, q in zip(x, y)]
    if equal_nan and a.dtype.is_floating_point:
        close = [c or (p != p and q != q) for c, p, q in zip(close, x, y)]
        writes += 1
    if rtol != 0 or atol != 0:
        close = [c or w for c, w in zip(close, _within_tolerance(a.dtype, x, y, rtol, atol))]
        writes += 1
    result = _result(close, shape, bool_, a.device, inputs=(a, b))
    for _ in range(writes):
        result._version_counter.bump()
    return result


def _within_tolerance(dtype, x, y, rtol, atol):
    """``isfinite(|x - y|) & (|x - y| <= atol + |rtol * y|)``, each step in torch's dtypes.

    Integers and bools are compared as floats of the default dtype (so
    16777217 and 16777216 are the same float32). A float16 step is computed
    in float32 and rounded to float16, as torch's CPU kernels do.
    """
    if not dtype.is_floating_point:
        dtype = get_default_dtype()
        x, y = cast(x, dtype), cast(y, dtype)
    # Each step is one operation in float64, so rounding it to the dtype (through
    # float32, for float16) is the step done in torch's types.
    rtol, atol = cast([rtol], compute_dtype(dtype))[0], cast([atol], compute_dtype(dtype))[0]
    scaled = [abs(v) for v in cast([q * rtol for q in y], dtype)]
    allowed = cast([atol + s for s in scaled], dtype)
    actual = [abs(v) for v in cast([p - q for p, q in zip(x, y)], dtype)]
    return [math.isfinite(d) and d <= limit for d, limit in zip(actual, allowed)]


def isclose(input, other, *args, **kwargs):
    """``torch.isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)``: element
    by element, ``|input - other| <= atol + |rtol * other|``."""
    _tensor_arg("isclose", "input", 1, input)
    _tensor_arg("isclose", "other", 2, other)
    rtol, atol, equal_nan = _tolerances("isclose", 3, args, kwargs)
    return _isclose(input, other, rtol, atol, equal_nan)


def isclose_method(self, other, *args, **kwargs):
    """``a.isclose(b, rtol=1e-05, atol=1e-08, equal_nan=False)``."""
    _tensor_arg("isclose", "other", 1, other)
    rtol, atol, equal_nan = _tolerances("isclose", 2, args, kwargs)
    return _isclose(self, other, rtol, atol, equal_nan)


def _tolerances(op, first_position, args, kwargs):
    """rtol, atol, equal_nan from positional and keyword arguments, checked as torch checks them."""
    names = ("rtol", "atol", "equal_nan")
    if len(args) > 3:
        raise TypeError(_messages.POSITIONAL_COUNT.format(
            op=op, low=first_position - 1, high=first_position + 2, given=len(args) + first_position - 1
        ))
    values = dict(zip(names, (1e-05, 1e-08, False)))
    values.update(zip(names, args))
    for name, value in kwargs.items():
        if name not in names:
            raise TypeError(f"{op}() got an unexpected keyword argument '{name}'")
        values[name] = value
    _tolerance_args(op, first_position, values["rtol"], values["atol"], values["equal_nan"], len(args))
    return values["rtol"], values["atol"], values["equal_nan"]


def allclose(input, other, *args, **kwargs):
    """``torch.allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)``: True
    when every element is close (see ``isclose``)."""
    _tensor_arg("allclose", "input", 1, input)
    _tensor_arg("allclose", "other", 2, other)
    rtol, atol, equal_nan = _tolerances("allclose", 3, args, kwargs)
    return all(_isclose(input, other, rtol, atol, equal_nan)._read())


def allclose_method(self, other, *args, **kwargs):
    _tensor_arg("allclose", "other", 1, other)
    rtol, atol, equal_nan = _tolerances("allclose", 2, args, kwargs)
    return all(_isclose(self, other, rtol, atol, equal_nan)._read())
