"""Reading arguments the way torch's argument parser reads them.

torch accepts ``view(2, 3)`` and ``view((2, 3))`` alike, and answers a wrong
argument with a TypeError that names the function, the argument and the
position. These helpers give reftorch the same answers, so a mistake in the
course's code reads the same on both libraries.
"""

import builtins
import functools
import numbers

from . import _messages
from ._default_device import as_device, names_an_index
from ._device import device
from ._dtype import bool as bool_, dtype
from ._layout import memory_format, preserve_format
from ._nested_data import _PYTHON_TYPES
from ._tensor import Tensor


def _is_int(value):
    """An int as torch's parser takes one: a Python or numpy integer, or a one-element integer
    tensor. A bool is not an int here (``transpose(True, 0)`` is a TypeError), nor is a bool tensor."""
    if isinstance(value, Tensor):
        return value.numel() == 1 and not value.is_floating_point() and value.dtype is not bool_
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)  # numpy's ints are Integral


def _is_later_int(value):
    """An element after the first of a list of ints: torch's parser takes a bool there, as 0 or 1."""
    return isinstance(value, bool) or _is_int(value)


def _type_name(value):
    """A value's type as torch's parser names it: ``Tensor``, ``torch.dtype``, ``float``."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, (dtype, device)):
        return f"torch.{type(value).__name__}"
    return _messages.type_name(value)


def _int_arg(op, name, position, value):
    """torch's TypeError for an ``int`` argument that is not an int."""
    if not _is_int(value):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be int, not {_type_name(value)}")


