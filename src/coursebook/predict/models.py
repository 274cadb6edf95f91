"""Misconception models: reftorch as a learner with one wrong belief imagines torch.

Each model changes reftorch in one place, with the same switch that
``use_mine`` uses (:func:`coursebook.build_it.switch.replaced`): for the length
of a ``with model.active():`` block, every call of the right function runs the
wrong one; afterwards reftorch's own again. Only memory changes.

Run a question's program under every model and compare with what a learner
predicted: a model that prints exactly the learner's answer names the belief
behind it (:mod:`coursebook.predict.diagnose`).

A few beliefs are about Python, not torch ("``a = a + 1`` changes the tensor
in place", "a function can rebind the caller's variable"): no reftorch
function is wrong for them, so their model rewrites the question's program
instead, as the believer reads it (``rewrite``), and runs it on reftorch. So
does a belief about a call the learner writes that torch also makes inside
other operations ("``dst.copy_(src)`` makes ``dst`` a copy"; ``t[0] = 5.0``
and ``load_state_dict`` use ``copy_`` too, which that learner never pictures;
"``reshape`` always copies", "a transpose has memory of its own": ``nn.Linear``
reshapes and transposes too), and a belief about what an assignment
``t[idx] = v`` writes into.

Each model says the belief in the learner's words, the refutation in ours, and
the section of the course that shows what is true; ``tags`` are the
misconception tags of the exercises' checks (autograder/checks) that name the
same belief, listed in docs/misconceptions.md. The models are data, in
``models.toml`` beside this module: their swaps and rewrites name the functions
defined here, and the modules and classes imported here that they replace in.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import importlib
import tomllib
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import reftorch
from coursebook.build_it.switch import replaced
from reftorch import overrides
from reftorch import (_advanced_indexing, _clone, _convert, _copy_, _creation, _detach, _factories, _indexing,
                      _inplace, _inplace_write, _layout, _python_copy, _strides, _torch_bookkeeping,
                      _version_counter, _views)
from reftorch.autograd import creation_meta, grad_mode
from reftorch.autograd.function import FunctionCtx
from reftorch.autograd.graph import Node
from reftorch.nn import conversion as nn_conversion, state_dict as nn_state_dict
from reftorch.nn.module import Module
from reftorch.nn.parameter import Parameter
from reftorch.optim import optimizer as optim_optimizer
from reftorch.optim.optimizer import Optimizer

# the module (reftorch.autograd.inference_mode, as an attribute, is the context manager)
_inference_mode = importlib.import_module("reftorch.autograd.inference_mode")

__all__ = ["Model", "MODELS", "model"]


@dataclass(frozen=True)
class Model:
    name: str
    belief: str        # what the learner believes, in their words
    refutation: str    # what is true, and why, in ours
    section: str       # where the course shows it: "08_clone.ipynb"
    swaps: Callable[[], list]  # the (reftorch's function, the believer's) pairs to switch
    rewrite: Callable[[str], str] | None = None  # a key cell as the believer reads it
    tags: tuple = ()   # the exercises' check tags (autograder/checks) for the same belief

    def program(self, key_cells) -> tuple:
        """The key cells the believer runs: rewritten, for a belief about Python."""
        return tuple(map(self.rewrite, key_cells)) if self.rewrite else tuple(key_cells)

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
_index_put = overrides.original(_advanced_indexing.index_put_)
_reduce_ex = overrides.original(_python_copy.__reduce_ex__)
_new_tensor = overrides.original(_creation.new_tensor)
_load_state_dict = overrides.original(nn_state_dict.load_state_dict)
_as_tensor, _bump = overrides.original(_convert.as_tensor), overrides.original(_version_counter.bump)
_copy_into, _clone_of = overrides.original(_copy_.copy_), overrides.original(_clone.clone)
_zero_grad = overrides.original(Optimizer.zero_grad)
_for_new_view = overrides.original(creation_meta.for_new_view)
_check_no_internal_overlap = overrides.original(_inplace_write.check_no_internal_overlap)
_like = overrides.original(_factories._like)
_module_setattr = overrides.original(Module.__setattr__)
_add_param_group = overrides.original(Optimizer.add_param_group)
_step = overrides.original(Optimizer.step)

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


def _deepcopy_keeps_the_parameters(self, memo):
    return self


def _state_dict_copies(self, destination, prefix, keep_vars):
    for name, param in self._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach().clone()
    for name, buf in self._buffers.items():
        if buf is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = buf if keep_vars else buf.detach().clone()


def _state_dict_holds_the_parameters(self, destination, prefix, keep_vars):
    """The believer's state_dict: the module's own objects, as with keep_vars=True, always."""
    for name, param in self._parameters.items():
        if param is not None:
            destination[prefix + name] = param
    for name, buf in self._buffers.items():
        if buf is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = buf


def _keep_vars_keeps_requires_grad(self, destination, prefix, keep_vars):
    """keep_vars=True as the believer reads it: the usual detached aliases, requires_grad kept."""
    for name, param in self._parameters.items():
        if param is not None:
            alias = param.detach()
            destination[prefix + name] = alias.requires_grad_(param.requires_grad) if keep_vars else alias
    for name, buf in self._buffers.items():
        if buf is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = buf.detach()


def _pieces_are_plain_views(source, multi_output=False):
    """A piece of split/chunk/unbind marked as any other view: its writes are recorded, not refused."""
    return _for_new_view(source, multi_output=False)


def _pieces_are_copies(source, size, stride, offset, make_node, multi_output=False, output_nr=0):
    """split/chunk/unbind as the believer imagines them: each piece a clone with memory of its own."""
    view = _as_view(source, size, stride, offset, make_node, multi_output, output_nr)
    return _clone_of(view) if multi_output else view


def _assign_copies_too(self, state_dict, strict=True, assign=False):
    return _load_state_dict(self, state_dict, strict=strict, assign=False)


def _copy_copy_is_deep(self, protocol):
    """torch's recipe for copy.copy (and pickling), rebuilt on a copy of the memory."""
    rebuild, args, state = _reduce_ex(self, protocol)
    return rebuild, (copy.deepcopy(args[0]),) + tuple(args[1:]), state


