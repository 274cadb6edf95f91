"""split, chunk, unbind: one call, several views.

``a.split(2)`` cuts ``a`` along a dimension into pieces; ``chunk(n)`` cuts it
into ``n`` pieces of (nearly) equal size; ``unbind()`` takes every position
along the dimension out as its own tensor. Each piece is a view:

* Python object and metadata: new for every piece (size, stride, offset).
* Memory: shared. The pieces are windows on ``a``'s storage; writes through
  a piece show in ``a``.
* Version counter: ``a``'s, shared by all pieces.
* Graph: *one* node (``SplitBackward0``, ``SplitWithSizesBackward0``,
  ``UnbindBackward0``) for all pieces; piece ``i`` is its output ``i``
  (``piece.output_nr``). Backward puts each piece's gradient back where the
  piece came from.

Because the pieces share one node, autograd cannot rewrite the history of
one of them: writing a piece in place while autograd records raises
("Output 0 of Split is a view and is being modified inplace. This view is
the output of a function that returns multiple views. ..."), and a piece
whose memory was written otherwise cannot give its ``grad_fn`` any more.
See ``autograd.creation_meta``.
"""

from . import _messages, _strides
from ._arguments import _int_arg, _is_int, _is_later_int, _type_name
from ._tensor import Tensor
from ._view_backward import place_along
from ._views import _as_view
from .autograd.graph import Node, any_requires_grad


class _PiecesBackward(Node):
    """Gradient of several views of one input: each piece's gradient goes back
    where the piece came from; a piece nothing flowed into contributes zeros."""

    def __init__(self, source, dim, places):
        super().__init__(source)
        self.input_shape, self.dtype, self.device = source._size, source._dtype, source.device
        self.dim = dim
        self.places = places  # one index (a slice or an int) along dim per piece
        self.num_outputs = len(places)

    def apply(self, grads):
        if isinstance(grads, Tensor):  # a single piece: the engine passes its gradient alone
            grads = (grads,)
        result, n = [0] * _strides.numel(self.input_shape), self.input_shape[self.dim]
        for place, grad in zip(self.places, grads):
            if grad is not None:
                places = range(*place.indices(n)) if isinstance(place, slice) else [place % n]
                place_along(result, self.input_shape, self.dim, places, grad._read())
        return (Tensor._from_values(result, self.input_shape, self.dtype, self.device),)


class SplitBackward0(_PiecesBackward):
    """``split(int)`` and ``chunk``."""


class SplitWithSizesBackward0(_PiecesBackward):
    """``split([sizes])``."""


class UnbindBackward0(_PiecesBackward):
    """``unbind``: every position along the dimension."""


def _pieces(self, dim, node_class, geometries, places):
    """One view per geometry, all sharing one node (made only if autograd records)."""
    node = node_class(self, dim, places) if any_requires_grad(self) else None
    return tuple(
        _as_view(self, size, stride, offset, lambda: node, multi_output=True, output_nr=i)
        for i, (size, stride, offset) in enumerate(geometries)
    )


def _slices(self, dim, sizes, node_class):
    """Consecutive pieces of the given lengths along ``dim``."""
    geometries, places, start = [], [], 0
    for length in sizes:
        size = self._size[:dim] + (length,) + self._size[dim + 1:]
        geometries.append((size, self._stride, self._storage_offset + start * self._stride[dim]))
        places.append(slice(start, start + length))
        start += length
    return _pieces(self, dim, node_class, geometries, places)


def _split_dim(self, op, dim):
    if self.dim() == 0:
        raise RuntimeError(f"{op} expects at least a 1-dimensional tensor")
    return _strides.normalize_dim(dim, self.dim())


