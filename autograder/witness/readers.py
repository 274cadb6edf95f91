"""Reading a learner's result without asking it: the witness's eyes on reftorch.

A learner's function could return a subclass of ``Tensor`` whose ``stride()``
lies, an object that only looks like a tensor, or a tensor whose ``grad_fn`` is
a hand-made class named ``CloneBackward0``. An honest mistake of that kind is
reported as such, so the reftorch side is read like this:

* the object must be *exactly* reftorch's ``Tensor`` (or, where a model is
  involved, exactly ``nn.Parameter``): no subclass, no look-alike;
* every fact is read by reftorch's own functions, taken from the class when
  this module was imported, and applied to the object: the strided ``stride``
  function ``Tensor`` holds, applied to ``t``, never ``t.stride()``;
* memory is identified by the address of the storage's bytes, and the storage
  must be exactly reftorch's ``UntypedStorage``;
* a ``grad_fn`` must be one of the node classes reftorch defines.

This module runs in the student's kernel (the witness), where the student's
code could change anything: what it reads is evidence for the judge, never a
verdict (see ``autograder/README.md``).
"""

import sys

import reftorch
import reftorch.nn
from reftorch._storage import UntypedStorage
from reftorch.autograd.graph import Node

_type = type
_isinstance = isinstance
_Tensor = reftorch.Tensor
_Parameter = reftorch.nn.Parameter
_members = dict(vars(_Tensor))


def _method(name):
    """The strided function of a ``Tensor`` method, as the class holds it at import.

    The class holds some methods through a per-layout descriptor
    (``reftorch.sparse.ByLayout``); looked up on the class, it hands
    back the strided function itself, as a plain function does."""
    return _members[name].__get__(None, _Tensor)


_UNTYPED_STORAGE = _method("untyped_storage")
_STRIDE = _method("stride")
_STORAGE_OFFSET = _method("storage_offset")
_TOLIST = _method("tolist")
_NUMEL = _method("numel")
_SHAPE = _members["shape"].fget
_DTYPE = _members["dtype"].fget
_REQUIRES_GRAD = _members["requires_grad"].fget
_IS_LEAF = _members["is_leaf"].fget
_GRAD_FN = _members["grad_fn"].fget
_BASE = _members["_base"].fget
_VERSION = _members["_version"].fget
_GRAD = _members["_grad"].__get__
_DICT = _members["__dict__"].__get__
_DATA_PTR = vars(UntypedStorage)["data_ptr"]
_NEXT_FUNCTIONS = vars(Node)["next_functions"].fget
_BYTES = memoryview  # what UntypedStorage keeps its bytes in


def _reftorch_node_classes():
    """Every autograd node class defined in a reftorch module, at import time."""
    found = set()
    for name, module in list(sys.modules.items()):
        if (name == "reftorch" or name.startswith("reftorch.")) and module is not None:
            for value in list(vars(module).values()):
                if _isinstance(value, type) and issubclass(value, Node):
                    found.add(value)
    return frozenset(found)


_NODE_CLASSES = _reftorch_node_classes()


class NotATensor(Exception):
    """The result is not an object the checks accept as a tensor; the text says what it is."""


def refusal(R, obj, parameters=False):
    """What ``obj`` is instead of a tensor the checks read (the text of ``R.require``'s refusal), or None
    when ``R`` takes it."""
    try:
        R.require(obj, parameters)
    except NotATensor as lie:
        return str(lie)
    return None


def type_name(obj):
    cls = _type(obj)
    module = getattr(cls, "__module__", "")
    return cls.__name__ if module in ("builtins", "") else f"{module}.{cls.__qualname__}"


class ReftorchReader:
    """Facts about a reftorch tensor, read by reftorch's own functions, never by the object's."""

    module = reftorch

    @staticmethod
    def is_tensor(obj):
        return _type(obj) is _Tensor or _type(obj) is _Parameter

    @staticmethod
    def require(obj, parameters=False):
        """``obj`` itself if it is exactly reftorch's Tensor (or Parameter, when allowed)."""
        cls = _type(obj)
        if cls is _Tensor or (parameters and cls is _Parameter):
            storage = _UNTYPED_STORAGE(obj)
            if _type(storage) is not UntypedStorage or _type(storage._bytes) is not _BYTES:
                raise NotATensor(f"a tensor whose storage is a {type_name(storage)}, not reftorch's "
                                 "UntypedStorage")
            return obj
        if _isinstance(obj, _Tensor):
            raise NotATensor(f"a {type_name(obj)}: a subclass of reftorch's Tensor (the checks accept "
                             "only reftorch's own Tensor, whose methods tell the truth)")
        raise NotATensor(f"a {type_name(obj)}, not a tensor")

    @staticmethod
    def kind(obj):
        return _type(obj).__name__

    size = staticmethod(lambda t: tuple(_SHAPE(t)))
    stride = staticmethod(lambda t: tuple(_STRIDE(t)))
    storage_offset = staticmethod(lambda t: _STORAGE_OFFSET(t))
    dtype = staticmethod(lambda t: str(_DTYPE(t)))
    device = staticmethod(lambda t: str(_UNTYPED_STORAGE(t).device))
    requires_grad = staticmethod(lambda t: _REQUIRES_GRAD(t))
    is_leaf = staticmethod(lambda t: _IS_LEAF(t))
    is_view = staticmethod(lambda t: _BASE(t) is not None)
    values = staticmethod(lambda t: _TOLIST(t))
    numel = staticmethod(lambda t: _NUMEL(t))
    version = staticmethod(lambda t: _VERSION(t))
    grad = staticmethod(lambda t: _GRAD(t))
    attributes = staticmethod(lambda t: _DICT(t))

    @staticmethod
    def grad_fn(t):
        node = _GRAD_FN(t)
        if node is not None and _type(node) not in _NODE_CLASSES:
            raise NotATensor(f"a tensor whose grad_fn is a {type_name(node)}, which is not one of "
                             "reftorch's autograd nodes (build nodes with the primitives)")
        return node

    @staticmethod
    def memory(t):
        return _DATA_PTR(_UNTYPED_STORAGE(t))

    @staticmethod
    def node_name(node):
        return _type(node).name(node)

    @staticmethod
    def next_functions(node):
        return _NEXT_FUNCTIONS(node)
