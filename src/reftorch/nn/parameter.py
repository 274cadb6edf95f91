"""nn.Parameter: a leaf tensor that a Module registers as one of its weights.

``Parameter(t)`` shares ``t``'s storage and version counter (it is built from
``t.detach()``) and requires grad by default. A Parameter over an inference
tensor is an inference tensor too, so outside the mode it cannot require grad.
"""

from collections import OrderedDict

from .. import _core_messages
from .._factories import empty
from .._overrides import overridable
from .._tensor import Tensor


class Parameter(Tensor):
    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        data = empty(0) if data is None else data.detach()
        param = cls._make(data._storage, data._storage_offset, data._size, data._stride,
                          data._dtype, data._version_counter, inference=data._inference)
        if requires_grad:
            if not data.dtype.is_floating_point and not data._inference:  # torch's texts differ by path
                raise RuntimeError(_core_messages.NOT_FLOAT_REQUIRES_GRAD)
            param.requires_grad_(True)
        return param

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        """``copy.copy``: a new Parameter on the same storage (via ``.data``), without hooks."""
        return (_rebuild_parameter, (self.data, self.requires_grad), self.__dict__ or None)

    def __deepcopy__(self, memo):
        """torch copies a Parameter's numbers (strides preserved), not its ``.grad`` or hooks."""
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result
    __deepcopy__ = overridable(__deepcopy__)


def _rebuild_parameter(data, requires_grad):
    param = Parameter(data, requires_grad)
    param._backward_hooks = OrderedDict()  # hooks are never copied (autograd/hooks.py)
    return param