def _copy_copy_keeps_the_history(self, protocol):
    """copy.copy as the believer imagines it for a tensor with history: a view, still in the graph."""
    if self.grad_fn is None:
        return _reduce_ex(self, protocol)
    return _views.alias, (self,), None


def _new_tensor_keeps_the_datas_dtype(self, data, *, dtype=None, device=None, requires_grad=False):
    if dtype is None and isinstance(data, reftorch.Tensor):
        dtype = data.dtype
    return _new_tensor(self, data, dtype=dtype, device=device, requires_grad=requires_grad)


def _writes_are_not_counted(tensor):
    return None


def _augmented_assignment_makes_a_new_tensor(self, other):
    return self + other


def _copy_only_copies_the_values(self, src, non_blocking=False):
    """copy_ as a plain write of numbers: no node, no requires_grad from src."""
    with grad_mode.no_grad():
        return _copy_into(self, src, non_blocking)


def _copy_makes_dst_a_copy_of_src(self, src, non_blocking=False):
    """dst.copy_(src) as dst = src.clone(), keeping the name: src's shape, dtype and new memory."""
    if not isinstance(src, reftorch.Tensor):
        return _copy_into(self, src, non_blocking)
    with grad_mode.no_grad():
        _detach._set_data(self, _clone_of(src.detach()))
    _version_counter.bump(self)
    if src.requires_grad and grad_mode.is_grad_enabled():  # as src.clone() would record
        self._set_grad_fn(_clone.CloneBackward0(src))
    return self


def _clone_shares_the_counter(self, *, memory_format=_layout.preserve_format):
    new = _clone_of(self, memory_format=memory_format)
    new._version_counter = self._version_counter
    return new


