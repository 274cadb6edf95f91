"""reftorch: a small, readable torch, for seeing what copying a tensor does.

``import reftorch as torch`` runs the course's examples and prints what torch
prints. Each module explains one idea, and its docstring says what happens to
the Python object, the metadata, the memory (storage), the version counter
and the graph.

The core reading path
---------------------
What every copy operation shares or renews, in the order to read it. These
modules, every module they import, and the way in (below) are what reading
the core costs, counted in ``tests/reftorch/test_import_closure.py``:

1. ``_storage``: the flat block of bytes, and what "shares memory" means.
2. ``_strides``: size, stride and offset: how an index finds its element.
3. ``_tensor``: the Python object, its fields and its metadata.
4. ``_version_counter``: how autograd notices in-place writes.
5. ``autograd/grad_mode``: the switch that says whether history is recorded.
6. ``autograd/graph``: nodes, edges, saved tensors and ``AccumulateGrad``.
7. ``autograd/variable``: ``requires_grad``, ``grad_fn`` and ``is_leaf``.
8. ``autograd/engine``: the backward pass.
9. ``autograd/functional_api``: ``backward()`` and ``autograd.grad()``.
10. ``_clone``: new memory, history kept.
11. ``_detach``: same memory, no history (and ``.data``).
12. ``_copy_``: numbers written into existing memory.
13. ``_to``: a copy only when the dtype or device changes.
14. ``_creation``: ``tensor(data)`` and ``new_tensor``: always a copy.
15. ``_python_copy``: ``copy.copy`` and ``copy.deepcopy``.

The way in
----------
What a reader passes between ``t.clone()`` and the lesson's function:

1. ``_tensor_methods``: the table that makes each function a method of ``Tensor``.
2. ``_binding``: torch's signatures, parsed before the lesson runs.
3. ``_overrides``: the one lookup point a marked function goes through.

Beyond the core
---------------
* Views and indexing: ``_views``, ``_view_backward``, ``_shapes``, ``_broadcast``,
  ``_multi_output_views``, ``_metadata_inplace``, ``_indexing``,
  ``_advanced_indexing``, ``_advanced_index``, ``_index_select``, ``_storage_items``
  (a storage's bytes by index), ``_view_dtype`` (``t.view(dtype)``), ``_repeat``.
* Arithmetic and in-place writes: ``_math``, ``_iterator_strides``,
  ``_unary``, ``_powers``, ``_floor_divide`` (``a // b``), ``_bitwise`` (``|``, ``&``, ``^``,
  ``~``, ``<<``, ``>>``), ``_remainder`` (``%`` and its C twin), ``_clamp``, ``_signs`` (absolute values, ``+t``),
  ``_alpha_first`` (the deprecated argument order of addition), ``_reduce``, ``_argmax``, ``_matmul``, ``_inplace_write``
  (what every in-place write does), ``_inplace``, ``_meta_arithmetic`` (its meta kernels),
  ``_update_ops``, ``_compare``.
* Making and converting tensors: ``_factories``, ``_nested_data``,
  ``_convert`` (the numpy bridge: numpy is imported only there),
  ``_numpy_objects`` (arrays told apart without importing numpy),
  ``_scalars``, ``_random``.
* Types and devices: ``_dtype``, ``_device``, ``_default_device``, ``_meta``,
  ``_layout``, ``_memory_formats``, ``_size``, ``_typename``, ``_shared_memory``
  (``share_memory_()``).
* Modes and hooks: ``autograd/inference_mode``, ``_torch_bookkeeping`` (its
  switch, below the tensor, and torch's counters for inference tensors and
  stolen gradient buffers), ``autograd/creation_meta``, ``autograd/view_history``
  (a view's node renewed after a write), ``autograd/hooks``, ``autograd/grad_setter``
  (what ``t.grad = value`` accepts).
* Your own operation: ``autograd/function`` (``torch.autograd.Function``).
* Saving and loading: ``serialization``, ``_archive``, ``_rebuild``,
  ``_weights_only``, ``_typed_storage`` (a storage as a file gives it back).
* Sparse tensors, not imported until the first one is made: ``sparse``
  (their method tables), ``_sparse``, ``_sparse_convert``, ``_sparse_copies``
  (COO), ``_sparse_csr`` (CSR).
* Models and optimizers: ``nn/module``, ``nn/tree``, ``nn/parameter``,
  ``nn/state_dict``, ``nn/conversion``, ``nn/hooks``, ``nn/linear``, ``nn/batchnorm``,
  ``nn/container``, ``optim/optimizer``, ``optim/sgd``, ``optim/adam``.
* Your piece: ``_overrides`` (the one lookup point: a marked function runs a
  replacement when one is set), ``overrides`` (setting and removing one).
* Plumbing: ``_tensor_methods`` (the table that makes functions methods),
  ``_more_methods`` (the same, for methods no core lesson reaches),
  ``_binding`` (torch's signatures parsed at the edge, before the lesson runs; ``_more_dtypes``
  for the dtype shortcuts beyond the core's four),
  ``_arguments`` (torch's argument parser; ``_copy_binding`` for copy_), ``_messages`` (torch's texts),
  ``_core_messages`` (the texts the core raises),
  ``_tensor_str`` (printing), ``_warn`` (a warning names the caller's line),
  ``_bounds`` (no element outside its storage), ``_layout_checks`` (torch's refusals
  of a caller's sizes, strides and offset), ``_elements`` (a dtype's
  numbers in a storage's bytes: read, written, rounded as torch rounds),
  ``primitives`` (the exercises' building blocks).
"""

