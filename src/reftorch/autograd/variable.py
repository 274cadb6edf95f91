"""The rules for autograd's fields on a tensor: ``requires_grad``, ``grad_fn``, ``is_leaf``, ``.grad``.

They read and change metadata only: no memory, no version bump. Only a leaf's
``requires_grad`` can be changed, and a view's ``grad_fn`` is renewed when read
after a write through another alias (``view_history``).
"""

from .. import _core_messages
from .._torch_bookkeeping import is_inference_mode_enabled
from .._warn import warn
from .view_history import rebuild_view_grad_fn


def requires_grad(self):
    base = self._base_tensor
    return (
        self._requires_grad
        or self._grad_fn is not None
        or (base is not None and base.requires_grad)
    )


def check_requires_grad(tensor, flag):
    """Outside the mode, an inference tensor may not start requiring grad."""
    if flag and tensor._inference and not is_inference_mode_enabled():
        raise RuntimeError(_core_messages.INFERENCE_REQUIRES_GRAD)


def set_requires_grad(self, flag):
    """``t.requires_grad = flag``: a leaf's flag (floating point only), with torch's errors for the rest."""
    if not is_leaf(self):
        message = _core_messages.REQUIRES_GRAD_NON_LEAF
        if not flag:
            message += _core_messages.REQUIRES_GRAD_NON_LEAF_HINT
        raise RuntimeError(message)
    if flag and not self._dtype.is_floating_point:
        raise RuntimeError(_core_messages.REQUIRES_GRAD_NOT_FLOAT)
    check_requires_grad(self, flag)
    self._requires_grad = bool(flag)


def requires_grad_(self, requires_grad=True):
    """Switch gradient tracking on a leaf, in place; returns ``self``."""
    if not is_leaf(self) and not requires_grad:
        set_requires_grad(self, False)  # raises torch's message
    if requires_grad and not self._dtype.is_floating_point:
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    check_requires_grad(self, requires_grad)
    if is_leaf(self):
        self._requires_grad = bool(requires_grad)
    return self


def grad_fn(self):
    """The node that made this tensor (None for leaves); a view's node is brought up to date first."""
    rebuild_view_grad_fn(self)
    return self._grad_fn


def is_leaf(self):
    """A leaf has no grad_fn: created by the user, or not requiring grad."""
    return grad_fn(self) is None


def grad(self):
    """What backward accumulated here; a non-leaf keeps none unless it asked, so reading it warns."""
    if self._grad_fn is not None and not self._retains_grad:  # not a leaf
        warn(_core_messages.NON_LEAF_GRAD)
    return self._grad


def retain_grad(self):
    """Ask a non-leaf to keep its gradient in ``.grad``: its node lists it for the engine."""
    if not requires_grad(self):
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if is_leaf(self) or self._retains_grad:
        return
    self._retains_grad = True
    grad_fn(self)._retained.append(self)