def _clone_leaves_the_graph(self, *, memory_format=_layout.preserve_format):
    with grad_mode.no_grad():
        return _clone_of(self, memory_format=memory_format)


def _clone_is_contiguous(self, *, memory_format=_layout.preserve_format):
    if memory_format is _layout.preserve_format:
        memory_format = _layout.contiguous_format
    return _clone_of(self, memory_format=memory_format)


def _clone_is_a_new_leaf(self, *, memory_format=_layout.preserve_format):
    requires_grad = self.requires_grad and grad_mode.is_grad_enabled()
    with grad_mode.no_grad():
        new = _clone_of(self, memory_format=memory_format)
    new._requires_grad = requires_grad
    return new


def _clone_records_under_no_grad(self, *, memory_format=_layout.preserve_format):
    with grad_mode.enable_grad():
        return _clone_of(self, memory_format=memory_format)


def _contiguous_always_copies(self, memory_format=_layout.contiguous_format):
    return _clone_of(self, memory_format=memory_format)


def _as_tensor_copies(data, dtype=None, device=None):
    if isinstance(data, reftorch.Tensor):
        data = _clone_of(data)
    return _as_tensor(data, dtype=dtype, device=device)


def _as_tensor_shares_always(data, dtype=None, device=None):
    return data if isinstance(data, reftorch.Tensor) else _as_tensor(data, dtype=dtype, device=device)


def _detach_has_its_own_counter(self):
    return _detach._get_data(self)


def _data_copies(self):
    with grad_mode.no_grad():
        return _clone_of(_detach.detach(self))


def _no_grad_writes_are_not_counted(tensor):
    if grad_mode.is_grad_enabled():
        _bump(tensor)


def _save_for_backward_copies(self, *tensors):
    """What save_for_backward keeps, as the believer sees it: copies, taken at forward time."""
    self._to_save = tuple(None if t is None else _clone_of(t.detach()) for t in tensors)


def _zero_grad_writes_zeros(self, set_to_none=True):
    return _zero_grad(self, set_to_none=False)


def _zero_grad_leaves_grad_alone(self, set_to_none=True):
    """zero_grad as the believer reads it: it resets the optimizer, not the parameters' .grad."""
    return None


def _regular_picks_are_views(self, index):
    """An index as the believer reads it: wherever the picked elements sit at regular steps in
    memory (a start and one step per dimension), the result is a view, whatever kind the index is."""
    got = _getitem(self, index)
    if got._base_tensor is not None or got is self or got.numel() == 0:
        return got
    where = reftorch.Tensor._from_values(_strides.element_positions(self._size, self._stride, self._storage_offset),
                                         self._size, reftorch.int64)
    picked = _getitem(where, index)
    slots, size = picked.flatten().tolist(), tuple(picked.shape)
    stride, unit = [], 1
    for n in reversed(size):  # the step along each dimension, read off its first two elements
        stride.insert(0, slots[unit] - slots[0] if n > 1 else 0)
        unit *= n
    if any(s < 0 for s in stride) or _strides.element_positions(size, tuple(stride), slots[0]) != slots:
        return got
    return reftorch.as_strided(self, size, tuple(stride), slots[0])


def _a_list_equal_to_a_slice_is_the_slice(self, index):
    """An index as the believer reads it: a list of consecutive positions in order ([0, 1]) is the
    slice that picks the same elements (0:2), so it gives a view."""
    parts = index if isinstance(index, tuple) else (index,)
    if not any(isinstance(part, list) for part in parts):
        return _getitem(self, index)
    read = tuple(slice(part[0], part[-1] + 1) if isinstance(part, list) and part
                 and all(type(i) is int for i in part) and part == list(range(part[0], part[-1] + 1))
                 else part for part in parts)
    return _getitem(self, read if isinstance(index, tuple) else read[0])


def _refused_writes_change_nothing(self):
    """The believer's checks before an in-place write include the refusal torch makes after it:
    a write into an inference tensor outside the mode raises with the memory untouched."""
    _torch_bookkeeping.write_is_counted(self)
    return _check_no_internal_overlap(self)