from . import _alpha_first, _index_select, _messages, _views
from ._arguments import parse_overloads
from . import _tensor_methods, _more_methods  # noqa: F401  (attach the methods to Tensor)
from ._layout import channels_last, channels_last_3d, contiguous_format, memory_format, preserve_format
from ._binding import tensor
from ._factories import arange, empty, empty_like, full, full_like, ones, ones_like, zeros, zeros_like
from ._device import device
from ._default_device import get_default_device, set_default_device
from ._dtype import (
    bool, double, dtype, float, float32, float64, get_default_dtype, int64, long, promote_types,
    set_default_dtype,
)
from ._math import result_type
from ._random import manual_seed, rand, randn
from ._size import Size
from ._storage import UntypedStorage
from ._tensor import Tensor
from . import autograd, nn, optim
from .autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled


def is_tensor(obj):
    return isinstance(obj, Tensor)


def clone(input, *, memory_format=preserve_format):
    return input.clone(memory_format=memory_format)


def sum(input, *args, **kwargs):
    return input.sum(*args, **kwargs)


def mean(input, *args, **kwargs):
    return input.mean(*args, **kwargs)


def argmax(input, dim=None, keepdim=False):
    return input.argmax(dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return input.argmin(dim, keepdim)


def exp(input):
    return input.exp()


def sigmoid(input):
    return input.sigmoid()


def matmul(input, other):
    return input.matmul(other)


def add(input, *args, **kwargs):
    other, alpha = _alpha_first.other_and_alpha("add", args, kwargs, _alpha_first.FUNCTION)
    return input.add(other, alpha=alpha)


def mul(input, other):
    return input.mul(other)


def reshape(input, shape):
    return input.reshape(shape)


def transpose(input, dim0, dim1):
    return input.transpose(dim0, dim1)


def narrow(*args, **kwargs):
    """``narrow(input, dim, start, length)``: ``input.narrow(dim, start, length)``, its arguments
    checked against torch's two signatures first (``_views.NARROW_OVERLOADS``, ``Tensor input`` added)."""
    overloads = [(f"Tensor input, {signature}", (is_tensor, *checks)) for signature, checks in _views.NARROW_OVERLOADS]
    input, dim, start, length = parse_overloads("narrow", overloads, args, kwargs)
    return input.narrow(dim, start, length)


def t(input):
    return input.t()


def as_strided(input, size, stride, storage_offset=None):
    return input.as_strided(size, stride, storage_offset)


# --- elementwise functions: a number first is wrapped as a tensor, for the functions torch
# lets take one (``torch.floor_divide(7, t)`` is ``7 // t``) ---
def _elementwise(name, reflected=None):
    def function(input, other):
        if isinstance(input, Tensor):
            return getattr(input, name)(other)
        if reflected is None or not isinstance(other, Tensor):
            raise TypeError(_messages.INVALID_ARGUMENTS.format(
                op=name, got=f"{_messages.type_name(input)}, {_messages.type_name(other)}") + "".join(
                _messages.TWO_ARGUMENT_SIGNATURES.format(kind) for kind in ("Tensor", "Number")))
        return getattr(other, reflected)(input)

    function.__name__ = function.__qualname__ = name
    return function


floor_divide = _elementwise("floor_divide", "__rfloordiv__")
remainder = _elementwise("remainder", "__rmod__")
fmod = _elementwise("fmod")
bitwise_or, bitwise_and, bitwise_xor = (_elementwise(f"bitwise_{op}", f"__r{op}__") for op in ("or", "and", "xor"))


def bitwise_not(input):
    return input.bitwise_not()


def abs(input):  # noqa: A001 - torch's name
    return input.abs()


absolute = abs


def neg(input):
    return input.neg()


negative = neg


def positive(input):
    return input.positive()


def clamp(input, *args, **kwargs):
    return input.clamp(*args, **kwargs)


def clip(input, *args, **kwargs):
    return input.clip(*args, **kwargs)


# --- comparing and converting ---
from ._compare import allclose, equal, isclose  # noqa: E402
from ._convert import asarray  # noqa: E402
from . import _convert  # noqa: E402


def from_numpy(*args, **kwargs):
    """``_convert.from_numpy``, with torch's binding: one array, passed by position."""
    if kwargs:
        raise TypeError(_messages.FROM_NUMPY_KEYWORDS)
    if len(args) != 1:
        raise TypeError(_messages.FROM_NUMPY_COUNT.format(len(args)))
    return _convert.from_numpy(args[0])


def as_tensor(data, *, dtype=None, device=None):
    """``_convert.as_tensor``, with torch's signature: ``dtype`` and ``device`` by keyword only."""
    return _convert.as_tensor(data, dtype, device)
from ._dtype import float16, half, int8, int16, int32, short, uint8  # noqa: E402
from ._dtype import int as int  # noqa: E402,A001 - torch.int is int32 (Python's int is builtins.int)

# --- autograd modes ---
from .autograd.inference_mode import inference_mode, is_inference_mode_enabled


def is_inference(input):
    if not isinstance(input, Tensor):
        raise TypeError(
            _messages.ARGUMENT_TYPE.format(
                fn='is_inference', name='input', position=1, expected='Tensor', got=_messages.type_name(input)
            )
        )
    return input.is_inference()


# --- views ---
def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def unbind(input, dim=0):
    return input.unbind(dim)


# --- advanced indexing ---

from ._arguments import MISSING, _check_given  # noqa: E402


def index_select(input=MISSING, dim=MISSING, index=MISSING):
    _check_given("index_select", input=input, dim=dim, index=index)
    if not isinstance(input, Tensor):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='index_select', name='input', position=1, expected='Tensor', got=_messages.type_name(input)
        ))
    _index_select.check_arguments(dim, index, first=2)
    return input.index_select(dim, index)


