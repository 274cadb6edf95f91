"""numpy's arrays and numbers, recognised without importing numpy.

numpy is optional: ``import reftorch`` does not import it. An array or a numpy
number can only exist once its user has imported numpy, so these questions
look in ``sys.modules`` and answer False when numpy was never loaded. The
numpy bridge itself (``from_numpy``, ``t.numpy()``) is ``_convert``.
"""

import numbers
import sys

from . import _messages


def _numpy():
    return sys.modules.get("numpy")


def is_array(value):
    """True for a numpy array (``np.ndarray``)."""
    np = _numpy()
    return np is not None and isinstance(value, np.ndarray)


def is_scalar(value):
    """True for a numpy number (``np.float32(1.5)``, ``np.int64(2)``, ``np.bool_(True)``)."""
    np = _numpy()
    return np is not None and isinstance(value, np.generic)


def is_bool(value):
    """True for Python's ``True`` and ``False`` and for numpy's bools (which are no Python bool)."""
    np = _numpy()
    return isinstance(value, bool) or (np is not None and isinstance(value, np.bool_))


def is_number(value):
    """True for a Python or numpy int, float or bool (numpy's numbers are ``numbers.Real`` too)."""
    return isinstance(value, numbers.Real) or is_bool(value)


def check_array_layout(array):
    """Refuse an array no tensor can be laid over, as torch does for every array it reads
    (``from_numpy``, ``as_tensor``, ``torch.tensor``, ``new_tensor``): strides in whole elements,
    none negative, the machine's byte order."""
    if any(s % array.itemsize for s in array.strides):
        raise ValueError(_messages.NUMPY_STRIDES_NOT_MULTIPLE)
    if any(s < 0 for s in array.strides):
        raise ValueError(_messages.NUMPY_NEGATIVE_STRIDES)
    if not array.dtype.isnative:
        raise ValueError(_messages.NUMPY_BYTE_ORDER)
