"""torch's bookkeeping for speed that a learner can print: inference tensors (no version
counter), and gradient buffers that backward sums into or hands over instead of copying."""

from . import _strides
from ._core_messages import INFERENCE_INPLACE

inference_mode_on = False  # the switch ``autograd/inference_mode`` sets


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (and not inside ``inference_mode(False)``)."""
    return inference_mode_on


def write_is_counted(tensor):
    """Whether a write into ``tensor`` bumps its counter; refused for an inference tensor outside the mode."""
    if tensor._inference and is_inference_mode_enabled():
        return False
    if tensor._version_counter is None:
        raise RuntimeError(INFERENCE_INPLACE)
    return True


def plain_kernel_writes(result, inputs, writes=1):
    """Count the writes torch's kernel made into ``result``: only when every input is an inference
    tensor and the mode is off (torch then runs the plain kernel)."""
    if is_inference_mode_enabled() or not all(getattr(t, "_inference", True) for t in inputs):
        return result
    for _ in range(writes):
        result._version_counter.bump()
    return result


def obeys_layout_contract(grad, variable):
    """Whether a gradient may become ``variable.grad`` uncopied: in the dense leaf's layout, else contiguous."""
    if not _strides.is_non_overlapping_and_dense(variable._size, variable._stride):
        return _strides.is_contiguous(grad._size, grad._stride)
    return all(g == v if n != 1 else g != 0 for n, g, v in zip(grad._size, grad._stride, variable._stride))


def sum_gradients(total, grad, owned):
    """Two gradients for one input, summed (None is no gradient): in place into a dense buffer this
    backward pass made (``owned``), as torch does, its version going up; else into a new one."""
    if total is None or grad is None:
        return grad if total is None else total
    if id(total) in owned and total is not grad and _strides.is_non_overlapping_and_dense(total._size, total._stride):
        total._write([a + b for a, b in zip(total._read(), grad._read())])
        total._version_counter.bump()
        return total
    result = total + grad
    owned.add(id(result))
    return result
