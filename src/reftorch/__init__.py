"""reftorch: a small, readable torch, for seeing what copying a tensor does.

``import reftorch as torch`` runs the course's examples and prints what torch
prints. Start reading at ``_storage`` (memory), ``_tensor`` (metadata),
``_version_counter`` and ``autograd/``, then the copy operations: ``_clone``,
``_detach``, ``_copy_``, ``_creation`` (``tensor``, ``new_tensor``),
``_python_copy`` (``copy.copy``/``copy.deepcopy``) and ``nn`` (state_dict).
"""

from . import _messages
from . import _tensor_methods  # noqa: F401  (attaches the methods to Tensor)
from ._layout import contiguous_format, memory_format, preserve_format
from ._convert import from_numpy
from ._creation import tensor
from ._factories import arange, empty, empty_like, full, full_like, ones, ones_like, zeros, zeros_like
from ._device import device
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


def sum(input, dim=None, keepdim=False, *, dtype=None):
    return input.sum(dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    return input.mean(dim, keepdim, dtype=dtype)


def exp(input):
    return input.exp()


def sigmoid(input):
    return input.sigmoid()


def matmul(input, other):
    return input.matmul(other)


def add(input, other, *, alpha=1):
    return input.add(other, alpha=alpha)


def mul(input, other):
    return input.mul(other)


def reshape(input, shape):
    return input.reshape(shape)


def transpose(input, dim0, dim1):
    return input.transpose(dim0, dim1)


def t(input):
    return input.t()


def as_strided(input, size, stride, storage_offset=None):
    return input.as_strided(size, stride, storage_offset)


# --- comparing and converting ---
from ._compare import allclose, equal, isclose  # noqa: E402
from ._convert import as_tensor, asarray  # noqa: E402
from ._dtype import float16, half, int8, int16, int32, short, uint8  # noqa: E402
from ._dtype import int as int  # noqa: E402,A001 - torch.int is int32 (Python's int is builtins.int)

# --- autograd modes ---
from .autograd.inference_mode import inference_mode, is_inference_mode_enabled


def is_inference(input):
    if not isinstance(input, Tensor):
        raise TypeError(
            _messages.ARGUMENT_TYPE.format(fn='is_inference', name='input', position=1, expected='Tensor', got=type(input).__name__)
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
        raise TypeError(_messages.ARGUMENT_TYPE.format(fn='index_select', name='input', position=1, expected='Tensor', got=type(input).__name__))
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


# --- sparse COO ---
from ._layout import layout, sparse_coo, strided  # noqa: E402
from ._sparse import sparse_coo_tensor  # noqa: E402


__version__ = "2.13.0+reftorch"
