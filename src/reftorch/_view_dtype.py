"""``t.view(dtype)``: the same bytes read as another element type.

* **Python object**: always a new tensor, even for ``t.dtype``.
* **Metadata**: the new dtype. With the same element size, size and stride are kept. With a
  smaller one (float32 as int16) the last dimension has ``ratio`` times more elements, and the
  other strides and the offset are counted in the smaller unit. With a larger one the last
  dimension must be contiguous and divisible by ``ratio``, and so must the offset and the other
  strides; a 0-d tensor cannot change its element size.
* **Memory**: the same storage, no byte copied.
* **Graph and version counter**: like ``detach()``: the result has no ``grad_fn``, does not
  require grad and is not a view (``_base`` is ``None``), yet it shares the version counter,
  so a write through it still moves ``t._version``. Reinterpreting bits has no derivative.
"""

from ._tensor import Tensor


def view_dtype(self, dtype):
    """A tensor of ``dtype`` on ``self``'s bytes, sharing its version counter, off the graph."""
    size, stride, offset = list(self._size), list(self._stride), self._storage_offset
    old, new = self._dtype.itemsize, dtype.itemsize
    names = f"to view {self._dtype._short_name} as {dtype._short_name} (different element sizes)"
    if old != new and not size:
        raise RuntimeError(f"self.dim() cannot be 0 {names}")
    if old > new:
        ratio = old // new
        _check(stride[-1] == 1, f"self.stride(-1) must be 1 {names}, but got {stride[-1]}")
        size[-1] *= ratio
        stride = [s * ratio for s in stride[:-1]] + [1]
        offset *= ratio
    elif old < new:
        ratio = new // old
        _check(size[-1] % ratio == 0, f"self.size(-1) must be divisible by {ratio} {names}, but got {size[-1]}")
        _check(offset % ratio == 0, f"self.storage_offset() must be divisible by {ratio} {names}, but got {offset}")
        _check(stride[-1] == 1, f"self.stride(-1) must be 1 {names}, but got {stride[-1]}")
        for dim, s in enumerate(stride[:-1]):
            _check(s % ratio == 0, f"self.stride({dim}) must be divisible by {ratio} {names}, but got {s}")
        size[-1] //= ratio
        stride = [s // ratio for s in stride[:-1]] + [1]
        offset //= ratio
    counter = None if self._inference else self._version_counter
    return Tensor._make(self._storage, offset, size, stride, dtype, counter, inference=self._inference)


def _check(condition, message):
    if not condition:
        raise RuntimeError(message)
