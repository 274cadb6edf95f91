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
* ``grad_fn`` is the recorded node, None for a leaf. A view is the one
  exception: its history runs through its base, and when the shared memory
  was written in place through the base or another view, the node recorded
  when the view was made is out of date. The write does not know the views
  of the memory it wrote, so, as in torch, the view finds out when its
  ``grad_fn`` is read: it compares the version counter with the version it
  last saw and, if they differ, gets a fresh ``AsStridedBackward0`` leading
  to its base's history now (or raises torch's error, for a view made under
  ``no_grad``, in ``inference_mode`` or by ``split``: ``creation_meta``).
* ``is_leaf`` is ``grad_fn is None``.
* ``retain_grad()`` asks a non-leaf to keep its gradient: its node lists it,
  and the engine keeps it in its ``.grad`` (``graph.update_retained_grad``).
"""

from .. import _messages
from .._view_backward import AsStridedBackward0
from . import creation_meta
from .functional_api import backward as _backward
from .inference_mode import check_requires_grad


def requires_grad(self):
    base = self._base_tensor
    return (
        self._requires_grad
        or self._grad_fn is not None
        or (base is not None and base.requires_grad)
    )


def set_requires_grad(self, flag):
    """``t.requires_grad = flag``: a leaf's flag, with torch's errors for the rest."""
    if not is_leaf(self):
        message = _messages.REQUIRES_GRAD_NON_LEAF
        if not flag:
            message += _messages.REQUIRES_GRAD_NON_LEAF_HINT
        raise RuntimeError(message)
    if flag and not self._dtype.is_floating_point:
        raise RuntimeError(_messages.REQUIRES_GRAD_NOT_FLOAT)
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
    """The node that made this tensor; None for leaves (a view's node may be renewed: see above)."""
    base = self._base_tensor
    if base is None or (self._grad_fn is None and not base.requires_grad):
        return self._grad_fn
    if self._view_version != self._version:
        creation_meta.check_view_write(self, indirect=True)
        self._grad_fn = AsStridedBackward0(base, self._geometry()) if base.requires_grad else None
        self._view_version = self._version
    return self._grad_fn


def is_leaf(self):
    """A leaf has no grad_fn: created by the user, or not requiring grad."""
    return grad_fn(self) is None


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
