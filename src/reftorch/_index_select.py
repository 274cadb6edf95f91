"""index_select: whole slices along one dimension, picked by position, copied.

``a.index_select(0, torch.tensor([2, 0, 0]))`` is rows 2, 0 and 0 of ``a``:
the same numbers as ``a[[2, 0, 0]]``, for exactly one dimension and a 1-d
index. Like every advanced index it copies: a new Python object, a new
contiguous storage and a new version counter; nothing is shared with ``a``.
When ``a`` requires grad the result's ``grad_fn`` is ``IndexSelectBackward0``,
which adds each row of the gradient back into the row it came from (twice for
a row picked twice).
"""

from . import _messages, _strides
from ._arguments import MISSING, _check_given, _type_name
from ._dtype import int32, int64
from ._tensor import Tensor
from ._version_counter import bump
from .autograd.graph import Node, any_requires_grad


def index_select(self, dim=MISSING, index=MISSING):
    """The slices of ``self`` at positions ``index`` along ``dim``, in a new storage."""
    check_arguments(dim, index, first=1)
    dim = _strides.normalize_dim(int(dim), self.dim())
    if self.device.type == "meta":  # torch's meta kernel reads no positions: it checks none
        size = self._size[:dim] + (index.numel(),) + self._size[dim + 1:] if self.dim() else ()
        values = 0
    else:
        size, values = _selected(self, dim, index)
    out = Tensor._from_values(values, size, self._dtype, self.device)
    if any_requires_grad(self, index):  # the index too: an inference ``self`` alone is not recorded
        out._set_grad_fn(IndexSelectBackward0(self, dim, index))
    return out


def _selected(self, dim, index):
    """The result's size and numbers, after torch's checks of ``index`` (a vector of int64 or
    int32 positions, each in range)."""
    if index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index._dtype not in (int64, int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    positions = index._read()
    _check_range(self, dim, positions)
    if self.dim() == 0:
        return (), self._read()
    return self._size[:dim] + (len(positions),) + self._size[dim + 1:], _taken(self._read(), self._size, dim, positions)


def check_arguments(dim, index, first):
    """torch's TypeErrors for ``dim`` and ``index``, numbered as torch's parser numbers them: from 1
    for ``t.index_select(dim, index)``, from 2 for ``torch.index_select(t, dim, index)``."""
    _check_given("index_select", dim=dim, index=index)
    if isinstance(dim, bool) or not (isinstance(dim, int) or _is_int_tensor(dim)):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='index_select', name='dim', position=first, expected='int', got=_type_name(dim)
        ))
    if not isinstance(index, Tensor):
        raise TypeError(_messages.ARGUMENT_TYPE.format(
            fn='index_select', name='index', position=first + 1, expected='Tensor', got=_type_name(index)
        ))


def _check_range(self, dim, positions):
    """torch's cpu kernel checks the positions in three ways, with three messages."""
    if self.dim() == 0:
        if len(positions) != 1:
            raise RuntimeError(
                _messages.INDEX_SELECT_SCALAR_INDEX.format(len(positions)))
    if self.dim() <= 1:
        if any(p < 0 or p >= self.numel() for p in positions):
            raise IndexError("index out of range in self")
        return
    n = self._size[dim]
    if not positions:
        return
    if self.numel() == 0 and n == 0:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = [p for p in positions if p < 0 or p >= n]
    if not bad:
        return
    if dim == 1 or self.numel() == 0:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad[0]} axis_dim={n}")
    raise IndexError("index out of range in self")


def _is_int_tensor(value):
    return isinstance(value, Tensor) and value.dim() == 0 and not value.is_floating_point()


class IndexSelectBackward0(Node):
    """Gradient of ``index_select``: zeros shaped like the input, with each
    gradient slice added into the slice it was copied from."""

    def __init__(self, source, dim, index):
        super().__init__(source)
        self.input_size, self.dim = source._size, dim
        self.index = self.save(index)

    def apply(self, grad):
        positions, g = self.index.unpack()._read(), grad._read()
        if not self.input_size:
            out = g
        else:
            out = [0] * _strides.numel(self.input_size)
            n, inner = self.input_size[self.dim], _strides.numel(self.input_size[self.dim + 1:])
            for o in range(_strides.numel(self.input_size[:self.dim])):
                for j, p in enumerate(positions):
                    for r in range(inner):
                        out[(o * n + p) * inner + r] += g[(o * len(positions) + j) * inner + r]
        result = Tensor._from_values(out, self.input_size, grad._dtype, grad.device)
        bump(result)  # torch adds the gradient into zeros with index_add_: one in-place write
        return (result,)


def _taken(values, size, dim, positions):
    """The numbers of the slices at ``positions`` along ``dim`` (row-major numbers of ``size``)."""
    n, inner = size[dim], _strides.numel(size[dim + 1:])
    return [values[(o * n + p) * inner + r]
            for o in range(_strides.numel(size[:dim])) for p in positions for r in range(inner)]