def _a_copy_of_a_view(result):
    """What a call gives as the believer pictures it: a view's numbers copied, row by row, into new
    memory of their own (kept in the graph); anything else as it is."""
    if isinstance(result, reftorch.Tensor) and result._base is not None:
        return _clone_of(result, memory_format=_layout.contiguous_format)
    return result


class _AdvancedIndexWritesACopy:
    """The target of ``t[index] = value`` as the believer reads it: through an advanced index the
    value goes into the copy that reading ``t[index]`` gives, which is thrown away; ``t`` keeps its
    numbers. Any other index, and any object that is not a tensor, is written as Python writes it."""

    def __init__(self, target):
        self.target = target

    def __setitem__(self, index, value):
        parts = index if isinstance(index, tuple) else (index,)
        if isinstance(self.target, reftorch.Tensor) and any(map(_indexing.is_advanced, parts)):
            self.target[index][...] = value
        else:
            self.target[index] = value


_next_functions = overrides.original(Node.next_functions.fget)


def _only_inputs_that_need_grad_have_edges(self):
    """next_functions as the believer imagines it: an edge only to inputs that take a gradient."""
    return tuple(edge for edge in _next_functions(self) if edge[0] is not None)


def _inference_mode_is_no_grad(inference, grad):
    """inference_mode as the believer sees it: grad mode off, nothing else."""
    grad_mode._set_enabled(grad)


def _accumulate_writes_each_position_once(self, indices=None, values=None, accumulate=False):
    """index_put_(..., accumulate=True) read as self[indices] += values: read, add, write back."""
    if not accumulate:
        return _index_put(self, indices, values, accumulate)
    return _index_put(self, indices, _getitem(self, tuple(indices)) + values, False)


def _like_copies_requires_grad(fill, self, dtype, device, requires_grad, memory_format, op):
    """zeros_like(x) as the believer reads it: a copy of everything about x but its numbers."""
    return _like(fill, self, dtype, device, requires_grad or self.requires_grad, memory_format, op)


def _conversion_makes_new_parameters(self, fn, recurse=True):
    """model.double() as the believer imagines it: every parameter replaced by a new Parameter."""
    if recurse:
        for module in self.children():
            module._apply(fn)
    for name, param in self._parameters.items():
        if param is not None:
            with grad_mode.no_grad():
                self._parameters[name] = Parameter(fn(param), param.requires_grad)
    for name, buf in self._buffers.items():
        if buf is not None:
            self._buffers[name] = fn(buf)
    return self


def _state_follows_the_parameters(self, closure=None):
    """step() as the believer imagines it: the state is always in the parameters' dtype and device."""
    for param, state in self.state.items():
        self.state[param] = optim_optimizer._cast(param, state)
    return _step(self, closure)


def _tensor_attributes_are_saved(self, name, value):
    """m.name = tensor as the believer reads it: a tensor attribute is part of the module (a buffer)."""
    tables = [self.__dict__.get(t) for t in ("_parameters", "_buffers", "_modules")]
    if (isinstance(value, reftorch.Tensor) and not isinstance(value, Parameter)
            and None not in tables and not any(name in table for table in tables)):
        self.__dict__.pop(name, None)
        return self.register_buffer(name, value)
    return _module_setattr(self, name, value)


# the optimizers made under the belief below, so that a new Parameter can be handed to them
_OPTIMIZERS = weakref.WeakSet()


def _optimizer_remembered(self, param_group):
    _OPTIMIZERS.add(self)
    return _add_param_group(self, param_group)


def _optimizer_follows_the_model(self, name, value):
    """m.weight = Parameter(...) as the believer imagines it: the optimizers that held the old
    Parameter now hold the new one (they follow the model, not the objects they were given)."""
    old = self.__dict__.get("_parameters", {}).get(name)
    _module_setattr(self, name, value)
    if isinstance(old, Parameter) and isinstance(value, Parameter):
        for opt in list(_OPTIMIZERS):
            for group in opt.param_groups:
                group["params"] = [value if p is old else p for p in group["params"]]
            if old in opt.state:
                opt.state[value] = opt.state.pop(old)


