"""Misconception models: reftorch as a learner with one wrong belief imagines torch.

Each model changes reftorch in one place, with the same switch that
``use_mine`` uses (:func:`coursebook.build_it.switch.replaced`): for the length
of a ``with model.active():`` block, every call of the right function runs the
wrong one; afterwards reftorch's own again. Only memory changes.

Run a question's program under every model and compare with what a learner
predicted: a model that prints exactly the learner's answer names the belief
behind it (:mod:`coursebook.predict.diagnose`).

Each model says the belief in the learner's words, the refutation in ours, and
the section of the course that shows what is true.
"""

from __future__ import annotations

import contextlib
import copy
from dataclasses import dataclass
from typing import Callable

import reftorch
from coursebook.build_it.switch import replaced
from reftorch import overrides
from reftorch import _clone, _creation, _detach, _indexing, _inplace, _python_copy, _version_counter, _views
from reftorch.autograd import grad_mode
from reftorch.nn import state_dict as nn_state_dict

__all__ = ["Model", "MODELS", "model"]


@dataclass(frozen=True)
class Model:
    name: str
    belief: str        # what the learner believes, in their words
    refutation: str    # what is true, and why, in ours
    section: str       # where the course shows it: "08_clone.ipynb"
    swaps: Callable[[], list]  # the (reftorch's function, the believer's) pairs to switch

    @contextlib.contextmanager
    def active(self):
        """Within the block, reftorch behaves as the believer expects."""
        with contextlib.ExitStack() as stack:
            for old, new in self.swaps():
                stack.enter_context(replaced(old, new))
            yield self


# --- the believers' versions of reftorch's functions ------------------------------------------
# A believer's function that calls reftorch's own calls the package's own code
# (``overrides.original``): inside the block, the function every caller holds runs the believer's.
_getitem, _as_view = overrides.original(_indexing.__getitem__), overrides.original(_views._as_view)
_reduce_ex = overrides.original(_python_copy.__reduce_ex__)
_new_tensor = overrides.original(_creation.new_tensor)
_load_state_dict = overrides.original(nn_state_dict.load_state_dict)

def _clone_shares_memory(self, *, memory_format=None):
    return _views.alias(self)


def _detach_copies(self):
    with grad_mode.no_grad():
        return self.clone()


def _data_shares_the_counter(self):
    return _detach.detach(self)


def _data_is_tracked(self):
    return self


def _every_index_copies(self, index):
    got = _getitem(self, index)
    return got.clone() if got._base_tensor is not None else got


def _no_grad_views_do_not_require_grad(source, size, stride, offset, make_node, multi_output=False, output_nr=0):
    view = _as_view(source, size, stride, offset, make_node, multi_output, output_nr)
    # the believer's view is a plain tensor on the same memory: no base, no autograd record
    return view if grad_mode.is_grad_enabled() else _detach.detach(view)


def _deepcopy_shares_storage(self, memo):
    """torch's __deepcopy__ with its one copy of the memory left out."""
    if id(self) not in memo:
        new = _python_copy._rebuild_tensor(self._storage, self._storage_offset, self._size, self._stride,
                                           self._dtype, self.requires_grad)
        if self._grad is not None:
            new._grad = copy.deepcopy(self._grad, memo)
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        memo[id(self)] = new
    return memo[id(self)]


def _state_dict_copies(self, destination, prefix, keep_vars):
    for name, param in self._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach().clone()
    for name, buf in self._buffers.items():
        if buf is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = buf if keep_vars else buf.detach().clone()


def _assign_copies_too(self, state_dict, strict=True, assign=False):
    return _load_state_dict(self, state_dict, strict=strict, assign=False)


def _copy_copy_is_deep(self, protocol):
    """torch's recipe for copy.copy (and pickling), rebuilt on a copy of the memory."""
    rebuild, args, state = _reduce_ex(self, protocol)
    return rebuild, (copy.deepcopy(args[0]),) + tuple(args[1:]), state


def _new_tensor_keeps_the_datas_dtype(self, data, *, dtype=None, device=None, requires_grad=False):
    if dtype is None and isinstance(data, reftorch.Tensor):
        dtype = data.dtype
    return _new_tensor(self, data, dtype=dtype, device=device, requires_grad=requires_grad)


def _writes_are_not_counted(tensor):
    return None


def _augmented_assignment_makes_a_new_tensor(self, other):
    return self + other


