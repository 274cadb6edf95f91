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
size 1 may have any stride, as for row-major).
"""

from . import _messages, _strides
from ._layout import channels_last, channels_last_3d, contiguous_format, preserve_format

# The order of the dimensions in memory, fastest first.
_ORDERS = {channels_last: (1, 3, 2, 0), channels_last_3d: (1, 4, 3, 2, 0)}
_NAMES = {channels_last: "channels_last", channels_last_3d: "channels_last_3d"}


def strides_for(size, fmt):
    """The strides ``fmt`` gives a dense tensor of this ``size`` (rank checked, as in torch)."""
    if fmt is contiguous_format:
        return _strides.contiguous_strides(size)
    order = _ORDERS[fmt]
    if len(size) != len(order):
        raise RuntimeError(_messages.MEMORY_FORMAT_RANK.format(rank=len(order), name=_NAMES[fmt]))
    strides, step = [0] * len(size), 1
    for d in order:
        strides[d] = step
        step *= size[d]
    return tuple(strides)


def is_contiguous(self, memory_format=contiguous_format):
    """Are ``self``'s strides exactly those of ``memory_format``? (never raises for a rank)"""
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


def obeys_layout_contract(grad, variable):
    """Whether a gradient may become ``variable.grad`` as it is, without a copy (autograd's
    AccumulateGrad asks): it must be in the leaf's layout if the leaf is dense (a dimension of
    size 1 may have any stride but 0), else row-major."""
    if not _strides.is_non_overlapping_and_dense(variable._size, variable._stride):
        return grad._stride == _strides.contiguous_strides(grad._size)
    return all(g == v if n != 1 else g != 0 for n, g, v in zip(grad._size, grad._stride, variable._stride))