def _split_equal(self, split_size, dim):
    """Pieces of ``split_size`` along ``dim``; the last one may be shorter."""
    d = _split_dim(self, "split", dim)
    n = self._size[d]
    if split_size < 0:
        raise RuntimeError(_messages.SPLIT_NEGATIVE.format(split_size))
    if split_size == 0 and n != 0:
        raise RuntimeError(
            _messages.SPLIT_ZERO.format(n)
        )
    count = max((n + split_size - 1) // split_size, 1) if split_size else 1
    sizes = [min(split_size, n - i * split_size) for i in range(count)]
    return _slices(self, d, sizes, SplitBackward0)


def split_with_sizes(self, split_sizes, dim=0):
    """Pieces of the given sizes along ``dim``; they must add up to the whole dimension."""
    return _split_with_sizes(self, split_sizes, dim, position=1)


def _split_with_sizes(self, split_sizes, dim, position):
    # ``position``: where torch's parser says the sizes were (2 when reached through ``split``).
    where = _messages.SPLIT_SIZES_TYPE.format(position=position)
    if not isinstance(split_sizes, (tuple, list)):
        raise TypeError(f"{where}, not {_type_name(split_sizes)}")
    for pos, n in enumerate(split_sizes):
        if not (_is_int(n) if pos == 0 else _is_later_int(n)):  # a later bool is read as 0 or 1
            raise TypeError(f"{where}, but found element of type {_type_name(n)} at pos {pos}")
    sizes = [int(n) for n in split_sizes]
    _int_arg("split_with_sizes", "dim", position + 1, dim)
    d = _split_dim(self, "split", dim)
    shown = "[" + ", ".join(map(str, sizes)) + "]"
    if any(n < 0 for n in sizes):
        raise RuntimeError(
            _messages.SPLIT_SIZES_NEGATIVE.format(shown)
        )
    if sum(sizes) != self._size[d]:
        raise RuntimeError(
            _messages.SPLIT_SIZES_SUM.format(total=self._size[d], dim=d, sizes=shown)
        )
    return _slices(self, d, sizes, SplitWithSizesBackward0)


def split(self, split_size, dim=0):
    """``split(2)``: pieces of 2 (the last may be shorter); ``split([1, 4])``: those sizes."""
    split_size = _split_size_arg(split_size, dim)
    if isinstance(split_size, int):
        return _split_equal(self, split_size, dim)
    return _split_with_sizes(self, split_size, dim, position=2)


def _split_size_arg(split_size, dim):
    """``split``'s arguments read as torch reads them: a one-element tensor is the int it holds;
    an int goes to torch's two-signature ``split``, which a bool, or a ``dim`` that is no int,
    fails twice over (a list goes to ``split_with_sizes``, which checks its own)."""
    if isinstance(split_size, Tensor) and split_size.numel() == 1:
        split_size = int(split_size)
    if isinstance(split_size, int) and (isinstance(split_size, bool) or not _is_int(dim)):
        got = ["Tensor", _type_name(split_size), _type_name(dim)]
        size_fits = not isinstance(split_size, bool)
        overloads = [("Tensor input, int split_size, int dim = 0", _marked(got, size_fits, _is_int(dim))),
                     ("Tensor input, tuple of ints split_size, int dim = 0", _marked(got, False, _is_int(dim)))]
        raise TypeError(_messages.invalid_combination("split", got, overloads))
    return split_size


def _marked(got, *fits):
    """torch's parser marks the first argument that does not fit an overload, and every one after it."""
    marked, failed = [got[0]], False
    for name, fits_here in zip(got[1:], fits):
        failed = failed or not fits_here
        marked.append(f"!{name}!" if failed else name)
    return marked


def chunk(self, chunks, dim=0):
    """``chunks`` pieces of equal size (the last may be shorter, and there may be fewer)."""
    _int_arg("chunk", "chunks", 1, chunks)
    _int_arg("chunk", "dim", 2, dim)
    d = _split_dim(self, "chunk", dim)
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = self._size[d]
    split_size = (n + chunks - 1) // chunks
    if split_size == 0 and n == 0:
        # split(0) would make one piece: torch asks for ``chunks`` empty pieces instead.
        return split_with_sizes(self, [0] * chunks, d)
    return _split_equal(self, split_size, d)


def unbind(self, dim=0):
    """Every position along ``dim`` as its own view, that dimension removed."""
    _int_arg("unbind", "dim", 1, dim)
    if self.dim() == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = _strides.normalize_dim(dim, self.dim())
    size = self._size[:d] + self._size[d + 1:]
    stride = self._stride[:d] + self._stride[d + 1:]
    geometries = [(size, stride, self._storage_offset + i * self._stride[d]) for i in range(self._size[d])]
    return _pieces(self, d, UnbindBackward0, geometries, list(range(self._size[d])))
