"""Tensors filled with one number: ``zeros``, ``ones``, ``full``, ``empty``, ``arange``.

Each allocates a new storage and writes every element. ``*_like(t)`` takes
``t``'s shape (and dtype and device, unless given) and lays the new memory out
as ``clone()`` would; it shares nothing else with ``t``: not its memory, not
its version counter, not its history. ``t.new_zeros`` ... take only their
default dtype and device from ``t``.
"""

import builtins
import math
import numbers

from . import _layout_checks, _messages, _strides
from ._arguments import MISSING, _check_given, _int_list_arg, _is_int, _joined, _type_name, bind, check_keywords
from ._creation import with_requires_grad
from ._default_device import as_device, factory_device
from ._dtype import (
    bool as bool_, check_float_scalar, check_scalar, check_scalar_int, float16, get_default_dtype, int64, no_kernel,
    refuse_complex,
)
from ._layout import contiguous_format, memory_format as memory_format_type, preserve_format
from ._nested_data import check_dtype, check_factory_arguments, infer_dtype
from ._tensor import Tensor
from ._torch_bookkeeping import plain_kernel_writes
from ._overrides import overridable


def _size_arg(size, op):
    size = _int_list_arg(op, "size", size)
    for n in size:
        if n < 0 and op == "zeros":
            raise RuntimeError(f"{op}: Dimension size must be non-negative.")
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{', '.join(map(str, size))}]")
    return tuple(size)


def _given_size(op, args, size, unknown=()):
    """The size as torch's parser takes it: ``zeros(2, 3)``, ``zeros((2, 3))`` or
    ``zeros(size=(2, 3))``; ``zeros()`` is a missing argument (``zeros(())`` is 0-d), and so is
    ``zeros(shape=(2,))``: torch looks for the size before it looks at ``unknown`` keywords."""
    if args and size is not MISSING:
        raise TypeError(f"{op}() got multiple values for argument 'size'")
    if not args:
        _check_given(op, size=size)
    check_keywords(op, unknown)
    if args:
        return _size_arg(args, op)
    if not isinstance(size, (tuple, list)) or (size and not _is_int(size[0])):  # torch names the whole
        raise TypeError(f"{op}(): argument 'size' must be tuple of ints, not {_type_name(size)}")
    return _size_arg((size,), op)


def full(*args, dtype=None, device=None, requires_grad=False, **keywords):
    size, fill_value = bind("full", ["size", "fill_value"], args, keywords)
    return _full("full", size, fill_value, dtype, device, requires_grad)


def _full(op, size, fill_value, dtype, device, requires_grad):
    """``full`` and ``t.new_full``, each refusing a wrong argument in its own name (``op``)."""
    dtype = check_factory_arguments(dtype, requires_grad, op, optional=True)
    refuse_complex(fill_value)
    if not isinstance(fill_value, numbers.Real):  # numpy's numbers too
        raise TypeError(
            _messages.ARGUMENT_TYPE.format(
                fn=op, name='fill_value', position=2, expected='Number', got=_messages.type_name(fill_value)
            )
        )
    if not isinstance(size, (tuple, list)):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn=op, name='size', position=1, expected='tuple of ints', got=_messages.type_name(size)
        ))
    size = _size_arg((size,), op)
    dtype = dtype or infer_dtype(fill_value)
    check_scalar(fill_value, dtype)
    if dtype is not float16:  # torch's full rounds a float16 overflow to inf
        check_float_scalar(fill_value, dtype)
    _layout_checks.check_new_storage(size, dtype.itemsize)
    t = Tensor._from_values(fill_value, size, dtype, factory_device(device))  # cast to dtype (wrapping, as in C)
    return with_requires_grad(t, requires_grad)


