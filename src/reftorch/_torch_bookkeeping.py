"""torch's bookkeeping: what torch does for speed that a learner can print, copied in one place.

* Inference tensors: the mode's switch, read by every new tensor (below the tensor, as in
  c10; ``autograd/inference_mode`` sets it). A tensor made inside the mode has no version
  counter; writes into it are uncounted inside the mode and refused outside it.
* Buffers handed over, not copied: backward's own gradient may become a leaf's
  ``.grad`` (stolen), or take the next gradient in place; it keeps its counter.
"""

from . import _strides
from ._core_messages import INFERENCE_INPLACE

_enabled = False


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (and not inside ``inference_mode(False)``)."""
    return _enabled


def _set_enabled(mode):
    global _enabled
    _enabled = bool(mode)


def write_is_counted(tensor):
    """Whether a write into ``tensor`` bumps its counter: not into an inference tensor inside the
    mode. Outside it, torch refuses the write where it would bump (the numbers are written)."""
    if tensor._inference and is_inference_mode_enabled():
        return False
    if tensor._version_counter is None:
        raise RuntimeError(INFERENCE_INPLACE)
    return True


def plain_kernel_writes(result, inputs, writes=1):
    """Count the writes torch's kernel made inside ``result`` (``clone`` is ``empty_like`` plus
    ``copy_``; ``sum`` fills its output): uncounted (version 0), unless every input is an
    inference tensor and the mode is off; then torch runs the plain kernel, and they count."""
    if is_inference_mode_enabled() or not all(getattr(t, "_inference", True) for t in inputs):
        return result
    for _ in range(writes):
        result._version_counter.bump()
    return result


def obeys_layout_contract(grad, variable):
    """Whether a gradient may become ``variable.grad`` as it is, without a copy (autograd's
    AccumulateGrad asks): it must be in the leaf's layout if the leaf is dense (a dimension of
    size 1 may have any stride but 0), else row-major."""
    if not _strides.is_non_overlapping_and_dense(variable._size, variable._stride):
        return grad._stride == _strides.contiguous_strides(grad._size)
    return all(g == v if n != 1 else g != 0 for n, g, v in zip(grad._size, grad._stride, variable._stride))


def may_sum_in_place(total, grad, owned):
    """Whether backward may add ``grad`` into ``total``'s memory: a dense buffer it made (in
    ``owned``) and handed to no one else."""
    return id(total) in owned and total is not grad and _strides.is_non_overlapping_and_dense(
        total._size, total._stride)
