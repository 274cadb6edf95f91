"""Memory formats: which order a dense tensor keeps its elements in.

Row-major (``torch.contiguous_format``) is the usual order: the last dimension
moves fastest. Image tensors have two more. ``torch.channels_last`` is for a
4-D batch ``(N, C, H, W)``: in memory the channel moves fastest, then the
width, the height and the batch, as if the tensor were ``(N, H, W, C)``;
``torch.channels_last_3d`` does the same for 5-D ``(N, C, D, H, W)``. The
size does not change, nor the numbers ``t[n, c, h, w]``: only the strides
say where each element sits. So ``clone(memory_format=torch.channels_last)``
is an ordinary copy (new storage, version 0, ``CloneBackward0``) whose
strides are the channels-last ones, and ``t.is_contiguous(memory_format=...)``
asks whether ``t``'s strides are exactly those of that order (a dimension of
size 1 may have any stride, as for row-major). The strides each format gives
a new tensor are computed in ``_strides`` (``strides_for``), next to the
other layout arithmetic.
"""

from . import _clone, _messages, _strides
from ._layout import contiguous_format, memory_format as memory_format_type, preserve_format
from ._strides import MEMORY_FORMAT_ORDERS as _ORDERS


def is_contiguous(self, *args, memory_format=contiguous_format):
    """Are ``self``'s strides exactly those of ``memory_format``? (never raises for a rank;
    ``memory_format`` is keyword-only, and must be a memory format, as in torch)"""
    _check_memory_format("is_contiguous", args, memory_format)
    if memory_format in (contiguous_format, preserve_format):
        return _strides.is_contiguous(self._size, self._stride)
    order = _ORDERS[memory_format]
    if self.dim() != len(order):
        return False
    expected = 1
    for d in order:
        if self._size[d] != 1:
            if self._stride[d] != expected:
                return False
            expected *= self._size[d]
    return True


def contiguous(self, *args, memory_format=contiguous_format):
    """``t.contiguous(memory_format=...)``: ``memory_format`` is keyword-only and must be a memory
    format; torch refuses ``preserve_format`` only when it would have to copy; then
    ``_clone.contiguous``."""
    _check_memory_format("contiguous", args, memory_format)
    if memory_format is preserve_format and not self.is_contiguous():
        raise RuntimeError(_messages.CONTIGUOUS_PRESERVE)
    return _clone.contiguous(self, memory_format)


def _check_memory_format(fn, args, memory_format):
    """torch's refusals of ``fn``'s arguments: none positional, and ``memory_format`` a memory format."""
    if args:
        raise TypeError(_messages.KEYWORD_ONLY.format(
            fn=fn, given=f"{len(args)} was" if len(args) == 1 else f"{len(args)} were"))
    if not isinstance(memory_format, memory_format_type):
        raise TypeError(_messages.MEMORY_FORMAT_ARGUMENT.format(fn=fn, got=_messages.type_name(memory_format)))
