"""Inference mode: ``no_grad``, plus tensors that autograd will never see.

Inside ``with torch.inference_mode():`` grad mode is off, as under
``no_grad``, and nothing is recorded even if ``enable_grad`` switches it back
on. In addition, every tensor built there is an *inference tensor*:

* Python object and memory: as usual.
* Metadata: ``t.is_inference()`` is True. Its views (even ones made later,
  outside the mode) are inference tensors too, and are not tracked as views
  (``_base`` is None).
* Version counter: none. ``t._version`` raises, and in-place writes inside
  the mode are not counted.
* Graph: none, and outside the mode torch keeps it away from autograd: it has
  no autograd key, so an operation on inference tensors alone records nothing,
  even if one of them requires grad, and gives a normal tensor. An operation
  that also takes a normal tensor, or a number (torch wraps it in one), is
  recorded, and raises if it would save the inference tensor for backward.
  Some of torch's kernels write their result through another operation, which
  autograd then sees: ``clone()`` and ``to()`` (``copy_``: ``CopyBackwards``),
  ``2 - t`` (``sub``), ``mean()`` and ``2 ** t`` (``sum``'s and ``pow``'s
  ``out=`` forms, which refuse an input that requires grad). An in-place write
  on inference tensors alone raises (after the numbers were written: the check
  sits where the counter would be bumped), and ``requires_grad_()`` raises.
  ``clone()`` is the way back to a normal tensor.

The one exception: a view of a normal tensor made inside the mode is a normal
view, sharing its base's version counter, but remembered as made in inference
mode (``creation_meta``), so writing it in place later in grad mode raises.

This module is the context manager. The switch it sets is in
``_torch_bookkeeping`` (every new tensor reads it), with the rules for
counters (no counter, writes made while building a result); the other rules
it changes live where they apply: ``autograd/variable`` (``requires_grad_()``),
``autograd/graph`` (saving, and which operations are recorded).
"""

import functools

from .. import _torch_bookkeeping
from .._torch_bookkeeping import is_inference_mode_enabled
from . import grad_mode
from .._overrides import overridable


def _set_state(inference, grad):
    _torch_bookkeeping.inference_mode_on = bool(inference)
    grad_mode._set_enabled(grad)
_set_state = overridable(_set_state)


class inference_mode:
    """Context manager and decorator: ``inference_mode()`` switches the mode on,
    ``inference_mode(False)`` off. Either way grad mode becomes the opposite
    (so ``inference_mode(False)`` turns grad mode on, even inside ``no_grad``),
    and both are restored on exit.

    ``@inference_mode`` without parentheses decorates the function directly.
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # @inference_mode used without parentheses: mode is the function

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self._previous = (is_inference_mode_enabled(), grad_mode.is_grad_enabled())
        _set_state(self.mode, not self.mode)

    def __exit__(self, *exc):
        _set_state(*self._previous)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper

    def clone(self):
        return type(self)(self.mode)