def _step_trains_the_model_as_it_is_now(self, closure=None):
    """step() as the believer imagines it: it trains the parameters of the model the optimizer was
    made for, as that model is now (``_believed_model``, set where the program builds the optimizer)."""
    believed = getattr(self, "_believed_model", None)
    model_now = believed() if believed is not None else None
    if isinstance(model_now, Module) and len(self.param_groups) == 1:
        self.param_groups[0]["params"] = list(model_now.parameters())
    return _step(self, closure)


# --- the believers' reading of Python ---------------------------------------------------------

def _rewritten(cell: str, transformer: ast.NodeTransformer, prelude: str = "") -> str:
    """``cell`` as the believer reads it, or the cell itself when the belief changes nothing in it."""
    try:
        tree = ast.parse(cell)
    except SyntaxError:
        return cell
    if not transformer.visit(tree) or not getattr(transformer, "changed", False):
        return cell
    return prelude + ast.unparse(ast.fix_missing_locations(tree)) + "\n"


class _AssignmentWritesInPlace(ast.NodeTransformer):
    """``a = a + 1`` read as ``a += 1`` (and so for - * /)."""
    changed = False

    def visit_Assign(self, node):
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.BinOp) and isinstance(node.value.left, ast.Name)
                and node.value.left.id == node.targets[0].id
                and isinstance(node.value.op, (ast.Add, ast.Sub, ast.Mult, ast.Div))):
            self.changed = True
            return ast.copy_location(ast.AugAssign(ast.Name(node.targets[0].id, ast.Store()),
                                                   node.value.op, node.value.right), node)
        return node


def _assignment_writes_in_place(cell: str) -> str:
    return _rewritten(cell, _AssignmentWritesInPlace())


# The caller's names are the program's globals: the key cells run at the top level.
_REBIND = """def __rebind_callers__(old, new):
    for __name, __value in list(globals().items()):
        if __value is old and not __name.startswith("__"):
            globals()[__name] = new
"""


class _AssignmentCopies(ast.NodeTransformer):
    """``b = a`` (one name to another) read as ``b = a.clone()``."""
    changed = False

    def visit_Assign(self, node):
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Name):
            self.changed = True
            node.value = ast.Call(ast.Attribute(node.value, "clone", ast.Load()), [], [])
        return node


def _assignment_copies(cell: str) -> str:
    return _rewritten(cell, _AssignmentCopies())


class _ParameterRebindsTheCaller(ast.NodeTransformer):
    """In a function, ``t = ...`` on a parameter ``t`` also rebinds the caller's names for t."""
    changed = False

    def visit_FunctionDef(self, node):
        params = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}

        class Assignments(ast.NodeTransformer):
            def visit_FunctionDef(self, inner):  # a nested function has parameters of its own
                return inner

            def visit_Assign(inner_self, stmt):
                target = stmt.targets[0]
                if len(stmt.targets) == 1 and isinstance(target, ast.Name) and target.id in params:
                    self.changed = True
                    old = "__old_" + target.id
                    return [ast.parse(f"{old} = {target.id}").body[0], stmt,
                            ast.parse(f"__rebind_callers__({old}, {target.id})").body[0]]
                return stmt

        node.body = [Assignments().visit(stmt) for stmt in node.body]
        node.body = [s for stmt in node.body for s in (stmt if isinstance(stmt, list) else [stmt])]
        return node


def _parameter_rebinds_the_caller(cell: str) -> str:
    return _rewritten(cell, _ParameterRebindsTheCaller(), _REBIND)


class _LoadStateDictCopies(ast.NodeTransformer):
    """``x.load_state_dict(sd)`` read as ``x.load_state_dict(copy.deepcopy(sd))``."""
    changed = False

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict" and node.args:
            self.changed = True
            node.args[0] = ast.Call(ast.Attribute(ast.Name("__copy__", ast.Load()), "deepcopy", ast.Load()),
                                    [node.args[0]], [])
        return node


