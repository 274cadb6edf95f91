"""Reading a result without asking it: the observer's eyes on torch and on reftorch.

A check must not believe what a returned object says about itself. A learner's
function could return a subclass of ``Tensor`` whose ``stride()`` lies, an
object that only looks like a tensor, or a tensor whose ``grad_fn`` is a
hand-made class named ``CloneBackward0``. So the reftorch side is read like this:

* the object must be *exactly* reftorch's ``Tensor`` (or, where a model is
  involved, exactly ``nn.Parameter``): no subclass, no look-alike;
* every fact is read by reftorch's own functions, taken from the class when
  this module was imported (before any notebook code ran), and applied to the
  object: the strided ``stride`` function ``Tensor`` holds, applied to ``t``, never ``t.stride()``;
* memory is identified by the address of the storage's bytes, and the storage
  must be exactly reftorch's ``UntypedStorage``;
* a ``grad_fn`` must be one of the node classes reftorch defines.

The torch side is read through torch's own API: torch is trusted, and the
grader's tripwire (``autograder.kernels.kernel_setup``) watches it.
"""

import sys

import reftorch
import reftorch.nn
import torch
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
    (``reftorch._sparse_dispatch.ByLayout``); looked up on the class, it hands
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


def type_name(obj):
    cls = _type(obj)
    module = getattr(cls, "__module__", "")
    return cls.__name__ if module in ("builtins", "") else f"{module}.{cls.__qualname__}"


class TorchReader:
    """Facts about a real torch tensor, through torch's API."""

    module = torch

    @staticmethod
    def is_tensor(obj):
        return _isinstance(obj, torch.Tensor)

    @staticmethod
    def require(obj, parameters=False):
        return obj

    @staticmethod
    def kind(obj):
        return _type(obj).__name__

    size = staticmethod(lambda t: tuple(t.shape))
    stride = staticmethod(lambda t: tuple(t.stride()))
    storage_offset = staticmethod(lambda t: t.storage_offset())
    dtype = staticmethod(lambda t: str(t.dtype))
    device = staticmethod(lambda t: str(t.device))
    requires_grad = staticmethod(lambda t: t.requires_grad)
    is_leaf = staticmethod(lambda t: t.is_leaf)
    is_view = staticmethod(lambda t: t._base is not None)
    values = staticmethod(lambda t: t.tolist())
    numel = staticmethod(lambda t: t.numel())
    version = staticmethod(lambda t: t._version)
    grad = staticmethod(lambda t: t._grad)        # no warning for a non-leaf
    attributes = staticmethod(lambda t: t.__dict__)
    grad_fn = staticmethod(lambda t: t.grad_fn)

    @staticmethod
    def memory(t):
        """What identifies the memory: the address of the storage's first byte."""
        return t.untyped_storage().data_ptr()

    @staticmethod
    def node_name(node):
        return node.name()

    @staticmethod
    def next_functions(node):
        return node.next_functions


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


def reader(module):
    return ReftorchReader if module is reftorch else TorchReader