# --- saving and loading ---
from . import serialization
from .serialization import load, save

# --- nn, optim and hooks ---

from ._typename import typename  # noqa: E402


def lerp(input, end, weight):
    return input.lerp(end, weight)


def sqrt(input):
    return input.sqrt()


# --- layouts (sparse ones: reftorch.sparse, imported with the first sparse tensor) ---
from ._layout import layout, sparse_coo, sparse_csr, strided  # noqa: E402


def sparse_coo_tensor(*args, **kwargs):
    from .sparse import sparse_coo_tensor
    return sparse_coo_tensor(*args, **kwargs)


def _sparse_method(name):
    """A method about sparse layouts, before the first sparse tensor: it imports ``reftorch.sparse``
    (which puts the method for every layout on ``Tensor``) and runs that."""

    def method(self, *args, **kwargs):
        from . import sparse  # noqa: F401
        return getattr(self, name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


_SPARSE_METHODS = ("to_sparse", "to_sparse_csr", "to_dense", "coalesce", "is_coalesced", "_nnz", "sparse_dim",
                  "dense_dim", "_indices", "_values", "indices", "values", "crow_indices", "col_indices")
for _name in _SPARSE_METHODS:
    setattr(Tensor, _name, _sparse_method(_name))
del _name


from ._dtype import COMPLEX_DTYPE_NAMES, WIDE_UNSIGNED_DTYPE_NAMES  # noqa: E402


def __getattr__(name):
    """A name the module does not have. For torch's complex dtypes (``torch.complex64`` ...) and
    its wider unsigned ones (``torch.uint16`` ...) the error says that reftorch has none, rather
    than only that the name is missing."""
    if name in COMPLEX_DTYPE_NAMES:
        raise AttributeError(_messages.NO_COMPLEX_DTYPE.format(name))
    if name in WIDE_UNSIGNED_DTYPE_NAMES:
        raise AttributeError(_messages.NO_WIDE_UNSIGNED_DTYPE.format(name))
    raise AttributeError(f"module 'reftorch' has no attribute '{name}'")


__version__ = "2.13.0+reftorch"