def _load_state_dict_copies(cell: str) -> str:
    return _rewritten(cell, _LoadStateDictCopies(), "import copy as __copy__\n")


class _CopyCallsMakeCopies(ast.NodeTransformer):
    """``dst.copy_(src)`` read as ``__believed_copy__(dst, src)``: only the calls the program writes."""
    changed = False

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "copy_":
            self.changed = True
            return ast.copy_location(ast.Call(ast.Name("__believed_copy__", ast.Load()),
                                              [node.func.value, *node.args], node.keywords), node)
        return node


def _copy_calls_make_copies(cell: str) -> str:
    return _rewritten(cell, _CopyCallsMakeCopies(),
                      "from coursebook.predict.models import _copy_makes_dst_a_copy_of_src as __believed_copy__\n")


class _CallsCopy(ast.NodeTransformer):
    """Each call of the named methods (``x.t()``, ``torch.t(x)``) and each read of the named
    attributes (``x.T``) read as ``__believed_view_copy__(...)`` of it: only what the program writes."""
    changed = False

    def __init__(self, methods, attributes=()):
        self.methods, self.attributes = methods, attributes

    def _copied(self, node):
        self.changed = True
        return ast.copy_location(ast.Call(ast.Name("__believed_view_copy__", ast.Load()), [node], []), node)

    def visit_Call(self, node):
        self.generic_visit(node)
        return self._copied(node) if isinstance(node.func, ast.Attribute) and node.func.attr in self.methods else node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        return self._copied(node) if node.attr in self.attributes and isinstance(node.ctx, ast.Load) else node


_VIEW_COPY = "from coursebook.predict.models import _a_copy_of_a_view as __believed_view_copy__\n"


def _reshape_copies(cell: str) -> str:
    return _rewritten(cell, _CallsCopy({"reshape"}), _VIEW_COPY)


def _transpose_copies(cell: str) -> str:
    return _rewritten(cell, _CallsCopy({"t", "transpose", "permute"}, {"T", "mT"}), _VIEW_COPY)


class _AdvancedAssignment(ast.NodeTransformer):
    """``t[idx] = v`` read as ``__believed_target__(t)[idx] = v``."""
    changed = False

    def visit_Assign(self, node):
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                self.changed = True
                target.value = ast.Call(ast.Name("__believed_target__", ast.Load()), [target.value], [])
        return node


def _advanced_assignment_writes_a_copy(cell: str) -> str:
    return _rewritten(cell, _AdvancedAssignment(),
                      "from coursebook.predict.models import _AdvancedIndexWritesACopy as __believed_target__\n")


# copy.copy as the believer reads it for a module (a tensor is copied as Python copies it).
_COPY_OF_A_MODULE = """def __believed_copy__(obj):
    import copy as __copy__
    if not hasattr(obj, "_parameters"):
        return __copy__.copy(obj)
{how}
"""
_DEEP = "    return __copy__.deepcopy(obj)"
_OWN_DICTS = """    new = __copy__.copy(obj)
    for name in ("_parameters", "_buffers", "_modules"):
        setattr(new, name, type(getattr(obj, name))(getattr(obj, name)))
    return new"""


class _CopyOfAModule(ast.NodeTransformer):
    """``copy.copy(x)`` read as ``__believed_copy__(x)``."""
    changed = False

    def visit_Call(self, node):
        self.generic_visit(node)
        if (isinstance(node.func, ast.Attribute) and node.func.attr == "copy"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "copy"):
            self.changed = True
            return ast.copy_location(ast.Call(ast.Name("__believed_copy__", ast.Load()), node.args, []), node)
        return node


def _copy_of_a_module_is_deep(cell: str) -> str:
    return _rewritten(cell, _CopyOfAModule(), _COPY_OF_A_MODULE.format(how=_DEEP))


