"""What autograd keeps on each tensor: ``requires_grad``, ``grad_fn``, ``is_leaf``.

``Tensor`` (in ``_tensor``) stores the fields: ``_requires_grad`` (the flag a
leaf was given), ``_grad_fn`` (the node that made it), ``_grad`` and
``_retains_grad``. This module holds the rules for reading and changing them,
and ``_tensor_methods`` attaches its functions to ``Tensor``:

* ``requires_grad`` is True for a leaf that asked for it, for any tensor
  with a ``grad_fn``, and for any view of a tensor that requires grad. Only a
  leaf's flag can be changed (``t.requires_grad = ...``, ``requires_grad_()``),
  only for floating-point dtypes, and not on an inference tensor outside
  ``inference_mode``. Metadata only: no memory, no version bump.
* ``grad_fn`` is the recorded node, None for a leaf. A view's node is out of
  date once its memory was written through its base or another view; before
  answering, ``grad_fn`` calls ``view_history.rebuild_view_grad_fn``, which
  renews it (or raises torch's error), as torch does when it is read.
* ``is_leaf`` is ``grad_fn is None``.
* ``.grad`` is read here (a non-leaf's warns); ``t.grad = g`` checks ``g`` in
  the binding (``_binding.set_grad``), as torch's Python binding does.
* ``retain_grad()`` asks a non-leaf to keep its gradient: its node lists it,
  and the engine keeps it in its ``.grad`` (``graph.update_retained_grad``).
"""

from .. import _core_messages
from .._torch_bookkeeping import is_inference_mode_enabled
from .._warn import warn
from .functional_api import backward as _backward
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
    """``t.requires_grad = flag``: a leaf's flag, with torch's errors for the rest."""
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
    """The node that made this tensor; None for leaves.

    Reading it first brings a view's node up to date, as torch does: that is
    an explicit step, ``view_history.rebuild_view_grad_fn``, which may replace
    the node or raise.
    """
    rebuild_view_grad_fn(self)
    return self._grad_fn


def is_leaf(self):
    """A leaf has no grad_fn: created by the user, or not requiring grad."""
    return grad_fn(self) is None


def grad(self):
    """``.grad``: what backward accumulated for this tensor. A non-leaf keeps none unless it
    asked (``retain_grad()``), so reading it warns, as in torch."""
    if self._grad_fn is not None and not self._retains_grad:  # not a leaf
        warn(_core_messages.NON_LEAF_GRAD)
    return self._grad


def retain_grad(self):
    """Ask a non-leaf to keep its gradient in ``.grad`` during backward."""
    if not requires_grad(self):
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if is_leaf(self) or self._retains_grad:
        return
    self._retains_grad = True
    grad_fn(self)._retained.append(self)


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate d(self)/d(leaf) into the ``.grad`` of every leaf that requires grad."""
    _backward(self, gradient, retain_graph, create_graph, inputs)