def _int_list_arg(op, name, args):
    """``f(2, 3)`` or ``f((2, 3))`` as a tuple of ints, with torch's TypeErrors for anything else."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        # torch's parser words it differently for the first element and the rest.
        if args[0] and not _is_int(args[0][0]):
            raise TypeError(
                _messages.ARGUMENT_ELEMENT_TYPE.format(
                    fn=op, name=name, position=1, got=_type_name(args[0][0]), pos=0
                )
            )
        for pos, n in enumerate(args[0], start=1):
            if not _is_later_int(n):
                raise TypeError(
                    _messages.ARGUMENT_UNPACK.format(fn=op, name=name, pos=pos, got=_type_name(n))
                )
        return tuple(int(n) for n in args[0])
    if args and not _is_int(args[0]):
        if len(args) > 1:
            raise TypeError(f"{op}() takes 1 positional argument but {len(args)} were given")
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn=op, name=name, position=1, expected='tuple of ints', got=_type_name(args[0])
        ))
    for pos, n in enumerate(args[1:], start=2):
        if not _is_later_int(n):
            raise TypeError(
                _messages.ARGUMENT_UNPACK.format(fn=op, name=name, pos=pos, got=_type_name(n))
            )
    return tuple(int(n) for n in args)


def _view_shape_arg(args):
    """view()'s shape; view also has a ``view(dtype)`` overload, hence torch's longer message."""
    single = len(args) == 1 and isinstance(args[0], (tuple, list))
    items = args[0] if single else args
    if all(_is_int(n) if i == 0 else _is_later_int(n) for i, n in enumerate(items)):
        return tuple(int(n) for n in items)
    if len(items) > 1 and _is_int(items[0]):
        return _int_list_arg("view", "size", tuple(items))
    got = ", ".join(_type_name(a) for a in args)
    if len(args) != 1:
        raise TypeError(
            _messages.INVALID_ARGUMENTS.format(op="view", got=got) + "".join(_messages.VIEW_SIGNATURES)
        )
    if single:
        shown = f"{_type_name(args[0])} of ({', '.join(_type_name(n) for n in items)})"
    else:
        shown = got
    why = _messages.DID_NOT_MATCH.format(got=shown)
    raise TypeError(
        _messages.INVALID_ARGUMENTS.format(op="view", got=got)
        + "".join(signature + why for signature in _messages.VIEW_SIGNATURES)
    )


# A default that tells "not given" apart from None, for torch's "missing" message.
MISSING = object()


def _check_given(op, **arguments):
    """torch's TypeError for required arguments left out (its grammar, word for word). torch names
    every required argument from the first one missing on, given or not: ``full(fill_value=1)``
    is missing "size", "fill_value"."""
    first = next((i for i, value in enumerate(arguments.values()) if value is MISSING), None)
    if first is not None:
        missing = list(arguments)[first:]
        plural = "argument" if len(missing) > 1 else "arguments"
        names = ", ".join(f'"{name}"' for name in missing)
        raise TypeError(f"{op}() missing {len(missing)} required positional {plural}: {names}")


def _listed_type_name(value):
    """A value's type as torch's parser shows it among the arguments of one overload:
    ``list of [int, int]``, ``tuple of (int,)`` for a sequence."""
    if not isinstance(value, (list, tuple)):
        return _type_name(value)
    items = ", ".join(_type_name(x) for x in value)
    if isinstance(value, list):
        return f"list of [{items}]"
    return f"tuple of ({items}{',' if len(value) == 1 else ''})"


def _joined(parts, positional):
    """torch's parser lists each argument with ", " after it, then drops the last ", " only when
    some argument was positional: ``(int, length=float)`` but ``(input=Tensor, )``."""
    text = "".join(part + ", " for part in parts)
    return text[:-2] if positional else text


def parse_overloads(op, overloads, args, kwargs):
    """The values of ``op``'s parameters, in order, as the first of its ``overloads`` that takes
    ``args`` and ``kwargs`` binds them; torch's TypeError when none does, as its parser words it.

    ``overloads``: ``(signature, checks)`` pairs, such as ``("int dim, int start, int length",
    (_is_int, _is_int, _is_int))``; every overload has the same parameter names. The error shows
    the arguments given (keywords last, the last given first, as torch's dictionary iterates), each
    signature, and under a signature that takes that many arguments the keywords it does not know,
    or else every argument marked ``!float!`` where its type does not match.
    """
    names = [parameter.split()[-1] for parameter in overloads[0][0].split(", ")]
    for _signature, checks in overloads:
        if len(args) <= len(names) and set(kwargs) == set(names[len(args):]):
            bound = dict(zip(names, args), **kwargs)
            if all(check(bound[name]) for name, check in zip(names, checks)):
                return [bound[name] for name in names]
    keywords = list(reversed(kwargs))
    got = _joined([_type_name(a) for a in args] + [f"{k}={_type_name(kwargs[k])}" for k in keywords], args)
    text = _messages.INVALID_ARGUMENTS.format(op=op, got=got)
    for signature, checks in overloads:
        text += f" * ({signature})\n"
        if len(args) + len(kwargs) != len(names):
            continue
        unknown = [k for k in keywords if k not in names[len(args):]]
        if unknown:
            text += _messages.KEYWORDS_INCORRECT.format(", ".join(unknown))
            continue
        values = list(args) + [kwargs[name] for name in names[len(args):]]
        marked = []
        for i, (name, value, check) in enumerate(zip(names, values, checks)):
            shown = ("" if i < len(args) else f"{name}=") + _listed_type_name(value)
            marked.append(shown if check(value) else f"!{shown}!")
        text += _messages.ARGUMENTS_MARKED.format(_joined(marked, args))
    raise TypeError(text)


def check_no_arguments(op, args, keywords):
    """torch's TypeError for a method that takes nothing (``t.t(0)``): Python's own, for a C method
    of ``TensorBase``, keywords checked first."""
    if keywords:
        raise TypeError(f"TensorBase.{op}() takes no keyword arguments")
    if args:
        raise TypeError(f"TensorBase.{op}() takes no arguments ({len(args)} given)")


def no_arguments(method):
    """``method`` (it takes ``self`` only) as torch's C method of its name: an argument is refused
    first, with ``check_no_arguments``'s text; ``method`` stays as its lesson writes it."""
    @functools.wraps(method)
    def checked(self, *args, **keywords):
        check_no_arguments(method.__name__, args, keywords)
        return method(self)
    return checked


def check_keywords(op, unknown):
    """torch's TypeError for keywords ``op`` does not take (the first given is named). torch's
    parser looks for them after the arguments it needs, so ``zeros(shape=(2,))`` is missing "size"."""
    if unknown:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(unknown))}'")