def _copy_of_a_module_has_its_own_dicts(cell: str) -> str:
    return _rewritten(cell, _CopyOfAModule(), _COPY_OF_A_MODULE.format(how=_OWN_DICTS))


class _OptimizerKnowsItsModel(ast.NodeTransformer):
    """``opt = SGD(model.parameters(), ...)`` followed by ``opt._believed_model = lambda: model``:
    the believer's optimizer trains whatever ``model`` names when it steps."""
    changed = False

    def visit_Assign(self, node):
        call = node.value
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(call, ast.Call)
                and call.args and isinstance(call.args[0], ast.Call) and not call.args[0].args
                and isinstance(call.args[0].func, ast.Attribute) and call.args[0].func.attr == "parameters"
                and isinstance(call.args[0].func.value, ast.Name)):
            self.changed = True
            follow = ast.parse(f"{node.targets[0].id}._believed_model = lambda: {call.args[0].func.value.id}")
            return [node, ast.copy_location(follow.body[0], node)]
        return node


def _optimizer_knows_its_model(cell: str) -> str:
    return _rewritten(cell, _OptimizerKnowsItsModel())

# After b = a, b follows the name a: every later a = ... rebinds b too (a chain of links is followed).
_LINKS = """if "__follow__" not in globals():
    __links__ = {}

    def __follow__(target, source=None):
        __links__.pop(target, None)
        if source is not None and source != target:
            __links__[target] = source
        done, moved = {target}, [target]
        while moved:
            name = moved.pop()
            for follower, followed in list(__links__.items()):
                if followed == name and follower not in done:
                    globals()[follower] = globals()[name]
                    done.add(follower)
                    moved.append(follower)
"""


class _NamesAreLinked(ast.NodeTransformer):
    """Each assignment to a name, outside functions, followed by ``__follow__(name[, source])``."""
    changed = False

    def _follow(self, stmt):
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            source = stmt.value.id if isinstance(stmt.value, ast.Name) else None
            names = [t.id for t in stmt.targets]
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            source, names = None, [stmt.target.id]
        else:
            return [stmt]
        self.changed = True
        return [stmt] + [ast.parse(f"__follow__({n!r}, {source!r})").body[0] for n in names]

    def generic_visit(self, node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return node
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                setattr(node, field, [s for stmt in stmts for s in self._follow(self.visit(stmt))])
        for handler in getattr(node, "handlers", []):
            self.visit(handler)
        return node


def _names_are_linked(cell: str) -> str:
    return _rewritten(cell, _NamesAreLinked(), _LINKS)


# t[idx] op= v, as the believer reads it: one op= for each position idx names, repeats included.
# Any other index is Python's own t[idx] op= v: read t[idx], apply the in-place operator, write back.
_EACH_POSITION = """import operator as __operator__


def __each_position__(target, index, op, value):
    apply = getattr(__operator__, op)
    listed = torch.as_tensor(index) if isinstance(index, (list, torch.Tensor)) else None
    if listed is None or listed.dim() != 1 or listed.dtype != torch.int64:
        target[index] = apply(target[index], value)
        return
    per_position = isinstance(value, torch.Tensor) and value.dim() > 0 and len(value) == len(listed)
    for k, i in enumerate(listed.tolist()):
        target[i] = apply(target[i], value[k] if per_position else value)
"""

_IN_PLACE_OPERATOR = {ast.Add: "iadd", ast.Sub: "isub", ast.Mult: "imul", ast.Div: "itruediv",
                      ast.FloorDiv: "ifloordiv", ast.Mod: "imod", ast.Pow: "ipow", ast.MatMult: "imatmul",
                      ast.BitAnd: "iand", ast.BitOr: "ior", ast.BitXor: "ixor", ast.LShift: "ilshift",
                      ast.RShift: "irshift"}


class _RepeatsAddUp(ast.NodeTransformer):
    """``t[idx] += v`` read as ``__each_position__(t, idx, "iadd", v)``."""
    changed = False

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Subscript):
            return node
        self.changed = True
        call = ast.Call(ast.Name("__each_position__", ast.Load()),
                        [node.target.value, node.target.slice, ast.Constant(_IN_PLACE_OPERATOR[type(node.op)]),
                         node.value], [])
        return ast.copy_location(ast.Expr(call), node)


