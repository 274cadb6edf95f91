"""The autograd graph: nodes that remember how each result was computed.

An operation on tensors that require grad attaches a *node* to its result
(``grad_fn``): ``apply`` turns the result's gradient into the inputs', and
``next_functions`` holds one ``(node, input_nr)`` edge per input (``(None, 0)`` if it
needs none). An edge to a leaf ends in its ``AccumulateGrad``, which adds into
``.grad``. A node keeps *saved tensors*, each with the version it had.
"""

import numbers
import weakref

from .. import _core_messages, _overrides, _strides
from .._tensor import Tensor
from .._torch_bookkeeping import is_inference_mode_enabled, obeys_layout_contract
from .grad_mode import is_grad_enabled


class Node:
    """One recorded operation, named as torch names it; with ``num_outputs`` above 1, ``apply``
    receives one gradient (or None) per output."""

    num_outputs = 1
    materializes_grads = False  # True: apply runs, given zeros, even if no gradient arrived

    def __init__(self, *inputs):
        self._next_functions = tuple(gradient_edge(x) for x in inputs)
        self._saved = []
        self._retained = []  # non-leaves that asked for retain_grad()
        self._tensor_pre_hooks = []  # tensor hooks on a gradient arriving here (autograd/hooks)
        self._output_metadata = {}  # output_nr -> (size, dtype) when made: what its gradient must fit

    def next_functions(self):
        return self._next_functions
    next_functions = property(_overrides.overridable(next_functions))

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def save(self, tensor, is_output=False):
        """Keep ``tensor`` for backward, stamped with its current version."""
        saved = SavedTensor(tensor, self, is_output)
        self._saved.append(saved)
        return saved

    def release_saved_tensors(self):
        for saved in self._saved:
            saved.release()

    def apply(self, grad):
        """Gradients for each entry of ``next_functions`` (None where unused)."""
        raise NotImplementedError

    def needs_input_grad(self, i):
        return self._next_functions[i][0] is not None


class AccumulateGrad(Node):
    """The end of every path to a leaf: adds the gradient into ``variable.grad``."""

    def __init__(self, variable):
        super().__init__()
        self.variable = variable
        self._output_metadata[0] = (variable._size, variable._dtype)  # what its gradients must fit

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad, steal=False):
        """Add ``grad`` into ``variable.grad`` (``steal``: the engine's own, handed over uncopied)."""
        accumulate_grad(self.variable, grad, steal)
        return ()


def accumulate_grad(variable, grad, steal=False):
    """The first gradient becomes ``.grad``: handed over (``steal``, if its layout fits), else copied
    (dense: version 1) or cloned contiguous (0); later ones are added in place."""
    if variable._grad is None:
        dense = _strides.is_non_overlapping_and_dense(variable._size, variable._stride)
        strides = variable._stride if dense else _strides.contiguous_strides(variable._size)
        if steal and obeys_layout_contract(grad, variable):  # grad.detach(), not a learner's piece
            variable._grad = Tensor._make(grad._storage, grad._storage_offset, grad._size, grad._stride,
                                          grad._dtype, grad._version_counter)  # same memory and counter, not a view
        else:
            variable._grad = Tensor._from_values(grad._read(), grad._size, grad._dtype, variable.device, strides)
            if dense:
                variable._grad._version_counter.bump()
    else:
        variable._grad.add_(grad)  # rounded to its dtype
accumulate_grad = _overrides.overridable(accumulate_grad)


def update_retained_grad(tensor, grad):
    """A retained non-leaf ``.grad``: a contiguous clone of the first gradient, then a new ``.grad + grad``."""
    first = Tensor._from_values(grad._read(), grad._size, grad._dtype, grad.device)
    tensor._grad = first if tensor._grad is None else tensor._grad + grad


def gradient_edge(x):
    """``(x.grad_fn, x.output_nr)``, or to the leaf's one ``AccumulateGrad`` (made by the first edge)."""
    if not isinstance(x, Tensor) or not x.requires_grad:
        return (None, 0)
    if x.grad_fn is not None:  # reading it renews a stale view's node (view_history)
        return (x.grad_fn, x._output_nr)
    if not x._requires_grad:  # a view made under no_grad: no node leads to its base
        return (None, 0)
    accumulator = x._grad_acc and x._grad_acc()  # kept only while a graph holds it, as in torch
    if accumulator is None:
        accumulator = AccumulateGrad(x)
        x._grad_acc = weakref.ref(accumulator)
    return (accumulator, 0)


def any_requires_grad(*inputs):
    """Record a node? Only in grad mode, outside ``inference_mode``, if an input asks and autograd sees the op:
    an inference tensor has no autograd key, so an op on inference tensors alone is not recorded (a number
    counts as a normal tensor: torch wraps it in one)."""
    if not is_grad_enabled() or is_inference_mode_enabled():
        return False
    seen = any(not x._inference if isinstance(x, Tensor) else isinstance(x, numbers.Number) for x in inputs)
    return seen and any(isinstance(t, Tensor) and t.requires_grad for t in inputs)


class SavedTensor:
    """A tensor kept for backward, with its version then: ``unpack()`` raises if it changed. The node's own
    output is kept as torch keeps it: a new tensor object on its memory and counter, without the node
    (nor does it keep the node: a graph is freed with the last tensor that leads to it, as in torch)."""

    def __init__(self, tensor, saved_for, is_output):
        if tensor._inference:
            raise RuntimeError(_core_messages.INFERENCE_SAVED)
        if is_output:
            size, stride, offset = tensor._geometry()
            tensor = Tensor._make(tensor._storage, offset, size, stride, tensor._dtype, tensor._version_counter)
        self._tensor = tensor
        self._version = tensor._version
        self._saved_for = weakref.ref(saved_for)
        self._is_leaf = tensor.is_leaf and not is_output
        self._released = False

    def release(self):
        self._tensor, self._released = None, True

    def unpack(self):
        if self._released:
            raise RuntimeError(_core_messages.BACKWARD_TWICE)
        t = self._tensor
        if t._version != self._version:
            raise RuntimeError(self._modified_message(t))
        return t
    unpack = _overrides.overridable(unpack)

    def _modified_message(self, t):
        """The node ``t`` is an output of, as torch names it (a non-leaf cut off by ``detach_()``: the saver)."""
        node = t.grad_fn or (None if self._is_leaf else self._saved_for())
        return _core_messages.saved_tensor_modified(t, None if node is None else node.name(), self._version)
