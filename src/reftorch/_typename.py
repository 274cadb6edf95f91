"""``torch.typename``: how torch's error messages name the type of a value.

A tensor is named by its legacy type (``t.type()``: ``torch.FloatTensor``); a
class or function by its qualified name; anything else by its class, prefixed
with the module unless it is a builtin: ``int``, ``collections.OrderedDict``.
Given a dtype or such a name, ``t.type(...)`` converts instead, as ``to`` does.
"""

import builtins

from . import _dtype
from ._default_device import as_device
from ._tensor import Tensor


def type(self, dtype=None, non_blocking=False):  # noqa: A001 - torch's name
    """``t.type()``: the legacy type name. ``t.type(float64)`` or ``t.type("torch.DoubleTensor")`` is
    ``t.to(...)``: ``t`` itself if nothing changes, else a copy on new memory (version 0, a node
    ``ToCopyBackward0`` if ``t`` requires grad)."""
    if dtype is None:
        name = self._dtype._short_name + "Tensor"
        return f"torch.cuda.{name}" if self.is_cuda else f"torch.{name}"
    if isinstance(dtype, _dtype.dtype):
        return self.to(dtype)
    if isinstance(dtype, builtins.type):
        dtype = "torch.Tensor" if dtype is Tensor else _type_name_in_c(dtype)  # Parameter is invalid
    if not isinstance(dtype, str):
        raise TypeError("dtype must be a type, str, or dtype object")
    names = {f"torch.{d._short_name}Tensor": ("cpu", d) for d in _dtype._ALL}
    names.update({"torch.cuda." + name[6:]: ("cuda", d) for name, (_, d) in names.items()})
    names["torch.Tensor"] = ("cpu", _dtype.get_default_dtype())
    if dtype not in names:
        raise ValueError(f"invalid type: '{dtype}'")
    device, dtype = names[dtype]
    return self.to(as_device(device), dtype)


def _type_name_in_c(cls):
    """How torch's C++ names a class it is given (its ``tp_name``): a class from a ``class``
    statement, or a builtin, by its bare name (``float``, ``Parameter``); any other C type with
    its module (``numpy.float32``)."""
    if cls.__module__ == "builtins" or cls.__flags__ & _HEAP_TYPE:
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"


_HEAP_TYPE = 1 << 9  # CPython's Py_TPFLAGS_HEAPTYPE: the class was made at run time (a class statement)


def typename(obj):
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    return f"{module}.{qualname}"