def _repeats_add_up(cell: str) -> str:
    return _rewritten(cell, _RepeatsAddUp(), _EACH_POSITION)


# x.grad_fn as the believer reads it: a leaf's node is the AccumulateGrad at the end of its edge.
# Only the learner's reads are switched: reftorch's is_leaf and backward still read the real grad_fn.
_LEAF_NODE = """from reftorch.autograd.graph import gradient_edge as __gradient_edge__


def __believed_grad_fn__(obj):
    if isinstance(obj, torch.Tensor) and obj.is_leaf:
        return __gradient_edge__(obj)[0]
    return obj.grad_fn
"""


class _GradFnOfALeaf(ast.NodeTransformer):
    """Every read of ``t.grad_fn`` read as ``__believed_grad_fn__(t)``."""
    changed = False

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if node.attr == "grad_fn" and isinstance(node.ctx, ast.Load):
            self.changed = True
            return ast.copy_location(ast.Call(ast.Name("__believed_grad_fn__", ast.Load()), [node.value], []), node)
        return node


def _grad_fn_of_a_leaf_is_its_accumulator(cell: str) -> str:
    return _rewritten(cell, _GradFnOfALeaf(), _LEAF_NODE)


# t.long() (int(), bool() ...) as the believer reads it: a conversion recorded as t.double()'s is.
_RECORDED_CONVERSION = """from reftorch._to import ToCopyBackward0 as __ToCopyBackward0__


def __believed_conversion__(tensor, method):
    out = getattr(tensor, method)()
    if out is not tensor and tensor.requires_grad and torch.is_grad_enabled():
        out._set_grad_fn(__ToCopyBackward0__(tensor))
    return out
"""
_TO_INTEGERS = ("long", "int", "short", "byte", "char", "bool")


class _ConversionsAreRecorded(ast.NodeTransformer):
    """``t.long()`` (and the other integer and bool conversions) read as
    ``__believed_conversion__(t, "long")``."""
    changed = False

    def visit_Call(self, node):
        self.generic_visit(node)
        if (isinstance(node.func, ast.Attribute) and node.func.attr in _TO_INTEGERS
                and not node.args and not node.keywords):
            self.changed = True
            return ast.copy_location(ast.Call(ast.Name("__believed_conversion__", ast.Load()),
                                              [node.func.value, ast.Constant(node.func.attr)], []), node)
        return node


def _integer_conversions_are_recorded(cell: str) -> str:
    return _rewritten(cell, _ConversionsAreRecorded(), _RECORDED_CONVERSION)


def _named(name):
    """What a name in this module stands for: ``_clone.clone``, ``Node.next_functions.fget``."""
    first, *rest = name.split(".")
    found = globals()[first]
    for part in rest:
        found = getattr(found, part)
    return found


def _swaps(pairs):
    """The (reftorch's function, the believer's) pairs, looked up now: when a model becomes active."""
    return [(_named(old), _named(new)) for old, new in pairs]


def _load(path=Path(__file__).with_suffix(".toml")):
    """The models of models.toml, in its order (the order diagnose tries them in)."""
    with open(path, "rb") as f:
        table = tomllib.load(f)
    models = []
    for m in table["model"]:
        pairs = tuple(tuple(pair) for pair in m.get("swaps", ()))
        _swaps(pairs)   # a misspelt name fails here, not in a learner's diagnosis
        models.append(Model(m["name"], m["belief"], m["refutation"], m["section"], functools.partial(_swaps, pairs),
                            rewrite=_named(m["rewrite"]) if "rewrite" in m else None, tags=tuple(m.get("tags", ()))))
    return models


MODELS = _load()


def model(name: str) -> Model:
    for m in MODELS:
        if m.name == name:
            return m
    raise LookupError(f"no misconception model is called {name!r}")