MODELS = [
    Model("clone shares memory",
          "clone() gives a new tensor object on the same memory, like a view.",
          "clone() allocates new memory and copies the numbers: writing to the clone never changes the "
          "original. It is the one copy that keeps the graph.",
          "08_clone.ipynb",
          lambda: [(_clone.clone, _clone_shares_memory)]),
    Model("detach copies",
          "detach() makes an independent copy of the numbers.",
          "detach() makes new metadata on the same memory and the same version counter: an in-place "
          "write to either shows in both. Only the graph is left behind.",
          "09_detach_and_data.ipynb",
          lambda: [(_detach.detach, _detach_copies)]),
    Model("the version counter belongs to the memory",
          "Every tensor on the same memory shares one version counter, .data included.",
          "The counter belongs to a tensor and its views (and detach() results). x.data is made with a "
          "counter of its own, which is why writes through .data go unseen by autograd.",
          "09_detach_and_data.ipynb",
          lambda: [(_detach._get_data, _data_shares_the_counter)]),
    Model(".data is tracked",
          ".data is just the tensor: using it records history like the tensor itself.",
          ".data is a new tensor on the same memory, off the graph and with its own version counter: "
          "autograd never sees what is done through it.",
          "09_detach_and_data.ipynb",
          lambda: [(_detach._get_data, _data_is_tracked)]),
    Model("every index copies",
          "Indexing always gives a new tensor with its own memory.",
          "Basic indexing (integers, slices, None, ...) gives a view on the same memory; only advanced "
          "indexing (lists, tensors, masks) copies.",
          "04_indexing_in_depth.ipynb",
          lambda: [(_indexing.__getitem__, _every_index_copies)]),
    Model("no_grad views do not require grad",
          "Anything made under no_grad is cut off from autograd, views included.",
          "A view made under no_grad of a tensor that requires grad still requires grad: it shares the "
          "memory and the counter of a tensor autograd tracks, and torch marks it so an in-place write "
          "through it raises later.",
          "07_no_grad_and_inference_mode.ipynb",
          lambda: [(_views._as_view, _no_grad_views_do_not_require_grad)]),
    Model("deepcopy shares memory",
          "copy.deepcopy of a tensor gives a new tensor object on the same memory.",
          "copy.deepcopy copies the memory too (views copied together keep sharing their new memory), "
          "and keeps requires_grad.",
          "13_python_copy.ipynb",
          lambda: [(_python_copy.__deepcopy__, _deepcopy_shares_storage)]),
    Model("state_dict() copies",
          "model.state_dict() is a snapshot: later training does not change it.",
          "state_dict() holds detached aliases of the parameters and buffers: the same memory. A snapshot "
          "needs a deep copy (or clone() of each entry).",
          "15_copying_models.ipynb",
          lambda: [(nn_state_dict.save_to_state_dict, _state_dict_copies)]),
    Model("assign=True copies too",
          "load_state_dict(..., assign=True) copies the numbers into the model's tensors, like the default.",
          "With assign=True the model takes the checkpoint's tensors themselves: its parameters become "
          "new Parameter objects on the checkpoint's memory, with the checkpoint's dtype and device.",
          "16_models_and_optimizers.ipynb",
          lambda: [(nn_state_dict.load_state_dict, _assign_copies_too)]),
    Model("copy.copy is a deep copy",
          "copy.copy of a tensor copies its numbers.",
          "copy.copy rebuilds a tensor object on the same memory: a write through the copy shows in the "
          "original. Only copy.deepcopy copies the memory.",
          "13_python_copy.ipynb",
          lambda: [(_python_copy.__reduce_ex__, _copy_copy_is_deep)]),
    Model("new_tensor keeps the data's dtype",
          "x.new_tensor(t) copies t as it is, dtype included, like torch.tensor(t).",
          "new_tensor takes its dtype and device from x, the tensor it is called on, unless you pass "
          "dtype=: only the numbers come from the data.",
          "10_copies_that_leave_the_graph.ipynb",
          lambda: [(_creation.new_tensor, _new_tensor_keeps_the_datas_dtype)]),
    Model("in-place writes are not counted",
          "The version counter only moves when a tensor is created or assigned.",
          "Every in-place write (add_, fill_, x[i] = v, +=) bumps the counter of the tensor and of all its "
          "views; autograd compares it when backward needs a saved tensor.",
          "06_version_counter.ipynb",
          lambda: [(_version_counter.bump, _writes_are_not_counted)]),
    Model("+= makes a new tensor",
          "a += 1 is shorthand for a = a + 1: it makes a new tensor and leaves other names alone.",
          "a += 1 writes into a's memory (add_): every name bound to that tensor, and every view of it, "
          "sees the change. a = a + 1 makes a new tensor and rebinds a alone.",
          "02_names_and_objects.ipynb",
          lambda: [(_inplace.__iadd__, _augmented_assignment_makes_a_new_tensor)]),
]


def model(name: str) -> Model:
    for m in MODELS:
        if m.name == name:
            return m
    raise LookupError(f"no misconception model is called {name!r}")