def zeros(*args, size=MISSING, dtype=None, device=None, requires_grad=False, **unknown):
    dtype = check_factory_arguments(dtype, requires_grad, "zeros", optional=True)
    return full(_given_size("zeros", args, size, unknown), 0, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def ones(*args, size=MISSING, dtype=None, device=None, requires_grad=False, **unknown):
    dtype = check_factory_arguments(dtype, requires_grad, "ones", optional=True)
    return full(_given_size("ones", args, size, unknown), 1, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def empty(*args, size=MISSING, dtype=None, device=None, requires_grad=False, memory_format=None, **unknown):
    """New memory that is not initialised (here it happens to hold zeros), laid out as
    ``memory_format`` says (row-major unless channels_last is asked for)."""
    dtype = check_factory_arguments(dtype, requires_grad, "empty", optional=True) or get_default_dtype()
    size = _given_size("empty", args, size, unknown)
    if memory_format is not None and not isinstance(memory_format, memory_format_type):
        raise TypeError(_messages.ARGUMENT_TYPE_BY_KEYWORD.format(
            fn="empty", name="memory_format", expected="torch.memory_format", got=_type_name(memory_format)))
    if memory_format is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    strides = _strides.strides_for(size, memory_format or contiguous_format)
    _layout_checks.check_new_storage(size, dtype.itemsize)
    t = Tensor._from_values(0, size, dtype, factory_device(device), strides)
    return with_requires_grad(t, requires_grad)


def _arange_bounds(args, keywords):
    """``arange``'s bounds given by keyword too (``arange(end=3)``, ``arange(1, end=3)``), as the
    positional arguments of the signature that takes them. A call that none takes: with one
    argument only ``(end)`` could, and its ``end`` is missing; with more torch lists all three."""
    if not keywords:
        return args
    names = ("end",) if not args and set(keywords) == {"end"} else ("start", "end", "step")
    given = dict(zip(names, args), **keywords)
    if (set(keywords) - set(names[len(args):]) or "end" not in given
            or ("step" in given and "start" not in given)):
        if len(args) + len(keywords) == 1:
            _check_given("arange", end=MISSING)
        got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in reversed(keywords.items())]
        raise TypeError(_messages.INVALID_ARGUMENTS.format(op="arange", got=_joined(got, args))
                        + _messages.ARANGE_SIGNATURES)
    if "start" not in given:
        return (given["end"],)
    return tuple(given[name] for name in ("start", "end", "step") if name in given)


def arange(*args, dtype=None, device=None, requires_grad=False, **keywords):
    """``arange(end)``, ``arange(start, end)`` or ``arange(start, end, step)``, by position or by keyword."""
    args = _arange_bounds(args, keywords)
    for bound in args:
        refuse_complex(bound)
    is_number = [isinstance(a, numbers.Real) for a in args]
    if len(args) == 1 and not is_number[0]:
        raise TypeError(f"arange(): argument 'end' (position 1) must be Number, not {_messages.type_name(args[0])}")
    if not 1 <= len(args) <= 3 or not all(is_number):
        got = ", ".join(_type_name(a) for a in args)
        raise TypeError(
            _messages.INVALID_ARGUMENTS.format(op="arange", got=got)
            + _messages.ARANGE_SIGNATURES
        )
    start, end, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
    for bound in (start, end, step):
        check_scalar_int(bound)
    dtype = check_dtype(dtype, "arange")
    kinds = {infer_dtype(x) for x in (start, end, step)}
    dtype = dtype or (get_default_dtype() if any(d.is_floating_point for d in kinds) else int64)
    device = factory_device(device)
    if dtype is bool_ and device.type != "meta":  # the meta kernel counts nothing, so it has no dtype to refuse
        raise no_kernel("arange_cpu", bool_)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if not dtype.is_floating_point:  # torch counts in int64 for every integer dtype (int8 wraps, 2**63 does not fit)
        for bound in (start, end, step):
            check_scalar(bound, int64)
    count = math.ceil((end - start) / step)
    values = [start + builtins.float(i * step) for i in range(count)]  # in float64, then rounded to dtype
    return with_requires_grad(Tensor._from_values(values, (count,), dtype, device), requires_grad)


def _like(fill, self, dtype, device, requires_grad, memory_format, op):
    """A new tensor shaped like ``self``, laid out as ``clone(memory_format=...)`` would lay it out.
    ``op`` (``"ones_like"`` ...) is the name torch's refusals give."""
    if self.is_sparse:
        raise NotImplementedError(_messages.SPARSE_UNSUPPORTED.format(name="*_like"))
    dtype = check_factory_arguments(dtype, requires_grad, op, optional=True)
    dtype = dtype or self.dtype
    if memory_format in (None, preserve_format):
        strides = _strides.preserve_format_strides(self._size, self._stride)
    else:
        strides = _strides.strides_for(self._size, memory_format)
    t = Tensor._from_values(fill, self._size, dtype, as_device(device) or self.device, strides)
    return with_requires_grad(t, requires_grad)
_like = overridable(_like)


def _check_input(op, input, args):
    """torch's TypeError for an ``input`` that is no tensor (its position named if it had one)."""
    if not isinstance(input, Tensor):
        text = _messages.ARGUMENT_TYPE if args else _messages.ARGUMENT_TYPE_BY_KEYWORD
        raise TypeError(text.format(fn=op, name="input", position=1, expected="Tensor", got=_type_name(input)))


def zeros_like(*args, dtype=None, device=None, requires_grad=False, memory_format=None, **keywords):
    input, = bind("zeros_like", ["input"], args, keywords)
    _check_input("zeros_like", input, args)
    return _like(0, input, dtype, device, requires_grad, memory_format, "zeros_like")


def ones_like(*args, dtype=None, device=None, requires_grad=False, memory_format=None, **keywords):
    input, = bind("ones_like", ["input"], args, keywords)
    _check_input("ones_like", input, args)
    return _like(1, input, dtype, device, requires_grad, memory_format, "ones_like")


def empty_like(*args, dtype=None, device=None, requires_grad=False, memory_format=None, **keywords):
    input, = bind("empty_like", ["input"], args, keywords)
    _check_input("empty_like", input, args)
    return _like(0, input, dtype, device, requires_grad, memory_format, "empty_like")


def full_like(*args, dtype=None, device=None, requires_grad=False, memory_format=None, **keywords):
    input, fill_value = bind("full_like", ["input", "fill_value"], args, keywords)
    _check_input("full_like", input, args)
    return _like(fill_value, input, dtype, device, requires_grad, memory_format, "full_like")


def new_zeros(self, *args, size=MISSING, dtype=None, device=None, requires_grad=False, **unknown):
    t = zeros(_given_size("new_zeros", args, size, unknown), dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
    return plain_kernel_writes(t, (self,))


def new_ones(self, *args, size=MISSING, dtype=None, device=None, requires_grad=False, **unknown):
    t = ones(_given_size("new_ones", args, size, unknown), dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
    return plain_kernel_writes(t, (self,))


def new_empty(self, *args, size=MISSING, dtype=None, device=None, requires_grad=False, **unknown):
    return empty(_given_size("new_empty", args, size, unknown), dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def new_full(self, *args, dtype=None, device=None, requires_grad=False, **keywords):
    size, fill_value = bind("new_full", ["size", "fill_value"], args, keywords)
    t = _full("new_full", size, fill_value, dtype or self.dtype, device or self.device, requires_grad)
    return plain_kernel_writes(t, (self,))