def bind(op, names, args, keywords):
    """The values of ``op``'s required parameters ``names``, by position or by keyword, as torch's
    parser binds a function with one signature; its errors in its order: too many positional
    arguments, one given twice, the missing ones, then keywords it does not take."""
    if len(args) > len(names):
        counted = "1 positional argument" if len(names) == 1 else f"{len(names)} positional arguments"
        raise TypeError(f"{op}() takes {counted} but {len(args)} were given")
    keywords = dict(keywords)
    values = list(args) + [keywords.pop(name, MISSING) for name in names[len(args):]]
    _check_given(op, **dict(zip(names, values)))
    for name in keywords:  # what is left: given twice, or unknown
        if name in names:
            raise TypeError(f"{op}() got multiple values for argument '{name}'")
        check_keywords(op, [name])
    return values


def _to_arguments(args, kwargs, index_copies=True):
    """Sort ``to``'s arguments into (device, dtype, copy), following torch's three forms:

    ``to(device=None, dtype=None, non_blocking=False, copy=False)``,
    ``to(dtype, non_blocking=False, copy=False)`` and
    ``to(tensor, non_blocking=False, copy=False)``.

    A cpu or meta device named with an index (``"cpu:0"``) is not the device of a tensor there, which
    has none: torch copies, so ``copy`` comes back True (unless ``index_copies`` is False: the caller's
    own ``copy`` only).
    """
    original = args
    args = list(args)
    to_device = to_dtype = None
    first = args[0] if args else None
    if _is_dtype(first):
        to_dtype = args.pop(0)
    elif isinstance(first, Tensor):
        other = args.pop(0)
        to_device, to_dtype = other.device, other.dtype
    elif args and (first is None or isinstance(first, (str, device))):
        to_device = args.pop(0)
        if args and (args[0] is None or _is_dtype(args[0])):
            to_dtype = args.pop(0)
    flags = args  # what is left: non_blocking, copy
    bad_dtype = not (kwargs.get("dtype") is None or _is_dtype(kwargs["dtype"]))
    bad_format = not isinstance(kwargs.get("memory_format") or preserve_format, memory_format)
    if len(flags) > 2 or not all(isinstance(f, builtins.bool) for f in flags) or bad_dtype or bad_format:
        got = [_type_name(a) for a in original] + [f"{k}={_type_name(v)}" for k, v in reversed(kwargs.items())]
        got = ", ".join(got) if original else "".join(g + ", " for g in got)  # torch lists keywords last first
        raise TypeError(
            _messages.INVALID_ARGUMENTS.format(op="to", got=got)
            + _messages.TO_SIGNATURES
        )
    copy = flags[1] if len(flags) > 1 else False
    to_device = kwargs.pop("device", to_device)
    to_dtype = kwargs.pop("dtype", to_dtype)
    copy = kwargs.pop("copy", copy)
    kwargs.pop("non_blocking", None)
    fmt = kwargs.pop("memory_format", None) or preserve_format
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if to_dtype is complex:
        raise TypeError(_messages.PYTHON_COMPLEX_DTYPE)
    to_device, renamed = as_device(to_device), to_device is not None and names_an_index(to_device)
    return to_device, _PYTHON_TYPES.get(to_dtype, to_dtype), copy or (index_copies and renamed), fmt


def _is_dtype(value):
    """A dtype, or one of the Python types torch also reads as one (``float`` is float64)."""
    return isinstance(value, dtype) or (isinstance(value, type) and value in (*_PYTHON_TYPES, complex))
